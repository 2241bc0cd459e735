/**
 * Ingestion jobs: sources → parse → chunk → embed → store, incremental through the
 * store's manifest, resumable, observable, and distributable over BullMQ.
 * Light to import: parsers, stores, BullMQ and ioredis load when first used.
 */
export { ingest } from "./ingest.js";
export {
  INGEST_DEFAULTS,
  resolveConcurrency,
  type IngestOptions,
  type IngestConcurrency,
  type IngestChunkOptions,
  type Chunker,
  type ChunkerContext,
} from "./ingest-options.js";
export { emptyReport, type IngestReport, type IngestFailure, type IngestStage, type DocumentOutcome } from "./ingest-report.js";
export { PIPELINE_STAGES, type IngestProgress, type ProgressChange, type PipelineStage, type StageCount } from "./progress.js";
export type { IngestSource, IngestSources, FileSource, DirectorySource, UrlSource, BytesSource, SourceDocument, SourceRef, LoadedDocument } from "./source.js";
export { resolveSources, sourceIdFor } from "./resolve-sources.js";
export { walkDirectory, type WalkOptions } from "./walk-directory.js";
export type { DownloadLimits } from "./fetch-url.js";
export { EmbedBatcher, type EmbedBatcherOptions, type EmbedStats } from "./embed-batcher.js";
export { asyncJobsOf, type AsyncJobs } from "./parse-stage.js";
export { runWorker, type IngestWorker, type IngestWorkerOptions } from "./run-worker.js";
export { enqueueIngest, type EnqueueIngestOptions, type EnqueueReport } from "./enqueue-ingest.js";
export { QUEUE_DEFAULTS, jobIdFor, type IngestJobData, type IngestJobResult } from "./queue-job.js";
export type { ProcessingOptions } from "./prepare-run.js";
