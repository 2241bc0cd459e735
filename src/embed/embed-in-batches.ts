import PQueue from "p-queue";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { DocParseError, LocalErrorCode, abortError, invalidOption } from "../errors.js";
import { withRetry } from "../retry.js";

/** Options of {@link embedInBatches}. */
export interface EmbedInBatchesOptions {
  /**
   * Texts per `embedDocuments` call. Remote APIs cap this (OpenAI: 2048 inputs).
   * @default 64
   */
  batchSize?: number;
  /**
   * Batches in flight at once.
   * @default 2
   */
  concurrency?: number;
  /**
   * Extra attempts per batch after a failure (exponential backoff from `retryDelayMs`).
   * Errors that say they are not retryable (`isRetryable === false`) are not retried.
   * @default 2
   */
  retries?: number;
  /**
   * First backoff step; doubles each retry, with full jitter.
   * @default 500
   */
  retryDelayMs?: number;
  /** Cancels the remaining batches. */
  signal?: AbortSignal;
}

/** The defaults of {@link embedInBatches}, pinned by a test. */
export const EMBED_IN_BATCHES_DEFAULTS = { batchSize: 64, concurrency: 2, retries: 2, retryDelayMs: 500 } as const;

/**
 * Embeds many texts with any LangChain `Embeddings`, in batches, a few at a time, with
 * retries — for remote embedders with request-size limits and rate limits. The result
 * is in input order.
 *
 * Rejects with a `DocParseError` `DOCPARSE_EMBEDDING` (cause kept) when a batch fails
 * for good, `DOCPARSE_ABORTED` when `signal` fires, and `DOCPARSE_EMBEDDING` when the
 * embedder returns the wrong number of vectors.
 */
export async function embedInBatches(
  embeddings: EmbeddingsInterface,
  texts: readonly string[],
  options: EmbedInBatchesOptions = {},
): Promise<number[][]> {
  const {
    batchSize = EMBED_IN_BATCHES_DEFAULTS.batchSize,
    concurrency = EMBED_IN_BATCHES_DEFAULTS.concurrency,
    retries = EMBED_IN_BATCHES_DEFAULTS.retries,
    retryDelayMs = EMBED_IN_BATCHES_DEFAULTS.retryDelayMs,
    signal,
  } = options;
  positiveInteger("batchSize", batchSize, 1);
  positiveInteger("concurrency", concurrency, 1);
  positiveInteger("retries", retries, 0);
  if (!(retryDelayMs >= 0)) throw invalidOption(`Expected \`retryDelayMs\` to be a number >= 0, got ${String(retryDelayMs)}`);
  if (signal?.aborted) throw abortError(signal);

  const out = new Array<number[]>(texts.length);
  const queue = new PQueue({ concurrency });
  const tasks: Promise<void>[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    tasks.push(
      queue.add(async () => {
        const vectors = await withRetries(() => embeddings.embedDocuments(batch), retries, retryDelayMs, signal);
        if (vectors.length !== batch.length) {
          throw new DocParseError(
            LocalErrorCode.Embedding,
            `The embedder returned ${vectors.length} vectors for ${batch.length} texts`,
          );
        }
        vectors.forEach((v, i) => (out[start + i] = v));
      }),
    );
  }
  try {
    await Promise.all(tasks);
  } catch (error) {
    queue.clear();
    throw error;
  }
  return out;
}

/**
 * The shared retry policy with embedder semantics: third-party embedders throw plain
 * errors, so anything not explicitly marked `isRetryable: false` is retried; the final
 * failure is a DocParseError (DOCPARSE_EMBEDDING) keeping the original as `cause`.
 */
async function withRetries<T>(
  call: () => Promise<T>,
  retries: number,
  delayMs: number,
  signal: AbortSignal | undefined,
): Promise<T> {
  let attempts = 0;
  const isRetryable = (error: unknown) => (error as { isRetryable?: unknown } | null)?.isRetryable !== false;
  try {
    return await withRetry(
      () => (attempts++, call()),
      { maxRetries: retries, baseMs: delayMs, maxMs: Math.max(30_000, delayMs) },
      { shouldRetry: isRetryable, ...(signal ? { signal } : {}) },
    );
  } catch (error) {
    if (DocParseError.isInstance(error)) throw error;
    throw new DocParseError(
      LocalErrorCode.Embedding,
      `Embedding failed after ${attempts} attempt(s): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error, isRetryable: isRetryable(error) },
    );
  }
}

function positiveInteger(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw invalidOption(`Expected \`${name}\` to be an integer >= ${min}, got ${String(value)}`);
  }
}
