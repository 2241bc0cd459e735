import type { PageLayout } from "./document.js";
import { bodySize } from "./body-size.js";
import { GOES_ON } from "./continuations.js";
import { inBody, replaceByTable } from "./page.js";
import { FIGURE, lineCount, union, type Block, type GridCell, type GridTable, type Rect } from "./types.js";

/** Most rows a page break carries over that page layout may miss (it finds a table without rules from three rows, some writers' from four). */
const MAX_TAIL_ROWS = 4;
/** Most lines a block opening a page may have to be read as a table's last rows: a column of them, each wrapped once. */
const MAX_TAIL_LINES = 2 * MAX_TAIL_ROWS;
/** Longest text of a cell taken from a piece of a line (a label or a figure, not prose). */
const MAX_CELL_CHARS = 60;

/**
 * Whether a block could be (part of) a table's last rows carried over to its page's top:
 * short text in the top third of the page. Its lines are kept when a page crosses to the
 * calling thread (`compactLayout`): the rows are cut from them by the table's columns.
 */
export function mayBeTableTail(b: Block, pageHeight: number): boolean {
  return (b.kind === "text" || b.kind === "title") && b.y0 < pageHeight / 3 && lineCount(b) <= MAX_TAIL_LINES && b.text.length <= MAX_TAIL_LINES * MAX_CELL_CHARS;
}

/**
 * Tables a page break cut before their last row or rows: a statement's totals, a
 * longtable's last lines, at the top of the next page. Page layout needs rows enough to
 * find a table without rules (and LibreOffice's and pdflatex's ruled rows come without
 * the rules that close them), so they came out as short paragraphs side by side, or as a
 * block per column. Where a page's last body element (past footnotes) is a table reaching the page's
 * bottom quarter (or a `Continued` note follows it), the blocks opening the next page
 * (only running text above them) become a table of its columns when every piece of their
 * lines stands in one of that table's columns, there are one to {@link MAX_TAIL_ROWS} rows,
 * each of two cells or more (a line of one cell under a row is that row's cell wrapped),
 * one row fills half the columns, nothing else shares their rows, the rows stand close
 * together, and the first row reads like the table's last (figures under figures) or
 * repeats one of its first three rows (a header repeated overleaf) with such a row under
 * it. The new table, as wide as the one it ends, replaces them in reading order;
 * `finishDocument` then links it to the table before as a continuation. Call after
 * running text is marked.
 */
export function joinTableTails(pages: readonly PageLayout[]): void {
  const body = bodySize(pages);
  for (let i = 1; i < pages.length; i++) {
    const prev = pages[i - 1]!;
    const page = pages[i]!;
    if (page.number !== prev.number + 1 || page.frame?.angle !== prev.frame?.angle) continue;
    const last = lastTable(prev, body);
    if (!last) continue;
    const tail = tableTail(page, last.table!);
    if (!tail) continue;
    page.blocks = replaceByTable(page.blocks, tail.taken, tail.table);
  }
}


/**
 * The table ending the page (footnotes under it set aside: type under 0.9 × the body's in
 * the lower half), when it reaches the page's bottom quarter or a `Continued` note follows it.
 */
function lastTable(p: PageLayout, body: number): Block | undefined {
  const blocks = p.blocks.filter(inBody);
  let i = blocks.length - 1;
  let note = false;
  const footnote = (b: Block): boolean => (b.kind === "text" || b.kind === "list") && body > 0 && b.fontSize <= 0.9 * body && b.y0 >= 0.5 * p.height;
  for (; i >= 0; i--) {
    const b = blocks[i]!;
    if (GOES_ON.test(b.text.trim())) note = true;
    else if (!footnote(b)) break;
  }
  const t = blocks[i];
  if (t?.kind !== "table" || !t.table || t.table.cols < 2) return undefined;
  return note || t.y1 >= 0.75 * p.height ? t : undefined;
}

/** A piece of a line: runs standing in one column. */
interface Piece extends Rect {
  text: string;
  col: number;
}

function tableTail(page: PageLayout, before: GridTable): { table: GridTable; taken: Set<Block> } | undefined {
  const columns = columnsOf(before);
  if (columns.length < 2) return undefined;
  const left = Math.min(...columns.map((k) => k.x0));
  const right = Math.max(...columns.map((k) => k.x1));
  // The column a span of text stands in: within its extent, or starting at it and ending
  // before the next column (a label longer than any above it).
  const columnOf = (r: Rect, em: number): number | undefined => {
    const tol = Math.max(2, 0.5 * em);
    const mid = (r.x0 + r.x1) / 2;
    for (let k = 0; k < columns.length; k++) {
      const c = columns[k]!;
      const end = k + 1 < columns.length ? columns[k + 1]!.x0 : c.x1 + tol;
      if (mid >= c.x0 - tol && mid <= Math.max(c.x1 + tol, end) && r.x0 >= c.x0 - tol && r.x1 <= Math.max(c.x1 + tol, end)) return c.col;
    }
    return undefined;
  };
  // The blocks opening the page, in reading order, while each is short and stands inside
  // the table's span.
  const blocks = page.blocks.filter(inBody);
  const taken: Block[] = [];
  const pieces: Piece[] = [];
  for (const b of blocks) {
    if (!mayBeTableTail(b, page.height) || b.x0 < left - b.fontSize || b.x1 > right + b.fontSize) break;
    const own = piecesOf(b, columnOf);
    if (!own) break;
    taken.push(b);
    pieces.push(...own);
    if (taken.length > MAX_TAIL_ROWS * columns.length) return undefined;
  }
  if (taken.length === 0) return undefined;
  const bottom = Math.max(...taken.map((b) => b.y1));
  // Nothing else above or beside them: they open the page, whole rows.
  if (blocks.some((b) => !taken.includes(b) && b.y0 < bottom)) return undefined;
  const rows = rowsOf(pieces, columns.length);
  if (!rows || rows.length > MAX_TAIL_ROWS) return undefined;
  if (!rows.some((row) => row.size >= Math.ceil(columns.length / 2))) return undefined;
  // The first row reads like the table's last; a header repeated overleaf may come first.
  const heads = [1, 2, 3].filter((r) => r <= before.rows).map((r) => rowText(before, r));
  const repeated = heads.includes([...rows[0]!.entries()].sort(([a], [b]) => a - b).map(([, p]) => p.text).join("\t"));
  const firstBody = rows[repeated ? 1 : 0];
  if (!firstBody || !readsLike(firstBody, lastRow(before))) return undefined;
  const out: GridCell[] = [];
  rows.forEach((row, r) => {
    const y0 = Math.min(...[...row.values()].map((p) => p.y0));
    const y1 = Math.max(...[...row.values()].map((p) => p.y1));
    for (const k of columns) {
      const p = row.get(k.col);
      out.push({ row: r + 1, col: k.col, rowSpan: 1, colSpan: 1, text: p?.text ?? "", ...(p ? { x0: p.x0, x1: p.x1, y0: p.y0, y1: p.y1 } : { x0: k.x0, x1: k.x1, y0, y1 }) });
    }
  });
  // As wide as the table it ends.
  const box = union(taken);
  box.x0 = Math.min(box.x0, before.x0, left);
  box.x1 = Math.max(box.x1, before.x1, right);
  const cols = Math.max(before.cols, ...columns.map((k) => k.col));
  return { table: { ...box, rows: rows.length, cols, cells: out }, taken: new Set(taken) };
}

/** Each column's extent in `t`, from its unspanned cells, left to right. */
function columnsOf(t: GridTable): { col: number; x0: number; x1: number }[] {
  const columns: { col: number; x0: number; x1: number }[] = [];
  for (const c of t.cells) {
    if (c.colSpan !== 1 || c.text.trim() === "") continue;
    const col = columns.find((k) => k.col === c.col);
    if (!col) columns.push({ col: c.col, x0: c.x0, x1: c.x1 });
    else [col.x0, col.x1] = [Math.min(col.x0, c.x0), Math.max(col.x1, c.x1)];
  }
  columns.sort((a, b) => a.col - b.col);
  // Columns that overlap are not columns to cut lines by.
  for (let k = 1; k < columns.length; k++) if (columns[k]!.x0 < columns[k - 1]!.x1) return [];
  return columns;
}

/**
 * A block's lines cut into pieces by column, runs of one column joined; undefined when a
 * run straddles two columns or stands in none (prose, a heading across the table). A
 * block whose lines crossed from a parser thread without them is one piece.
 */
function piecesOf(b: Block, columnOf: (r: Rect, em: number) => number | undefined): Piece[] | undefined {
  if (b.lines.length === 0) {
    if (lineCount(b) > 1 || b.text.length > MAX_CELL_CHARS) return undefined;
    const col = columnOf(b, b.fontSize);
    return col === undefined ? undefined : [{ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, text: b.text.trim(), col }];
  }
  const out: Piece[] = [];
  for (const l of b.lines) {
    let piece: Piece | undefined;
    for (const r of l.runs) {
      if (!r.text.trim()) continue;
      const col = columnOf(r, r.fontSize);
      if (col === undefined) return undefined;
      if (piece && piece.col === col) {
        piece.text += (r.x0 - piece.x1 > 0.15 * r.fontSize || /\s$/.test(piece.text) ? " " : "") + r.text;
        piece.text = piece.text.replace(/\s+/g, " ");
        [piece.x1, piece.y0, piece.y1] = [Math.max(piece.x1, r.x1), Math.min(piece.y0, r.y0), Math.max(piece.y1, r.y1)];
      } else {
        if (piece) out.push(piece);
        piece = { x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1, text: r.text.trim(), col };
      }
    }
    if (piece) out.push(piece);
  }
  for (const p of out) p.text = p.text.trim();
  return out.every((p) => p.text.length <= MAX_CELL_CHARS) ? out : undefined;
}

/**
 * Pieces grouped into rows (middles within a row's height), a column's piece each; a line
 * of fewer than two pieces right under a row is that row's cells wrapped. Undefined when
 * a row holds two pieces in one column, stands alone with one cell, or stands apart from
 * the row above by more than twice its height.
 */
function rowsOf(pieces: Piece[], columns: number): Map<number, Piece>[] | undefined {
  pieces.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const lines: Piece[][] = [];
  for (const p of pieces) {
    const line = lines[lines.length - 1];
    const mid = (p.y0 + p.y1) / 2;
    if (line && mid >= Math.min(...line.map((r) => r.y0)) && mid <= Math.max(...line.map((r) => r.y1))) line.push(p);
    else lines.push([p]);
  }
  const rows: Map<number, Piece>[] = [];
  let bottom = -Infinity;
  let height = 0;
  for (const line of lines) {
    const top = Math.min(...line.map((p) => p.y0));
    const cols = new Set(line.map((p) => p.col));
    if (cols.size !== line.length) return undefined;
    const row = rows[rows.length - 1];
    if (row && line.length < Math.min(2, columns) && top - bottom < 0.6 * height) {
      // A cell wrapped onto a second line.
      for (const p of line) {
        const cell = row.get(p.col);
        if (cell) Object.assign(cell, { text: `${cell.text} ${p.text}`, x0: Math.min(cell.x0, p.x0), x1: Math.max(cell.x1, p.x1), y1: Math.max(cell.y1, p.y1) });
        else row.set(p.col, p);
      }
    } else {
      if (line.length < 2) return undefined;
      if (row && top - bottom > 2 * height) return undefined;
      rows.push(new Map(line.map((p) => [p.col, p])));
      height = Math.max(...line.map((p) => p.y1 - p.y0));
    }
    bottom = Math.max(...line.map((p) => p.y1));
  }
  return rows;
}

/** A table's row as text, cells joined by tabs. */
const rowText = (t: GridTable, row: number): string =>
  t.cells
    .filter((c) => c.row === row && c.text.trim() !== "")
    .map((c) => c.text.trim())
    .join("\t");

/** The table's last row by column. */
const lastRow = (t: GridTable): Map<number, string> => new Map(t.cells.filter((c) => c.row === t.rows && c.text.trim() !== "").map((c) => [c.col, c.text.trim()]));

/** Whether a row reads like `other`: a figure where it has one, words where it has words, in two thirds of the columns both fill. */
function readsLike(row: Map<number, Piece>, other: Map<number, string>): boolean {
  let both = 0;
  let agree = 0;
  for (const [col, p] of row) {
    const o = other.get(col);
    if (o === undefined) continue;
    both++;
    if (FIGURE.test(p.text) === FIGURE.test(o)) agree++;
  }
  return both >= Math.min(2, row.size) && agree >= (2 / 3) * both;
}
