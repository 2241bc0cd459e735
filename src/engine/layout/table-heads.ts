import type { PageLayout } from "./document.js";
import { inBody, replaceByTable } from "./page.js";
import { FIGURE, lineCount, union, type Block, type GridCell, type GridTable } from "./types.js";

/** Most rows a page break leaves of a table that page layout cannot find alone. */
const MAX_HEAD_ROWS = 4;
/** Longest text of a cell taken from a block (a label or a figure, not prose). */
const MAX_CELL_CHARS = 60;

/**
 * Tables a page break cut after a row or two: a table's header and first row at the foot
 * of a page, the rest at the top of the next. Page layout needs three rows to find a
 * table without rules, so those rows came out as short paragraphs and headings side by
 * side. Where the next page's first body element is a table, the blocks that end this
 * page (nothing but running text under them) become the rows of a table when each stands
 * in one of that table's columns, there are two rows or more (a header and a row), every
 * row has two cells or more and one row fills half the columns, no row holds two blocks
 * in one column, no other block shares their height, and the last row reads like the
 * next table's first body row (a figure where it has one, words where it has words). The
 * new table, as wide as the one it begins, replaces them in reading order;
 * `finishDocument` then links the next page's table to it as a continuation. Call after
 * running text is marked.
 */
export function joinTableHeads(pages: readonly PageLayout[]): void {
  for (let i = 0; i + 1 < pages.length; i++) {
    const page = pages[i]!;
    const next = pages[i + 1]!;
    if (next.number !== page.number + 1 || page.frame?.angle !== next.frame?.angle) continue;
    const first = next.blocks.find(inBody);
    if (first?.kind !== "table" || !first.table) continue;
    const head = tableHead(page.blocks, first.table);
    if (!head) continue;
    page.blocks = replaceByTable(page.blocks, head.taken, head.table);
  }
}


function tableHead(blocks: readonly Block[], next: GridTable): { table: GridTable; taken: Set<Block> } | undefined {
  // Each column's extent on the next page, from its unspanned cells.
  const columns: { col: number; x0: number; x1: number }[] = [];
  for (const c of next.cells) {
    if (c.colSpan !== 1) continue;
    const col = columns.find((k) => k.col === c.col);
    if (!col) columns.push({ col: c.col, x0: c.x0, x1: c.x1 });
    else [col.x0, col.x1] = [Math.min(col.x0, c.x0), Math.max(col.x1, c.x1)];
  }
  if (columns.length < 2) return undefined;
  const columnOf = (b: Block): number | undefined => {
    const tol = Math.max(2, 0.5 * b.fontSize);
    const mid = (b.x0 + b.x1) / 2;
    return columns.find((k) => mid >= k.x0 && mid <= k.x1 && b.x0 >= k.x0 - tol && b.x1 <= k.x1 + tol)?.col;
  };
  // From the foot of the page up, while blocks are short and stand in a column.
  const bodyBlocks = blocks.filter(inBody).sort((a, b) => b.y1 - a.y1);
  const cells = new Map<Block, number>();
  for (const b of bodyBlocks) {
    if (b.kind !== "text" && b.kind !== "title") break;
    if (lineCount(b) > 2 || b.text.length > MAX_CELL_CHARS) break;
    const col = columnOf(b);
    if (col === undefined) break;
    cells.set(b, col);
  }
  if (cells.size < 2) return undefined;
  const taken = [...cells.keys()];
  const top = Math.min(...taken.map((b) => b.y0));
  // Nothing else beside them: they are the page's last rows, whole.
  if (bodyBlocks.some((b) => !cells.has(b) && b.y1 > top)) return undefined;
  // Rows: blocks whose middles lie within a row's height.
  taken.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const rows: Block[][] = [];
  for (const b of taken) {
    const row = rows[rows.length - 1];
    const mid = (b.y0 + b.y1) / 2;
    if (row && mid >= Math.min(...row.map((r) => r.y0)) && mid <= Math.max(...row.map((r) => r.y1))) row.push(b);
    else rows.push([b]);
  }
  // A header and a row at least: a lone row of details at a page foot is no table's head.
  if (rows.length < 2 || rows.length > MAX_HEAD_ROWS) return undefined;
  for (const row of rows) {
    const cols = new Set(row.map((b) => cells.get(b)!));
    if (row.length < 2 || cols.size !== row.length) return undefined;
  }
  if (!rows.some((row) => row.length >= Math.ceil(columns.length / 2))) return undefined;
  // Rows close together, as a table's are.
  for (let r = 1; r < rows.length; r++) {
    const gap = Math.min(...rows[r]!.map((b) => b.y0)) - Math.max(...rows[r - 1]!.map((b) => b.y1));
    const height = Math.max(...rows[r - 1]!.map((b) => b.y1 - b.y0));
    if (gap > 2 * height) return undefined;
  }
  // The head's last row reads like the next page's first body row: figures under figures.
  const firstBody = bodyRow(next);
  const last = rows[rows.length - 1]!;
  let agree = 0;
  let both = 0;
  for (const b of last) {
    const other = firstBody.get(cells.get(b)!);
    if (!other) continue;
    both++;
    if (FIGURE.test(b.text.trim()) === FIGURE.test(other)) agree++;
  }
  if (both === 0 || agree < (2 / 3) * both) return undefined;
  const out: GridCell[] = [];
  rows.forEach((row, r) => {
    const y0 = Math.min(...row.map((b) => b.y0));
    const y1 = Math.max(...row.map((b) => b.y1));
    for (const k of [...columns].sort((a, b) => a.col - b.col)) {
      const b = row.find((x) => cells.get(x) === k.col);
      out.push({ row: r + 1, col: k.col, rowSpan: 1, colSpan: 1, text: b?.text ?? "", ...(b ? { x0: b.x0, x1: b.x1, y0: b.y0, y1: b.y1 } : { x0: k.x0, x1: k.x1, y0, y1 }) });
    }
  });
  out.sort((a, b) => a.row - b.row || a.col - b.col);
  const cols = Math.max(next.cols, ...columns.map((k) => k.col));
  // As wide as the table it begins, empty first or last cells and all.
  const box = union(taken);
  box.x0 = Math.min(box.x0, ...columns.map((k) => k.x0));
  box.x1 = Math.max(box.x1, ...columns.map((k) => k.x1));
  return { table: { ...box, rows: rows.length, cols, cells: out }, taken: new Set(taken) };
}

/** The table's first body row by column: row 2 when row 1 is a header (bold is not known here: row 1 has no figure where row 2 has one). */
function bodyRow(t: GridTable): Map<number, string> {
  const row = (r: number) => new Map(t.cells.filter((c) => c.row === r && c.text.trim() !== "").map((c) => [c.col, c.text.trim()]));
  const first = row(1);
  if (t.rows < 2) return first;
  const second = row(2);
  const header = [...second].some(([col, text]) => FIGURE.test(text) && first.has(col) && !FIGURE.test(first.get(col)!));
  return header ? second : first;
}
