import { createHash } from "node:crypto";
import type { Chunk, ChunkRegion } from "../../src/chunk/chunk.js";

/** A hand-made chunk with sensible metadata; override what a test cares about. */
export function makeChunk(
  id: string,
  text: string,
  meta: Partial<Chunk["metadata"]> & { regions?: ChunkRegion[] } = {},
): Chunk {
  const regions = meta.regions ?? [{ page: 1, coordinates: [0.1, 0.1, 0.9, 0.1, 0.9, 0.2, 0.1, 0.2], elementId: `${id}-el` }];
  const pages = [...new Set(regions.map((r) => r.page))].sort((a, b) => a - b);
  const headingPath = meta.headingPath ?? ["Doc"];
  return {
    id,
    text,
    embedText: `${headingPath.join(" > ")}\n${text}`,
    metadata: {
      sourceId: "doc.pdf",
      filename: "doc.pdf",
      headingPath,
      pageStart: pages[0] ?? 1,
      pageEnd: pages[pages.length - 1] ?? 1,
      pages,
      regions,
      elementIds: [...new Set(regions.map((r) => r.elementId))],
      elementTypes: ["NarrativeText"],
      kind: "text",
      chunkIndex: 0,
      chunkCount: 1,
      tokens: text.length,
      contentHash: createHash("sha256").update(text).digest("hex"),
      ...meta,
    },
  };
}

/** Links chunks of one document in order: chunkIndex, chunkCount, prevId, nextId. */
export function linkChunks(chunks: Chunk[]): Chunk[] {
  chunks.forEach((c, i) => {
    c.metadata.chunkIndex = i;
    c.metadata.chunkCount = chunks.length;
    if (i > 0) c.metadata.prevId = chunks[i - 1]!.id;
    if (i + 1 < chunks.length) c.metadata.nextId = chunks[i + 1]!.id;
  });
  return chunks;
}
