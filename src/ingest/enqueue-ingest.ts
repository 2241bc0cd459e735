import type { ChunkStore } from "../store/chunk-store.js";
import { invalidOption } from "../errors.js";
import { openStoreUrl } from "./defaults.js";
import type { DownloadLimits } from "./fetch-url.js";
import { countOutcome, emptyReport, type DocumentOutcome, type IngestReport, type IngestStage } from "./ingest-report.js";
import { positiveInteger } from "./ingest-options.js";
import { ProgressTracker, type IngestProgress } from "./progress.js";
import { decodeFailure, jobIdFor, QUEUE_DEFAULTS, type IngestJobData, type IngestJobResult } from "./queue-job.js";
import { connectRedis, loadBullmq } from "./redis-connection.js";
import { resolveSource, topLevelSources } from "./resolve-sources.js";
import { toFailure } from "./process-document.js";
import type { IngestSources } from "./source.js";

/** Options of {@link enqueueIngest}. */
export interface EnqueueIngestOptions {
  sources: IngestSources;
  /** The Redis URL of the queue, e.g. `redis://127.0.0.1:6379`. */
  queue: string;
  /** @default "docparse-ingest" */
  queueName?: string;
  /** @default process.cwd() */
  root?: string;
  include?: string | string[];
  exclude?: string | string[];
  /** How URL sources are read: `mode` travels with each job; size and time limits are the workers' own. */
  downloadLimits?: DownloadLimits;
  /** Attempts per job for retryable failures. @default 3 */
  attempts?: number;
  /** First retry delay (exponential backoff). @default 1000 */
  backoffMs?: number;
  /** Wait until every job has finished and report outcomes, as `ingest()` does. @default true */
  wait?: boolean;
  /**
   * The shared store: read to settle jobs whose events were missed, and needed for
   * `deleteMissing`. A URL is opened here and closed at the end.
   */
  store?: ChunkStore | string;
  /** After all jobs finished, remove documents no longer in the sources (needs `store` and `wait`). @default false */
  deleteMissing?: boolean;
  /** How often jobs whose events were missed are looked up. @default 1000 */
  pollIntervalMs?: number;
  onProgress?: (progress: IngestProgress) => void;
  onDocument?: (outcome: DocumentOutcome) => void;
  signal?: AbortSignal;
}

/** The report of an enqueue run: the `ingest()` report plus how many jobs were submitted. */
export interface EnqueueReport extends IngestReport {
  /** Documents submitted (a document already queued is deduplicated by BullMQ, not counted twice). */
  enqueued: number;
}

const BULK = 500;

/**
 * Enqueues one BullMQ job per document (job id = hash of the sourceId, so enqueueing
 * twice dedupes), then — with `wait` — follows the jobs to the end and returns a report
 * like `ingest()`'s: a job that failed after its retries is in `failed`, never lost.
 */
export async function enqueueIngest(options: EnqueueIngestOptions): Promise<EnqueueReport> {
  const started = performance.now();
  const attempts = options.attempts ?? QUEUE_DEFAULTS.attempts;
  const backoffMs = options.backoffMs ?? QUEUE_DEFAULTS.backoffMs;
  const wait = options.wait ?? true;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  positiveInteger("attempts", attempts, 1);
  positiveInteger("backoffMs", backoffMs, 0);
  positiveInteger("pollIntervalMs", pollIntervalMs, 10);
  if (options.deleteMissing && (!options.store || !wait)) throw invalidOption("`deleteMissing` needs `store` and `wait`");
  const { signal } = options;

  const { Queue, QueueEvents } = await loadBullmq();
  const queueName = options.queueName ?? QUEUE_DEFAULTS.queueName;
  const connection = await connectRedis(options.queue);
  const store = typeof options.store === "string" ? await openStoreUrl(options.store) : options.store;
  const queue = new Queue<IngestJobData, IngestJobResult>(queueName, { connection });
  // Subscribed before the first add, so no completion can slip by unseen.
  const eventsConnection = wait ? connection.duplicate() : undefined;
  const events = eventsConnection ? new QueueEvents(queueName, { connection: eventsConnection }) : undefined;
  const progress = new ProgressTracker(options.onProgress);
  const report: EnqueueReport = { ...emptyReport(), enqueued: 0 };
  const pending = new Map<string, string>();
  let settle: () => void = () => undefined;
  const allSettled = new Promise<void>((resolve) => (settle = resolve));
  let enumerated = false;

  const record = (outcome: DocumentOutcome) => {
    countOutcome(report, outcome);
    progress.finish(outcome);
    try {
      options.onDocument?.(outcome);
    } catch {
      // A throwing listener must not lose the outcome.
    }
  };
  const finish = (jobId: string, outcome: DocumentOutcome) => {
    if (!pending.delete(jobId)) return;
    record(outcome);
    if (enumerated && pending.size === 0) settle();
  };
  events?.on("completed", ({ jobId, returnvalue }) => {
    const sourceId = pending.get(jobId);
    if (sourceId === undefined) return;
    const value = (typeof returnvalue === "string" ? safeJson(returnvalue) : returnvalue) as Partial<IngestJobResult> | undefined;
    const status = value?.status ?? "unchanged";
    finish(jobId, status === "unchanged" ? { sourceId, status } : { sourceId, status, chunks: value?.chunks ?? 0, pages: value?.pages ?? 0 });
  });
  events?.on("failed", ({ jobId, failedReason }) => {
    const sourceId = pending.get(jobId);
    if (sourceId === undefined) return;
    const f = decodeFailure(failedReason);
    finish(jobId, { sourceId, status: "failed", failure: { sourceId, code: f.code, message: f.message, stage: f.stage as IngestStage }, retryable: false });
  });
  events?.on("error", () => undefined);

  try {
    await events?.waitUntilReady();
    const seen = new Set<string>();
    let enumeratedAll = true;
    let batch: { name: string; data: IngestJobData; opts: Record<string, unknown> }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await queue.addBulk(batch);
      report.enqueued += batch.length;
      batch = [];
    };
    outer: for await (const source of topLevelSources(options.sources)) {
      try {
        for await (const doc of resolveSource(source, { root: options.root, include: options.include, exclude: options.exclude, downloadLimits: options.downloadLimits })) {
          if (signal?.aborted) break outer;
          if (seen.has(doc.sourceId)) continue;
          seen.add(doc.sourceId);
          const jobId = jobIdFor(doc.sourceId);
          pending.set(jobId, doc.sourceId);
          progress.discover(doc.sourceId);
          batch.push({
            name: "ingest",
            data: { sourceId: doc.sourceId, filename: doc.filename, ref: doc.ref },
            opts: {
              jobId,
              attempts,
              backoff: { type: "exponential", delay: backoffMs },
              // Finished jobs are removed, so a later run can enqueue the same document
              // again; outcomes travel through events and the manifest.
              removeOnComplete: true,
              removeOnFail: true,
            },
          });
          if (batch.length >= BULK) await flush();
        }
      } catch (error) {
        enumeratedAll = false;
        const failure = toFailure(error, typeof source === "string" ? source : JSON.stringify(source), "source");
        record({ sourceId: failure.sourceId, status: "failed", failure, retryable: false });
      }
    }
    await flush();
    progress.total = pending.size + progress.completed;
    enumerated = true;
    if (!wait) {
      pending.clear();
    } else if (pending.size === 0) {
      settle();
    } else {
      await waitForAll(allSettled, pending, queue, store, finish, pollIntervalMs, signal);
    }

    if (options.deleteMissing && store && enumeratedAll && !signal?.aborted) {
      for (const entry of await store.manifest.list()) {
        if (seen.has(entry.sourceId)) continue;
        await store.removeSource(entry.sourceId);
        record({ sourceId: entry.sourceId, status: "deleted" });
      }
    }
    report.aborted = signal?.aborted ?? false;
    report.durationMs = performance.now() - started;
    progress.change({ type: "done" });
    return report;
  } finally {
    // BullMQ leaves connections it was given open, and QueueEvents would sit out its
    // blocking read (10 s) before closing: drop our connections first.
    eventsConnection?.disconnect();
    await events?.close();
    await queue.close();
    connection.disconnect();
    if (typeof options.store === "string") await store?.close();
  }
}

// Events are the fast path; this poll settles jobs whose events were missed (removed
// before we subscribed, or lost on a reconnect), judging by the shared manifest.
async function waitForAll(
  allSettled: Promise<void>,
  pending: Map<string, string>,
  queue: { getJobState(id: string): Promise<string> },
  store: ChunkStore | undefined,
  finish: (jobId: string, outcome: DocumentOutcome) => void,
  intervalMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const gone = new Set<string>();
  let stop = false;
  const aborted = new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
  const poll = (async () => {
    while (!stop && pending.size > 0) {
      await new Promise((r) => setTimeout(r, intervalMs));
      for (const [jobId, sourceId] of [...pending]) {
        if (stop) return;
        const state = await queue.getJobState(jobId);
        if (state !== "unknown") {
          gone.delete(jobId);
          continue;
        }
        // Unknown twice in a row: finished and removed, its event not seen.
        if (!gone.has(jobId)) {
          gone.add(jobId);
          continue;
        }
        const entry = await store?.manifest.get(sourceId);
        if (entry?.status === "failed" && entry.error) {
          finish(jobId, { sourceId, status: "failed", failure: { sourceId, code: entry.error.code, message: entry.error.message, stage: entry.error.stage as IngestStage }, retryable: false });
        } else {
          finish(jobId, { sourceId, status: "unchanged" });
        }
      }
    }
  })();
  await Promise.race([allSettled, aborted]);
  stop = true;
  await poll.catch(() => undefined);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
