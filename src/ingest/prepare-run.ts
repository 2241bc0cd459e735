import { setMaxListeners } from "node:events";
import type { ChunkStore } from "../store/chunk-store.js";
import { defaultChunker, defaultEmbeddings, defaultParser, openStoreUrl } from "./defaults.js";
import { INGEST_DEFAULTS, nonNegative, positiveInteger, resolveConcurrency, type IngestOptions } from "./ingest-options.js";
import { describeEmbeddings, optionsHash } from "./options-hash.js";
import { createPipeline, type Pipeline } from "./pipeline.js";
import { ProgressTracker } from "./progress.js";

/** The processing half of the ingest options: what a worker needs (no sources). */
export type ProcessingOptions = Omit<IngestOptions, "sources" | "root" | "include" | "exclude" | "deleteMissing" | "countFirst" | "onDocument">;

/** A ready pipeline and how to tear it down. */
export interface PreparedRun {
  pipeline: Pipeline;
  store: ChunkStore;
  progress: ProgressTracker;
  /** Closes the store if it was opened from a URL here. */
  close(): Promise<void>;
}

/**
 * Validates options, loads default parts and builds the stage queues. Shared by
 * `ingest()` and the distributed worker, so both hash options and process documents
 * identically (which is what makes their stores comparable).
 */
export async function prepareRun(options: ProcessingOptions): Promise<PreparedRun> {
  const concurrency = resolveConcurrency(options.concurrency);
  const embedBatchSize = options.embedBatchSize ?? INGEST_DEFAULTS.embedBatchSize;
  const embedLingerMs = options.embedLingerMs ?? INGEST_DEFAULTS.embedLingerMs;
  const retries = options.retries ?? INGEST_DEFAULTS.retries;
  const retryDelayMs = options.retryDelayMs ?? INGEST_DEFAULTS.retryDelayMs;
  positiveInteger("embedBatchSize", embedBatchSize, 1);
  nonNegative("embedLingerMs", embedLingerMs);
  positiveInteger("retries", retries, 0);
  nonNegative("retryDelayMs", retryDelayMs);
  if (options.parsesPerSecond !== undefined) nonNegative("parsesPerSecond", options.parsesPerSecond, Number.MIN_VALUE);

  const parser = options.parser ?? (await defaultParser());
  const embeddings = options.embeddings ?? (await defaultEmbeddings());
  const chunker = options.chunker ?? (await defaultChunker());
  const ownsStore = typeof options.store === "string";
  const store: ChunkStore = typeof options.store === "string" ? await openStoreUrl(options.store) : options.store;
  const progress = new ProgressTracker(options.onProgress);
  // Every queued document listens on the signal (p-queue, waits, retries): follow the
  // caller's signal through one listener and lift the listener limit on our own copy.
  const internal = new AbortController();
  setMaxListeners(0, internal.signal);
  const follow = () => internal.abort(options.signal?.reason);
  if (options.signal?.aborted) follow();
  else options.signal?.addEventListener("abort", follow, { once: true });
  const parseConfig = options.parseConfig ?? INGEST_DEFAULTS.parseConfig;
  const pipeline = createPipeline({
    store,
    parser,
    embeddings,
    chunker,
    chunkOptions: options.chunk ?? {},
    parseConfig,
    optionsHash: optionsHash({
      parser: parser.name,
      parseConfig,
      chunk: options.chunk,
      chunker: options.chunker ? options.chunker.name || "custom" : undefined,
      embedder: options.embedderId ?? describeEmbeddings(embeddings),
    }),
    concurrency,
    parsesPerSecond: options.parsesPerSecond,
    embedBatchSize,
    embedLingerMs,
    retry: { retries, delayMs: retryDelayMs },
    asyncJobs: options.asyncJobs ?? INGEST_DEFAULTS.asyncJobs,
    progress,
    signal: internal.signal,
  });
  return {
    pipeline,
    store,
    progress,
    close: async () => {
      options.signal?.removeEventListener("abort", follow);
      if (ownsStore) await store.close();
    },
  };
}
