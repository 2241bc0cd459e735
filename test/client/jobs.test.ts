import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookHandler } from "../../src/client/index.js";
import { DocParseError } from "../../src/errors.js";
import type { ParsedDocument } from "../../src/parser.js";
import type { RunningServer } from "../../src/server/index.js";
import type { JobStatus } from "../../src/wire/index.js";
import { CREDS, GatedParser, eventually, startRecorder, startTestServer, testClient, type Recorder } from "../support/server.js";

const TEXT = new TextEncoder().encode("# 标题\n\n正文第一句。\n\n## Part two\n\nMore text.\n");
const WEBHOOK_SECRET = "webhook-secret-for-tests";
/** Bytes no engine format accepts (NULs and noise): the job fails with 40303/40425. */
const BINARY = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);

async function failure(p: Promise<unknown>): Promise<DocParseError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!DocParseError.isInstance(e)) throw new Error(`expected a DocParseError, got ${String(e)}`);
  return e;
}

describe("async jobs against the local service", () => {
  let service: RunningServer;
  beforeAll(async () => {
    service = await startTestServer();
  });
  afterAll(() => service.close());

  it("createJob → waitForJob → fetchResult", async () => {
    const client = testClient(service);
    const { job_id } = await client.createJob(TEXT, { filename: "doc.md" });
    const statuses: string[] = [];
    const done = await client.waitForJob(job_id, { onStatus: (s) => statuses.push(s.status) });
    expect(done.status).toBe("completed");
    expect(done.file_id).toMatch(/^[0-9a-f]{64}$/);
    expect(statuses.at(-1)).toBe("completed");
    const result = await client.fetchResult(done);
    expect(result.job_id).toBe(job_id);
    expect(result.elements.find((e) => e.type === "Title")?.text).toBe("标题");
  });

  it("parseAsync does all three, and fetchResult accepts a job id", async () => {
    const client = testClient(service);
    const result = await client.parseAsync(TEXT, { filename: "doc.md" });
    expect(result.elements.length).toBeGreaterThan(2);
    const again = await client.fetchResult(result.job_id!);
    expect(again.file_id).toBe(result.file_id);
  });

  it("a failed job rejects with DOCPARSE_JOB_FAILED and the service message", async () => {
    const client = testClient(service);
    const { job_id } = await client.createJob(BINARY, { filename: "x.bin" });
    const e = await failure(client.waitForJob(job_id));
    expect(e.code).toBe("DOCPARSE_JOB_FAILED");
    expect((e.location as JobStatus).status).toBe("failed");
    expect((e.location as JobStatus).message).toBeTruthy();
  });

  it("getJob of an unknown id is a 40004", async () => {
    expect((await failure(testClient(service).getJob("no-such-job"))).code).toBe(40004);
  });
});

describe("waitForJob limits", () => {
  it("times out, aborts, and refuses to fetch an unfinished job", async () => {
    const parser = new GatedParser();
    const svc = await startTestServer({ parser });
    try {
      const client = testClient(svc);
      const { job_id } = await client.createJob(TEXT, { filename: "a.md" });
      const timedOut = await failure(client.waitForJob(job_id, { timeoutMs: 100 }));
      expect(timedOut.code).toBe("DOCPARSE_TIMEOUT");
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      expect((await failure(client.waitForJob(job_id, { signal: ac.signal, pollMs: 10_000 }))).code).toBe("DOCPARSE_ABORTED");
      expect((await failure(client.fetchResult(job_id))).code).toBe("DOCPARSE_INVALID_OPTION");
      parser.release();
      expect((await client.waitForJob(job_id)).status).toBe("completed");
    } finally {
      parser.release();
      await svc.close();
    }
  });
});

describe("credentials never reach another host", () => {
  let service: RunningServer;
  let other: Recorder;
  let unwrap = false;

  beforeAll(async () => {
    // "Another host": a second 127.0.0.1 server that the service names in result_url.
    // It records what it receives and forwards the GET to the service without headers
    // (the token in the URL authorises it there, like a presigned URL).
    other = await startRecorder(async (req, res) => {
      const upstream = await request(`${service.url}${req.url}`);
      const text = await upstream.body.text();
      const body = unwrap ? JSON.stringify((JSON.parse(text) as { data: unknown }).data) : text;
      res.writeHead(upstream.statusCode, { "content-type": "application/json" });
      res.end(body);
    });
    service = await startTestServer({ publicUrl: other.url });
  });
  afterAll(async () => {
    await service.close();
    await other.close();
  });

  it("fetches a result_url on another host without credentials", async () => {
    other.requests.length = 0;
    const client = testClient(service);
    const result = await client.parseAsync(TEXT, { filename: "doc.md" });
    expect(result.elements.length).toBeGreaterThan(2);
    expect(other.requests).toHaveLength(1);
    const seen = JSON.stringify(other.requests[0]!.headers);
    expect(seen).not.toContain(CREDS.secretCode);
    expect(seen).not.toContain(CREDS.appId);
    expect(other.requests[0]!.headers["x-ti-secret-code"]).toBeUndefined();
  });

  it("accepts a bare data body as well as the envelope", async () => {
    unwrap = true;
    try {
      const result = await testClient(service).parseAsync(TEXT, { filename: "doc.md" });
      expect(result.elements.length).toBeGreaterThan(2);
    } finally {
      unwrap = false;
    }
  });

  it("sends them to a host in allowedHosts (so the check above can fail)", async () => {
    other.requests.length = 0;
    const client = testClient(service, { allowedHosts: [new URL(other.url).host] });
    await client.parseAsync(TEXT, { filename: "doc.md" });
    expect(other.requests[0]!.headers["x-ti-secret-code"]).toBe(CREDS.secretCode);
  });
});

describe("async + webhook end to end", () => {
  let service: RunningServer;
  let receiver: Server;
  let receiverUrl: string;
  const completed: { result: ParsedDocument; job: JobStatus }[] = [];
  const failed: { error: DocParseError; job: JobStatus }[] = [];
  let handler: ReturnType<typeof createWebhookHandler>;

  beforeAll(async () => {
    service = await startTestServer({ webhookSecret: WEBHOOK_SECRET });
    handler = createWebhookHandler({
      client: testClient(service),
      secret: WEBHOOK_SECRET,
      onCompleted: (result, job) => void completed.push({ result, job }),
      onFailed: (error, job) => void failed.push({ error, job }),
    });
    receiver = createServer(handler);
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await service.close();
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  it("delivers a signed callback on completion; the receiver confirms and fetches the result", async () => {
    const { job_id } = await testClient(service).createJob(TEXT, { filename: "doc.md", webhook: receiverUrl });
    await eventually(() => completed.some((c) => c.job.job_id === job_id));
    await handler.idle();
    const got = completed.find((c) => c.job.job_id === job_id)!;
    expect(got.result.elements.find((e) => e.type === "Title")?.text).toBe("标题");
    expect(got.job.status).toBe("completed");
  });

  it("delivers a callback on failure too", async () => {
    const { job_id } = await testClient(service).createJob(BINARY, { filename: "x.bin", webhook: receiverUrl });
    await eventually(() => failed.some((f) => f.job.job_id === job_id));
    const got = failed.find((f) => f.job.job_id === job_id)!;
    expect(got.error.code).toBe("DOCPARSE_JOB_FAILED");
    expect(got.job.message).toBeTruthy();
  });
});
