import type { Box, DraftChar, DraftElement, DraftTable, DraftTableCell } from "./draft.js";
import { canBreakBefore, charEm, isWide } from "./text-width.js";
import { tablePlainText } from "./render-table.js";

/**
 * The estimated layout for formats without real geometry (TXT, Markdown, and office
 * formats converted without LibreOffice): elements flow onto A4 pages at 144 dpi, top to
 * bottom, with a simple line-wrapping model (proportional font, CJK characters a full em,
 * breaks at spaces or between CJK characters). Paragraphs and tables too tall for the
 * rest of a page are split, the later piece marked as a continuation. The result is
 * deterministic and good enough to say "page 3, upper half"; it is never exact, so the
 * assembler marks these elements `coordinates_estimated`.
 */

/** A4 at 144 dpi, in pixels. */
export const FLOW_PAGE = Object.freeze({ width: 1191, height: 1684, dpi: 144, margin: 144 });

export interface LaidElement {
  /** The element (a piece of it, when split) with `page` and `box` set. */
  element: DraftElement;
  /** Index of the draft element it comes from. */
  source: number;
  /** Index (in the laid list) of the previous piece, when this piece continues it. */
  continues?: number;
  /** Per-cell boxes for tables, in `table.cells` order. */
  cellBoxes?: Box[];
  /** What to draw for this element on an estimated page image (with `paint`). */
  paint?: PaintItem[];
}

/** One thing to draw on an estimated page, in pixels at 144 dpi. */
export type PaintItem =
  | { kind: "text"; x: number; y: number; px: number; lineHeight: number; mono?: boolean; bold?: boolean; bullet?: boolean; lines: { t: string; w: number }[] }
  | { kind: "cell"; box: [number, number, number, number]; px: number; lineHeight: number; header?: boolean; lines: { t: string; w: number }[] }
  | { kind: "image"; box: [number, number, number, number]; label: string; /** The encoded image, base64, when the document holds it. */ data?: string };

export interface FlowLayoutOptions {
  /** Compute per-character boxes (for `include_char_details`). @default false */
  chars?: boolean;
  /** Keep the handler's page numbers; pages grow instead of overflowing. @default false */
  fixedPages?: boolean;
  /** Record what to draw (`LaidElement.paint`) for estimated page images. @default false */
  paint?: boolean;
}

export interface FlowLayoutResult {
  elements: LaidElement[];
  /** Highest page number used (flowing: pages are 1..pageCount). */
  pageCount: number;
  /** Pixel size of each page used (A4 at 144 dpi, taller for grown fixed pages). */
  pageSizes: Map<number, { width: number; height: number }>;
}

interface Font {
  px: number;
  lineHeight: number;
  mono: boolean;
  before: number;
  after: number;
}

const BODY: Font = { px: 24, lineHeight: 36, mono: false, before: 0, after: 14 };
const CODE: Font = { px: 20, lineHeight: 27, mono: true, before: 4, after: 18 };
const TABLE: Font = { px: 21, lineHeight: 30, mono: false, before: 6, after: 18 };
const CELL_PAD = 8;

function fontFor(el: DraftElement): Font {
  if (el.type === "Title") {
    const level = el.headingLevel ?? 1;
    const px = level <= 1 ? 40 : level === 2 ? 32 : level === 3 ? 28 : 24;
    return { px, lineHeight: Math.round(px * 1.3), mono: false, before: Math.round(px * 0.8), after: Math.round(px * 0.4) };
  }
  if (el.type === "CodeSnippet") return CODE;
  return BODY;
}

export interface WrappedLine {
  /** [start, end) in the text, trailing spaces excluded. */
  start: number;
  end: number;
  width: number;
}

function em(ch: string, mono: boolean): number {
  return mono ? (isWide(ch) ? 1 : 0.6) : charEm(ch);
}

/** Wraps text into lines no wider than `maxWidth` px; `\n` always breaks. */
export function wrapText(text: string, maxWidth: number, fontPx: number, mono = false): WrappedLine[] {
  const lines: WrappedLine[] = [];
  const measure = (s: number, e: number) => {
    let w = 0;
    for (let i = s; i < e; i++) w += em(text[i]!, mono) * fontPx;
    return w;
  };
  const push = (s: number, e: number) => {
    let end = e;
    while (end > s && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
    lines.push({ start: s, end, width: measure(s, end) });
  };
  let start = 0;
  let width = 0;
  let brk = -1;
  let widthAtBrk = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\n") {
      push(start, i);
      start = i + 1;
      width = 0;
      brk = -1;
      continue;
    }
    const w = em(ch, mono) * fontPx;
    if (ch === " " || ch === "\t") {
      width += w;
      brk = i + 1;
      widthAtBrk = width;
      continue;
    }
    if (i > start && (isWide(ch) || isWide(text[i - 1]!)) && canBreakBefore(ch)) {
      brk = i;
      widthAtBrk = width;
    }
    if (width + w > maxWidth && i > start) {
      if (brk > start) {
        push(start, brk);
        start = brk;
        width -= widthAtBrk;
      } else {
        push(start, i);
        start = i;
        width = 0;
      }
      brk = -1;
    }
    width += w;
  }
  push(start, text.length);
  return lines;
}

/**
 * Lays the elements out on A4-wide pages. Elements keep their order.
 *
 * - Flowing (default): a handler's page change (a hard page break in a Word file) starts
 *   a new page, numbered as the handler says unless overflow already went past it;
 *   content that does not fit flows onto new pages.
 * - `fixedPages`: the handler's page numbers are final (one page per sheet): each page
 *   is laid out from its top and grows taller instead of overflowing.
 */
export function flowLayout(elements: readonly DraftElement[], options: FlowLayoutOptions = {}): FlowLayoutResult {
  const { width: W, height: H, margin: M } = FLOW_PAGE;
  const fixed = options.fixedPages === true;
  const contentW = W - 2 * M;
  const contentH = H - 2 * M;
  const bottom = fixed ? Number.POSITIVE_INFINITY : H - M;
  const out: LaidElement[] = [];
  const computedChars = new WeakSet<DraftElement>();
  const pageBottom = new Map<number, number>();
  let page = Math.max(1, elements[0]?.page ?? 1);
  let sourcePage = elements[0]?.page ?? 1;
  let y: number = M;
  const atTop = () => y === M;
  const newPage = () => {
    page++;
    y = M;
  };
  // Pixel boxes while laying out; fractions of each page's final size at the end.
  const box = (x0: number, y0: number, x1: number, y1: number): Box => {
    pageBottom.set(page, Math.max(pageBottom.get(page) ?? 0, y1));
    return { x0, y0, x1: Math.min(x1, W), y1 };
  };

  elements.forEach((el, source) => {
    if (fixed) {
      if (el.page !== page) {
        page = el.page;
        y = M;
      }
    } else if (el.page > sourcePage) {
      // A hard page break: keep the handler's number unless overflow already went past it.
      sourcePage = el.page;
      page = Math.max(atTop() ? page : page + 1, el.page);
      y = M;
    }
    if (el.type === "PageBreak") {
      out.push({ element: { ...el, page, box: box(M, y, M, y) }, source });
      if (!atTop() && !fixed) newPage();
      return;
    }
    if (el.type === "Table" && el.table && el.table.rows > 0 && el.table.cols > 0) {
      layTable(el, source);
      return;
    }
    if (el.type === "Image") {
      const iw = el.image?.width ?? 0;
      const ih = el.image?.height ?? 0;
      // Images keep their aspect ratio, at most the content width and half a page tall.
      let w = iw > 0 ? Math.min(contentW, iw) : contentW / 2;
      let h = iw > 0 && ih > 0 ? (w * ih) / iw : 300;
      if (h > contentH / 2) {
        w = (w * (contentH / 2)) / h;
        h = contentH / 2;
      }
      if (y + h > bottom && !atTop()) newPage();
      const laid: LaidElement = { element: { ...el, page, box: box(M, y, M + w, y + h) }, source };
      if (options.paint) {
        const item: PaintItem = { kind: "image", box: [M, y, M + w, y + h], label: el.text };
        if (el.image?.bytes && /^image\/(png|jpeg|gif|webp)$/.test(el.image.mimeType)) item.data = Buffer.from(el.image.bytes).toString("base64");
        laid.paint = [item];
      }
      out.push(laid);
      y += h + BODY.after;
      return;
    }
    layText(el, source);
  });

  function layText(el: DraftElement, source: number): void {
    const font = fontFor(el);
    const indent = el.type === "ListItem" ? (Math.max(0, el.listLevel ?? 0) + 1) * font.px * 1.5 : 0;
    const left = M + indent;
    const maxW = contentW - indent;
    // Titles are drawn bold: about a tenth wider.
    const measurePx = el.type === "Title" ? font.px * 1.1 : font.px;
    const lines = wrapText(el.text, maxW, measurePx, font.mono);
    let first = 0;
    let previous: number | undefined;
    if (!atTop()) y += font.before;
    while (first < lines.length) {
      const room = Math.floor((bottom - y) / font.lineHeight);
      const left_ = lines.length - first;
      // Titles never split; a paragraph leaves no single orphan line at a page bottom.
      const mustMove = !atTop() && (room <= 0 || (el.type === "Title" && room < left_) || (room === 1 && left_ > 1));
      if (mustMove) {
        newPage();
        continue;
      }
      const take = Math.max(1, Math.min(room, left_));
      const piece = lines.slice(first, first + take);
      const startChar = piece[0]!.start;
      const endChar = piece[piece.length - 1]!.end;
      const isWhole = first === 0 && take === lines.length;
      const text = isWhole ? el.text : el.text.slice(startChar, endChar).trim();
      const maxLine = piece.reduce((m, l) => Math.max(m, l.width), 1);
      const y0 = y;
      const y1 = y + take * font.lineHeight;
      const laid: DraftElement = { ...el, text, page, box: box(left, y0, left + maxLine, y1) };
      const found = isWhole ? 0 : el.text.indexOf(text, startChar);
      const base = found < 0 ? startChar : found;
      if (!isWhole) {
        delete laid.chars;
        // Inline objects move with their piece; text_range is relative to the piece's text.
        const objects = el.objects
          ?.filter((o) => o.start >= base && o.end <= base + text.length)
          .map((o) => ({ ...o, start: o.start - base, end: o.end - base }));
        if (objects?.length) laid.objects = objects;
        else delete laid.objects;
      }
      if (options.chars) {
        laid.chars = charBoxes(el.text, piece, base, text, left, y0, { ...font, px: measurePx }, box);
        computedChars.add(laid);
      }
      const entry: LaidElement = { element: laid, source };
      if (previous !== undefined) entry.continues = previous;
      if (options.paint) {
        const lines = piece.map((l) => ({ t: el.text.slice(l.start, l.end), w: l.width }));
        const item: PaintItem = { kind: "text", x: left, y: y0, px: font.px, lineHeight: font.lineHeight, lines };
        if (font.mono) item.mono = true;
        if (el.type === "Title") item.bold = true;
        // Bullets are not in a list item's text (numbers are): draw one on its first piece.
        if (el.type === "ListItem" && first === 0 && !/^(\d{1,3}[.)]|[a-zA-Z][.)]|\(\d{1,3}\)|（|[一二三四五六七八九十]+、|[①-⑳])/u.test(el.text)) item.bullet = true;
        entry.paint = [item];
      }
      out.push(entry);
      previous = out.length - 1;
      y = y1;
      first += take;
      if (first < lines.length) newPage();
    }
    y += font.after;
  }

  function layTable(el: DraftElement, source: number): void {
    const table = el.table!;
    const colW = contentW / table.cols;
    // Row heights: the tallest cell starting in the row (a spanning cell's lines spread over its rows).
    const heights = new Array<number>(table.rows).fill(TABLE.lineHeight + 2 * CELL_PAD);
    for (const cell of table.cells) {
      const span = Math.max(1, cell.colSpan ?? 1);
      const rows = Math.max(1, cell.rowSpan ?? 1);
      const n = wrapText(cell.text, span * colW - 2 * CELL_PAD, TABLE.px).length;
      const h = (n * TABLE.lineHeight) / rows + 2 * CELL_PAD;
      const r = cell.row - 1;
      if (r >= 0 && r < table.rows && h > heights[r]!) heights[r] = h;
    }
    if (!atTop()) y += TABLE.before;
    let row = 0;
    let previous: number | undefined;
    while (row < table.rows) {
      let take = 0;
      let h = 0;
      while (row + take < table.rows && y + h + heights[row + take]! <= bottom) h += heights[row + take++]!;
      if (take === 0 || (take < table.rows - row && take < 2 && !atTop())) {
        if (!atTop()) {
          newPage();
          continue;
        }
        take = Math.max(1, take);
        h = heights[row]!;
      }
      const part = sliceTable(table, row, row + take);
      const isWhole = row === 0 && take === table.rows;
      const rowTop: number[] = [];
      let acc = y;
      for (let r = row; r < row + take; r++) {
        rowTop.push(acc);
        acc += heights[r]!;
      }
      rowTop.push(acc);
      const cellBoxes = part.cells.map((c) => {
        const r0 = c.row - 1;
        const r1 = Math.min(take, r0 + Math.max(1, c.rowSpan ?? 1));
        const x0 = M + (c.col - 1) * colW;
        return box(x0, rowTop[r0]!, x0 + Math.max(1, c.colSpan ?? 1) * colW, rowTop[r1]!);
      });
      const laid: DraftElement = {
        ...el,
        text: isWhole ? el.text : tablePlainText(part),
        table: part,
        page,
        box: box(M, y, M + contentW, y + h),
      };
      const entry: LaidElement = { element: laid, source, cellBoxes };
      if (options.paint) {
        const header = part.headerRows ?? 1;
        entry.paint = part.cells.map((c, k): PaintItem => {
          const b = cellBoxes[k]!;
          const lines = wrapText(c.text, b.x1 - b.x0 - 2 * CELL_PAD, TABLE.px).map((l) => ({ t: c.text.slice(l.start, l.end), w: l.width }));
          const item: PaintItem = { kind: "cell", box: [b.x0, b.y0, b.x1, b.y1], px: TABLE.px, lineHeight: TABLE.lineHeight, lines };
          if (c.row <= header) item.header = true;
          return item;
        });
      }
      if (previous !== undefined) entry.continues = previous;
      out.push(entry);
      previous = out.length - 1;
      y += h;
      row += take;
      if (row < table.rows) newPage();
    }
    y += TABLE.after;
  }

  // Page sizes: A4, or taller where a fixed page's content runs past the bottom margin.
  const pages = new Map<number, { width: number; height: number }>();
  const heightOf = (n: number) => {
    let size = pages.get(n);
    if (!size) {
      size = { width: W, height: Math.max(H, Math.ceil((pageBottom.get(n) ?? 0) + M)) };
      pages.set(n, size);
    }
    return size.height;
  };
  const norm = (b: Box, n: number): Box => {
    const h = heightOf(n);
    return { x0: b.x0 / W, y0: b.y0 / h, x1: b.x1 / W, y1: Math.min(b.y1, h) / h };
  };
  for (const laid of out) {
    const n = laid.element.page;
    laid.element.box = norm(laid.element.box!, n);
    if (laid.element.chars && computedChars.has(laid.element)) {
      // In place: one document can have millions of characters.
      const h = heightOf(n);
      for (const c of laid.element.chars) {
        const b = c.box;
        b.x0 /= W;
        b.x1 = Math.min(b.x1, W) / W;
        b.y0 /= h;
        b.y1 = Math.min(b.y1, h) / h;
      }
    }
    if (laid.cellBoxes) laid.cellBoxes = laid.cellBoxes.map((b) => norm(b, n));
  }
  const pageCount = fixed ? out.reduce((m, l) => Math.max(m, l.element.page), 0) : page;
  for (let n = 1; n <= pageCount; n++) heightOf(n);
  return { elements: out, pageCount, pageSizes: pages };
}

/** Rows [from, to) of a table, renumbered from 1; spans clipped; header rows only if included. */
function sliceTable(table: DraftTable, from: number, to: number): DraftTable {
  if (from === 0 && to === table.rows) return table;
  const cells: DraftTableCell[] = [];
  for (const c of table.cells) {
    const r0 = c.row - 1;
    const r1 = r0 + Math.max(1, c.rowSpan ?? 1);
    if (r1 <= from || r0 >= to) continue;
    const start = Math.max(r0, from);
    const end = Math.min(r1, to);
    // A cell spanning into this slice from above repeats its text: the slice must stand alone.
    const cell: DraftTableCell = { ...c, row: start - from + 1 };
    if (end - start > 1) cell.rowSpan = end - start;
    else delete cell.rowSpan;
    delete cell.box;
    cells.push(cell);
  }
  const headerRows = Math.max(0, Math.min(to, table.headerRows ?? 1) - from);
  return { rows: to - from, cols: table.cols, cells, headerRows };
}

function charBoxes(
  full: string,
  lines: readonly WrappedLine[],
  base: number,
  text: string,
  left: number,
  top: number,
  font: Font,
  box: (x0: number, y0: number, x1: number, y1: number) => Box,
): DraftChar[] {
  // Boxes for every character of `text` (full[base, base + text.length)); characters
  // the wrap dropped (spaces at a break) get a zero-width box where the previous ended.
  const boxes = new Array<Box | undefined>(text.length);
  lines.forEach((line, li) => {
    let x = left;
    const y0 = top + li * font.lineHeight;
    const y1 = y0 + font.lineHeight;
    for (let i = line.start; i < line.end; i++) {
      const w = em(full[i]!, font.mono) * font.px;
      const k = i - base;
      if (k >= 0 && k < boxes.length) boxes[k] = { x0: x, y0, x1: x + w, y1 };
      x += w;
    }
  });
  const chars: DraftChar[] = new Array<DraftChar>(text.length);
  let last: Box = box(left, top, left, top + font.lineHeight);
  for (let i = 0; i < text.length; i++) {
    const b = boxes[i] ?? { x0: last.x1, y0: last.y0, x1: last.x1, y1: last.y1 };
    last = b;
    chars[i] = { text: text[i]!, box: b, confidence: 1 };
  }
  return chars;
}
