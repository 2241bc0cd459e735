import PQueue from "p-queue";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Parser } from "../parser.js";
import type { ChunkStore } from "../store/chunk-store.js";
import type { ParseConfig } from "../wire/index.js";
import { EmbedBatcher } from "./embed-batcher.js";
import type { Chunker, IngestChunkOptions, IngestConcurrency } from "./ingest-options.js";
import { asyncJobsOf, type AsyncJobs } from "./parse-stage.js";
import type { ProgressTracker } from "./progress.js";
import type { RetryOptions } from "./retry.js";

/** Everything a document needs on its way from source to store; shared by all documents of a run. */
export interface Pipeline {
  store: ChunkStore;
  parser: Parser;
  /** Set when documents go through resumable async jobs. */
  jobs: AsyncJobs | undefined;
  parseConfig: ParseConfig | undefined;
  chunker: Chunker;
  chunkOptions: IngestChunkOptions;
  batcher: EmbedBatcher;
  optionsHash: string;
  queues: { parse: PQueue; chunk: PQueue; store: PQueue };
  retry: RetryOptions;
  progress: ProgressTracker;
  signal: AbortSignal | undefined;
}

export interface PipelineParts {
  store: ChunkStore;
  parser: Parser;
  embeddings: EmbeddingsInterface;
  chunker: Chunker;
  chunkOptions: IngestChunkOptions;
  parseConfig: ParseConfig | undefined;
  optionsHash: string;
  concurrency: IngestConcurrency;
  parsesPerSecond: number | undefined;
  embedBatchSize: number;
  embedLingerMs: number;
  retry: RetryOptions;
  asyncJobs: boolean;
  progress: ProgressTracker;
  signal: AbortSignal | undefined;
}

/** Builds the stage queues: each stage has its own concurrency, parse optionally rate-limited. */
export function createPipeline(parts: PipelineParts): Pipeline {
  const rate = parts.parsesPerSecond;
  return {
    store: parts.store,
    parser: parts.parser,
    jobs: parts.asyncJobs ? asyncJobsOf(parts.parser) : undefined,
    parseConfig: parts.parseConfig,
    chunker: parts.chunker,
    chunkOptions: parts.chunkOptions,
    batcher: new EmbedBatcher(parts.embeddings, {
      batchSize: parts.embedBatchSize,
      concurrency: parts.concurrency.embed,
      lingerMs: parts.embedLingerMs,
      retry: parts.retry,
    }),
    optionsHash: parts.optionsHash,
    queues: {
      parse: new PQueue({
        concurrency: parts.concurrency.parse,
        // p-queue's interval cap: at most `rate` parse starts in any one-second window.
        ...(rate ? { intervalCap: Math.max(1, Math.floor(rate)), interval: rate >= 1 ? 1000 : Math.round(1000 / rate) } : {}),
      }),
      chunk: new PQueue({ concurrency: parts.concurrency.chunk }),
      store: new PQueue({ concurrency: parts.concurrency.store }),
    },
    retry: parts.retry,
    progress: parts.progress,
    signal: parts.signal,
  };
}
