import { describe, expect, it } from "vitest";
import { DocParseError } from "../../src/errors.js";
import { sleep, withRetry } from "../../src/ingest/retry.js";

describe("withRetry", () => {
  it("retries only errors marked retryable, up to options.retries", async () => {
    let calls = 0;
    const flaky = () => {
      calls++;
      return calls < 3 ? Promise.reject(new DocParseError(40306, "busy")) : Promise.resolve("ok");
    };
    expect(await withRetry(flaky, { retries: 2, delayMs: 1 })).toBe("ok");
    expect(calls).toBe(3);

    calls = 0;
    await expect(withRetry(() => (calls++, Promise.reject(new DocParseError(40422, "corrupt"))), { retries: 5, delayMs: 1 })).rejects.toMatchObject({ code: 40422 });
    expect(calls).toBe(1);

    calls = 0;
    await expect(withRetry(() => (calls++, Promise.reject(new DocParseError(500, "down"))), { retries: 1, delayMs: 1 })).rejects.toMatchObject({ code: 500 });
    expect(calls).toBe(2);
  });

  it("honours Retry-After over the backoff", async () => {
    let calls = 0;
    const started = Date.now();
    await withRetry(() => (++calls === 1 ? Promise.reject(new DocParseError(40306, "slow down", { retryAfterSeconds: 0.2 })) : Promise.resolve(1)), { retries: 1, delayMs: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("stops waiting with DOCPARSE_ABORTED when the signal fires", async () => {
    const controller = new AbortController();
    const run = withRetry(() => Promise.reject(new DocParseError(500, "down")), { retries: 5, delayMs: 10_000 }, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(run).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    await expect(sleep(5, AbortSignal.abort())).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
  });
});
