import { createHash } from "node:crypto";
import type { Chunk } from "../../../src/chunk/chunk.js";
import type { Chunker } from "../../../src/ingest/index.js";

/** One chunk per element, deterministic ids: a stand-in for chunkDocument in unit tests. */
export const fakeChunker: Chunker = function fakeChunker(result, context) {
  const chunks: Chunk[] = result.elements.map((e, i) => {
    const id = createHash("sha256").update(`${context.sourceId}\0${e.element_id}\0${e.text}`).digest("hex").slice(0, 32);
    return {
      id,
      text: e.text,
      embedText: e.text,
      metadata: {
        sourceId: context.sourceId,
        filename: context.filename,
        headingPath: [],
        pageStart: e.page_number,
        pageEnd: e.page_number,
        pages: [e.page_number],
        regions: [{ page: e.page_number, coordinates: e.coordinates, elementId: e.element_id }],
        elementIds: [e.element_id],
        elementTypes: [e.type],
        kind: "text",
        chunkIndex: i,
        chunkCount: result.elements.length,
        tokens: e.text.length,
        contentHash: createHash("sha256").update(e.text).digest("hex"),
      },
    };
  });
  return chunks;
};
