import PQueue from "p-queue";
import { abortError } from "../errors.js";

/**
 * Keeps calls under the service's QPS limit (a sliding window, so bursts at a window
 * edge do not exceed it) and a concurrency cap. Every attempt, retries included, takes
 * a slot: a retry storm cannot exceed the limit either.
 */
/**
 * Slack on the QPS window: a request is dispatched a few ms after it takes its slot (body
 * set-up) and the network can bunch arrivals, while the service counts arrivals. 5 %
 * longer windows keep those at or under the limit. @default 1.05
 */
const WINDOW_SLACK = 1.05;

export class RateLimiter {
  readonly #queue: PQueue;

  constructor({ requestsPerSecond, concurrency }: { requestsPerSecond: number; concurrency: number }) {
    const limited = Number.isFinite(requestsPerSecond);
    // p-queue counts whole tasks per interval: 2.5 rps becomes one task per 400 ms.
    const whole = limited && Number.isInteger(requestsPerSecond);
    this.#queue = new PQueue({
      concurrency,
      ...(limited
        ? {
            intervalCap: whole ? requestsPerSecond : 1,
            interval: Math.ceil((whole ? 1000 : 1000 / requestsPerSecond) * WINDOW_SLACK),
            strict: true,
          }
        : {}),
    });
  }

  /** Runs `task` when a slot is free; rejects with DOCPARSE_ABORTED if `signal` fires while waiting. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw abortError(signal);
    try {
      return await this.#queue.add(task, signal ? { signal } : {});
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      throw error;
    }
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#queue.size;
  }

  /** Calls running now. */
  get running(): number {
    return this.#queue.pending;
  }
}
