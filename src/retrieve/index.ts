export { CitationRetriever, CITATION_RETRIEVER_DEFAULTS, isDuplicateHit } from "./citation-retriever.js";
export type { CitationRetrieverOptions, CitationSearchOptions, CitedDocument, CitedPassage, CitedMetadata, ExpandMode } from "./citation-retriever.js";
export type { Citation, CitationQuote, CitationRegion, PageRef, PageSizeResolver } from "./citation.js";
export { buildCitation, toPassage, PASSAGE_SEPARATOR } from "./build-citation.js";
export type { Passage } from "./build-citation.js";
export { formatCitations, citationsToJson } from "./format-citations.js";
export type { CitationJson, FormatCitationsOptions } from "./format-citations.js";
export { selectQuote } from "./select-quote.js";
export type { QuoteSpan, SelectQuoteOptions } from "./select-quote.js";
export { splitSentences } from "./sentences.js";
export type { Sentence } from "./sentences.js";
export { matchTerms } from "./match-terms.js";
export { maximalMarginalRelevance, cosine } from "./mmr.js";
export { toPixelCoordinates, rectIoU, narrowBox, boxesFromChars } from "./highlight-geometry.js";
export { pageSizeFromMetadata, textSpansOf, boxesForRange } from "./chunk-geometry.js";
export type { SpanBox } from "./chunk-geometry.js";
// Citation geometry is computed at chunk time, so it and the rectangles it needs live in
// the chunk stage; re-exported here, where citations are read, as before.
export { rectOf, rectToCoordinates } from "../chunk/rect.js";
export type { Rect, PageSize } from "../chunk/rect.js";
export type { ChunkTextSpan, TextBox } from "../chunk/text-span.js";
export { addCitationGeometry, withCitationGeometry } from "../chunk/citation-geometry.js";
