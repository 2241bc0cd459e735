import { describe, expect, it } from "vitest";
import { backoffDelay } from "../src/client/index.js";
import { sleep, withRetry } from "../src/retry.js";
import { DocParseError } from "../src/errors.js";

const policy = { maxRetries: 3, baseMs: 100, maxMs: 1_000 };

describe("backoffDelay", () => {
  it("is full jitter under an exponential ceiling", () => {
    expect(backoffDelay(0, policy, undefined, () => 0.999)).toBe(99);
    expect(backoffDelay(2, policy, undefined, () => 0.5)).toBe(200);
    expect(backoffDelay(10, policy, undefined, () => 0.999)).toBe(999);
    expect(backoffDelay(3, policy, undefined, () => 0)).toBe(0);
  });

  it("never comes back sooner than Retry-After", () => {
    expect(backoffDelay(0, policy, 2, () => 0.1)).toBe(2_000);
    expect(backoffDelay(3, policy, 0.1, () => 0.9)).toBe(720);
  });
});

describe("withRetry", () => {
  it("retries retryable errors up to maxRetries, then throws the last", async () => {
    let calls = 0;
    const err = await withRetry(
      async () => {
        calls++;
        throw new DocParseError(500, "boom");
      },
      { maxRetries: 2, baseMs: 1, maxMs: 1 },
    ).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect((err as DocParseError).code).toBe(500);
  });

  it("does not retry a non-retryable error", async () => {
    let calls = 0;
    await withRetry(
      async () => {
        calls++;
        throw new DocParseError(40422, "corrupt");
      },
      { maxRetries: 5, baseMs: 1, maxMs: 1 },
    ).catch(() => {});
    expect(calls).toBe(1);
  });

  it("stops sleeping when aborted", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const started = Date.now();
    const err = await withRetry(
      async () => {
        throw new DocParseError(40306, "qps", { retryAfterSeconds: 60 });
      },
      { maxRetries: 3, baseMs: 1, maxMs: 1 },
      { signal: ac.signal },
    ).catch((e: unknown) => e);
    expect((err as DocParseError).code).toBe("DOCPARSE_ABORTED");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("sleep rejects at once on an aborted signal", async () => {
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
  });
});
