import type { Chunk } from "../../../src/chunk/chunk.js";
import { MemoryManifest } from "../../../src/store/memory-manifest.js";
import type { ChunkStore, ManifestEntry, ScoredChunk, StoredChunk } from "../../../src/store/chunk-store.js";

/**
 * A store that keeps only the manifest and counts chunks: isolates the pipeline's own
 * speed and memory from a database's (the throughput and RSS benchmarks).
 */
export class NullStore implements ChunkStore {
  readonly capabilities = { listBySource: false, hybridSearch: false, transactional: true, manifest: true };
  readonly manifest = new MemoryManifest();
  chunks = 0;
  writes = 0;
  async upsert(records: readonly StoredChunk[]): Promise<void> {
    this.chunks += records.length;
  }
  async delete(): Promise<void> {}
  async deleteBySource(): Promise<number> {
    return 0;
  }
  async getByIds(): Promise<Chunk[]> {
    return [];
  }
  async idsBySource(): Promise<string[]> {
    return [];
  }
  async replaceSource(_sourceId: string, records: readonly StoredChunk[], entry: ManifestEntry): Promise<void> {
    this.writes++;
    this.chunks += records.length;
    await this.manifest.put(entry);
  }
  async removeSource(sourceId: string): Promise<void> {
    await this.manifest.delete(sourceId);
  }
  async query(): Promise<ScoredChunk[]> {
    return [];
  }
  async close(): Promise<void> {}
}
