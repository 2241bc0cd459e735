import { createHash } from "node:crypto";
import { Document, type DocumentInterface } from "@langchain/core/documents";
import type { Chunk, ChunkMetadata } from "../chunk/chunk.js";

/**
 * A chunk as a LangChain Document: `pageContent` is the chunk text, `id` the chunk id,
 * and the chunk metadata's keys stay top-level (`sourceId`, `pageStart`, `kind`,
 * `regions`, ...). LangChain's `index()` hashes metadata shallowly, and vector stores
 * filter on top-level keys, so nothing is nested under a wrapper key.
 */
export function chunkToDocument(chunk: Chunk): Document<ChunkMetadata> {
  return new Document<ChunkMetadata>({ id: chunk.id, pageContent: chunk.text, metadata: { ...chunk.metadata } });
}

/**
 * A LangChain Document as a chunk, for storing any Document in a ChunkStore. Metadata
 * from {@link chunkToDocument} comes back as it was; a Document from elsewhere gets
 * neutral values for the chunk fields it lacks (`sourceId` from `sourceId` or `source`,
 * else `"langchain"`; no pages, no regions, kind `text`).
 */
export function documentToChunk(doc: DocumentInterface, id: string): Chunk {
  const given = (doc.metadata ?? {}) as Record<string, unknown>;
  const source = typeof given.sourceId === "string" ? given.sourceId : typeof given.source === "string" ? given.source : "langchain";
  const defaults: Omit<ChunkMetadata, "sourceId"> = {
    headingPath: [],
    pageStart: 0,
    pageEnd: 0,
    pages: [],
    regions: [],
    elementIds: [],
    elementTypes: [],
    kind: "text",
    chunkIndex: 0,
    chunkCount: 1,
    tokens: 0,
    contentHash: "",
  };
  // The given keys keep their order (metadata round-trips byte-identical); missing chunk
  // fields are appended.
  const metadata = { ...given, sourceId: source } as ChunkMetadata;
  for (const [key, value] of Object.entries(defaults)) if (!(key in metadata)) metadata[key] = value;
  if (metadata.contentHash === "") metadata.contentHash = createHash("sha256").update(doc.pageContent).digest("hex");
  return { id, text: doc.pageContent, embedText: doc.pageContent, metadata };
}
