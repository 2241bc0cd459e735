import type { Chunk } from "../chunk/chunk.js";
import type { PageSize } from "../chunk/rect.js";

/** One highlighted box of a citation. */
export interface CitationRegion {
  /** 1-based page. */
  page: number;
  /** The element the box belongs to. */
  elementId: string;
  /** 8 numbers, TL TR BR BL, fractions of the page. */
  coordinates: number[];
  /** The same 8 numbers in pixels of the page image; present when the page size is known. */
  pixels?: number[];
  /** The page size `pixels` was computed with. */
  pageSize?: PageSize;
  /** True when the box is estimated rather than measured (see `docs/retrieval.md`). */
  approximate?: boolean;
}

/** The sentence(s) of the cited text that best match the query. */
export interface CitationQuote {
  text: string;
  /** Offset of the quote in the Document's `pageContent`. */
  start: number;
  /** End offset (exclusive) in `pageContent`. */
  end: number;
  /** Share of the query's distinct terms found in the quote, 0..1. */
  score: number;
  /** Boxes of the quote alone: tight when the chunk carries character geometry. */
  regions: CitationRegion[];
  /** True when any quote box is estimated. */
  approximate: boolean;
}

/** Where a retrieved passage comes from, precise enough to show it on the page. */
export interface Citation {
  sourceId: string;
  filename?: string;
  url?: string;
  /** The parse result's `file_id` (page images are looked up by it). */
  fileId?: string;
  /** Chunks behind the passage, in reading order (several after small-to-big expansion). */
  chunkIds: string[];
  /** Every page the passage touches, ascending. */
  pages: number[];
  headingPath: string[];
  /** Every box of the passage. */
  regions: CitationRegion[];
  quote: CitationQuote;
}

/** What a page-size resolver is asked about. */
export interface PageRef {
  sourceId: string;
  fileId?: string;
  page: number;
  chunk: Chunk;
}

/**
 * Page sizes for pixel boxes, for chunks that do not carry them in metadata
 * (e.g. looked up from the stored parse result's `pages`). Undefined: unknown.
 */
export type PageSizeResolver = (ref: PageRef) => PageSize | undefined | Promise<PageSize | undefined>;
