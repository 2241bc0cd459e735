/** The stage a document was in when something happened to it. */
export type IngestStage = "source" | "parse" | "chunk" | "embed" | "store" | "delete";

/** One document that could not be ingested. The run went on without it. */
export interface IngestFailure {
  sourceId: string;
  /** A `DocParseError` code (the service's number or a local string code). */
  code: string | number;
  message: string;
  stage: IngestStage;
}

/** What happened to one document in a run. */
export type DocumentOutcome =
  | { sourceId: string; status: "added" | "updated"; chunks: number; pages: number }
  | { sourceId: string; status: "unchanged" }
  | { sourceId: string; status: "deleted" }
  | { sourceId: string; status: "failed"; failure: IngestFailure; retryable: boolean }
  | { sourceId: string; status: "aborted" };

/** The result of `ingest()`, counted in documents. */
export interface IngestReport {
  /** Documents stored for the first time. */
  added: number;
  /** Documents whose content or options changed and were re-stored (stale chunks removed). */
  updated: number;
  /** Documents skipped because content and options were the same as last time. */
  unchanged: number;
  /** Documents removed because they vanished from the sources (`deleteMissing`). */
  deleted: number;
  /** Documents that failed, with code, message and stage. */
  failed: IngestFailure[];
  /** Chunks written in this run. */
  chunks: number;
  /** Pages parsed in this run. */
  pages: number;
  /** True when the run was cancelled; documents not reached are simply not counted. */
  aborted: boolean;
  /** Wall time of the run. */
  durationMs: number;
  /** Embedding calls of this run: batches, texts, and how full the batches were (0..1). */
  embedding?: { batches: number; texts: number; fill: number };
}

/** An empty report, for accumulating. */
export function emptyReport(): IngestReport {
  return { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: [], chunks: 0, pages: 0, aborted: false, durationMs: 0 };
}

/** Adds one outcome to a report. */
export function countOutcome(report: IngestReport, outcome: DocumentOutcome): void {
  switch (outcome.status) {
    case "added":
    case "updated":
      report[outcome.status] += 1;
      report.chunks += outcome.chunks;
      report.pages += outcome.pages;
      break;
    case "unchanged":
      report.unchanged += 1;
      break;
    case "deleted":
      report.deleted += 1;
      break;
    case "failed":
      report.failed.push(outcome.failure);
      break;
    case "aborted":
      break;
  }
}
