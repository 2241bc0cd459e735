import { sha256 } from "./content-hash.js";
import type { SourceRef } from "./source.js";

/** What one BullMQ job carries: a reference to the document, never its parse result. */
export interface IngestJobData {
  sourceId: string;
  filename: string;
  ref: SourceRef;
}

/** What a worker returns for a finished job (BullMQ keeps it as the job's return value). */
export interface IngestJobResult {
  status: "added" | "updated" | "unchanged";
  chunks?: number;
  pages?: number;
}

/** Queue settings shared by `enqueueIngest` and `runWorker`. */
export const QUEUE_DEFAULTS = {
  /** The BullMQ queue name. */
  queueName: "docparse-ingest",
  /** Attempts per job (first try + retries) for retryable failures. */
  attempts: 3,
  /** First retry delay of BullMQ's exponential backoff. */
  backoffMs: 1000,
  /** Jobs a worker runs at once. */
  workerConcurrency: 4,
  /** How long a job's lock lives without renewal: a killed worker's job is taken over after this. */
  lockDurationMs: 30_000,
} as const;

/**
 * The job id of a document: a hash of its sourceId. BullMQ ignores an add whose id is
 * already queued, so enqueueing the same document twice (two runs, a retry of the
 * enqueuer) yields one job. Prefixed because BullMQ refuses integer-looking custom ids.
 */
export function jobIdFor(sourceId: string): string {
  return `doc-${sha256(sourceId).slice(0, 40)}`;
}

/**
 * Puts a failure into a BullMQ `failedReason` (a string) without losing its code and
 * stage; {@link decodeFailure} reads it back.
 */
export function encodeFailure(failure: { code: string | number; message: string; stage: string }): string {
  return JSON.stringify({ docparse: 1, code: failure.code, message: failure.message, stage: failure.stage });
}

/** Reads a failure written by {@link encodeFailure}; any other reason becomes a worker failure. */
export function decodeFailure(reason: string | undefined): { code: string | number; message: string; stage: string } {
  try {
    const parsed = JSON.parse(reason ?? "") as Record<string, unknown>;
    if (parsed.docparse === 1 && typeof parsed.message === "string" && typeof parsed.stage === "string" && (typeof parsed.code === "string" || typeof parsed.code === "number")) {
      return { code: parsed.code, message: parsed.message, stage: parsed.stage };
    }
  } catch {
    // Not ours: BullMQ's own reasons (stalled too often, lock lost).
  }
  return { code: "DOCPARSE_WORKER", message: reason || "The job failed in the worker", stage: "worker" };
}
