import { LocalErrorCode, invalidOption } from "../errors.js";
import { countOutcome, emptyReport, type DocumentOutcome, type IngestReport } from "./ingest-report.js";
import { INGEST_DEFAULTS, resolveConcurrency, type IngestOptions } from "./ingest-options.js";
import { prepareRun } from "./prepare-run.js";
import { processDocument, toFailure } from "./process-document.js";
import { resolveSource, topLevelSources, type ResolveOptions } from "./resolve-sources.js";
import { Slots } from "./slots.js";
import type { IngestSource } from "./source.js";

/**
 * Ingests documents into a store: parse → chunk → embed → store, each stage on its own
 * queue, at most `concurrency.documents` documents in flight.
 *
 * Incremental: a document whose bytes and options are unchanged since the last run is
 * skipped; a changed one is re-stored with its stale chunks removed in the same atomic
 * write; with `deleteMissing`, documents gone from the sources are removed. Failures do
 * not stop the run — they are in `report.failed`. Cancelling through `signal` resolves
 * with `report.aborted === true` and a consistent store.
 *
 * @example
 * ```ts
 * const report = await ingest({ sources: "docs/", store: "pglite://./.docparse" });
 * if (report.failed.length) console.error(report.failed);
 * ```
 */
export async function ingest(options: IngestOptions): Promise<IngestReport> {
  const started = performance.now();
  const { sources } = options;
  if (sources === undefined || sources === null) throw invalidOption("`sources` is required");
  if (!options.store) throw invalidOption("`store` is required: a ChunkStore or a store URL such as pglite://./.docparse");
  const concurrency = resolveConcurrency(options.concurrency);
  const run = await prepareRun(options);
  const { pipeline, store, progress } = run;
  const signal = pipeline.signal;
  const report = emptyReport();
  const finish = (outcome: DocumentOutcome) => {
    countOutcome(report, outcome);
    progress.finish(outcome);
    try {
      options.onDocument?.(outcome);
    } catch {
      // A throwing listener must not lose the document's outcome or stop the run.
    }
  };

  try {
    const resolveOptions: ResolveOptions = {
      root: options.root,
      include: options.include,
      exclude: options.exclude,
      downloadLimits: options.downloadLimits,
    };

    if (options.countFirst ?? INGEST_DEFAULTS.countFirst) progress.total = await countSources(sources, resolveOptions);

    const seen = new Set<string>();
    const slots = new Slots(concurrency.documents);
    const inFlight = new Set<Promise<void>>();
    let enumeratedAll = true;

    outer: for await (const source of topLevelSources(sources)) {
      try {
        for await (const doc of resolveSource(source, resolveOptions)) {
          if (signal?.aborted) break outer;
          if (seen.has(doc.sourceId)) {
            const message = `Two sources resolve to the sourceId ${JSON.stringify(doc.sourceId)}; the second was skipped`;
            const failure = { sourceId: doc.sourceId, code: LocalErrorCode.InvalidOption, message, stage: "source" as const };
            finish({ sourceId: doc.sourceId, status: "failed", failure, retryable: false });
            continue;
          }
          seen.add(doc.sourceId);
          progress.discover(doc.sourceId);
          try {
            await slots.acquire(signal);
          } catch {
            break outer;
          }
          const task: Promise<void> = processDocument(doc, pipeline)
            .then(finish)
            .finally(() => {
              slots.release();
              inFlight.delete(task);
            });
          inFlight.add(task);
        }
      } catch (error) {
        // A source that cannot be listed (missing path, unreadable directory) is reported
        // and the run goes on; but then "missing" cannot be told from "not listed", so
        // deleteMissing is skipped.
        enumeratedAll = false;
        const failure = toFailure(error, describeSource(source), "source");
        finish({ sourceId: failure.sourceId, status: "failed", failure, retryable: false });
      }
    }
    await Promise.all(inFlight);
    if (progress.total === undefined || progress.total < progress.completed) progress.total = progress.completed;

    if (options.deleteMissing && enumeratedAll && !signal?.aborted) {
      progress.change({ type: "deleting" });
      for (const entry of await store.manifest.list()) {
        if (signal?.aborted) break;
        if (seen.has(entry.sourceId)) continue;
        try {
          await store.removeSource(entry.sourceId);
          finish({ sourceId: entry.sourceId, status: "deleted" });
        } catch (error) {
          finish({ sourceId: entry.sourceId, status: "failed", failure: toFailure(error, entry.sourceId, "delete"), retryable: false });
        }
      }
    }
    report.aborted = signal?.aborted ?? false;
    report.durationMs = performance.now() - started;
    report.embedding = pipeline.batcher.stats;
    progress.change({ type: "done" });
    return report;
  } finally {
    await run.close();
  }
}

async function countSources(sources: IngestOptions["sources"], options: ResolveOptions): Promise<number | undefined> {
  // Only lists that can be walked twice: a generator would be consumed by counting.
  const list = typeof sources === "string" || sources instanceof URL ? [sources] : Array.isArray(sources) ? (sources as IngestSource[]) : undefined;
  if (!list) return undefined;
  let n = 0;
  for (const source of list) {
    try {
      for await (const _ of resolveSource(source, options)) n++;
    } catch {
      // Reported by the real pass.
    }
  }
  return n;
}

function describeSource(source: IngestSource): string {
  if (typeof source === "string") return source;
  if (source instanceof URL) return source.href;
  if ("dir" in source) return source.dir;
  if ("path" in source) return source.sourceId ?? source.path;
  if ("url" in source) return source.sourceId ?? source.url;
  return source.sourceId;
}


