/**
 * The hierarchy-aware chunker: parse result in, citation-ready chunks out.
 * Light to import: the cl100k rank table loads on the first token count.
 */
export type { Chunk, ChunkInlineObject, ChunkKind, ChunkMetadata, ChunkRegion, ChunkTableInfo } from "./chunk.js";
export { chunkDocument, chunkDocumentWithReport, type ChunkReport } from "./chunk-document.js";
export {
  CHUNK_OPTION_DEFAULTS,
  resolveChunkOptions,
  type ChunkOptions,
  type ChunkStrategy,
  type ChunkWarning,
  type EmbedTemplateContext,
  type ResolvedChunkOptions,
} from "./options.js";
export {
  approximateTokenizer,
  cl100kTokenizer,
  resolveTokenizer,
  type Tokenizer,
  type TokenizerName,
} from "./tokenizer.js";
export { detectTableText, type TableTextFormat } from "./table-model.js";
export { splitTextRanges, DEFAULT_SEPARATORS, type Separator, type SplitTextOptions, type TextRange } from "./split-text.js";
export { addCitationGeometry, withCitationGeometry } from "./citation-geometry.js";
