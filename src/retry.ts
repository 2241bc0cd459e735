import { DocParseError, abortError } from "./errors.js";

/** How failed attempts are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff step in ms; doubles per retry. */
  baseMs: number;
  /** Cap of the exponential step in ms. */
  maxMs: number;
}

/**
 * Delay before retry number `attempt` (0-based): "full jitter" — a uniform draw in
 * [0, min(maxMs, baseMs * 2^attempt)] — which spreads a crowd of clients that failed
 * together. A server's `Retry-After` is a floor: we never come back sooner than asked.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, retryAfterSeconds?: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  const jittered = Math.floor(random() * ceiling);
  if (retryAfterSeconds === undefined) return jittered;
  return Math.max(jittered, Math.ceil(retryAfterSeconds * 1000));
}

/** Resolves after `ms`, or rejects with DOCPARSE_ABORTED when the signal fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
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

export interface RetryHooks {
  /** Whether a failure may be retried; defaults to the error's `isRetryable`. */
  shouldRetry?: (error: unknown, attempt: number) => boolean;
  /** Called before each backoff sleep. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  signal?: AbortSignal;
}

/** Runs `attempt` until it succeeds, a failure is not retryable, or retries run out. */
export async function withRetry<T>(run: (attempt: number) => Promise<T>, policy: RetryPolicy, hooks: RetryHooks = {}): Promise<T> {
  const { shouldRetry = (e) => DocParseError.isInstance(e) && e.isRetryable, onRetry, signal } = hooks;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortError(signal);
    try {
      return await run(attempt);
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (attempt >= policy.maxRetries || !shouldRetry(error, attempt)) throw error;
      const retryAfter = DocParseError.isInstance(error) ? error.retryAfterSeconds : undefined;
      const delay = backoffDelay(attempt, policy, retryAfter);
      onRetry?.(error, attempt, delay);
      await sleep(delay, signal);
    }
  }
}
