import { openAsBlob, writeFileSync, createReadStream } from "node:fs";
import { join } from "node:path";
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocParseClient } from "../../src/client/index.js";
import { DocParseError } from "../../src/errors.js";
import type { RunningServer } from "../../src/server/index.js";
import { CREDS, GatedParser, eventually, fakeResult, startRecorder, startTestServer, testClient, type Recorder } from "../support/server.js";
import { tempDir } from "../support/system.js";

const dir = tempDir();
const MD = "# 年度报告\n\n第一段。第二句！\n\n## Details\n\nSome English text.\n\n- one\n- two\n";
const mdPath = join(dir.path, "report.md");
writeFileSync(mdPath, MD);

let service: RunningServer;
let files: Recorder;

beforeAll(async () => {
  service = await startTestServer();
  files = await startRecorder((req, res) => {
    if (req.url === "/doc.md") {
      res.writeHead(200, { "content-type": "text/markdown" });
      res.end(MD);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
});
afterAll(async () => {
  await service.close();
  await files.close();
  dir.cleanup();
});

async function failure(p: Promise<unknown>): Promise<DocParseError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!DocParseError.isInstance(e)) throw new Error(`expected a DocParseError, got ${String(e)}`);
  return e;
}

function titles(result: { elements: { type: string; text: string }[] }): string[] {
  return result.elements.filter((e) => e.type === "Title").map((e) => e.text);
}

describe("client.parse (sync) against the local service", () => {
  it("parses a file path, with hierarchy and the config applied", async () => {
    const result = await testClient(service).parse(mdPath, { config: { capabilities: { pages: true, title_tree: true } } });
    expect(titles(result)).toEqual(["年度报告", "Details"]);
    expect(result.metadata?.filename).toBe("report.md");
    expect(result.pages?.length).toBeGreaterThan(0);
    expect(result.title_tree?.[0]?.title).toBe("年度报告");
    expect(result.partial).toBeUndefined();
    expect(result.job_id).toBeTruthy();
  });

  it("is the same for bytes, a Blob, fs.openAsBlob and a Readable", async () => {
    const client = testClient(service);
    const reference = await client.parse(mdPath);
    const bytes = new TextEncoder().encode(MD);
    for (const result of [
      await client.parse(bytes, { filename: "report.md" }),
      await client.parse(new Blob([bytes]), { filename: "report.md" }),
      await client.parse(await openAsBlob(mdPath), { filename: "report.md" }),
      await client.parse(createReadStream(mdPath), { filename: "report.md" }),
    ]) {
      expect(result.file_id).toBe(reference.file_id);
      expect(result.elements.map((e) => e.text)).toEqual(reference.elements.map((e) => e.text));
    }
  });

  it("parses { url } through file_url", async () => {
    const result = await testClient(service).parse({ url: `${files.url}/doc.md` });
    expect(titles(result)).toEqual(["年度报告", "Details"]);
  });

  it("serves the xparse product too", async () => {
    const result = await testClient(service, { product: "xparse" }).parse(mdPath);
    expect(result.elements.length).toBeGreaterThan(3);
  });

  it("checks the config before sending", async () => {
    const e = await failure(testClient(service).parse(mdPath, { config: { scope: { page_range: "3-1" } } }));
    expect(e.code).toBe("DOCPARSE_INVALID_OPTION");
    expect(e.issues?.length).toBeGreaterThan(0);
  });
});

describe("client errors carry the service code", () => {
  it("40101 without credentials, 40102 with wrong ones, never echoing the secret", async () => {
    const anon = new DocParseClient({ baseUrl: service.url, env: {}, requestsPerSecond: Infinity });
    const e1 = await failure(anon.parse(mdPath));
    expect(e1).toMatchObject({ code: 40101, isRetryable: false, httpStatus: 200 });
    expect(e1.requestId).toMatch(/[0-9a-f-]{36}/);

    const wrong = testClient(service, { secretCode: "wrong-secret-code-123" });
    const e2 = await failure(wrong.parse(mdPath));
    expect(e2.code).toBe(40102);
    expect(JSON.stringify({ m: e2.message, j: e2.toJSON() })).not.toContain("wrong-secret-code-123");
  });

  it("40424 for a page_range beyond the document", async () => {
    const e = await failure(testClient(service).parse(mdPath, { config: { scope: { page_range: "50-60" } } }));
    expect(e.code).toBe(40424);
  });

  it("40303/40425 for an unsupported type, not retried", async () => {
    const bin = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const e = await failure(testClient(service).parse(bin, { filename: "blob.bin" }));
    expect([40303, 40425]).toContain(e.code);
    expect(e.isRetryable).toBe(false);
  });

  it("40400 for a file_url that cannot be fetched", async () => {
    const e = await failure(testClient(service).parse({ url: `${files.url}/missing.md` }));
    expect(e.code).toBe(40400);
  });

  it("40302 for an upload over the service's limit", async () => {
    const small = await startTestServer({ maxUploadBytes: 1_000 });
    try {
      const e = await failure(testClient(small).parse(new Uint8Array(50_000), { filename: "big.txt" }));
      expect(e.code).toBe(40302);
      // Far over the limit the service answers before reading: still a 40302, not a reset.
      const huge = await failure(testClient(small).parse(new Uint8Array(20 * 1024 * 1024), { filename: "huge.txt" }));
      expect(huge.code).toBe(40302);
    } finally {
      await small.close();
    }
  });

  it("DOCPARSE_NETWORK when nothing listens, after retries", async () => {
    const dead = await startRecorder();
    const url = dead.url;
    await dead.close();
    const e = await failure(testClient({ url }, { maxRetries: 1 }).parse(mdPath));
    expect(e.code).toBe("DOCPARSE_NETWORK");
    expect(e.isRetryable).toBe(true);
  });
});

describe("partial results (50207)", () => {
  it("are returned with partial: true, not thrown away", async () => {
    const parser = new GatedParser(() => ({ ...fakeResult(), partial: true }));
    parser.release();
    const svc = await startTestServer({ parser });
    try {
      const result = await testClient(svc).parse(new Uint8Array([1]), { filename: "x.txt" });
      expect(result.partial).toBe(true);
      expect(result.elements[0]?.text).toBe("hello");
    } finally {
      await svc.close();
    }
  });
});

describe("timeouts and abort", () => {
  it("times out a slow answer with DOCPARSE_TIMEOUT", async () => {
    const slow = await startTestServer({ faults: { latencyMs: 1_000 } });
    try {
      const e = await failure(testClient(slow, { timeoutMs: 100, maxRetries: 0 }).parse(mdPath));
      expect(e.code).toBe("DOCPARSE_TIMEOUT");
      expect(e.isRetryable).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it("aborts an in-flight request with DOCPARSE_ABORTED", async () => {
    const parser = new GatedParser();
    const svc = await startTestServer({ parser });
    try {
      const ac = new AbortController();
      const pending = testClient(svc).parse(new Uint8Array([1]), { filename: "x.txt", signal: ac.signal });
      await new Promise((r) => setTimeout(r, 100));
      ac.abort();
      const e = await failure(pending);
      expect(e.code).toBe("DOCPARSE_ABORTED");
      // The service sees the client go away and aborts the parse's signal.
      await eventually(() => parser.calls[0]?.options.signal?.aborted === true);
    } finally {
      parser.release();
      await svc.close();
    }
  });

  it("rejects at once on an already aborted signal, sending nothing", async () => {
    const rec = await startRecorder();
    try {
      const e = await failure(testClient(rec).parse(mdPath, { signal: AbortSignal.abort() }));
      expect(e.code).toBe("DOCPARSE_ABORTED");
      expect(rec.requests).toHaveLength(0);
    } finally {
      await rec.close();
    }
  });
});

describe("options.requestsPerSecond", () => {
  it("keeps calls under the limit in any one-second window", async () => {
    // Timestamps at dispatch, in the client: what the limiter controls, free of server-side jitter.
    const sent: number[] = [];
    class Recording extends Agent {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        sent.push(performance.now());
        return super.dispatch(options, handler);
      }
    }
    const rec = await startRecorder((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 200, message: "success", data: fakeResult() }));
    });
    const dispatcher = new Recording();
    try {
      const client = testClient(rec, { requestsPerSecond: 4, concurrency: 8, dispatcher });
      await Promise.all(Array.from({ length: 6 }, () => client.parse(new TextEncoder().encode("hi"), { filename: "a.txt" })));
      expect(sent).toHaveLength(6);
      // Windows of 950 ms: dispatch lags the limiter's slot by a few ms under load.
      for (const t of sent) expect(sent.filter((u) => u >= t && u < t + 950).length).toBeLessThanOrEqual(4);
      // ...and it does not throttle harder than asked: the fifth goes about a second after the first.
      expect(sent[4]! - sent[0]!).toBeLessThan(3_000);
    } finally {
      await rec.close();
      await dispatcher.close();
    }
  });
});

describe("credentials", () => {
  it("are dropped on a redirect from the service's host to another host", async () => {
    const elsewhere = await startRecorder((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 200, message: "success", data: fakeResult() }));
    });
    const home = await startRecorder((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/final` });
      res.end();
    });
    try {
      const client = testClient(home);
      const result = await client.fetchResult({ job_id: "j", status: "completed", result_url: `${home.url}/result` });
      expect(result.file_id).toBe("f".repeat(64));
      expect(home.requests[0]!.headers["x-ti-secret-code"]).toBe(CREDS.secretCode);
      expect(elsewhere.requests[0]!.url).toBe("/final");
      expect(elsewhere.requests[0]!.headers["x-ti-secret-code"]).toBeUndefined();
      expect(elsewhere.requests[0]!.headers["x-ti-app-id"]).toBeUndefined();
    } finally {
      await home.close();
      await elsewhere.close();
    }
  });

  it("never appear in log lines or error messages", async () => {
    const lines: string[] = [];
    const log = (m: string, meta?: Record<string, unknown>) => void lines.push(m, JSON.stringify(meta ?? {}));
    const svc = await startTestServer({ faults: { plan: ({ index }) => (index < 2 ? { code: 500 } : { code: 40102 }) } });
    try {
      const e = await failure(testClient(svc, { logger: { debug: log, warn: log } }).parse(mdPath));
      expect(e.code).toBe(40102);
      expect(lines.length).toBeGreaterThan(2);
      const everything = [...lines, e.message, JSON.stringify(e.toJSON()), String(e.stack)].join("\n");
      expect(everything).not.toContain(CREDS.secretCode);
      expect(everything).not.toContain(CREDS.appId);
    } finally {
      await svc.close();
    }
  });
});

describe("abort while waiting for a rate-limit slot", () => {
  it("rejects with DOCPARSE_ABORTED without sending", async () => {
    const rec = await startRecorder((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 200, message: "success", data: fakeResult() }));
    });
    try {
      const client = testClient(rec, { requestsPerSecond: 1 });
      await client.parse(new Uint8Array([1]), { filename: "a.txt" });
      const ac = new AbortController();
      const waiting = client.parse(new Uint8Array([1]), { filename: "a.txt", signal: ac.signal });
      setTimeout(() => ac.abort(), 50);
      expect((await failure(waiting)).code).toBe("DOCPARSE_ABORTED");
      expect(rec.requests).toHaveLength(1);
    } finally {
      await rec.close();
    }
  });
});

it("uses the credentials fixture (sanity)", () => {
  expect(CREDS.secretCode.length).toBeGreaterThan(8);
});
