import type { Coordinates } from "../wire/index.js";

/**
 * One box on one page that contributed to a chunk: an element's box, or part of it. A
 * part of an element that starts or ends inside a line other text of the element shares
 * has up to three boxes on a page (its first line, the lines between, its last line).
 */
export interface ChunkRegion {
  /** 1-based page. */
  page: number;
  /** 8 numbers, TL TR BR BL, fractions of the page size. */
  coordinates: Coordinates;
  /** The element the box belongs to. */
  elementId: string;
  /**
   * True when the chunk holds only part of the element's text and the box could not be
   * narrowed (no char_details), so it covers the whole element.
   */
  approximate?: boolean;
}

/** Row range of a table piece. */
export interface ChunkTableInfo {
  elementId: string;
  /** First body row in this piece, 1-based in the table. */
  rowStart: number;
  /** Last body row in this piece, inclusive. */
  rowEnd: number;
  /** Header rows repeated at the top of this piece. */
  headerRows: number;
  /** Total rows in the whole table. */
  rows: number;
}

/** What a chunk holds: prose, a table (piece), an image with its caption and text, or several. */
export type ChunkKind = "text" | "table" | "image" | "mixed";

/** An inline object (formula, handwriting) of a chunk, its range mapped into the chunk's `text`. */
export interface ChunkInlineObject {
  elementId: string;
  objectId?: string;
  /** `formula`, `handwriting`, ... */
  type: string;
  /** [start, end) in `chunk.text`, `$` delimiters included. */
  textRange: [number, number];
}

/** Where a chunk comes from and how it relates to its neighbours. Flat keys stay top-level for filters. */
export interface ChunkMetadata {
  /** Stable id of the source document (path relative to the ingest root, or URL). */
  sourceId: string;
  filename?: string;
  /** Media type of the source. */
  filetype?: string;
  /** The parse result's `file_id`. */
  fileId?: string;
  jobId?: string;
  url?: string;
  schemaVersion?: string;
  /** Titles from the document root to the chunk's section. */
  headingPath: string[];
  pageStart: number;
  pageEnd: number;
  /** Every page the chunk touches, ascending. */
  pages: number[];
  /** One entry per contributing element per page; up to three for a part cut mid-line. */
  regions: ChunkRegion[];
  /** Contributing elements in reading order. */
  elementIds: string[];
  /** Distinct element types, in order of first appearance. */
  elementTypes: string[];
  kind: ChunkKind;
  table?: ChunkTableInfo;
  /** Image data of an image chunk (`image_url`, `mime_type`), as the result gave it. */
  image?: { url?: string; mimeType?: string; width?: number; height?: number };
  /** 0-based position of the chunk in its document. */
  chunkIndex: number;
  chunkCount: number;
  prevId?: string;
  nextId?: string;
  /** Id of the section (heading element or synthetic root) the chunk belongs to. */
  sectionId?: string;
  /** Tokens of `embedText` by the chunker's tokenizer. */
  tokens: number;
  /** sha256 of `text` (hex). */
  contentHash: string;
  /** Inline objects in `text` (formulas as `$...$`), with their ranges in it. */
  inlineObjects?: ChunkInlineObject[];
  /** Set when a single unsplittable run forced the chunk over `maxTokens`. */
  oversized?: boolean;
  /** Anything else a caller attached (flat values). */
  [key: string]: unknown;
}

/** A citation-ready piece of a document. */
export interface Chunk {
  /** Deterministic: the same source, elements, text and options give the same id. */
  id: string;
  /** The body: text, tables as HTML or Markdown. */
  text: string;
  /** Heading path + body: what gets embedded and what `maxTokens` counts. */
  embedText: string;
  metadata: ChunkMetadata;
}
