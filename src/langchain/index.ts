/**
 * The LangChain surface: a document loader and a VectorStore over docparse-rag's stores.
 * Light to import: the parse engine, PGlite and `pg` load on first use.
 */
export {
  DocParseLoader,
  DOCPARSE_LOADER_DEFAULTS,
  type DocParseLoaderMode,
  type DocParseLoaderOptions,
  type NamedInput,
} from "./docparse-loader.js";
export { DocParseVectorStore, type DocParseVectorStoreArgs } from "./docparse-vector-store.js";
export { chunkToDocument, documentToChunk } from "./documents.js";
