import { LocalErrorCode } from "../errors.js";
import type { DocumentOutcome } from "./ingest-report.js";
import { positiveInteger } from "./ingest-options.js";
import { prepareRun, type ProcessingOptions } from "./prepare-run.js";
import { processDocument } from "./process-document.js";
import { encodeFailure, QUEUE_DEFAULTS, type IngestJobData, type IngestJobResult } from "./queue-job.js";
import { connectRedis, loadBullmq } from "./redis-connection.js";
import { documentFromRef } from "./resolve-sources.js";

/** Options of {@link runWorker}: the processing options of `ingest()` plus the queue. */
export interface IngestWorkerOptions extends ProcessingOptions {
  /** The Redis URL of the queue, e.g. `redis://127.0.0.1:6379`. */
  queue: string;
  /** @default "docparse-ingest" */
  queueName?: string;
  /** Jobs (documents) this worker runs at once. @default 4 */
  workerConcurrency?: number;
  /**
   * Lock time of a running job. If the worker dies, its job goes back to the queue once
   * the lock expires and another worker takes it. @default 30_000
   */
  lockDurationMs?: number;
  /** Called once per finished job. */
  onDocument?: (outcome: DocumentOutcome) => void;
}

/** A running worker. */
export interface IngestWorker {
  /** Jobs finished by this worker (any outcome). */
  readonly processed: number;
  /** Stops taking jobs, lets running ones finish, closes connections and the store. */
  close(): Promise<void>;
}

/**
 * Processes ingest jobs from a BullMQ queue (run any number of these, on any machines,
 * against a shared store such as `postgres://…`). Each job goes through the same
 * pipeline as `ingest()`; the manifest check makes a job delivered twice harmless.
 * Retryable failures are thrown back to BullMQ (retries with exponential backoff);
 * permanent ones fail the job at once (`UnrecoverableError`) with the code and stage
 * in its failedReason, and are recorded in the manifest.
 */
export async function runWorker(options: IngestWorkerOptions): Promise<IngestWorker> {
  const queueName = options.queueName ?? QUEUE_DEFAULTS.queueName;
  const concurrency = options.workerConcurrency ?? QUEUE_DEFAULTS.workerConcurrency;
  const lockDuration = options.lockDurationMs ?? QUEUE_DEFAULTS.lockDurationMs;
  positiveInteger("workerConcurrency", concurrency, 1);
  positiveInteger("lockDurationMs", lockDuration, 100);
  const { Worker, UnrecoverableError } = await loadBullmq();
  const run = await prepareRun({ ...options, concurrency: options.concurrency ?? { parse: concurrency, documents: concurrency } });
  const connection = await connectRedis(options.queue);
  let processed = 0;

  const worker = new Worker<IngestJobData, IngestJobResult>(
    queueName,
    async (job) => {
      const { sourceId, filename, ref } = job.data;
      const doc = documentFromRef(ref, sourceId, filename, options.downloadLimits);
      const outcome = await processDocument(doc, run.pipeline);
      processed++;
      options.onDocument?.(outcome);
      switch (outcome.status) {
        case "added":
        case "updated":
          return { status: outcome.status, chunks: outcome.chunks, pages: outcome.pages };
        case "unchanged":
          return { status: "unchanged" };
        case "failed": {
          const reason = encodeFailure(outcome.failure);
          if (outcome.retryable) throw new Error(reason);
          throw new UnrecoverableError(reason);
        }
        default:
          // Cancelled while shutting down: back to the queue for another attempt.
          throw new Error(encodeFailure({ code: LocalErrorCode.Aborted, message: "The worker stopped before the document was stored", stage: "worker" }));
      }
    },
    {
      connection,
      concurrency,
      lockDuration,
      // Check for jobs of dead workers at the lock's pace, so a takeover is prompt.
      stalledInterval: Math.max(100, Math.floor(lockDuration / 2)),
      maxStalledCount: 3,
      autorun: true,
    },
  );
  worker.on("error", () => {
    // Connection errors are retried by ioredis; BullMQ reports them here and we must listen.
  });
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    get processed() {
      return processed;
    },
    close() {
      closing ??= (async () => {
        await worker.close();
        await run.close();
        connection.disconnect();
      })();
      return closing;
    },
  };
}
