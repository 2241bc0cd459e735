import { abortError } from "../errors.js";

/** How retryable failures are retried inside a run. */
export interface RetryOptions {
  /** Extra attempts after a retryable failure (`isRetryable === true`). @default 2 */
  retries: number;
  /** First delay; doubles each attempt, with jitter. A server's Retry-After wins. @default 500 */
  delayMs: number;
}

/**
 * Calls `fn` until it succeeds, retrying only errors that say `isRetryable: true` (the
 * DocParseError catalogue: QPS limit, 500, upstream fault, network, timeout).
 */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortError(signal);
    try {
      return await fn();
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      const e = error as { isRetryable?: unknown; retryAfterSeconds?: unknown } | null;
      if (attempt >= options.retries || e?.isRetryable !== true) throw error;
      const asked = typeof e.retryAfterSeconds === "number" ? e.retryAfterSeconds * 1000 : 0;
      const backoff = options.delayMs * 2 ** attempt * (0.5 + Math.random() / 2);
      await sleep(Math.max(asked, backoff), signal);
    }
  }
}

/** Resolves after `ms`, rejects with DOCPARSE_ABORTED when the signal fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
