import { withRetry as retry } from "../retry.js";

export { sleep } from "../retry.js";

/** How retryable failures are retried inside a run. */
export interface RetryOptions {
  /** Extra attempts after a retryable failure (`isRetryable === true`). @default 2 */
  retries: number;
  /** First backoff step; doubles each attempt, with full jitter. A server's Retry-After wins. @default 500 */
  delayMs: number;
}

// A backoff step never grows past this, however many retries are configured.
const MAX_STEP_MS = 30_000;

/**
 * Calls `fn` until it succeeds, retrying only errors that say `isRetryable: true` (the
 * DocParseError catalogue: QPS limit, 500, upstream fault, network, timeout). The
 * shared policy of `src/retry.ts`, in the shape of ingest's options.
 */
export function withRetry<T>(fn: () => Promise<T>, options: RetryOptions, signal?: AbortSignal): Promise<T> {
  const policy = { maxRetries: options.retries, baseMs: options.delayMs, maxMs: Math.max(MAX_STEP_MS, options.delayMs) };
  return retry(() => fn(), policy, {
    shouldRetry: (error) => (error as { isRetryable?: unknown } | null)?.isRetryable === true,
    ...(signal ? { signal } : {}),
  });
}
