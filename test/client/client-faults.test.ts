import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { DocParseError, LocalErrorCode } from "../../src/errors.js";
import type { Parser } from "../../src/parser.js";
import type { FaultAction, FaultRequest, RunningServer } from "../../src/server/index.js";
import { fakeResult, startRecorder, startTestServer, testClient } from "../support/server.js";

// Retries against the real local service with injected faults (test-only option).

const TEXT = new TextEncoder().encode("# Title\n\nBody text.\n");
let service: RunningServer | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A service whose first `n` requests on `route` get `action`; records every decision. */
async function failingFirst(n: number, action: FaultAction, route: FaultRequest["route"] = "sync") {
  const seen: FaultRequest[] = [];
  service = await startTestServer({
    faults: {
      routes: [route],
      plan: (req) => {
        if (req.route !== route) return undefined;
        seen.push(req);
        return req.index < n ? action : undefined;
      },
    },
  });
  return { service, seen };
}

async function failure(p: Promise<unknown>): Promise<DocParseError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!DocParseError.isInstance(e)) throw new Error(`expected a DocParseError, got ${String(e)}`);
  return e;
}

describe("retries under injected faults", () => {
  it.each([
    ["500 internal error", { code: 500 }],
    ["30203 upstream fault", { code: 30203 }],
    ["40306 QPS limit", { code: 40306 }],
    ["40428 office conversion", { code: 40428 }],
    ["HTTP 502 from a proxy", { httpStatus: 502 }],
    ["HTTP 503 from a proxy", { httpStatus: 503 }],
    ["HTTP 504 from a proxy", { httpStatus: 504 }],
    ["a dropped connection", { drop: true }],
  ] as [string, FaultAction][])("retries %s and succeeds", async (_name, action) => {
    const { service: svc, seen } = await failingFirst(2, action);
    const result = await testClient(svc, { maxRetries: 3 }).parse(TEXT, { filename: "a.md" });
    expect(result.elements.length).toBeGreaterThan(0);
    expect(seen).toHaveLength(3);
  });

  it("gives up after maxRetries with the last error", async () => {
    const { service: svc, seen } = await failingFirst(10, { code: 30203 });
    const e = await failure(testClient(svc, { maxRetries: 2 }).parse(TEXT, { filename: "a.md" }));
    expect(e.code).toBe(30203);
    expect(e.isRetryable).toBe(true);
    expect(seen).toHaveLength(3);
  });

  it("does not retry a permanent code", async () => {
    const { service: svc, seen } = await failingFirst(10, { code: 40422 });
    const e = await failure(testClient(svc, { maxRetries: 5 }).parse(TEXT, { filename: "a.md" }));
    expect(e.code).toBe(40422);
    expect(seen).toHaveLength(1);
  });

  it("keeps an unknown code typed and does not retry it", async () => {
    const { service: svc, seen } = await failingFirst(10, { code: 41234 });
    const e = await failure(testClient(svc, { maxRetries: 5 }).parse(TEXT, { filename: "a.md" }));
    expect(e.code).toBe(41234);
    expect(seen).toHaveLength(1);
  });

  it("honours Retry-After", async () => {
    const { service: svc } = await failingFirst(1, { code: 40306, retryAfterSeconds: 0.3 });
    const started = Date.now();
    await testClient(svc, { retryBaseMs: 1, retryMaxMs: 1 }).parse(TEXT, { filename: "a.md" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("retries a slow answer that timed out", async () => {
    // Margins wide enough for a loaded CI machine: a normal answer takes far less than 800 ms.
    const { service: svc, seen } = await failingFirst(1, { delayMs: 2_500 });
    const result = await testClient(svc, { timeoutMs: 800, maxRetries: 2 }).parse(TEXT, { filename: "a.md" });
    expect(result.elements.length).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it("does not resend a Readable (it cannot be replayed)", async () => {
    const { service: svc, seen } = await failingFirst(1, { code: 500 });
    const e = await failure(testClient(svc, { maxRetries: 3 }).parse(Readable.from([Buffer.from(TEXT)]), { filename: "a.md" }));
    expect(e.code).toBe(500);
    expect(seen).toHaveLength(1);
  });

  it("retries job status polls", async () => {
    const { service: svc, seen } = await failingFirst(2, { code: 500 }, "status");
    const client = testClient(svc);
    const result = await client.parseAsync(TEXT, { filename: "a.md" });
    expect(result.elements.length).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThanOrEqual(3);
  });
});

describe("createJob has no idempotency key", () => {
  it("resubmits after 40306 (the job was surely not taken)", async () => {
    const { service: svc, seen } = await failingFirst(1, { code: 40306 }, "async");
    const { job_id } = await testClient(svc).createJob(TEXT, { filename: "a.md" });
    expect(job_id).toBeTruthy();
    expect(seen).toHaveLength(2);
  });

  it("resubmits after a refused connection (nothing was sent)", async () => {
    const dead = await startRecorder();
    await dead.close();
    let retries = 0;
    const client = testClient(dead, { maxRetries: 2, logger: { warn: () => void retries++ } });
    const e = await failure(client.createJob(TEXT, { filename: "a.md" }));
    expect(e.code).toBe("DOCPARSE_NETWORK");
    expect(retries).toBe(2);
  });

  it("does not resubmit after a 500 or a dropped connection (the job may exist)", async () => {
    for (const action of [{ code: 500 }, { drop: true }] as FaultAction[]) {
      const { service: svc, seen } = await failingFirst(1, action, "async");
      const e = await failure(testClient(svc, { maxRetries: 3 }).createJob(TEXT, { filename: "a.md" }));
      expect(e.isRetryable).toBe(true);
      expect(seen).toHaveLength(1);
      await svc.close();
      service = undefined;
    }
  });
});

describe("DocParseClient.parse against an engine that runs out of time", () => {
  /** An engine whose first `failures` parses throw `error`; counts every parse. */
  function engine(failures: number, error: () => Error): Parser & { calls: number } {
    const p = {
      name: "counting",
      calls: 0,
      parse: async () => {
        if (p.calls++ < failures) throw error();
        return fakeResult();
      },
    };
    return p;
  }

  it("does not retry the engine's timeout (500 marked x-docparse-error: DOCPARSE_TIMEOUT): the same PDF would time out again", async () => {
    const parser = engine(10, () => new DocParseError(LocalErrorCode.Timeout, "Parsing took longer than 50 ms"));
    service = await startTestServer({ parser });
    const e = await failure(testClient(service, { maxRetries: 3 }).parse(TEXT, { filename: "a.md" }));
    expect(e.code).toBe(500);
    expect(e.httpStatus).toBe(500);
    expect(e.isRetryable).toBe(false);
    expect(e.message).toContain("Parsing took longer than 50 ms");
    expect(parser.calls).toBe(1);
  });

  it("still retries an unmarked 500 (an internal fault, or the hosted service's 500)", async () => {
    const parser = engine(2, () => new Error("transient"));
    service = await startTestServer({ parser });
    const result = await testClient(service, { maxRetries: 3 }).parse(TEXT, { filename: "a.md" });
    expect(result.elements).toHaveLength(1);
    expect(parser.calls).toBe(3);
  });
});

describe("random faults (failRate, dropRate)", () => {
  it("every parse of a batch succeeds through 30% transient faults", async () => {
    service = await startTestServer({ faults: { failRate: 0.2, dropRate: 0.1, codes: [500, 30203, 40306], seed: 7 } });
    const client = testClient(service, { maxRetries: 8 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => client.parse(TEXT, { filename: `d${i}.md` })));
    expect(results.every((r) => r.elements.length > 0)).toBe(true);
  });
});
