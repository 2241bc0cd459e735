/**
 * The local parse engine: `LocalParser` (the `Parser` port, in process), format
 * detection, the asset store behind page/image URLs, and the engine's draft model for
 * format handlers. Light to import: format libraries load only when a format is parsed.
 */
export { LocalParser, LOCAL_PARSER_DEFAULTS, type LocalParserOptions, type AssetFile } from "./local-parser.js";
export { ENGINE_LIMIT_DEFAULTS, resolveLimits } from "./limits.js";
export { detectFormat, MIME, type DetectedFormat } from "./detect.js";
export { decodeText, type DecodedText } from "./text-decode.js";
export { MemoryAssetStore, type AssetStore } from "./assets.js";
export { DiskAssetStore, defaultAssetDirectory, type DiskAssetStoreOptions } from "./disk-asset-store.js";
export { assemble, type AssembleOptions, type Assembled, type AssetWrite } from "./assemble.js";
export { FLOW_PAGE } from "./flow-layout.js";
export { fileIdOf } from "./element-ids.js";
export { FORMAT_LOADERS, type FormatId } from "./registry.js";
export type {
  Box,
  DraftChar,
  DraftDocument,
  DraftElement,
  DraftImage,
  DraftInlineObject,
  DraftPage,
  DraftTable,
  DraftTableCell,
  EngineLimits,
  FormatContext,
  FormatHandler,
} from "./draft.js";
export {
  ocrImage,
  ocrStats,
  setOcrConcurrency,
  setOcrIdleTimeout,
  terminateOcr,
  type OcrResult,
  type OcrLine,
  type OcrWord,
  type OcrChar,
  type OcrOptions,
  type PixelBox,
} from "./ocr.js";
export { OFFICE_OPTION_DEFAULTS, type OfficeOptions } from "./formats/office/options.js";
