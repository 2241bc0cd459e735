import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookHandler, type WebhookHandlerOptions } from "../../src/client/index.js";
import { signWebhookBody } from "../../src/net/index.js";
import type { ParsedDocument } from "../../src/parser.js";
import type { JobStatus } from "../../src/wire/index.js";
import { fakeResult } from "../support/server.js";

/** Implements the two calls the handler needs; statuses are set per test. */
class FakeJobs {
  statuses = new Map<string, JobStatus>();
  getJobCalls: string[] = [];
  fetches = 0;
  async getJob(id: string): Promise<JobStatus> {
    this.getJobCalls.push(id);
    const s = this.statuses.get(id);
    if (!s) throw new Error("unknown job");
    return s;
  }
  async fetchResult(): Promise<ParsedDocument> {
    this.fetches++;
    return fakeResult();
  }
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function serve(options: Omit<WebhookHandlerOptions, "client">, jobs = new FakeJobs()) {
  const handler = createWebhookHandler({ client: jobs, ...options });
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const post = async (body: string, headers: Record<string, string> = {}) => {
    const res = await request(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };
  return { handler, jobs, url, post };
}

describe("createWebhookHandler", () => {
  it("confirms through getJob, calls onCompleted once, ignores duplicates", async () => {
    const completed: string[] = [];
    const { handler, jobs, post } = await serve({ onCompleted: (_r, job) => void completed.push(job.job_id) });
    jobs.statuses.set("j1", { job_id: "j1", status: "completed", result_url: "http://x.test/r" });
    const body = JSON.stringify({ job_id: "j1", status: "completed", result_url: "http://x.test/r" });
    expect((await post(body)).status).toBe(200);
    expect((await post(body)).body).toMatchObject({ duplicate: true });
    await handler.idle();
    expect(completed).toEqual(["j1"]);
    expect(jobs.getJobCalls).toEqual(["j1"]);
    expect(jobs.fetches).toBe(1);
  });

  it("trusts the status endpoint, not the callback body", async () => {
    const completed: string[] = [];
    const failed: string[] = [];
    const { handler, jobs, post } = await serve({ onCompleted: (_r, j) => void completed.push(j.job_id), onFailed: (e, j) => void failed.push(`${j.job_id}:${e.code}`) });
    // A forged "completed" for a job still running is ignored, and forgotten so the
    // genuine callback later is handled.
    jobs.statuses.set("j2", { job_id: "j2", status: "in_progress" });
    await post(JSON.stringify({ job_id: "j2", status: "completed" }));
    await handler.idle();
    expect(completed).toEqual([]);
    jobs.statuses.set("j2", { job_id: "j2", status: "failed", message: "corrupt" });
    expect((await post(JSON.stringify({ job_id: "j2", status: "failed" }))).body.duplicate).toBeUndefined();
    await handler.idle();
    expect(failed).toEqual(["j2:DOCPARSE_JOB_FAILED"]);
  });

  it("answers before the work is done", async () => {
    let finish!: () => void;
    const slow = new Promise<void>((r) => (finish = r));
    const { handler, jobs, post } = await serve({ onCompleted: () => slow });
    jobs.statuses.set("j3", { job_id: "j3", status: "completed", result_url: "http://x.test/r" });
    const answer = await post(JSON.stringify({ job_id: "j3", status: "completed" }));
    expect(answer.status).toBe(200);
    finish();
    await handler.idle();
  });

  it("verifies the signature when a secret is set", async () => {
    const { post, jobs, handler } = await serve({ secret: "s3cret" });
    jobs.statuses.set("j4", { job_id: "j4", status: "completed", result_url: "http://x.test/r" });
    const body = JSON.stringify({ job_id: "j4", status: "completed" });
    expect((await post(body)).status).toBe(401);
    expect((await post(body, { "x-docparse-signature": signWebhookBody("wrong", body) })).status).toBe(401);
    expect((await post(body, { "x-docparse-signature": signWebhookBody("s3cret", body) })).status).toBe(200);
    await handler.idle();
    expect(jobs.getJobCalls).toEqual(["j4"]);
  });

  it("refuses bad methods, bodies and sizes", async () => {
    const { url, post, jobs } = await serve({ maxBodyBytes: 100 });
    expect((await request(url, { method: "GET" })).statusCode).toBe(405);
    expect((await post("not json")).status).toBe(400);
    expect((await post(JSON.stringify({ status: "completed" }))).status).toBe(400);
    expect((await post(JSON.stringify({ job_id: "x".repeat(200), status: "completed" }))).status).toBe(413);
    expect(jobs.getJobCalls).toEqual([]);
  });

  it("reports a failed confirmation and handles a redelivery", async () => {
    const errors: string[] = [];
    const completed: string[] = [];
    const { handler, jobs, post } = await serve({ onError: (_e, id) => void errors.push(id), onCompleted: (_r, j) => void completed.push(j.job_id) });
    const body = JSON.stringify({ job_id: "j5", status: "completed" });
    await post(body); // unknown to the fake: getJob throws
    await handler.idle();
    expect(errors).toEqual(["j5"]);
    jobs.statuses.set("j5", { job_id: "j5", status: "completed", result_url: "http://x.test/r" });
    await post(body);
    await handler.idle();
    expect(completed).toEqual(["j5"]);
  });
});

describe("createWebhookHandler behind a raw-body middleware", () => {
  it("uses the Buffer the middleware already read", async () => {
    const jobs = new FakeJobs();
    jobs.statuses.set("j6", { job_id: "j6", status: "completed", result_url: "http://x.test/r" });
    const completed: string[] = [];
    const handler = createWebhookHandler({ client: jobs, secret: "s3cret", onCompleted: (_r, j) => void completed.push(j.job_id) });
    const body = JSON.stringify({ job_id: "j6", status: "completed" });
    server = createServer((req, res) => {
      // What express.raw() leaves behind: the stream consumed, the bytes on req.body.
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        (req as typeof req & { body: Buffer }).body = Buffer.concat(chunks);
        handler(req, res);
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-docparse-signature": signWebhookBody("s3cret", body) },
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    await handler.idle();
    expect(completed).toEqual(["j6"]);
  });
});
