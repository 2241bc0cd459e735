import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Chunk } from "../chunk/chunk.js";
import type { ChunkOptions } from "../chunk/options.js";
import { invalidOption } from "../errors.js";
import type { ParsedDocument, Parser } from "../parser.js";
import type { ChunkStore } from "../store/chunk-store.js";
import type { ParseConfig } from "../wire/index.js";
import type { DownloadLimits } from "./fetch-url.js";
import type { DocumentOutcome } from "./ingest-report.js";
import type { IngestProgress } from "./progress.js";
import type { IngestSources } from "./source.js";

/** Chunker options passed through to `chunkDocument` (everything but the per-document id). */
export type IngestChunkOptions = Omit<ChunkOptions, "sourceId">;

/** What a chunker gets besides the parse result. */
export interface ChunkerContext {
  sourceId: string;
  filename: string;
  url?: string;
  jobId?: string;
  options: IngestChunkOptions;
}

/** Turns a parse result into chunks. The default is `chunkDocument`. */
export type Chunker = (result: ParsedDocument, context: ChunkerContext) => Chunk[] | Promise<Chunk[]>;

/** Concurrency of each stage. A number sets `parse` only. */
export interface IngestConcurrency {
  /** Documents parsed at once (for a remote parser, requests in flight). @default 4 */
  parse: number;
  /** Documents chunked at once (CPU-bound, in process). @default 2 */
  chunk: number;
  /** Embedding batches in flight. @default 2 */
  embed: number;
  /** Store writes at once (PGlite serialises writes anyway). @default 1 */
  store: number;
  /**
   * Documents between source and store at once: the backpressure bound that keeps memory
   * flat however many documents there are. @default 2 × parse + 4
   */
  documents: number;
}

/** Options of `ingest()`. */
export interface IngestOptions {
  /** Paths, directories, URLs, bytes, or an (async) iterable of them. */
  sources: IngestSources;
  /** A `ChunkStore`, or a store URL for `openStore` (`memory://`, `pglite://dir`, `postgres://…`). Opened from a URL, it is closed at the end. */
  store: ChunkStore | string;
  /** @default `DocParseClient` from the environment when `DOCPARSE_BASE_URL` is set, else `LocalParser` */
  parser?: Parser;
  /**
   * Parse configuration sent with every document. The default asks, on top of the
   * service's defaults, for the `pages` list (page sizes for pixel boxes, page images for
   * the viewer) and for table structure (so chunks carry tables as HTML/Markdown with
   * their cells, spans and header rows, and long tables split on row boundaries). Add
   * `capabilities.include_char_details: true` for exact quote boxes: it costs memory in
   * proportion to the characters of the largest document in flight.
   * @default `{ capabilities: { pages: true, include_table_structure: true } }`
   */
  parseConfig?: ParseConfig;
  /** @default `HashEmbeddings` */
  embeddings?: EmbeddingsInterface;
  /**
   * Names the embedder in the options hash, so switching models re-embeds everything.
   * @default the class name plus its model/dimensions fields
   */
  embedderId?: string;
  /** Options for `chunkDocument`. @default the chunker's defaults */
  chunk?: IngestChunkOptions;
  /** Replaces `chunkDocument` (for custom chunking). */
  chunker?: Chunker;
  /** Per-stage concurrency; a number sets parse concurrency. @default see {@link IngestConcurrency} */
  concurrency?: number | Partial<IngestConcurrency>;
  /** Parse calls started per second at most (the hosted service allows 2 by default). @default unlimited */
  parsesPerSecond?: number;
  /** Texts per embedding call. @default 64 */
  embedBatchSize?: number;
  /** How long a partial embedding batch waits for more texts. @default 10 */
  embedLingerMs?: number;
  /** Extra attempts for retryable failures (parse, download, embed). @default 2 */
  retries?: number;
  /** First backoff step, doubling each retry, with full jitter; a server's Retry-After wins. @default 500 */
  retryDelayMs?: number;
  /**
   * Parse through async jobs (createJob → persist id → wait) when the parser supports it,
   * so a restart resumes polling instead of resubmitting. @default false
   */
  asyncJobs?: boolean;
  /** File sourceIds are paths relative to this directory. @default process.cwd() */
  root?: string;
  /** Globs (picomatch) a file in a directory source must match. @default every file */
  include?: string | string[];
  /** Globs that drop files in directory sources. @default none (dot-files skipped) */
  exclude?: string | string[];
  /** Limits for URL sources. */
  downloadLimits?: DownloadLimits;
  /**
   * Remove documents from the store that are in its manifest but not in this run's
   * sources. Skipped when enumeration failed or the run was cancelled. @default false
   */
  deleteMissing?: boolean;
  /** Counts directory sources before starting, so progress has a total and an ETA. @default true */
  countFirst?: boolean;
  /** Progress events, synchronous; keep them cheap. */
  onProgress?: (progress: IngestProgress) => void;
  /** Called once per finished document. */
  onDocument?: (outcome: DocumentOutcome) => void;
  /** Cancels the run: no new documents start, in-flight ones finish their store write or are left untouched. */
  signal?: AbortSignal;
}

/** The defaults of `ingest()`, pinned by a test. */
export const INGEST_DEFAULTS = {
  parseConfig: { capabilities: { pages: true, include_table_structure: true } } satisfies ParseConfig,
  concurrency: { parse: 4, chunk: 2, embed: 2, store: 1 },
  embedBatchSize: 64,
  embedLingerMs: 10,
  retries: 2,
  retryDelayMs: 500,
  asyncJobs: false,
  deleteMissing: false,
  countFirst: true,
} as const;

/** Every stage's concurrency with defaults applied and validated. */
export function resolveConcurrency(value: IngestOptions["concurrency"]): IngestConcurrency {
  const given = typeof value === "number" ? { parse: value } : (value ?? {});
  const parse = given.parse ?? INGEST_DEFAULTS.concurrency.parse;
  const out: IngestConcurrency = {
    parse,
    chunk: given.chunk ?? INGEST_DEFAULTS.concurrency.chunk,
    embed: given.embed ?? INGEST_DEFAULTS.concurrency.embed,
    store: given.store ?? INGEST_DEFAULTS.concurrency.store,
    documents: given.documents ?? 2 * parse + 4,
  };
  for (const [key, v] of Object.entries(out)) positiveInteger(`concurrency.${key}`, v, 1);
  return out;
}

/** Throws DOCPARSE_INVALID_OPTION unless `value` is an integer >= min. */
export function positiveInteger(name: string, value: unknown, min: number): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw invalidOption(`Expected \`${name}\` to be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
}

/** Throws DOCPARSE_INVALID_OPTION unless `value` is a finite number >= min. */
export function nonNegative(name: string, value: unknown, min = 0): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw invalidOption(`Expected \`${name}\` to be a number >= ${min}, got ${JSON.stringify(value)}`);
  }
}
