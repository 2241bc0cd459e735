import type { Chunk, ChunkMetadata } from "../../src/chunk/chunk.js";
import type { ManifestEntry, StoredChunk } from "../../src/store/chunk-store.js";

/** Unit vector along axis `i` (mod dim), so each fixture chunk is its own nearest neighbour. */
export function axis(i: number, dim = 8): number[] {
  const v = new Array<number>(dim).fill(0);
  v[i % dim] = 1;
  return v;
}

/** A complete chunk with realistic metadata; `meta` overrides any metadata key. */
export function makeChunk(id: string, text: string, meta: Partial<ChunkMetadata> = {}): Chunk {
  const pages = meta.pages ?? [meta.pageStart ?? 1];
  const metadata: ChunkMetadata = {
    sourceId: "doc-a.pdf",
    filename: "doc-a.pdf",
    filetype: "application/pdf",
    fileId: "file-1",
    headingPath: ["Intro"],
    pageStart: pages[0]!,
    pageEnd: pages[pages.length - 1]!,
    pages,
    regions: pages.map((page, i) => ({
      page,
      coordinates: [0.1234567891234, 0.2, 0.9, 0.2, 0.9, 0.35, 0.1234567891234, 1e-7],
      elementId: `${id}-el${i}`,
      ...(i === 0 ? { approximate: true } : {}),
    })),
    elementIds: pages.map((_, i) => `${id}-el${i}`),
    elementTypes: ["NarrativeText"],
    kind: "text",
    chunkIndex: 0,
    chunkCount: 1,
    tokens: text.length,
    contentHash: `hash-${id}`,
    ...meta,
  };
  return { id, text, embedText: `${metadata.headingPath.join(" > ")}\n${text}`, metadata };
}

export function record(chunk: Chunk, vector: number[]): StoredChunk {
  return { ...chunk, vector };
}

export function entry(sourceId: string, chunkIds: string[], extra: Partial<ManifestEntry> = {}): ManifestEntry {
  return {
    sourceId,
    contentHash: `sha-${sourceId}`,
    optionsHash: "opts-1",
    chunkIds,
    status: "done",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}
