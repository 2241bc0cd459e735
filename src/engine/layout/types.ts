/**
 * The layout model shared by formats with page geometry (PDF today, OCR'd images too).
 * Everything here is in page units (PDF points for PDF, pixels for images) in the page's
 * display space: rotation applied, origin top-left, y growing downwards.
 */

/** An axis-aligned rectangle in page units. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A glyph position inside a run, in page units. */
export interface RunChar {
  text: string;
  x0: number;
  x1: number;
  /**
   * The glyph's extent across the run's line when it is not the run's own (`y0`..`y1`): a
   * run not level in its frame (a running head set sideways, up a page's edge) has its
   * glyphs one above another, each with its own y. Absent: the run's.
   */
  y0?: number;
  y1?: number;
}

/** One piece of text drawn with one font along one baseline (a PDF text item, an OCR word). */
export interface TextRun extends Rect {
  text: string;
  /** Font size in page units (height of the em square). */
  fontSize: number;
  bold: boolean;
  italic: boolean;
  /** Monospace font: candidate for CodeSnippet. */
  mono: boolean;
  /** Math font (CMMI, Cambria Math, STIX...): candidate for Formula / inline formula. */
  math: boolean;
  /** Direction of the baseline in degrees, counter-clockwise, display space. 0 = left to right. */
  angle: number;
  /** Per-glyph positions when asked for (char_details); absent otherwise. */
  chars?: RunChar[];
  /**
   * The font's name when the format knows it (a PDF font's, subset prefix removed:
   * `NotoSansCJKsc-Regular`): a Chinese notice tells its headings from its body by the
   * typeface alone (黑体 and 楷体 headings over 仿宋 text, one size, none bold).
   */
  face?: string;
  /** Fill colour (`#rrggbb`) when the format knows it: a list bullet drawn as a shape has its text's colour. */
  colour?: string;
  /** Read by an OCR engine: this engine's OCR of a scan, or a PDF's OCR text layer. */
  ocr?: boolean;
  /** OCR confidence per run (0..1); absent for a text layer (confidence 1). */
  confidence?: number;
  /** OCR character details (boxes in page units) passed through untouched. */
  ocrChars?: { text: string; box: Rect; confidence: number; candidates: { text: string; confidence: number }[] }[];
  /** A drop cap seated on its paragraph's first line (lines.ts): the word goes on after it. */
  dropCap?: boolean;
  /** Drawn by an annotation's appearance (a form field's value, a stamp): see {@link Block.annotation}. */
  annotation?: boolean;
  /** A tagged PDF's marked-content id the run was shown in (its structure element is found from it). */
  mcid?: number;
  /** The table cell a tagged PDF's structure puts the run in (`tagged-tables.ts`). */
  cell?: TaggedCell;
}

/**
 * A cell of a table as a tagged PDF's structure tree has it (`Table › TR › TD`/`TH`, as
 * Word, Chromium and LibreOffice write them): where it sits in the whole table, which may
 * run over several pages.
 */
export interface TaggedCell {
  table: TaggedTable;
  /** Row and column, 0-based, spans of the rows above counted (the HTML table model). */
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  /** A header cell (`TH`). */
  head: boolean;
}

/** A tagged PDF's table, shared by its cells' runs. */
export interface TaggedTable {
  /**
   * The table lays a page out rather than holding data: it holds another table, a heading
   * or a list (an HTML page or an e-mail set out with tables, a field list). Read as text.
   */
  layout: boolean;
}

/** Runs on one baseline, left to right, without a large horizontal gap. */
export interface Line extends Rect {
  runs: TextRun[];
  text: string;
  /** Dominant font size (by characters). */
  fontSize: number;
  /** True when at least 60 % of the characters are bold (a mixed-script heading counts). */
  bold: boolean;
  mono: boolean;
  /** Share of characters in math fonts or math symbols (0..1). */
  mathShare: number;
  /** A form's row (`Label:⇥value`, row-joins.ts `labelledValue`) or a key and its value (`keyValue`): where its value starts, or ends when the values are set flush right. */
  valueX?: number;
  /** A margin note's line, cut off the column it stands beside (lines.ts `marginNote`). */
  note?: boolean;
}

/** What a block turned out to be. */
export type BlockKind =
  | "text"
  | "title"
  | "list"
  | "code"
  | "formula"
  | "table"
  | "image"
  | "figure-caption"
  | "table-caption"
  | "header"
  | "footer"
  | "page-number";

/** Consecutive lines forming a paragraph-like unit. */
export interface Block extends Rect {
  /** The block's lines; empty once the block has crossed from a parser thread (see `lineCount`). */
  lines: Line[];
  /** How many lines the block has, set when `lines` was dropped (pdf-page.ts `compactLayout`). */
  lineCount?: number;
  text: string;
  fontSize: number;
  bold: boolean;
  mono: boolean;
  kind: BlockKind;
  /** Title: 1-based level. */
  headingLevel?: number;
  /** List item: 0-based level. */
  listLevel?: number;
  /** List item: where its words start, after the marker (levels nest by it). */
  textX?: number;
  /** List item: where its marker starts (a Chinese list's items all start at one place: classify.ts). */
  markerX?: number;
  /** The face most of its Chinese and Japanese characters, else of all its characters, are set in ({@link TextRun.face}), when the format knows it; kept across threads. */
  face?: string;
  /** A hyphen at a line's end is the word's own (the writer does not hyphenate): keep it. */
  keepHyphens?: boolean;
  /** A form's row or a key and its value (a line with `valueX`): no heading, however bold. */
  keyed?: boolean;
  /**
   * All of it drawn by annotations' appearances: what was typed into a form's fields. Never
   * a heading (a field's font grows to fill it) nor code (values typed in Courier).
   */
  annotation?: boolean;
  /**
   * No line of it level (classify.ts): `slanted` off the page's axes (a diagonal
   * watermark) or `sideways` at a right angle (a margin stamp, a thumb tab). Slanted text
   * is never a heading; nor is sideways text on a page read upright (its frame not turned).
   */
  aside?: "slanted" | "sideways";
  /** A margin note (its lines cut off the column beside them): read after that column's text beside it. */
  note?: boolean;
  /** Table: the most common type size of its cells' text (body text, when tables are most of it). */
  cellSize?: number;
  /** Table / image payload for non-text blocks. */
  table?: GridTable;
  image?: PlacedImage;
  /** Per-character boxes in text order (only when asked for). */
  chars?: BlockChar[];
  /** Inline formulas (runs in math fonts inside prose). */
  objects?: InlineSpan[];
  /** Mean OCR confidence of the block's text (0..1), by characters; absent for a text layer. */
  ocrConfidence?: number;
  /** Index of `captioned`/caption block within the page's blocks, set by caption linking. */
  ref?: Block;
}

/** How many lines `b` has, whether or not its lines are still there. */
export const lineCount = (b: Block): number => b.lineCount ?? b.lines.length;

/** One character of a block's text with its box. */
export interface BlockChar extends Rect {
  text: string;
  confidence: number;
  candidates?: { text: string; confidence: number }[];
}

/** A range of a block's text that is an inline object. */
export interface InlineSpan extends Rect {
  type: "formula";
  text: string;
  start: number;
  end: number;
}

/** An axis-aligned ruling segment (a drawn line or a thin filled rectangle). */
export interface Segment {
  /** True for a horizontal segment (y0 == y1 within tolerance). */
  horizontal: boolean;
  /** Position across the segment (y for horizontal, x for vertical). */
  at: number;
  /** Extent along the segment. */
  from: number;
  to: number;
}

export interface GridCell extends Rect {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
}

export interface GridTable extends Rect {
  rows: number;
  cols: number;
  cells: GridCell[];
  /** Rows at the top that are a header. @default 1 (0 for a table going on from the page before without its header) */
  headerRows?: number;
}

/** A table cell's figure, an amount or a percentage: `412`, `3.1`, `-5%`, `$1,290`, `(12)`, `1 200`. */
export const FIGURE = /^[-+\u2212(]?[$€£¥]?\d[\d,.\s]*%?\)?$/;

/** A painted path's box, and the colour it is painted in (`#rrggbb`, fill before stroke). */
export interface Drawing extends Rect {
  colour?: string;
}

/** An image drawn on the page. */
export interface PlacedImage extends Rect {
  /** Source pixel size. */
  width: number;
  height: number;
  /** Handle the format uses to fetch the pixels later (pdfjs object id). */
  ref?: string;
  /** A figure drawn as vector graphics: its picture is the page rendered over its box. */
  vector?: boolean;
}

export const width = (r: Rect): number => r.x1 - r.x0;
export const height = (r: Rect): number => r.y1 - r.y0;

/** Smallest rectangle containing all of `rects` (must be non-empty). */
export function union(rects: readonly Rect[]): Rect {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of rects) {
    if (r.x0 < x0) x0 = r.x0;
    if (r.y0 < y0) y0 = r.y0;
    if (r.x1 > x1) x1 = r.x1;
    if (r.y1 > y1) y1 = r.y1;
  }
  return { x0, y0, x1, y1 };
}

/** The index of the first box of `byTop` (sorted by top) whose top is at `y` or below; its length when none is. */
export function firstFromTop(byTop: readonly { y0: number }[], y: number): number {
  let lo = 0;
  let hi = byTop.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byTop[mid]!.y0 < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Length of the overlap of [a0,a1] and [b0,b1] (0 when disjoint). */
export function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** Whether the point is inside the rectangle, grown by `pad`. */
export function contains(r: Rect, x: number, y: number, pad = 0): boolean {
  return x >= r.x0 - pad && x <= r.x1 + pad && y >= r.y0 - pad && y <= r.y1 + pad;
}

const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af]/;

/** Whether a character is CJK, Hangul included (full width, no case, may be set vertically). */
export function isCjk(ch: string): boolean {
  return CJK.test(ch);
}

/** Han, kana, CJK punctuation and full-width forms: CJK without Hangul. */
const SOLID_CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/**
 * Whether a character belongs to Chinese or Japanese text, which puts no spaces between
 * words: a line broken next to one joins the next without a space. Korean is CJK but
 * spaces its words as Latin does (a Hangul word space is about 0.25 em), so Hangul is not.
 */
export function isSolidCjk(ch: string): boolean {
  return SOLID_CJK.test(ch);
}

/** Thai, Lao, Myanmar and Khmer: words run on unspaced, a space ends a phrase. */
const UNSPACED_SOUTHEAST = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;

/**
 * Whether two characters meeting at a line break join without a space: either is Chinese
 * or Japanese, or both are Thai, Lao, Myanmar or Khmer, whose lines break between words
 * that no space divides (a wrapped Thai line breaks at a space only by chance).
 */
export function joinsUnspaced(a: string, b: string): boolean {
  return isSolidCjk(a) || isSolidCjk(b) || (UNSPACED_SOUTHEAST.test(a) && UNSPACED_SOUTHEAST.test(b));
}

const NARROW = new Set([..."iljIft.,:;'|!()[] `"]);
const WIDE = new Set([..."mwMW@%"]);

/**
 * Relative advance widths of characters when a format gives only a run's extent:
 * narrow, normal, wide, full-width (CJK). The ends of the run stay exact.
 */
export function charWeights(chars: readonly string[]): number[] {
  return chars.map((c) => {
    const code = c.codePointAt(0)!;
    if (code >= 0x2e80) return 1;
    if (NARROW.has(c)) return 0.3;
    if (WIDE.has(c)) return 0.85;
    if (c >= "A" && c <= "Z") return 0.68;
    return 0.52;
  });
}

/**
 * Splits a horizontal run near `x` (at the closest space when there is one), for text a
 * format merged across a table rule. Returns the run unchanged when no split fits.
 */
export function splitRunAt(run: TextRun, x: number): TextRun[] {
  const chars = [...run.text];
  const weights = charWeights(chars);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const w = run.x1 - run.x0;
  // A merged run usually hides the gap between cells in one space, so its estimated
  // position is unreliable: cut at the space nearest to x when there is one.
  let pos = run.x0;
  let best = -1;
  let bestD = Infinity;
  let bestSpace = -1;
  let bestSpaceD = Infinity;
  for (let i = 0; i < chars.length - 1; i++) {
    const next = pos + (w * weights[i]!) / total;
    const d = Math.abs(next - x);
    if (d < bestD) [best, bestD] = [i, d];
    if (chars[i] === " " && Math.abs((pos + next) / 2 - x) < bestSpaceD) [bestSpace, bestSpaceD] = [i, Math.abs((pos + next) / 2 - x)];
    pos = next;
  }
  if (bestSpace >= 0) best = bestSpace;
  if (best < 0) return [run];
  let xCut = run.x0;
  for (let i = 0; i <= best; i++) xCut += (w * weights[i]!) / total;
  const left = chars.slice(0, best + 1).join("").trimEnd();
  const right = chars.slice(best + 1).join("").trimStart();
  if (!left || !right) return [run];
  const a: TextRun = { ...run, text: left, x1: Math.min(xCut, x - 0.5) };
  const b: TextRun = { ...run, text: right, x0: Math.max(xCut, x + 0.5) };
  if (run.chars) {
    a.chars = run.chars.slice(0, best + 1);
    b.chars = run.chars.slice(best + 1);
  }
  return [a, b];
}
