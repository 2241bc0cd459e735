import type { Chunk } from "../chunk/chunk.js";

/** A chunk with its embedding, as stores keep it. */
export type StoredChunk = Chunk & { vector: number[] };

/**
 * Metadata filter. Every given key must match (AND). Keys not listed here compare a
 * top-level flat metadata value for equality.
 */
export interface ChunkFilter {
  sourceId?: string | string[];
  filename?: string;
  /** Chunks touching any page in [from, to] (inclusive, 1-based). */
  pages?: { from?: number; to?: number };
  kind?: Chunk["metadata"]["kind"] | Chunk["metadata"]["kind"][];
  /** Chunks containing at least one element of this type. */
  elementType?: string;
  /** Chunks whose headingPath starts with these titles. */
  headingPathPrefix?: string[];
  /** Equality on other flat metadata keys. */
  metadata?: Record<string, string | number | boolean>;
}

export interface ChunkQuery {
  /** Query embedding. */
  vector: number[];
  /** Query text: when given, full-text ranking is fused with vector similarity (RRF). */
  text?: string;
  /** How many results. */
  k: number;
  filter?: ChunkFilter;
  /**
   * Return each result's vector too (max-marginal-relevance needs them).
   * @default false
   */
  includeVectors?: boolean;
}

export interface ScoredChunk {
  chunk: Chunk;
  /** Higher is better. Cosine similarity for pure vector search; fused RRF score for hybrid. */
  score: number;
  /** The vector, when the adapter returns it (needed for max-marginal-relevance). */
  vector?: number[];
}

/** What the core may assume about an adapter, to plan its work. */
export interface ChunkStoreCapabilities {
  /** `idsBySource`/`deleteBySource` work. */
  listBySource: boolean;
  /** Full-text ranking is fused with vector search when `text` is given. */
  hybridSearch: boolean;
  /** `upsert` of one batch is all-or-nothing. */
  transactional: boolean;
  /** A manifest for incremental ingestion can live in the same database. */
  manifest: boolean;
}

/** Where a document stands in incremental ingestion. */
export type ManifestStatus = "pending" | "parsing" | "done" | "failed";

/** One source document in the ingestion manifest. */
export interface ManifestEntry {
  sourceId: string;
  /** sha256 of the source bytes (or of what identifies a URL's content). */
  contentHash: string;
  /** Hash of parser name + parse config + chunk options + embedder identity. */
  optionsHash: string;
  /** Ids of the chunks stored for this source, in order. */
  chunkIds: string[];
  status: ManifestStatus;
  /** Remote async job id, persisted so a restart resumes polling instead of resubmitting. */
  jobId?: string;
  /** Why the last attempt failed. */
  error?: { code: string | number; message: string; stage: string };
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
}

/** The manifest port: sourceId → entry, kept beside the chunks. */
export interface Manifest {
  /** The entry of a source, or undefined. */
  get(sourceId: string): Promise<ManifestEntry | undefined>;
  /** Every entry (for finding vanished sources), ordered by sourceId. */
  list(): Promise<ManifestEntry[]>;
  /** Inserts or replaces one entry (status changes, job ids, failures). */
  put(entry: ManifestEntry): Promise<void>;
  /** Removes an entry; missing is fine. */
  delete(sourceId: string): Promise<void>;
}

/**
 * The storage port. Adapters: memory, pgvector on PGlite, pgvector on PostgreSQL,
 * and a bridge to any LangChain VectorStore.
 */
export interface ChunkStore {
  /** The adapter's facts, for planners. */
  readonly capabilities: ChunkStoreCapabilities;
  /** Inserts or replaces by id; the same id twice never duplicates. A failed batch changes nothing. */
  upsert(records: readonly StoredChunk[]): Promise<void>;
  /** Deletes by id; missing ids are ignored. */
  delete(ids: readonly string[]): Promise<void>;
  /** Deletes every chunk of a source; returns how many were deleted. */
  deleteBySource(sourceId: string): Promise<number>;
  /** Chunks for the ids, in input order, missing ids left out. */
  getByIds(ids: readonly string[]): Promise<Chunk[]>;
  /** Ids of every chunk of a source, in chunkIndex order. */
  idsBySource(sourceId: string): Promise<string[]>;
  /**
   * Atomically makes `records` the whole content of a source and writes its manifest
   * entry: chunks of the source not in `records` are deleted, `records` upserted,
   * `entry` put. Where the adapter is transactional, a crash leaves either the old or
   * the new state, never a mix.
   */
  replaceSource(sourceId: string, records: readonly StoredChunk[], entry: ManifestEntry): Promise<void>;
  /** Deletes every chunk of a source and its manifest entry, atomically where possible. */
  removeSource(sourceId: string): Promise<void>;
  /** The ingestion manifest kept with this store. */
  readonly manifest: Manifest;
  /** The k best chunks for the query, best first, with full metadata. */
  query(query: ChunkQuery): Promise<ScoredChunk[]>;
  /** Releases connections and files. The store is unusable afterwards. */
  close(): Promise<void>;
}
