import { abortError } from "../errors.js";

/**
 * A counting semaphore: at most `size` documents between source and store. This is the
 * backpressure that keeps memory flat — the source is not read further until a slot frees.
 */
export class Slots {
  #free: number;
  readonly #waiters: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  /** Waits for a free slot. Rejects with DOCPARSE_ABORTED when the signal fires first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.#waiters.indexOf(grant);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(abortError(signal));
      };
      this.#waiters.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Frees a slot (hands it straight to the next waiter, if any). */
  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#free++;
  }
}
