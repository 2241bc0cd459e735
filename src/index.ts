/**
 * docparse-rag: document parsing to citation-ready chunks.
 *
 * Light to import: format libraries (pdf.js, exceljs, mammoth, tesseract), database
 * drivers (PGlite, pg), BullMQ and the browser load only when first used.
 *
 * The pipeline, left to right:
 * source → parse (`DocParseClient` | `LocalParser`) → chunk (`chunkDocument`) →
 * embed (`HashEmbeddings` or any LangChain Embeddings) → store (`openStore`) →
 * retrieve (`CitationRetriever`) → view (`startViewer`).
 */

// Errors and the wire contract
export {
  DocParseError,
  LocalErrorCode,
  isRetryableCode,
  type DocParseErrorCode,
  type DocParseErrorOptions,
} from "./errors.js";
export * from "./wire/index.js";

// Parse: the port, the remote client, the local engine and service
export type { ParseInput, ParseOptions, ParsedDocument, Parser } from "./parser.js";
export {
  DocParseClient,
  CLIENT_DEFAULTS,
  createWebhookHandler,
  type DocParseClientOptions,
  type CreateJobOptions,
  type ParseAsyncOptions,
  type WaitForJobOptions,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from "./client/index.js";
export {
  LocalParser,
  LOCAL_PARSER_DEFAULTS,
  ENGINE_LIMIT_DEFAULTS,
  detectFormat,
  DiskAssetStore,
  MemoryAssetStore,
  ocrImage,
  ocrStats,
  setOcrConcurrency,
  setOcrIdleTimeout,
  terminateOcr,
  OFFICE_OPTION_DEFAULTS,
  type OfficeOptions,
  type OcrResult,
  type LocalParserOptions,
  type AssetStore,
  type EngineLimits,
  type FormatHandler,
  type DraftDocument,
  type DraftElement,
} from "./engine/index.js";
export {
  startServer,
  runServe,
  SERVER_DEFAULTS,
  type ServerOptions,
  type RunningServer,
  type ServeOptions,
} from "./server/index.js";
export {
  assertAllowedUrl,
  fetchBounded,
  isPrivateAddress,
  signWebhookBody,
  verifyWebhookSignature,
  type AddressPolicy,
} from "./net/index.js";

// Chunk
export {
  chunkDocument,
  chunkDocumentWithReport,
  CHUNK_OPTION_DEFAULTS,
  resolveChunkOptions,
  approximateTokenizer,
  cl100kTokenizer,
  resolveTokenizer,
  type ChunkInlineObject,
  type EmbedTemplateContext,
  type ResolvedChunkOptions,
  type TokenizerName,
  type Chunk,
  type ChunkKind,
  type ChunkMetadata,
  type ChunkRegion,
  type ChunkTableInfo,
  type ChunkOptions,
  type ChunkReport,
  type ChunkStrategy,
  type ChunkWarning,
  type Tokenizer,
} from "./chunk/index.js";

// Embed
export {
  HashEmbeddings,
  HASH_EMBEDDINGS_DEFAULTS,
  embedInBatches,
  type HashEmbeddingsOptions,
  type EmbedInBatchesOptions,
} from "./embed/index.js";

// Store
export {
  openStore,
  MemoryStore,
  LangChainStore,
  type OpenStoreOptions,
  type LangChainStoreOptions,
  type ChunkFilter,
  type ChunkQuery,
  type ChunkStore,
  type ChunkStoreCapabilities,
  type Manifest,
  type ManifestEntry,
  type ScoredChunk,
  type StoredChunk,
} from "./store/index.js";

// Ingest
export {
  ingest,
  INGEST_DEFAULTS,
  enqueueIngest,
  runWorker,
  type IngestOptions,
  type IngestReport,
  type IngestFailure,
  type IngestProgress,
  type IngestSource,
  type IngestSources,
} from "./ingest/index.js";

// Retrieve, LangChain and the viewer
export {
  CitationRetriever,
  CITATION_RETRIEVER_DEFAULTS,
  formatCitations,
  citationsToJson,
  addCitationGeometry,
  withCitationGeometry,
  type CitedPassage,
  type Citation,
  type CitationQuote,
  type CitationRegion,
  type CitationRetrieverOptions,
  type CitedDocument,
} from "./retrieve/index.js";
export {
  DocParseLoader,
  DocParseVectorStore,
  type DocParseLoaderOptions,
  type DocParseLoaderMode,
} from "./langchain/index.js";
export { startViewer, VIEWER_DEFAULTS, type Viewer, type ViewerOptions } from "./viewer/index.js";
