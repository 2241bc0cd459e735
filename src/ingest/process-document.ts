import type { Chunk } from "../chunk/chunk.js";
import { DocParseError, LocalErrorCode, abortError } from "../errors.js";
import type { ManifestEntry, StoredChunk } from "../store/chunk-store.js";
import type { DocumentOutcome, IngestFailure, IngestStage } from "./ingest-report.js";
import { parseDocument, type ParseJobHooks } from "./parse-stage.js";
import type { Pipeline } from "./pipeline.js";
import { withRetry } from "./retry.js";
import type { LoadedDocument, SourceDocument } from "./source.js";

/**
 * Takes one document from source to store and says what happened. Never throws: a
 * failure becomes a `failed` outcome (and a `failed` manifest entry), cancellation an
 * `aborted` one.
 *
 * Crash safety rests on two facts: the only write that changes chunks is
 * `replaceSource` (atomic: chunks and manifest entry together), and chunk ids are
 * deterministic. A run killed at any point leaves either the old or the new state of
 * each document, and the next run redoes exactly the documents whose manifest entry is
 * not `done` with the current hashes.
 */
export async function processDocument(doc: SourceDocument, p: Pipeline): Promise<DocumentOutcome> {
  const { sourceId } = doc;
  const signal = p.signal;
  let stage: IngestStage = "source";
  let previous: ManifestEntry | undefined;
  let loaded: LoadedDocument | undefined;
  try {
    if (signal?.aborted) throw abortError(signal);
    previous = await p.store.manifest.get(sourceId);
    loaded = await withRetry(() => doc.load(signal), p.retry, signal);
    const contentHash = loaded.contentHash;
    if (previous?.status === "done" && previous.contentHash === contentHash && previous.optionsHash === p.optionsHash) {
      return { sourceId, status: "unchanged" };
    }

    stage = "parse";
    const input = loaded.input;
    const prev = previous;
    const hooks: ParseJobHooks = {
      // Resume only a job for these very bytes and options; anything else is stale.
      resumeJobId:
        prev?.status === "parsing" && prev.jobId && prev.contentHash === contentHash && prev.optionsHash === p.optionsHash
          ? prev.jobId
          : undefined,
      onJobCreated: async (jobId) => {
        hooks.resumeJobId = jobId;
        const now = new Date().toISOString();
        await p.store.manifest.put({
          sourceId,
          contentHash,
          optionsHash: p.optionsHash,
          // The old chunks are still in the store until replaceSource; keep saying so.
          chunkIds: prev?.chunkIds ?? [],
          status: "parsing",
          jobId,
          createdAt: prev?.createdAt ?? now,
          updatedAt: now,
        });
      },
    };
    const parsed = await timed(p, sourceId, "parse", () =>
      p.queues.parse.add(
        () =>
          withRetry(
            () => parseDocument(p.parser, p.jobs, input, { filename: doc.filename, ...(p.parseConfig ? { config: p.parseConfig } : {}), ...(signal ? { signal } : {}) }, hooks),
            p.retry,
            signal,
          ),
        signal ? { signal } : {},
      ),
    );

    stage = "chunk";
    const chunks: Chunk[] = await timed(p, sourceId, "chunk", () =>
      p.queues.chunk.add(
        async () =>
          p.chunker(parsed.result, {
            sourceId,
            filename: doc.filename,
            ...(loaded?.url ? { url: loaded.url } : {}),
            ...(parsed.jobId ? { jobId: parsed.jobId } : {}),
            options: p.chunkOptions,
          }),
        signal ? { signal } : {},
      ),
    );

    stage = "embed";
    const vectors = await timed(p, sourceId, "embed", () => p.batcher.embed(chunks.map((c) => c.embedText), signal));

    // Cancellation point: everything before the store write is thrown away, a started
    // write is left to finish (it is atomic either way).
    if (signal?.aborted) throw abortError(signal);
    stage = "store";
    const records: StoredChunk[] = chunks.map((c, i) => ({ ...c, vector: vectors[i]! }));
    const now = new Date().toISOString();
    const entry: ManifestEntry = {
      sourceId,
      contentHash,
      optionsHash: p.optionsHash,
      chunkIds: chunks.map((c) => c.id),
      status: "done",
      ...(parsed.jobId ? { jobId: parsed.jobId } : {}),
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    await timed(p, sourceId, "store", () => p.queues.store.add(() => p.store.replaceSource(sourceId, records, entry)));
    const existed = previous !== undefined && (previous.status === "done" || previous.chunkIds.length > 0);
    return {
      sourceId,
      status: existed ? "updated" : "added",
      chunks: chunks.length,
      pages: countPages(parsed.result),
    };
  } catch (error) {
    if (signal?.aborted) return { sourceId, status: "aborted" };
    const failure = toFailure(error, sourceId, stage);
    await recordFailure(p, sourceId, failure, previous, loaded).catch(() => undefined);
    return { sourceId, status: "failed", failure, retryable: DocParseError.isInstance(error) && error.isRetryable };
  }
}

async function timed<T>(p: Pipeline, sourceId: string, stage: IngestStage, run: () => Promise<T>): Promise<T> {
  p.progress.stage(sourceId, stage, "start");
  try {
    return await run();
  } finally {
    p.progress.stage(sourceId, stage, "end");
  }
}

function countPages(result: { pages?: unknown[]; metadata?: { page_count?: number }; elements: { page_number: number }[] }): number {
  const fromMeta = result.metadata?.page_count;
  if (typeof fromMeta === "number") return fromMeta;
  if (result.pages?.length) return result.pages.length;
  let max = 0;
  for (const e of result.elements) if (e.page_number > max) max = e.page_number;
  return max;
}

/** A failure as the report shows it: stable code, message, stage. */
export function toFailure(error: unknown, sourceId: string, stage: IngestStage): IngestFailure {
  if (DocParseError.isInstance(error)) return { sourceId, code: error.code, message: error.message, stage };
  const code = (error as { code?: unknown } | null)?.code;
  return {
    sourceId,
    code: typeof code === "string" || typeof code === "number" ? code : stage === "store" ? LocalErrorCode.Store : "DOCPARSE_UNKNOWN",
    message: error instanceof Error ? error.message : String(error),
    stage,
  };
}

// The previous chunks stay searchable: a document that fails to re-parse keeps its last
// good version. Its entry says `failed`, so the next run tries it again.
async function recordFailure(
  p: Pipeline,
  sourceId: string,
  failure: IngestFailure,
  previous: ManifestEntry | undefined,
  loaded: LoadedDocument | undefined,
): Promise<void> {
  const now = new Date().toISOString();
  await p.store.manifest.put({
    sourceId,
    contentHash: loaded?.contentHash ?? previous?.contentHash ?? "",
    optionsHash: p.optionsHash,
    chunkIds: previous?.chunkIds ?? [],
    status: "failed",
    error: { code: failure.code, message: failure.message, stage: failure.stage },
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  });
}
