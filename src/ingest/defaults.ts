import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Parser } from "../parser.js";
import type { ChunkStore } from "../store/chunk-store.js";
import type { Chunker } from "./ingest-options.js";

// The default parts are imported when first needed, so importing `ingest` stays light and
// a remote-only deployment never loads the local engine.

/** `DocParseClient` from the environment when `DOCPARSE_BASE_URL` is set, else `LocalParser`. */
export async function defaultParser(env: NodeJS.ProcessEnv = process.env): Promise<Parser> {
  if (env.DOCPARSE_BASE_URL) {
    const { DocParseClient } = await import("../client/index.js");
    return new DocParseClient();
  }
  const { LocalParser } = await import("../engine/local-parser.js");
  return new LocalParser();
}

/** The embedded default embedder. */
export async function defaultEmbeddings(): Promise<EmbeddingsInterface> {
  const { HashEmbeddings } = await import("../embed/hash-embeddings.js");
  return new HashEmbeddings();
}

/**
 * `chunkDocument` with the per-document ids filled in, and the citation geometry
 * (text spans with boxes, page sizes, page image URLs) that exact highlights need.
 */
export async function defaultChunker(): Promise<Chunker> {
  const { chunkDocument } = await import("../chunk/chunk-document.js");
  const { addCitationGeometry } = await import("../chunk/citation-geometry.js");
  return (result, context) => {
    const metadata = { ...context.options.metadata, ...(context.url ? { url: context.url } : {}) };
    // The chunker reads filename and job id from the result; make sure they are there.
    const named = result.metadata?.filename ? result : { ...result, metadata: { ...result.metadata, filename: context.filename } };
    return addCitationGeometry(named, chunkDocument(named, { ...context.options, sourceId: context.sourceId, metadata }));
  };
}

/** Opens a store from its URL (`memory://`, `pglite://dir`, `postgres://…`). */
export async function openStoreUrl(url: string): Promise<ChunkStore> {
  const { openStore } = await import("../store/open-store.js");
  return openStore(url);
}
