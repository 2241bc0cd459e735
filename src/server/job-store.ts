import { randomUUID } from "node:crypto";
import type { ParsedDocument } from "../parser.js";
import type { JobStatusValue } from "../wire/index.js";

/** One async job as the service keeps it. */
export interface JobRecord {
  readonly id: string;
  readonly product: string;
  status: JobStatusValue;
  readonly createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  fileId?: string;
  /** Set when completed. */
  result?: ParsedDocument;
  /** Set when failed: the service code and message. */
  errorCode?: number;
  message?: string;
  /** Set when failed with an engine code behind `errorCode` (sent as `x-docparse-error`). */
  errorName?: string;
  readonly webhook?: string;
}

/**
 * Jobs in memory. Status moves pending → in_progress → completed | failed, only forward;
 * finished jobs (and their results) are dropped `ttlMs` after they finish.
 */
export class JobStore {
  readonly #jobs = new Map<string, JobRecord>();
  readonly #ttlMs: number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
    // Sweep often enough for short test TTLs, rarely enough to cost nothing.
    this.#sweeper = setInterval(() => this.sweep(), Math.min(Math.max(ttlMs / 2, 50), 60_000));
    this.#sweeper.unref();
  }

  create(product: string, webhook?: string): JobRecord {
    const job: JobRecord = { id: randomUUID(), product, status: "pending", createdAt: Date.now(), ...(webhook ? { webhook } : {}) };
    this.#jobs.set(job.id, job);
    return job;
  }

  /** The job, or undefined when unknown or expired. */
  get(id: string): JobRecord | undefined {
    const job = this.#jobs.get(id);
    if (job && this.#expired(job, Date.now())) {
      this.#jobs.delete(id);
      return undefined;
    }
    return job;
  }

  start(job: JobRecord): void {
    if (job.status !== "pending") return;
    job.status = "in_progress";
    job.startedAt = Date.now();
  }

  complete(job: JobRecord, result: ParsedDocument): void {
    if (job.status === "completed" || job.status === "failed") return;
    job.status = "completed";
    job.result = result;
    job.fileId = result.file_id;
    job.finishedAt = Date.now();
  }

  fail(job: JobRecord, code: number, message: string, errorName?: string): void {
    if (job.status === "completed" || job.status === "failed") return;
    job.status = "failed";
    job.errorCode = code;
    job.message = message;
    if (errorName !== undefined) job.errorName = errorName;
    job.finishedAt = Date.now();
  }

  /** Drops expired jobs. */
  sweep(now = Date.now()): void {
    for (const [id, job] of this.#jobs) if (this.#expired(job, now)) this.#jobs.delete(id);
  }

  get size(): number {
    return this.#jobs.size;
  }

  close(): void {
    clearInterval(this.#sweeper);
    this.#jobs.clear();
  }

  #expired(job: JobRecord, now: number): boolean {
    return job.finishedAt !== undefined && now - job.finishedAt >= this.#ttlMs;
  }
}
