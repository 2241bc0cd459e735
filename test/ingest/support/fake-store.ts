import type { Chunk } from "../../../src/chunk/chunk.js";
import { DocParseError, LocalErrorCode } from "../../../src/errors.js";
import type { ChunkQuery, ChunkStore, ManifestEntry, ScoredChunk, StoredChunk } from "../../../src/store/chunk-store.js";

/**
 * An in-memory ChunkStore for ingest tests: implements the port, counts writes, and can
 * be told to fail writes for chosen sources. (The real adapters have their own suite.)
 */
export class FakeStore implements ChunkStore {
  readonly capabilities = { listBySource: true, hybridSearch: false, transactional: true, manifest: true };
  readonly chunks = new Map<string, StoredChunk>();
  readonly entries = new Map<string, ManifestEntry>();
  readonly calls = { replaceSource: 0, removeSource: 0, manifestPut: 0 };
  /** Sources whose replaceSource throws. */
  readonly failWrites = new Set<string>();
  closed = false;

  readonly manifest = {
    get: async (id: string) => clone(this.entries.get(id)),
    list: async () => [...this.entries.values()].sort((a, b) => (a.sourceId < b.sourceId ? -1 : 1)).map((e) => clone(e)!),
    put: async (entry: ManifestEntry) => {
      this.calls.manifestPut++;
      this.entries.set(entry.sourceId, clone(entry)!);
    },
    delete: async (id: string) => {
      this.entries.delete(id);
    },
  };

  async upsert(records: readonly StoredChunk[]): Promise<void> {
    for (const r of records) this.chunks.set(r.id, clone(r)!);
  }
  async delete(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.chunks.delete(id);
  }
  async deleteBySource(sourceId: string): Promise<number> {
    const ids = await this.idsBySource(sourceId);
    await this.delete(ids);
    return ids.length;
  }
  async getByIds(ids: readonly string[]): Promise<Chunk[]> {
    return ids.flatMap((id) => {
      const c = this.chunks.get(id);
      if (!c) return [];
      const { vector: _, ...chunk } = c;
      return [chunk];
    });
  }
  async idsBySource(sourceId: string): Promise<string[]> {
    return [...this.chunks.values()]
      .filter((c) => c.metadata.sourceId === sourceId)
      .sort((a, b) => a.metadata.chunkIndex - b.metadata.chunkIndex)
      .map((c) => c.id);
  }
  async replaceSource(sourceId: string, records: readonly StoredChunk[], entry: ManifestEntry): Promise<void> {
    this.calls.replaceSource++;
    if (this.failWrites.has(sourceId)) throw new DocParseError(LocalErrorCode.Store, `write refused for ${sourceId}`);
    await this.deleteBySource(sourceId);
    await this.upsert(records);
    this.entries.set(sourceId, clone(entry)!);
  }
  async removeSource(sourceId: string): Promise<void> {
    this.calls.removeSource++;
    await this.deleteBySource(sourceId);
    this.entries.delete(sourceId);
  }
  async query(query: ChunkQuery): Promise<ScoredChunk[]> {
    const scored = [...this.chunks.values()].map((c) => {
      let dot = 0;
      for (let i = 0; i < query.vector.length; i++) dot += (query.vector[i] ?? 0) * (c.vector[i] ?? 0);
      const { vector: _, ...chunk } = c;
      return { chunk, score: dot };
    });
    return scored.sort((a, b) => b.score - a.score).slice(0, query.k);
  }
  async close(): Promise<void> {
    this.closed = true;
  }

  /** Sorted (sourceId, chunk id, text) triples: what "the same store" means in tests. */
  contents(): string[] {
    return [...this.chunks.values()].map((c) => `${c.metadata.sourceId}|${c.id}|${c.text}`).sort();
  }
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
