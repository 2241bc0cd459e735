import type { Callbacks } from "@langchain/core/callbacks/manager";
import { Document, type DocumentInterface } from "@langchain/core/documents";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { maximalMarginalRelevance } from "@langchain/core/utils/math";
import { VectorStore, type MaxMarginalRelevanceSearchOptions } from "@langchain/core/vectorstores";
import { randomUUID } from "node:crypto";
import type { Chunk } from "../chunk/chunk.js";
import { invalidOption } from "../errors.js";
import type { ChunkFilter, ChunkStore, ScoredChunk } from "../store/chunk-store.js";
import { openStore, type OpenStoreOptions } from "../store/open-store.js";
import { chunkToDocument, documentToChunk } from "./documents.js";

/** Options of {@link DocParseVectorStore}. */
export interface DocParseVectorStoreArgs {
  /** Where the vectors live: any ChunkStore (`openStore("pglite://./data")`, `new MemoryStore()`, ...). */
  store: ChunkStore;
  /**
   * Pass the query text along with its vector in `similaritySearch*` (and so in
   * `asRetriever()`), so stores with hybrid search fuse full-text ranking (RRF). On by
   * default where the store can use it: exact word / Chinese-phrase evidence fixes the
   * ranking of weak embeddings such as the hash default (the CLI and `CitationRetriever`
   * search the same way). Scores are then RRF scores, not cosine similarities.
   * @default store.capabilities.hybridSearch
   */
  hybrid?: boolean;
}

/**
 * docparse-rag's stores as a LangChain `VectorStore`: usable by chains, retrievers and
 * `index()` with a record manager. Documents keep their ids (`addDocuments(docs, { ids })`),
 * filters are {@link ChunkFilter}s, and results carry the chunk metadata with its regions.
 *
 * @example
 * ```ts
 * const vs = await DocParseVectorStore.fromUrl("pglite://./data/store", new HashEmbeddings());
 * await vs.addDocuments(await new DocParseLoader("report.pdf").load());
 * const hits = await vs.similaritySearch("revenue", 4, { kind: "table" });
 * ```
 */
export class DocParseVectorStore extends VectorStore {
  declare FilterType: ChunkFilter;
  /** The ChunkStore behind this VectorStore. */
  readonly store: ChunkStore;
  /** Whether `similaritySearch*` sends the query text too (see {@link DocParseVectorStoreArgs.hybrid}). */
  readonly hybrid: boolean;

  constructor(embeddings: EmbeddingsInterface, args: DocParseVectorStoreArgs) {
    super(embeddings, args as unknown as Record<string, unknown>);
    if (typeof args?.store?.query !== "function") throw invalidOption("DocParseVectorStore needs `store`, a ChunkStore");
    this.store = args.store;
    this.hybrid = args.hybrid ?? args.store.capabilities?.hybridSearch === true;
  }

  /** Opens a store by URL (see `openStore`) and wraps it. Close it with `vs.store.close()`. */
  static async fromUrl(
    url: string,
    embeddings: EmbeddingsInterface,
    options: OpenStoreOptions & { hybrid?: boolean } = {},
  ): Promise<DocParseVectorStore> {
    const { hybrid, ...storeOptions } = options;
    return new DocParseVectorStore(embeddings, { store: await openStore(url, storeOptions), ...(hybrid !== undefined ? { hybrid } : {}) });
  }

  override _vectorstoreType(): string {
    return "docparse";
  }

  /**
   * Stores Documents with their vectors. Ids: `options.ids`, else each Document's `id`,
   * else a random UUID. Adding an id again replaces it. Returns the ids.
   */
  override async addVectors(vectors: number[][], documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]> {
    if (vectors.length !== documents.length) throw invalidOption(`Got ${vectors.length} vectors for ${documents.length} documents`);
    if (options?.ids && options.ids.length !== documents.length) throw invalidOption(`Got ${options.ids.length} ids for ${documents.length} documents`);
    const ids = documents.map((doc, i) => options?.ids?.[i] ?? doc.id ?? randomUUID());
    await this.store.upsert(documents.map((doc, i) => ({ ...documentToChunk(doc, ids[i]!), vector: vectors[i]! })));
    return ids;
  }

  /** Embeds `pageContent` with the store's embeddings, then {@link addVectors}. */
  override async addDocuments(documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]> {
    const vectors = await this.embeddings.embedDocuments(documents.map((d) => d.pageContent));
    return this.addVectors(vectors, documents, options);
  }

  override async similaritySearchVectorWithScore(query: number[], k: number, filter?: ChunkFilter): Promise<[Document, number][]> {
    const hits = await this.store.query({ vector: query, k, ...(filter ? { filter } : {}) });
    return hits.map((hit) => [toDocument(hit.chunk), hit.score]);
  }

  override async similaritySearchWithScore(query: string, k = 4, filter?: ChunkFilter, _callbacks?: Callbacks): Promise<[Document, number][]> {
    const vector = await this.embeddings.embedQuery(query);
    const hits = await this.store.query({ vector, k, ...(this.hybrid ? { text: query } : {}), ...(filter ? { filter } : {}) });
    return hits.map((hit) => [toDocument(hit.chunk), hit.score]);
  }

  override async similaritySearch(query: string, k = 4, filter?: ChunkFilter, callbacks?: Callbacks): Promise<Document[]> {
    return (await this.similaritySearchWithScore(query, k, filter, callbacks)).map(([doc]) => doc);
  }

  /**
   * Max marginal relevance: fetches `fetchK` candidates with their vectors, then picks
   * `k` that are relevant and unlike each other (`lambda` 1 = relevance only, 0 = diversity only).
   */
  override async maxMarginalRelevanceSearch(
    query: string,
    options: MaxMarginalRelevanceSearchOptions<ChunkFilter>,
    _callbacks?: Callbacks,
  ): Promise<Document[]> {
    const { k = 4, fetchK = 20, lambda = 0.5, filter } = options;
    const vector = await this.embeddings.embedQuery(query);
    const hits: ScoredChunk[] = await this.store.query({ vector, k: Math.max(fetchK, k), includeVectors: true, ...(filter ? { filter } : {}) });
    const withVectors = hits.filter((h): h is ScoredChunk & { vector: number[] } => Array.isArray(h.vector));
    if (withVectors.length === 0) return hits.slice(0, k).map((h) => toDocument(h.chunk));
    const picked = maximalMarginalRelevance(vector, withVectors.map((h) => h.vector), lambda, k);
    return picked.map((i) => toDocument(withVectors[i]!.chunk));
  }

  /** Deletes by id (`{ ids }`), or every chunk of a source (`{ sourceId }`). */
  override async delete(params?: { ids?: string[]; sourceId?: string }): Promise<void> {
    if (params?.ids) await this.store.delete(params.ids);
    else if (params?.sourceId !== undefined) await this.store.deleteBySource(params.sourceId);
    else throw invalidOption("delete() needs { ids } or { sourceId }");
  }

  /** Documents for ids, in input order, missing ids left out. */
  async getByIds(ids: string[]): Promise<Document[]> {
    return (await this.store.getByIds(ids)).map(toDocument);
  }
}

function toDocument(chunk: Chunk): Document {
  return chunkToDocument(chunk);
}
