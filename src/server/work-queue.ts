import PQueue from "p-queue";
import { DocParseError, LocalErrorCode } from "../errors.js";

/**
 * The bounded queue every parse runs on (sync and async alike): at most `concurrency`
 * at once and `maxQueued` waiting. A full queue refuses new work at once (the caller
 * answers 40306) rather than letting latency and memory grow without bound.
 */
export class WorkQueue {
  readonly #queue: PQueue;
  readonly #maxQueued: number;
  /** Rejecters of tasks not started yet, so that `clear()` settles every promise. */
  readonly #waiting = new Set<(error: unknown) => void>();
  #closed = false;

  constructor({ concurrency, maxQueued }: { concurrency: number; maxQueued: number }) {
    this.#queue = new PQueue({ concurrency });
    this.#maxQueued = maxQueued;
  }

  /** Whether one more task would be accepted now. */
  get hasRoom(): boolean {
    return this.#queue.pending < this.#queue.concurrency || this.#queue.size < this.#maxQueued;
  }

  /**
   * Enqueues `task`, or returns undefined when the queue is full. After `close()` it
   * rejects with DOCPARSE_ABORTED: a request that finished uploading during shutdown
   * must not start a parse (and hold its upload) after the queue was emptied.
   */
  tryAdd<T>(task: () => Promise<T>): Promise<T> | undefined {
    if (this.#closed) return Promise.reject(shuttingDown());
    if (!this.hasRoom) return undefined;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.add(reject);
      this.#queue
        .add(() => {
          this.#waiting.delete(reject);
          return task();
        })
        .then(resolve, reject);
    });
  }

  /** Resolves when nothing is running or waiting. */
  onIdle(): Promise<void> {
    return this.#queue.onIdle();
  }

  /**
   * Drops the tasks that have not started (their promises reject with DOCPARSE_ABORTED)
   * and refuses every later one. Running tasks go on; `onIdle()` waits for them.
   */
  close(): void {
    this.#closed = true;
    this.#queue.clear();
    const error = shuttingDown();
    for (const reject of this.#waiting) reject(error);
    this.#waiting.clear();
  }

  get running(): number {
    return this.#queue.pending;
  }

  get waiting(): number {
    return this.#queue.size;
  }
}

function shuttingDown(): DocParseError {
  return new DocParseError(LocalErrorCode.Aborted, "The service is shutting down");
}
