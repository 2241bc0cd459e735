import { afterEach, describe, expect, it } from "vitest";
import { JobStore } from "../../src/server/job-store.js";
import { fakeResult } from "../support/server.js";

let store: JobStore | undefined;
afterEach(() => store?.close());

describe("JobStore", () => {
  it("moves only forward: pending → in_progress → completed", () => {
    store = new JobStore(60_000);
    const job = store.create("docparse", "http://hook.test/");
    expect(job.status).toBe("pending");
    store.start(job);
    expect(job.status).toBe("in_progress");
    store.complete(job, fakeResult());
    expect(job).toMatchObject({ status: "completed", fileId: "f".repeat(64) });
    store.fail(job, 500, "late failure");
    store.start(job);
    expect(job.status).toBe("completed");
    expect(store.get(job.id)).toBe(job);
  });

  it("records failures with code and message", () => {
    store = new JobStore(60_000);
    const job = store.create("docparse");
    store.fail(job, 40422, "corrupt");
    expect(job).toMatchObject({ status: "failed", errorCode: 40422, message: "corrupt" });
  });

  it("forgets finished jobs after the TTL, never running ones", () => {
    store = new JobStore(1_000);
    const done = store.create("docparse");
    const running = store.create("docparse");
    store.start(running);
    store.complete(done, fakeResult());
    store.sweep(Date.now() + 999);
    expect(store.size).toBe(2);
    store.sweep(Date.now() + 1_001);
    expect(store.get(done.id)).toBeUndefined();
    expect(store.get(running.id)).toBe(running);
  });
});
