import type { Chunk } from "../chunk/chunk.js";
import { textTerms } from "../embed/text-terms.js";
import { invalidOption } from "../errors.js";
import type {
  ChunkQuery,
  ChunkStore,
  ChunkStoreCapabilities,
  ManifestEntry,
  ScoredChunk,
  StoredChunk,
} from "./chunk-store.js";
import { checkK, checkQueryVector, checkRecords } from "./check-records.js";
import { checkFilter, matchesFilter } from "./match-filter.js";
import { MemoryManifest, checkEntry } from "./memory-manifest.js";
import { fuseRanks, hybridDepth } from "./rrf.js";

interface Row {
  chunk: Chunk;
  vector: number[];
  norm: number;
  /** Term → frequency of `embedText`, for the full-text half of hybrid search. */
  terms: Map<string, number>;
}

/**
 * A ChunkStore in process memory: exact cosine search, every filter, hybrid search with
 * a small TF-IDF ranking over the same CJK-aware terms the Postgres adapters index.
 * Nothing persists. Every write validates the whole batch first, so a failed batch
 * changes nothing.
 */
export class MemoryStore implements ChunkStore {
  readonly capabilities: ChunkStoreCapabilities = { listBySource: true, hybridSearch: true, transactional: true, manifest: true };
  readonly manifest = new MemoryManifest();
  readonly #rows = new Map<string, Row>();
  #dimension: number | undefined;
  #closed = false;

  /** The vector dimension, fixed by the first write. */
  get dimension(): number | undefined {
    return this.#dimension;
  }

  /** How many chunks are stored. */
  get size(): number {
    return this.#rows.size;
  }

  async upsert(records: readonly StoredChunk[]): Promise<void> {
    this.#open();
    const checked = checkRecords(records, this.#dimension);
    this.#write(checked.records);
    this.#dimension ??= checked.dimension;
  }

  async delete(ids: readonly string[]): Promise<void> {
    this.#open();
    for (const id of ids) this.#rows.delete(id);
  }

  async deleteBySource(sourceId: string): Promise<number> {
    this.#open();
    const ids = this.#idsBySource(sourceId);
    for (const id of ids) this.#rows.delete(id);
    return ids.length;
  }

  async getByIds(ids: readonly string[]): Promise<Chunk[]> {
    this.#open();
    const out: Chunk[] = [];
    for (const id of ids) {
      const row = this.#rows.get(id);
      if (row) out.push(structuredClone(row.chunk));
    }
    return out;
  }

  async idsBySource(sourceId: string): Promise<string[]> {
    this.#open();
    return this.#idsBySource(sourceId);
  }

  async replaceSource(sourceId: string, records: readonly StoredChunk[], entry: ManifestEntry): Promise<void> {
    this.#open();
    const checked = checkRecords(records, this.#dimension);
    checkEntry(entry);
    for (const record of checked.records) {
      if (record.metadata.sourceId !== sourceId) throw invalidOption(`Record ${record.id} belongs to ${record.metadata.sourceId}, not ${sourceId}`);
    }
    // Everything is validated; from here on nothing can fail, so the change is atomic.
    const keep = new Set(checked.records.map((r) => r.id));
    for (const id of this.#idsBySource(sourceId)) if (!keep.has(id)) this.#rows.delete(id);
    this.#write(checked.records);
    this.#dimension ??= checked.dimension;
    this.manifest.putSync(entry);
  }

  async removeSource(sourceId: string): Promise<void> {
    this.#open();
    for (const id of this.#idsBySource(sourceId)) this.#rows.delete(id);
    this.manifest.deleteSync(sourceId);
  }

  async query(query: ChunkQuery): Promise<ScoredChunk[]> {
    this.#open();
    checkK(query.k);
    checkQueryVector(query.vector, this.#dimension);
    const filter = checkFilter(query.filter);
    const candidates = [...this.#rows.values()].filter((row) => matchesFilter(row.chunk, filter));
    const qNorm = Math.hypot(...query.vector);
    const similarity = (row: Row) => (row.norm === 0 || qNorm === 0 ? 0 : dot(row.vector, query.vector) / (row.norm * qNorm));
    const text = query.text?.trim();
    if (!text) {
      return topK(candidates, query.k, similarity).map(({ item, score }) => this.#scored(item, score, query.includeVectors));
    }
    const depth = hybridDepth(query.k);
    const byVector = topK(candidates, depth, similarity).map(({ item }) => item.chunk.id);
    const byText = this.#textRanking(candidates, text, depth);
    return fuseRanks([byVector, byText])
      .slice(0, query.k)
      .map(({ id, score }) => this.#scored(this.#rows.get(id)!, score, query.includeVectors));
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#rows.clear();
  }

  #write(records: readonly StoredChunk[]): void {
    for (const { vector, ...chunk } of records) {
      const stored = structuredClone(chunk) as Chunk;
      const terms = new Map<string, number>();
      for (const term of textTerms(stored.embedText || stored.text)) terms.set(term, (terms.get(term) ?? 0) + 1);
      // Delete first so an overwritten id moves to the end, like a fresh insert.
      this.#rows.delete(stored.id);
      this.#rows.set(stored.id, { chunk: stored, vector: [...vector], norm: Math.hypot(...vector), terms });
    }
  }

  #idsBySource(sourceId: string): string[] {
    return [...this.#rows.values()]
      .filter((row) => row.chunk.metadata.sourceId === sourceId)
      .sort((a, b) => a.chunk.metadata.chunkIndex - b.chunk.metadata.chunkIndex)
      .map((row) => row.chunk.id);
  }

  /** TF-IDF over the candidates: Σ (1 + ln tf) · ln(1 + N / df) for each distinct query term. */
  #textRanking(candidates: Row[], text: string, depth: number): string[] {
    // Same query terms as the Postgres adapters: CJK bigrams, not single characters.
    const queryTerms = [...new Set(textTerms(text, { cjkUnigrams: false }))];
    const df = new Map<string, number>();
    for (const term of queryTerms) df.set(term, candidates.filter((row) => row.terms.has(term)).length);
    const score = (row: Row) => {
      let s = 0;
      for (const term of queryTerms) {
        const tf = row.terms.get(term);
        if (tf) s += (1 + Math.log(tf)) * Math.log(1 + candidates.length / df.get(term)!);
      }
      return s;
    };
    return topK(candidates, depth, score)
      .filter(({ score }) => score > 0)
      .map(({ item }) => item.chunk.id);
  }

  #scored(row: Row, score: number, includeVector: boolean | undefined): ScoredChunk {
    return { chunk: structuredClone(row.chunk), score, ...(includeVector ? { vector: [...row.vector] } : {}) };
  }

  #open(): void {
    if (this.#closed) throw invalidOption("The store is closed");
  }
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The k best items by score, best first; ties keep input order. O(n·k) worst case, fast for small k. */
function topK<T>(items: readonly T[], k: number, score: (item: T) => number): { item: T; score: number }[] {
  const best: { item: T; score: number }[] = [];
  for (const item of items) {
    const s = score(item);
    if (best.length === k && s <= best[best.length - 1]!.score) continue;
    let i = best.length;
    while (i > 0 && best[i - 1]!.score < s) i--;
    best.splice(i, 0, { item, score: s });
    if (best.length > k) best.pop();
  }
  return best;
}
