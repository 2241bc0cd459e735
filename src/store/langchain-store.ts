import { VectorStore, type VectorStoreInterface } from "@langchain/core/vectorstores";
import type { DocumentInterface } from "@langchain/core/documents";
import type { Chunk } from "../chunk/chunk.js";
import { DocParseError, LocalErrorCode, invalidOption } from "../errors.js";
import type {
  ChunkFilter,
  ChunkQuery,
  ChunkStore,
  ChunkStoreCapabilities,
  Manifest,
  ManifestEntry,
  ScoredChunk,
  StoredChunk,
} from "./chunk-store.js";
import { checkK, checkRecords } from "./check-records.js";
import { flattenMetadata, unflattenMetadata } from "./flat-metadata.js";
import { checkFilter } from "./match-filter.js";
import { checkEntry } from "./memory-manifest.js";

/** Metadata key holding the chunk id, for stores that do not return `Document.id`. */
export const CHUNK_ID_KEY = "chunkId";

/** Options of {@link LangChainStore}. */
export interface LangChainStoreOptions {
  /**
   * A side manifest that remembers which chunk ids each source has (any ChunkStore's
   * `manifest`, e.g. `(await openStore("pglite://./state")).manifest`). With it,
   * `idsBySource`, `deleteBySource`, `replaceSource`, `removeSource` and `manifest` work;
   * without it they throw `DOCPARSE_UNSUPPORTED`, because most vector stores cannot
   * list ids by metadata.
   */
  manifest?: Manifest;
  /**
   * Turns a ChunkFilter into the wrapped store's own filter type (Qdrant, Chroma,
   * Pinecone filters all differ). Without it, a query with a filter throws
   * `DOCPARSE_UNSUPPORTED`.
   */
  translateFilter?: (filter: ChunkFilter) => unknown;
  /**
   * Encode arrays and objects in metadata as JSON strings (see `flattenMetadata`), for
   * stores that accept only scalar metadata. Set false for stores that keep nested JSON.
   * @default true
   */
  flatten?: boolean;
}

interface LangChainVectorStore extends VectorStoreInterface {
  getByIds?: (ids: string[]) => Promise<DocumentInterface[]>;
}

/**
 * Writes chunks into any LangChain `VectorStore` (Qdrant, Chroma, Pinecone, PGVector,
 * ...): chunk ids are passed as document ids, metadata is flattened to scalars (regions
 * and other arrays JSON-encoded) and decoded again on the way back.
 *
 * Limits, reported by `capabilities` and as `DocParseError` `DOCPARSE_UNSUPPORTED`
 * (never silent no-ops): no listing or deleting by source without a side `manifest`; no
 * `getByIds` unless the store has one; no hybrid search (`text` is ignored); filters
 * need `translateFilter`; writes are not transactional; idempotent upserts and `delete`
 * only where the wrapped store honours ids. Scores are whatever the wrapped store
 * returns (similarity or distance).
 */
export class LangChainStore implements ChunkStore {
  readonly capabilities: ChunkStoreCapabilities;
  readonly manifest: Manifest;
  readonly #store: LangChainVectorStore;
  readonly #sideManifest: Manifest | undefined;
  readonly #translateFilter: ((filter: ChunkFilter) => unknown) | undefined;
  readonly #flatten: boolean;

  constructor(vectorStore: VectorStoreInterface, options: LangChainStoreOptions = {}) {
    if (typeof vectorStore?.addVectors !== "function") throw invalidOption("Expected a LangChain VectorStore");
    const { manifest, translateFilter, flatten = true } = options;
    this.#store = vectorStore as LangChainVectorStore;
    this.#sideManifest = manifest;
    this.#translateFilter = translateFilter;
    this.#flatten = flatten;
    this.capabilities = { listBySource: manifest !== undefined, hybridSearch: false, transactional: false, manifest: manifest !== undefined };
    this.manifest = manifest ?? unsupportedManifest();
  }

  /** The wrapped LangChain store. */
  get vectorStore(): VectorStoreInterface {
    return this.#store;
  }

  async upsert(records: readonly StoredChunk[]): Promise<void> {
    const { records: batch } = checkRecords(records, undefined);
    if (batch.length === 0) return;
    const ids = batch.map((r) => r.id);
    await this.#call("addVectors", () =>
      this.#store.addVectors(
        batch.map((r) => r.vector),
        batch.map((r) => this.#toDocument(r)),
        { ids },
      ),
    );
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    if (!hasOwnDelete(this.#store)) {
      throw unsupported(`${this.#name()} cannot delete by id (its delete() is LangChain's unimplemented default)`);
    }
    await this.#call("delete", () => this.#store.delete({ ids: [...ids] }));
  }

  async deleteBySource(sourceId: string): Promise<number> {
    const ids = await this.idsBySource(sourceId);
    await this.delete(ids);
    return ids.length;
  }

  async getByIds(ids: readonly string[]): Promise<Chunk[]> {
    if (typeof this.#store.getByIds !== "function") {
      throw unsupported(`${this.#name()} has no getByIds(); LangChain does not require vector stores to fetch by id`);
    }
    const docs = await this.#call("getByIds", () => this.#store.getByIds!([...ids]));
    const byId = new Map(docs.map((d) => [this.#idOf(d), d]));
    return ids.flatMap((id) => {
      const doc = byId.get(id);
      return doc ? [this.#toChunk(doc, id)] : [];
    });
  }

  async idsBySource(sourceId: string): Promise<string[]> {
    const manifest = this.#needManifest("idsBySource");
    return (await manifest.get(sourceId))?.chunkIds ?? [];
  }

  /**
   * Not atomic: upserts the new chunks, then deletes the source's stale ones (known from
   * the previous manifest entry), then writes the entry. A crash in between leaves extra
   * chunks (found again on the next run), never missing ones.
   */
  async replaceSource(sourceId: string, records: readonly StoredChunk[], entry: ManifestEntry): Promise<void> {
    const manifest = this.#needManifest("replaceSource");
    checkEntry(entry);
    for (const record of records) {
      if (record.metadata?.sourceId !== sourceId) throw invalidOption(`Record ${record.id} belongs to ${record.metadata?.sourceId}, not ${sourceId}`);
    }
    const previous = await manifest.get(sourceId);
    await this.upsert(records);
    const keep = new Set(records.map((r) => r.id));
    const stale = (previous?.chunkIds ?? []).filter((id) => !keep.has(id));
    await this.delete(stale);
    await manifest.put(entry);
  }

  async removeSource(sourceId: string): Promise<void> {
    const manifest = this.#needManifest("removeSource");
    await this.delete(await this.idsBySource(sourceId));
    await manifest.delete(sourceId);
  }

  async query(query: ChunkQuery): Promise<ScoredChunk[]> {
    checkK(query.k);
    const filter = checkFilter(query.filter);
    let native: unknown;
    if (filter !== undefined && Object.keys(filter).length > 0) {
      if (!this.#translateFilter) throw unsupported(`Filters on ${this.#name()} need the \`translateFilter\` option (each store has its own filter syntax)`);
      native = this.#translateFilter(filter);
    }
    const results = await this.#call("similaritySearchVectorWithScore", () =>
      this.#store.similaritySearchVectorWithScore(query.vector, query.k, native as never),
    );
    return results.map(([doc, score]) => ({ chunk: this.#toChunk(doc), score }));
  }

  /** Nothing to release: the wrapped store's connections belong to whoever made it. */
  async close(): Promise<void> {}

  #toDocument(record: StoredChunk): DocumentInterface {
    const metadata = { ...record.metadata, [CHUNK_ID_KEY]: record.id };
    return { id: record.id, pageContent: record.text, metadata: this.#flatten ? flattenMetadata(metadata) : metadata };
  }

  #toChunk(doc: DocumentInterface, knownId?: string): Chunk {
    const { [CHUNK_ID_KEY]: _, ...metadata } = unflattenMetadata(doc.metadata ?? {});
    return { id: knownId ?? this.#idOf(doc), text: doc.pageContent, embedText: doc.pageContent, metadata: metadata as Chunk["metadata"] };
  }

  #idOf(doc: DocumentInterface): string {
    const fromMeta = doc.metadata?.[CHUNK_ID_KEY];
    return typeof fromMeta === "string" ? fromMeta : (doc.id ?? "");
  }

  #needManifest(operation: string): Manifest {
    if (this.#sideManifest) return this.#sideManifest;
    throw unsupported(
      `${operation} on ${this.#name()} needs a side manifest: new LangChainStore(store, { manifest }) — e.g. the manifest of openStore("pglite://./state")`,
    );
  }

  #name(): string {
    const type = (this.#store as { _vectorstoreType?: () => string })._vectorstoreType?.();
    return type ? `the LangChain "${type}" vector store` : "the LangChain vector store";
  }

  async #call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (DocParseError.isInstance(error)) throw error;
      throw new DocParseError(LocalErrorCode.Store, `${this.#name()} failed in ${operation}: ${(error as Error)?.message ?? String(error)}`, {
        cause: error,
        isRetryable: false,
      });
    }
  }
}

function unsupported(message: string): DocParseError {
  return new DocParseError(LocalErrorCode.Unsupported, message);
}

/**
 * LangChain's base `VectorStore.delete` throws "Not implemented"; a store that kept it
 * cannot delete. (A store from another copy of @langchain/core is given the benefit of
 * the doubt; its error is then reported as DOCPARSE_STORE.)
 */
function hasOwnDelete(store: { delete?: unknown }): boolean {
  return typeof store.delete === "function" && store.delete !== VectorStore.prototype.delete;
}

function unsupportedManifest(): Manifest {
  const fail = async (): Promise<never> => {
    throw unsupported("This LangChainStore has no manifest; pass one: new LangChainStore(store, { manifest })");
  };
  return { get: fail, list: fail, put: fail, delete: fail };
}
