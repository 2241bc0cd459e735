import { connect } from "node:net";
import { FormData, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParsedDocument, ParseInput, ParseOptions, Parser } from "../../src/parser.js";
import type { RunningServer } from "../../src/server/index.js";
import { AUTH_HEADERS, ERROR_HEADER } from "../../src/wire/index.js";
import { DocParseError, LocalErrorCode } from "../../src/errors.js";
import { CREDS, GatedParser, eventually, fakeResult, startRecorder, startTestServer, type Recorder } from "../support/server.js";

// The service's routes and codes, spoken to with raw HTTP (no DocParseClient).

const AUTH = { [AUTH_HEADERS.appId]: CREDS.appId, [AUTH_HEADERS.secretCode]: CREDS.secretCode };
const MD = "# Heading\n\nA paragraph.\n\n## Second\n\nMore.\n";

interface Answer {
  http: number;
  code: number;
  message: string;
  data: Record<string, unknown> | undefined;
  headers: Record<string, string | string[] | undefined>;
}

async function call(url: string, init: { method?: "GET" | "POST" | "PUT"; form?: FormData; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const res = await request(url, {
    method: init.method ?? (init.form ? "POST" : "GET"),
    headers: { ...AUTH, ...init.headers },
    body: init.form ?? init.body ?? null,
  });
  const text = await res.body.text();
  const json = JSON.parse(text) as { code: number; message: string; data?: Record<string, unknown> };
  return { http: res.statusCode, code: json.code, message: json.message, data: json.data, headers: res.headers };
}

function form(fields: Record<string, string> = {}, file?: { name: string; text: string | Uint8Array }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append("file", new Blob([typeof file.text === "string" ? file.text : new Uint8Array(file.text)]), file.name);
  return f;
}

let service: RunningServer;
let files: Recorder;
let sync: string;

beforeAll(async () => {
  service = await startTestServer();
  sync = `${service.url}/api/v1/docparse/parse/sync`;
  files = await startRecorder((req, res) => {
    res.writeHead(req.url === "/a.md" ? 200 : 404, { "content-type": "text/markdown" });
    res.end(req.url === "/a.md" ? MD : "");
  });
});
afterAll(async () => {
  await service.close();
  await files.close();
});

describe("POST /parse/sync", () => {
  it("answers the envelope with the parse result and an x-request-id", async () => {
    const a = await call(sync, { form: form({ config: JSON.stringify({ capabilities: { title_tree: true } }) }, { name: "a.md", text: MD }) });
    expect(a.http).toBe(200);
    expect(a.code).toBe(200);
    expect(a.message).toBe("success");
    expect(a.headers["x-request-id"]).toBeTruthy();
    const data = a.data as unknown as ParsedDocument;
    expect(data.elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual(["Heading", "Second"]);
    expect(data.title_tree?.length).toBe(1);
  });

  it("parses a file_url from an allow-listed host", async () => {
    const a = await call(sync, { form: form({ file_url: `${files.url}/a.md` }) });
    expect(a.code).toBe(200);
    expect((a.data as unknown as ParsedDocument).metadata?.filename).toBe("a.md");
  });

  it("serves /api/v1/xparse too, and 40007/404 for an unknown product or route", async () => {
    expect((await call(`${service.url}/api/v1/xparse/parse/sync`, { form: form({}, { name: "a.md", text: MD }) })).code).toBe(200);
    const unknown = await call(`${service.url}/api/v1/other/parse/sync`, { form: form({}, { name: "a.md", text: MD }) });
    expect(unknown).toMatchObject({ http: 404, code: 40007 });
    expect((await call(`${service.url}/nope`)).http).toBe(404);
    expect((await call(sync, { method: "GET" })).http).toBe(405);
  });
});

describe("codes", () => {
  it("40101 when a credential header is missing or empty, 40102 when wrong", async () => {
    const f = () => form({}, { name: "a.md", text: MD });
    expect((await call(sync, { form: f(), headers: { [AUTH_HEADERS.secretCode]: "" } })).code).toBe(40101);
    expect((await call(sync, { form: f(), headers: { [AUTH_HEADERS.appId]: "  " } })).code).toBe(40101);
    expect((await call(sync, { form: f(), headers: { [AUTH_HEADERS.secretCode]: "nope" } })).code).toBe(40102);
    expect((await call(sync, { form: f(), headers: { [AUTH_HEADERS.secretCode]: `${CREDS.secretCode}x` } })).code).toBe(40102);
    expect((await call(sync, { form: f(), headers: { [AUTH_HEADERS.appId]: "other-app" } })).code).toBe(40102);
  });

  it("40305 with no file, 40004 with both sources", async () => {
    expect((await call(sync, { form: form({ config: "{}" }) })).code).toBe(40305);
    expect((await call(sync, { form: form({ file_url: `${files.url}/a.md` }, { name: "a.md", text: MD }) })).code).toBe(40004);
  });

  it.each([
    ["not JSON", "{"],
    ["a bad enum", JSON.stringify({ capabilities: { table_view: "pdf" } })],
    ["a bad page_range", JSON.stringify({ scope: { page_range: "2-1" } })],
    ["a page 0", JSON.stringify({ scope: { page_range: "0-3" } })],
    ["a bad parse_mode", JSON.stringify({ config: { engine_params: { parse_mode: "magic" } } })],
  ])("40004 for a config with %s", async (_name, config) => {
    const a = await call(sync, { form: form({ config }, { name: "a.md", text: MD }) });
    expect(a.code).toBe(40004);
    expect(a.message.length).toBeGreaterThan(5);
  });

  it("40004 for a body that is not a form", async () => {
    expect((await call(sync, { method: "POST", body: "{}", headers: { "content-type": "application/json" } })).code).toBe(40004);
  });

  it("40424 for a page_range beyond the document", async () => {
    expect((await call(sync, { form: form({ config: JSON.stringify({ scope: { page_range: "7-9" } }) }, { name: "a.md", text: MD }) })).code).toBe(40424);
  });

  it("40303 or 40425 for an unsupported file", async () => {
    const a = await call(sync, { form: form({}, { name: "x.bin", text: new Uint8Array(4096).map((_, i) => (i * 7919) % 256) }) });
    expect([40303, 40425]).toContain(a.code);
  });

  it("40400 for a file_url on a private host that is not allow-listed, or unreachable", async () => {
    const strict = await startTestServer({ allowedHosts: [] });
    try {
      const a = await call(`${strict.url}/api/v1/docparse/parse/sync`, { form: form({ file_url: `${files.url}/a.md` }) });
      expect(a.code).toBe(40400);
      expect(a.message).toMatch(/private|allowedHosts/);
      const meta = await call(`${strict.url}/api/v1/docparse/parse/sync`, { form: form({ file_url: "http://169.254.169.254/latest/meta-data/" }) });
      expect(meta.code).toBe(40400);
    } finally {
      await strict.close();
    }
    expect((await call(sync, { form: form({ file_url: `${files.url}/missing.md` }) })).code).toBe(40400);
    expect((await call(sync, { form: form({ file_url: "ftp://x.test/a.md" }) })).code).toBe(40400);
  });

  it("40302 over maxUploadBytes, for an upload and for a file_url", async () => {
    const small = await startTestServer({ maxUploadBytes: 10 });
    try {
      expect((await call(`${small.url}/api/v1/docparse/parse/sync`, { form: form({}, { name: "a.md", text: MD }) })).code).toBe(40302);
      expect((await call(`${small.url}/api/v1/docparse/parse/sync`, { form: form({ file_url: `${files.url}/a.md` }) })).code).toBe(40302);
    } finally {
      await small.close();
    }
  });

  it("500 without a stack trace or the error's text", async () => {
    const broken: Parser = {
      name: "broken",
      parse: async () => {
        throw new Error("db password hunter2 at /srv/secret/path.ts:12");
      },
    };
    const svc = await startTestServer({ parser: broken });
    try {
      const res = await request(`${svc.url}/api/v1/docparse/parse/sync`, { method: "POST", headers: AUTH, body: form({}, { name: "a.md", text: MD }) });
      const text = await res.body.text();
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(text)).toMatchObject({ code: 500, message: "Internal server error" });
      expect(text).not.toMatch(/hunter2|secret|\.ts:|at /);
      // An unexpected 500 is not marked: clients keep retrying it.
      expect(res.headers[ERROR_HEADER]).toBeUndefined();
    } finally {
      await svc.close();
    }
  });

  it("500 with the engine's own message when a parse runs out of time (a hostile PDF): not logged as an internal error", async () => {
    const slow: Parser = {
      name: "slow",
      parse: async () => {
        throw new DocParseError(LocalErrorCode.Timeout, "Parsing took longer than 50 ms");
      },
    };
    const errors: unknown[] = [];
    const svc = await startTestServer({ parser: slow, logger: { error: (...args: unknown[]) => void errors.push(args) } });
    try {
      const res = await request(`${svc.url}/api/v1/docparse/parse/sync`, { method: "POST", headers: AUTH, body: form({}, { name: "a.md", text: MD }) });
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(await res.body.text())).toMatchObject({ code: 500, message: "Parsing took longer than 50 ms" });
      // The contract's code, marked as the engine's deterministic limit (not retried by our client).
      expect(res.headers[ERROR_HEADER]).toBe("DOCPARSE_TIMEOUT");
      expect(errors).toEqual([]);
      // An async job that ran out of time: its result URL answers the same marked 500.
      const created = await request(`${svc.url}/api/v1/docparse/parse/async`, { method: "POST", headers: AUTH, body: form({}, { name: "a.md", text: MD }) });
      const jobId = (JSON.parse(await created.body.text()) as { data: { job_id: string } }).data.job_id;
      await eventually(async () => (await call(`${svc.url}/api/v1/docparse/parse/async/${jobId}`)).data?.status === "failed");
      const result = await request(`${svc.url}/api/v1/docparse/parse/async/${jobId}/result`, { headers: AUTH });
      expect(JSON.parse(await result.body.text())).toMatchObject({ code: 500, message: "Parsing took longer than 50 ms" });
      expect(result.headers[ERROR_HEADER]).toBe("DOCPARSE_TIMEOUT");
    } finally {
      await svc.close();
    }
  });

  it("40306 when the parse queue is full", async () => {
    const parser = new GatedParser();
    const svc = await startTestServer({ parser, concurrency: 1, maxQueued: 1 });
    try {
      const url = `${svc.url}/api/v1/docparse/parse/sync`;
      const first = call(url, { form: form({}, { name: "a.md", text: MD }) });
      const second = call(url, { form: form({}, { name: "a.md", text: MD }) });
      await eventually(() => parser.calls.length === 1);
      await new Promise((r) => setTimeout(r, 50));
      const third = await call(url, { form: form({}, { name: "a.md", text: MD }) });
      expect(third.code).toBe(40306);
      expect(third.headers["retry-after"]).toBe("1");
      const asyncRefused = await call(`${svc.url}/api/v1/docparse/parse/async`, { form: form({}, { name: "a.md", text: MD }) });
      expect(asyncRefused.code).toBe(40306);
      parser.release();
      expect((await first).code).toBe(200);
      expect((await second).code).toBe(200);
    } finally {
      parser.release();
      await svc.close();
    }
  });
});

describe("async jobs", () => {
  it("move pending → in_progress → completed, with result_url", async () => {
    const parser = new GatedParser();
    const svc = await startTestServer({ parser, concurrency: 1 });
    try {
      const base = `${svc.url}/api/v1/docparse/parse/async`;
      const a = await call(base, { form: form({}, { name: "a.md", text: MD }) });
      const b = await call(base, { form: form({}, { name: "b.md", text: MD }) });
      const idA = a.data!.job_id as string;
      const idB = b.data!.job_id as string;
      await eventually(() => parser.calls.length === 1);
      expect((await call(`${base}/${idA}`)).data).toMatchObject({ job_id: idA, status: "in_progress" });
      expect((await call(`${base}/${idB}`)).data).toMatchObject({ job_id: idB, status: "pending" });
      parser.release();
      await eventually(async () => (await call(`${base}/${idB}`)).data?.status === "completed");
      const done = (await call(`${base}/${idA}`)).data!;
      expect(done).toMatchObject({ status: "completed", file_id: "f".repeat(64) });
      // The result_url works without credentials (a token), and not with a wrong token.
      const resultUrl = done.result_url as string;
      const res = await request(resultUrl);
      expect(JSON.parse(await res.body.text())).toMatchObject({ code: 200, data: { job_id: idA } });
      const forged = await request(resultUrl.replace(/token=[0-9a-f]+/, `token=${"0".repeat(64)}`));
      expect(JSON.parse(await forged.body.text()).code).toBe(40101);
      // Jobs belong to their product.
      expect((await call(`${svc.url}/api/v1/xparse/parse/async/${idA}`)).code).toBe(40004);
    } finally {
      parser.release();
      await svc.close();
    }
  });

  it("are kept resultTtlMs after they finish, then forgotten", async () => {
    const parser = new GatedParser();
    parser.release();
    const svc = await startTestServer({ parser, resultTtlMs: 1_000 });
    try {
      const base = `${svc.url}/api/v1/docparse/parse/async`;
      const id = (await call(base, { form: form({}, { name: "a.md", text: MD }) })).data!.job_id as string;
      await eventually(async () => (await call(`${base}/${id}`)).data?.status === "completed");
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await call(`${base}/${id}`)).code).toBe(40004);
    } finally {
      await svc.close();
    }
  });

  it("report a failure with its message and code", async () => {
    const base = `${service.url}/api/v1/docparse/parse/async`;
    const id = (await call(base, { form: form({}, { name: "x.bin", text: new Uint8Array(4096).map((_, i) => (i * 7919) % 256) }) })).data!.job_id as string;
    await eventually(async () => (await call(`${base}/${id}`)).data?.status === "failed");
    const status = (await call(`${base}/${id}`)).data!;
    expect(status.message).toBeTruthy();
    expect([40303, 40425]).toContain(status.error_code);
  });
});

describe("webhooks", () => {
  it("are POSTed on completion and failure, signed, and retried after a failed delivery", async () => {
    let failuresLeft = 2;
    const hooks = await startRecorder((_req, res) => {
      res.writeHead(failuresLeft-- > 0 ? 500 : 200);
      res.end();
    });
    const svc = await startTestServer({ webhookSecret: "hook-secret", webhookBackoffMs: 5 });
    try {
      const base = `${svc.url}/api/v1/docparse/parse/async`;
      const id = (await call(base, { form: form({ webhook: `${hooks.url}/cb` }, { name: "a.md", text: MD }) })).data!.job_id as string;
      await eventually(() => hooks.requests.length === 3);
      const last = hooks.requests[2]!;
      const body = JSON.parse(last.body.toString()) as { job_id: string; status: string; result_url: string };
      expect(body).toMatchObject({ job_id: id, status: "completed" });
      expect(body.result_url).toContain(id);
      const { createHmac } = await import("node:crypto");
      expect(last.headers["x-docparse-signature"]).toBe(`sha256=${createHmac("sha256", "hook-secret").update(last.body).digest("hex")}`);
      expect(JSON.stringify(last.headers)).not.toContain(CREDS.secretCode);

      const bad = (await call(base, { form: form({ webhook: `${hooks.url}/cb` }, { name: "x.bin", text: new Uint8Array(4096).map((_, i) => (i * 7919) % 256) }) })).data!.job_id as string;
      await eventually(() => hooks.requests.some((r) => r.body.toString().includes(bad)));
      const failed = JSON.parse(hooks.requests.find((r) => r.body.toString().includes(bad))!.body.toString()) as Record<string, unknown>;
      expect(failed).toMatchObject({ job_id: bad, status: "failed" });
      expect(failed.message).toBeTruthy();
    } finally {
      await svc.close();
      await hooks.close();
    }
  });

  it("to a private host that is not allow-listed are refused with 40004", async () => {
    const strict = await startTestServer({ allowedHosts: [] });
    try {
      const a = await call(`${strict.url}/api/v1/docparse/parse/async`, { form: form({ webhook: "http://127.0.0.1:9/cb" }, { name: "a.md", text: MD }) });
      expect(a.code).toBe(40004);
      expect(a.message).toContain("webhook");
    } finally {
      await strict.close();
    }
  });
});

describe("assets", () => {
  it("serves the engine's assets by file id and name, 404 otherwise", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const parser = Object.assign(new GatedParser(), {
      asset: async (fileId: string, name: string) => (fileId === "f".repeat(64) && name === "page-1.png" ? { bytes: png, mimeType: "image/png" } : undefined),
    });
    const svc = await startTestServer({ parser });
    try {
      const ok = await request(`${svc.url}/api/v1/docparse/assets/${"f".repeat(64)}/page-1.png`);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers["content-type"]).toBe("image/png");
      expect(new Uint8Array(await ok.body.arrayBuffer())).toEqual(png);
      for (const path of [`${"f".repeat(64)}/page-2.png`, `${"f".repeat(64)}/..%2F..%2Fetc%2Fpasswd`, "x/.hidden"]) {
        const res = await request(`${svc.url}/api/v1/docparse/assets/${path}`);
        await res.body.dump();
        expect(res.statusCode, path).toBe(404);
      }
    } finally {
      await svc.close();
    }
  });

  it("serves LocalParser's page images at the page_image_url it writes, 404 beyond the document", async () => {
    const a = await call(sync, { form: form({ config: JSON.stringify({ capabilities: { pages: true } }) }, { name: "a.md", text: MD }) });
    const data = a.data as unknown as ParsedDocument;
    const url = data.pages?.[0]?.page_image_url;
    expect(url?.startsWith(`${service.url}/api/v1/docparse/assets/${data.file_id}/`)).toBe(true);
    const png = await request(url!);
    expect(png.statusCode).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");
    expect([...new Uint8Array(await png.body.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const beyond = await request(`${service.url}/api/v1/docparse/assets/${data.file_id}/page-99.png`);
    await beyond.body.dump();
    expect(beyond.statusCode).toBe(404);
  });
});

describe("slow peers", () => {
  async function closedWithin(svc: RunningServer, send: string): Promise<{ ms: number; answer: string }> {
    const { port } = new URL(svc.url);
    const socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString()));
    socket.on("error", () => {});
    if (send) socket.write(send);
    const started = Date.now();
    await new Promise<void>((r) => socket.on("close", () => r()));
    return { ms: Date.now() - started, answer };
  }

  it("are cut off after headersTimeoutMs, whether they send half the headers or nothing", async () => {
    const svc = await startTestServer({ headersTimeoutMs: 300 });
    try {
      expect((await closedWithin(svc, "POST /api/v1/docparse/parse/sync HTTP/1.1\r\nHost: x\r\n")).ms).toBeLessThan(5_000);
      expect((await closedWithin(svc, "")).ms).toBeLessThan(5_000);
    } finally {
      await svc.close();
    }
  });

  it("that trickle a body are cut off after requestTimeoutMs", async () => {
    const svc = await startTestServer({ requestTimeoutMs: 400 });
    try {
      const head = `POST /api/v1/docparse/parse/sync HTTP/1.1\r\nHost: x\r\nx-ti-app-id: ${CREDS.appId}\r\nx-ti-secret-code: ${CREDS.secretCode}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 100000\r\n\r\n--b\r\n`;
      const { ms } = await closedWithin(svc, head);
      expect(ms).toBeLessThan(5_000);
    } finally {
      await svc.close();
    }
  });

  it("that declare an upload far over the limit get 40302 at once", async () => {
    const svc = await startTestServer({ maxUploadBytes: 100 });
    try {
      const head = `POST /api/v1/docparse/parse/sync HTTP/1.1\r\nHost: x\r\nx-ti-app-id: ${CREDS.appId}\r\nx-ti-secret-code: ${CREDS.secretCode}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 900000000\r\n\r\n`;
      const { answer } = await closedWithin(svc, head);
      expect(answer).toContain('"code":40302');
    } finally {
      await svc.close();
    }
  });
});

describe("the parser receives the upload", () => {
  it("as a temp path with the client's filename and the validated config", async () => {
    const seen: { input: ParseInput; options: ParseOptions }[] = [];
    const parser: Parser = {
      name: "spy",
      parse: async (input, options = {}) => {
        seen.push({ input, options });
        return fakeResult();
      },
    };
    const svc = await startTestServer({ parser });
    try {
      await call(`${svc.url}/api/v1/docparse/parse/sync`, {
        form: form({ config: JSON.stringify({ capabilities: { pages: true }, extra_field: 1 }) }, { name: "报告.md", text: MD }),
      });
      expect(typeof seen[0]!.input).toBe("string");
      expect(seen[0]!.options.filename).toBe("报告.md");
      expect(seen[0]!.options.config).toEqual({ capabilities: { pages: true }, extra_field: 1 });
    } finally {
      await svc.close();
    }
  });
});

describe("shutdown", () => {
  it("settles queued and running parses and leaves no upload behind", async () => {
    const { tempDir } = await import("../support/system.js");
    const { readdirSync } = await import("node:fs");
    const spool = tempDir("docparse-spool-");
    const parser = new GatedParser();
    const svc = await startTestServer({ parser, concurrency: 1, tempDir: spool.path });
    try {
      const url = `${svc.url}/api/v1/docparse/parse/sync`;
      const settle = (p: Promise<unknown>) => p.then(() => "answered", () => "closed");
      const running = settle(call(url, { form: form({}, { name: "a.md", text: MD }) }));
      const queued = settle(call(url, { form: form({}, { name: "b.md", text: MD }) }));
      const job = await call(`${svc.url}/api/v1/docparse/parse/async`, { form: form({}, { name: "c.md", text: MD }) });
      expect(job.code).toBe(200);
      await eventually(() => parser.calls.length === 1 && readdirSync(spool.path).length === 3);
      await svc.close(200);
      expect(await running).toMatch(/answered|closed/);
      expect(await queued).toMatch(/answered|closed/);
      await eventually(() => readdirSync(spool.path).length <= 1);
      parser.release();
      await eventually(() => readdirSync(spool.path).length === 0);
    } finally {
      parser.release();
      await svc.close();
      spool.cleanup();
    }
  });

  it("does not start a parse for an upload that completes after shutdown began", async () => {
    const { tempDir } = await import("../support/system.js");
    const { readdirSync } = await import("node:fs");
    const { request: httpRequest } = await import("node:http");
    const spool = tempDir("docparse-spool-");
    const parser = new GatedParser();
    const svc = await startTestServer({ parser, concurrency: 1, tempDir: spool.path });
    try {
      const url = `${svc.url}/api/v1/docparse/parse/sync`;
      const running = call(url, { form: form({}, { name: "a.md", text: MD }) }).catch(() => "closed");
      await eventually(() => parser.calls.length === 1);

      // A second upload, sent in two halves around the start of shutdown.
      const boundary = "docparse-test-boundary";
      const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="late.md"\r\ncontent-type: text/markdown\r\n\r\n${MD}`;
      const tail = `\r\n--${boundary}--\r\n`;
      const late = httpRequest(url, {
        method: "POST",
        headers: { ...AUTH, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": Buffer.byteLength(head + tail) },
      });
      const answered = new Promise<string>((resolve) => {
        late.on("response", (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve(body));
          res.on("error", () => resolve("closed"));
        });
        late.on("error", () => resolve("closed"));
      });
      late.write(head);
      await eventually(() => readdirSync(spool.path).length === 2);
      const closed = svc.close(2_000);
      late.end(tail);

      // The late upload is refused and deleted while the first parse still holds its own.
      const answer = await answered;
      if (answer !== "closed") expect((JSON.parse(answer) as { code: number }).code).not.toBe(200);
      await eventually(() => readdirSync(spool.path).length === 1);
      expect(parser.calls).toHaveLength(1);
      parser.release();
      await closed;
      await running;
      await eventually(() => readdirSync(spool.path).length === 0);
    } finally {
      parser.release();
      await svc.close();
      spool.cleanup();
    }
  });
});
