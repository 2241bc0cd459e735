/**
 * Tables a tagged PDF declares (`TextRun.cell`, read from the structure tree by
 * `formats/pdf-struct.ts`). Word, Chromium and LibreOffice tag every table they draw
 * `Table › TR › TD`, rules or none: where nothing is drawn (a compact HTML table, a Word
 * table without borders) the page alone shows columns only when their gaps are wide and
 * every row lines up, while the tags say which words share a cell and which cells a row.
 * Cells are placed by the tags; their geometry is the words'.
 */
import { finishCell, readingColumns } from "./table-cells.js";
import type { GridCell, GridTable, Rect, TaggedCell, TaggedTable, TextRun } from "./types.js";

/**
 * A cell holding more words than this is a page's text set out in a table (a layout
 * table: a newsletter in cells, a form's instructions), not a table's datum.
 */
const MAX_CELL_WORDS = 60;

/**
 * Cells holding this many words or more in the middle of the table are paragraphs set
 * side by side (LibreOffice tags a grid of service blurbs or a CV's entries as a table,
 * its first row as a header): a data table's cells are mostly short.
 */
const PROSE_CELL_WORDS = 15;

/**
 * The tables the runs' tags declare, except those a ruled table already took words of
 * (its rules give the exact geometry) and layout tables. Their runs are added to `used`.
 */
export function taggedTables(runs: readonly TextRun[], used: Set<TextRun>, keepLineEndHyphens = false): GridTable[] {
  const groups = new Map<TaggedTable, TextRun[]>();
  const ruled = new Set<TaggedTable>();
  for (const r of runs) {
    const cell = r.cell;
    if (!cell || cell.table.layout) continue;
    if (used.has(r)) ruled.add(cell.table);
    let group = groups.get(cell.table);
    if (!group) groups.set(cell.table, (group = []));
    group.push(r);
  }
  const tables: GridTable[] = [];
  for (const [shape, group] of groups) {
    if (ruled.has(shape)) continue;
    const table = declaredTable(group, keepLineEndHyphens);
    if (!table) continue;
    tables.push(table);
    for (const r of group) used.add(r);
  }
  return tables;
}

/** One table's cells on this page, placed by their tags: undefined when it reads as text. */
function declaredTable(runs: readonly TextRun[], keep: boolean): GridTable | undefined {
  const byCell = new Map<TaggedCell, TextRun[]>();
  for (const r of runs) {
    const list = byCell.get(r.cell!);
    if (list) list.push(r);
    else byCell.set(r.cell!, [r]);
  }
  // Rows and columns holding words on this page (a table running over pages has its other
  // rows elsewhere; an empty spacer column is no column), renumbered from 0.
  const rowIndex = compact([...byCell.keys()].map((c) => [c.row, c.row + c.rowSpan - 1]));
  const colIndex = compact([...byCell.keys()].map((c) => [c.col, c.col + c.colSpan - 1]));
  const nRows = rowIndex.size;
  const nCols = colIndex.size;
  if (nRows < 2 || nCols < 2) return undefined;
  const placed = [...byCell].map(([cell, list]) => {
    const row = rowIndex.get(cell.row)!;
    const col = colIndex.get(cell.col)!;
    return {
      row,
      col,
      rowSpan: last(rowIndex, cell.row, cell.rowSpan) - row + 1,
      colSpan: last(colIndex, cell.col, cell.colSpan) - col + 1,
      head: cell.head,
      runs: list,
      box: bounds(list),
    };
  });
  const counts = placed.map((p) => words(p.runs)).sort((a, b) => a - b);
  if (counts[counts.length - 1]! > MAX_CELL_WORDS || counts[Math.floor(counts.length / 2)]! >= PROSE_CELL_WORDS) return undefined;
  // Writers leave an empty cell out of the tree (Chromium writes no `TD` for `<td></td>`),
  // so a row with one shifts its later cells left. Columns are measured on the rows whose
  // cells fill them all; the others' cells go to the columns they stand in.
  const filled = new Map<number, number>();
  for (const p of placed) for (let r = p.row; r < p.row + p.rowSpan; r++) filled.set(r, (filled.get(r) ?? 0) + p.colSpan);
  const full = (p: (typeof placed)[number]): boolean => filled.get(p.row) === nCols;
  // Columns left to right as drawn: a right-to-left table's first cell is at the right
  // (`readingColumns` numbers them for reading afterwards).
  const colOrder = order(nCols, placed.filter((p) => p.colSpan === 1 && full(p)).map((p) => ({ at: p.col, from: p.box.x0, to: p.box.x1 })));
  const rowOrder = order(nRows, placed.filter((p) => p.rowSpan === 1).map((p) => ({ at: p.row, from: p.box.y0, to: p.box.y1 })));
  if (!colOrder || !rowOrder) return undefined;
  // Rows must come down the page in the order the tags give them: a tree whose rows are
  // drawn out of order is not one to build a grid from.
  if (rowOrder.rank.some((k, i) => k !== i)) return undefined;
  const box = bounds(runs);
  const xs = edges(colOrder.extents, box.x0, box.x1);
  const ys = edges(rowOrder.extents, box.y0, box.y1);
  const covered = new Set<number>();
  const cells: (GridCell & { runs: TextRun[] })[] = placed.map((p) => {
    let c0 = full(p) ? colOrder.rank[p.col]! : laneAt(xs, p.box.x0 + 1);
    let c1 = full(p) ? colOrder.rank[p.col + p.colSpan - 1]! : laneAt(xs, p.box.x1 - 1);
    if (c1 < c0) [c0, c1] = [c1, c0];
    for (let r = p.row; r < p.row + p.rowSpan; r++) for (let c = c0; c <= c1; c++) covered.add(r * nCols + c);
    return { row: p.row + 1, col: c0 + 1, rowSpan: p.rowSpan, colSpan: c1 - c0 + 1, x0: xs[c0]!, x1: xs[c1 + 1]!, y0: ys[p.row]!, y1: ys[p.row + p.rowSpan]!, text: "", runs: p.runs };
  });
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      if (!covered.has(r * nCols + c)) cells.push({ row: r + 1, col: c + 1, rowSpan: 1, colSpan: 1, x0: xs[c]!, x1: xs[c + 1]!, y0: ys[r]!, y1: ys[r + 1]!, text: "", runs: [] });
    }
  }
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  const table: GridTable = { ...box, rows: nRows, cols: nCols, cells: cells.map((c) => finishCell(c, keep)) };
  // Header rows: the top rows whose cells are all header cells (`TH`). A table tagged
  // without any is headed by its first row when that row is set in bold (Word and
  // LibreOffice tables whose heading row is not marked as one), else not at all.
  let head = 0;
  while (head < nRows && placed.every((p) => p.row !== head || p.head)) head++;
  if (head === 0 && !placed.every((p) => p.row !== 0 || p.runs.every((r) => r.bold || !r.text.trim()))) table.headerRows = 0;
  else if (head > 0 && head < nRows) table.headerRows = head;
  return readingColumns(table);
}

/** The lane between `edges` that `x` falls in (the first or last beyond them). */
function laneAt(edges: readonly number[], x: number): number {
  let k = 0;
  while (k + 2 < edges.length && x >= edges[k + 1]!) k++;
  return k;
}

/** Distinct indices covered by `ranges` ([first, last] each), each mapped to its rank. */
function compact(ranges: readonly number[][]): Map<number, number> {
  const seen = new Set<number>();
  for (const [a, b] of ranges) for (let i = a!; i <= b!; i++) seen.add(i);
  return new Map([...seen].sort((a, b) => a - b).map((v, i) => [v, i]));
}

/** The compacted index of the last of `span` indices from `first` that hold words. */
function last(index: ReadonlyMap<number, number>, first: number, span: number): number {
  for (let i = first + span - 1; i > first; i--) {
    const k = index.get(i);
    if (k !== undefined) return k;
  }
  return index.get(first)!;
}

/**
 * The lanes (rows or columns) in drawn order: each lane's extent from its single-lane
 * cells, and `rank[lane]` its place along the axis. Undefined when a lane has no cell of
 * its own to place it by, or two lanes overlap by more than half of the narrower (cells
 * tagged into the wrong lane).
 */
function order(n: number, cells: readonly { at: number; from: number; to: number }[]): { rank: number[]; extents: { from: number; to: number }[] } | undefined {
  const lanes: { from: number; to: number }[] = Array.from({ length: n }, () => ({ from: Infinity, to: -Infinity }));
  for (const c of cells) {
    const lane = lanes[c.at]!;
    lane.from = Math.min(lane.from, c.from);
    lane.to = Math.max(lane.to, c.to);
  }
  if (lanes.some((l) => l.from === Infinity)) return undefined;
  const byPlace = lanes.map((l, i) => ({ ...l, i })).sort((a, b) => a.from + a.to - (b.from + b.to));
  for (let k = 1; k < byPlace.length; k++) {
    const a = byPlace[k - 1]!;
    const b = byPlace[k]!;
    if (a.to - b.from > 0.5 * Math.min(a.to - a.from, b.to - b.from)) return undefined;
  }
  const rank = new Array<number>(n);
  byPlace.forEach((l, k) => (rank[l.i] = k));
  return { rank, extents: byPlace };
}

/** Cell edges between lanes in drawn order: halfway across each gap, the table's box outside. */
function edges(lanes: readonly { from: number; to: number }[], start: number, end: number): number[] {
  const out = [start];
  for (let k = 1; k < lanes.length; k++) out.push((lanes[k - 1]!.to + lanes[k]!.from) / 2);
  out.push(end);
  return out;
}

function bounds(runs: readonly TextRun[]): Rect {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of runs) {
    x0 = Math.min(x0, r.x0);
    y0 = Math.min(y0, r.y0);
    x1 = Math.max(x1, r.x1);
    y1 = Math.max(y1, r.y1);
  }
  return { x0, y0, x1, y1 };
}

function words(runs: readonly TextRun[]): number {
  let n = 0;
  for (const r of runs) n += r.text.split(/\s+/).filter(Boolean).length;
  return n;
}
