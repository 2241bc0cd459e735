import type { DocumentOutcome, IngestStage } from "./ingest-report.js";

/** The stages a document passes through, in order. */
export const PIPELINE_STAGES = ["parse", "chunk", "embed", "store"] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** Documents in a stage right now, and documents that got through it. */
export interface StageCount {
  active: number;
  done: number;
}

/** What changed, with the snapshot that follows it. */
export type ProgressChange =
  | { type: "discovered"; sourceId: string }
  | { type: "stage"; sourceId: string; stage: PipelineStage; phase: "start" | "end" }
  | { type: "document"; outcome: DocumentOutcome }
  | { type: "deleting" }
  | { type: "done" };

/** A progress event: counters after `change`. */
export interface IngestProgress {
  change: ProgressChange;
  /** Documents found in the sources so far. */
  discovered: number;
  /** How many documents the sources hold, once known (counted up front or at the end of enumeration). */
  total: number | undefined;
  /** Documents finished, whatever the outcome. */
  completed: number;
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
  stages: Record<PipelineStage, StageCount>;
  /** Pages parsed and chunks stored in this run. */
  pages: number;
  chunks: number;
  elapsedMs: number;
  pagesPerSecond: number;
  documentsPerSecond: number;
  /** Seconds left at the current document rate, once the total is known. */
  etaSeconds: number | undefined;
}

/** Keeps the counters and calls the listener on every change. */
export class ProgressTracker {
  readonly #listener: ((event: IngestProgress) => void) | undefined;
  readonly #started = performance.now();
  discovered = 0;
  total: number | undefined;
  completed = 0;
  added = 0;
  updated = 0;
  unchanged = 0;
  deleted = 0;
  failed = 0;
  pages = 0;
  chunks = 0;
  readonly stages: Record<PipelineStage, StageCount> = {
    parse: { active: 0, done: 0 },
    chunk: { active: 0, done: 0 },
    embed: { active: 0, done: 0 },
    store: { active: 0, done: 0 },
  };

  constructor(listener?: (event: IngestProgress) => void) {
    this.#listener = listener;
  }

  discover(sourceId: string): void {
    this.discovered++;
    this.#emit({ type: "discovered", sourceId });
  }

  stage(sourceId: string, stage: IngestStage, phase: "start" | "end"): void {
    if (!isPipelineStage(stage)) return;
    const count = this.stages[stage];
    if (phase === "start") count.active++;
    else {
      count.active--;
      count.done++;
    }
    this.#emit({ type: "stage", sourceId, stage, phase });
  }

  finish(outcome: DocumentOutcome): void {
    this.completed++;
    switch (outcome.status) {
      case "added":
      case "updated":
        this[outcome.status]++;
        this.pages += outcome.pages;
        this.chunks += outcome.chunks;
        break;
      case "unchanged":
        this.unchanged++;
        break;
      case "deleted":
        this.deleted++;
        break;
      case "failed":
        this.failed++;
        break;
      case "aborted":
        break;
    }
    this.#emit({ type: "document", outcome });
  }

  change(change: ProgressChange): void {
    this.#emit(change);
  }

  snapshot(change: ProgressChange): IngestProgress {
    const elapsedMs = performance.now() - this.#started;
    const seconds = Math.max(elapsedMs / 1000, 1e-3);
    const documentsPerSecond = this.completed / seconds;
    const left = this.total === undefined ? undefined : Math.max(this.total - this.completed, 0);
    return {
      change,
      discovered: this.discovered,
      total: this.total,
      completed: this.completed,
      added: this.added,
      updated: this.updated,
      unchanged: this.unchanged,
      deleted: this.deleted,
      failed: this.failed,
      stages: structuredClone(this.stages),
      pages: this.pages,
      chunks: this.chunks,
      elapsedMs,
      pagesPerSecond: this.pages / seconds,
      documentsPerSecond,
      etaSeconds: left === undefined ? undefined : left === 0 ? 0 : documentsPerSecond > 0 ? left / documentsPerSecond : undefined,
    };
  }

  #emit(change: ProgressChange): void {
    if (!this.#listener) return;
    try {
      this.#listener(this.snapshot(change));
    } catch {
      // A throwing progress listener must not break the run.
    }
  }
}

function isPipelineStage(stage: IngestStage): stage is PipelineStage {
  return (PIPELINE_STAGES as readonly string[]).includes(stage);
}
