/**
 * Chunk stores: the port, the adapters and `openStore`. Light to import: PGlite and `pg`
 * load only when a pglite:// or postgres:// store is opened.
 */
export type {
  ChunkFilter,
  ChunkQuery,
  ChunkStore,
  ChunkStoreCapabilities,
  Manifest,
  ManifestEntry,
  ManifestStatus,
  ScoredChunk,
  StoredChunk,
} from "./chunk-store.js";
export { openStore, type OpenStoreOptions } from "./open-store.js";
export { MemoryStore } from "./memory-store.js";
export { MemoryManifest } from "./memory-manifest.js";
export { matchesFilter, checkFilter } from "./match-filter.js";
export { fuseRanks, RRF_K } from "./rrf.js";
// PgStore itself is light; PGlite and `pg` are imported inside openStore().
export { PgStore, PG_STORE_DEFAULTS, type PgStoreOptions, type VectorIndexMode } from "./pg/pg-store.js";
export type { PgPoolOptions } from "./pg/node-pg-client.js";
export { LangChainStore, CHUNK_ID_KEY, type LangChainStoreOptions } from "./langchain-store.js";
export { flattenMetadata, unflattenMetadata, JSON_KEYS, type FlatValue } from "./flat-metadata.js";
