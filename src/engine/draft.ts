import type { PageSpan, ParseConfig, ParseMode, ResolvedCapabilities, ElementType } from "../wire/index.js";

/**
 * The engine's internal model. A format handler turns bytes into a `DraftDocument`;
 * the assembler (`assemble.ts`) turns that into the wire `ParseResult`: element ids,
 * hierarchy (parent_id, children_ids, category_depth), title_tree, markdown, pages,
 * asset URLs, and capability gating. Handlers never build wire objects themselves, so
 * every format gets the same ids, hierarchy and gating.
 */

/** An axis-aligned box, fractions of the page (0..1), origin top-left. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface DraftChar {
  text: string;
  box: Box;
  /** 0..1; 1 for characters from a text layer. */
  confidence?: number;
  candidates?: { text: string; confidence: number }[];
}

export interface DraftTableCell {
  /** 1-based. */
  row: number;
  /** 1-based. */
  col: number;
  rowSpan?: number;
  colSpan?: number;
  text: string;
  box?: Box;
  /** `text` (default) or `formula`. */
  contentType?: string;
}

export interface DraftTable {
  rows: number;
  cols: number;
  cells: DraftTableCell[];
  /** Rows at the top that are headers (used by Markdown/HTML rendering). @default 1 */
  headerRows?: number;
}

export interface DraftImage {
  /** Pixel size of the image itself. */
  width: number;
  height: number;
  mimeType: string;
  /** The encoded image, when the handler has it; the assembler turns it into a URL or base64. */
  bytes?: Uint8Array;
}

export interface DraftInlineObject {
  /** `formula` or `handwriting`. */
  type: string;
  text: string;
  /** [start, end) in the element's text. */
  start: number;
  end: number;
  box?: Box;
  /** For formulas: `inline` or `display`. */
  displayMode?: string;
}

export interface DraftElement {
  type: ElementType;
  text: string;
  /** 1-based page. With estimated layout, the assembler may move it. */
  page: number;
  /** Tight box around the element's glyphs. Absent: the assembler estimates a layout. */
  box?: Box;
  /** For Title: 1-based heading level (1 = top). Drives category_depth and title_tree. */
  headingLevel?: number;
  /** For ListItem: 0-based nesting level. */
  listLevel?: number;
  subType?: string;
  table?: DraftTable;
  image?: DraftImage;
  /** Per-character geometry, in text order (`chars[i]` is `text[i]` where possible). */
  chars?: DraftChar[];
  objects?: DraftInlineObject[];
  /** Index (in `elements`) of the element this one continues (page/column break). */
  continuationOf?: number;
  /** Index (in `elements`) of a linked caption / captioned element. */
  refIndex?: number;
  /** Extra wire metadata members to pass through (e.g. `width`, `height`). */
  metadata?: Record<string, unknown>;
}

export interface DraftPage {
  /** 1-based page number in the source document. */
  number: number;
  /** Pixels at `dpi`. */
  width: number;
  height: number;
  dpi: number;
  /** Rotation in degrees. @default 0 */
  angle?: number;
  /** `Success` unless the page failed. */
  status?: string;
}

export interface DraftDocument {
  /** Media type of the source, e.g. `application/pdf`. */
  filetype: string;
  /** Pages in the source document (before page_range). */
  pageCount: number;
  /**
   * Pages with real geometry, in order, only those inside page_range. Empty when the
   * format has no geometry: the assembler lays elements out on estimated pages then.
   */
  pages: DraftPage[];
  /** Elements in reading order. */
  elements: DraftElement[];
  /** Pages that failed (partial result, code 50207). */
  failedPages?: number[];
  /** True when geometry is estimated (no real pages); boxes get `coordinates_estimated`. */
  estimatedLayout?: boolean;
  /**
   * With an estimated layout: true when the handler's page numbers are final (one page
   * per sheet): each page is laid out on its own and grows taller instead of
   * overflowing, and the handler applies page_range. False (default): the assembler
   * paginates onto A4 pages, a change of page number acting as a hard page break (Word
   * page breaks), and applies page_range to the pages it made.
   */
  fixedPages?: boolean;
  /**
   * Extra document metadata members for the result's `metadata` (e.g. `encoding` of a
   * text file). Never overrides `filename`, `filetype` or `page_count`.
   */
  metadata?: Record<string, unknown>;
}

/** Bounds a handler must respect so a hostile file cannot take the service down. */
export interface EngineLimits {
  /** Largest input in bytes. @default 500 MiB */
  maxBytes: number;
  /** Most pages processed. @default 5000 */
  maxPages: number;
  /** Largest total of uncompressed bytes inside a zip container (DOCX/XLSX/PPTX). @default 1 GiB */
  maxUnzippedBytes: number;
  /** Largest ratio uncompressed/compressed of a zip entry. @default 200 */
  maxZipRatio: number;
  /** Wall-clock limit for one document, ms. @default 600000 */
  timeoutMs: number;
  /** Largest image in pixels (width × height). @default 100 million */
  maxImagePixels: number;
  /**
   * Parser threads PDFs are read on (`worker_threads`, each with its own pdfjs, ~50 MB),
   * shared by every document of the process; a long document spreads over all of them.
   * @default the cores less one, between 1 and 2
   */
  pdfThreads: number;
}

export interface FormatContext {
  filename?: string;
  /** The validated wire config. */
  config: ParseConfig;
  capabilities: ResolvedCapabilities;
  /** Pages to parse; undefined means all. Beyond the document → 40424 (the handler checks). */
  pageRange?: readonly PageSpan[];
  password?: string;
  parseMode: ParseMode;
  limits: EngineLimits;
  signal?: AbortSignal;
  /** The media type detection found (e.g. `image/png`, `application/msword`); handlers serving several types use it. */
  mimeType?: string;
}

/** One input format. Heavy libraries are imported inside `parse`, never at module load. */
export interface FormatHandler {
  /** Short id: `pdf`, `docx`, `txt`, ... */
  readonly id: string;
  /** Media type written to `metadata.filetype`. */
  readonly mimeType: string;
  /**
   * Parses the bytes. Throws `DocParseError` with the service codes: 40422 corrupt,
   * 40423 password, 40424 page_range beyond the document, 40425 unsupported variant.
   */
  parse(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument>;
  /**
   * Renders one page of the source to PNG at `dpi`, for `page_image_url` (rendered on
   * demand and cached by the engine's asset store). Absent for formats without pages.
   */
  renderPage?(bytes: Uint8Array, page: number, options: { dpi: number; password?: string; signal?: AbortSignal }): Promise<Uint8Array>;
}
