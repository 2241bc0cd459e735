import PQueue from "p-queue";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { DocParseError, LocalErrorCode, abortError } from "../errors.js";
import { withRetry, type RetryOptions } from "./retry.js";

/** Options of {@link EmbedBatcher}. */
export interface EmbedBatcherOptions {
  /** Texts per `embedDocuments` call. @default 64 */
  batchSize: number;
  /** Batches in flight at once. @default 2 */
  concurrency: number;
  /** How long a partial batch waits for texts from other documents. @default 10 */
  lingerMs: number;
  retry: RetryOptions;
}

interface Pending {
  text: string;
  request: Request;
  index: number;
}

interface Request {
  vectors: number[][];
  remaining: number;
  settled: boolean;
  resolve: (vectors: number[][]) => void;
  reject: (error: unknown) => void;
}

/** Counters for the batch-fill measurement. */
export interface EmbedStats {
  batches: number;
  texts: number;
  /** Mean of texts per batch / batchSize, 0..1. */
  fill: number;
}

/**
 * Embeds the chunks of many documents in shared batches: small documents' texts are
 * pooled into full batches (a remote embedder charges per call), a partial batch goes
 * out after `lingerMs`. Batches run on their own queue with their own concurrency.
 */
export class EmbedBatcher {
  readonly #embeddings: EmbeddingsInterface;
  readonly #options: EmbedBatcherOptions;
  readonly #queue: PQueue;
  #pending: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #batches = 0;
  #texts = 0;

  constructor(embeddings: EmbeddingsInterface, options: EmbedBatcherOptions) {
    this.#embeddings = embeddings;
    this.#options = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
  }

  /** Batches submitted so far and how full they were. */
  get stats(): EmbedStats {
    return { batches: this.#batches, texts: this.#texts, fill: this.#batches === 0 ? 0 : this.#texts / (this.#batches * this.#options.batchSize) };
  }

  /** Batches currently running or waiting. */
  get active(): number {
    return this.#queue.pending + this.#queue.size;
  }

  /** The vectors of `texts`, in order. Rejects with the batch's error if a batch fails for good. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const request: Request = { vectors: new Array(texts.length), remaining: texts.length, settled: false, resolve, reject };
      texts.forEach((text, index) => this.#pending.push({ text, request, index }));
      while (this.#pending.length >= this.#options.batchSize) this.#flush();
      if (this.#pending.length > 0 && !this.#timer) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          while (this.#pending.length > 0) this.#flush();
        }, this.#options.lingerMs);
      }
    });
  }

  #flush(): void {
    const batch = this.#pending.splice(0, this.#options.batchSize);
    if (this.#pending.length === 0 && this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#batches++;
    this.#texts += batch.length;
    void this.#queue.add(async () => {
      // A batch whose documents have all failed or been cancelled is not worth embedding.
      if (batch.every((p) => p.request.settled)) return;
      try {
        const texts = batch.map((p) => p.text);
        const vectors = await withRetry(() => this.#embeddings.embedDocuments(texts), this.#options.retry);
        if (vectors.length !== batch.length) {
          throw new DocParseError(LocalErrorCode.Embedding, `The embedder returned ${vectors.length} vectors for ${batch.length} texts`);
        }
        batch.forEach((p, i) => {
          const r = p.request;
          if (r.settled) return;
          r.vectors[p.index] = vectors[i]!;
          if (--r.remaining === 0) {
            r.settled = true;
            r.resolve(r.vectors);
          }
        });
      } catch (error) {
        const failure = DocParseError.isInstance(error)
          ? error
          : new DocParseError(LocalErrorCode.Embedding, `Embedding failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        for (const p of batch) {
          if (p.request.settled) continue;
          p.request.settled = true;
          p.request.reject(failure);
        }
      }
    });
  }
}
