import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { buildLines } from "./lines.js";
import { distinct, mergeSegments, touches } from "./segments.js";
import { isCjk, splitRunAt, type GridCell, type GridTable, type Rect, type Segment, type TextRun } from "./types.js";

/** Tuning for {@link findTables}. */
export interface TableOptions {
  /** Ignore pages with more ruling segments than this (hatching, charts). @default 3000 */
  maxSegments?: number;
}

/** Tables found on a page and the runs they took. */
export interface TableResult {
  tables: GridTable[];
  /** Runs that belong to a table (removed from the text flow). */
  used: Set<TextRun>;
}

/**
 * Finds tables from ruling lines. A cluster of crossing horizontal and vertical rules
 * is a grid; a missing rule between two grid cells means a span. Text runs are put in
 * the cell under their centre. Tables drawn with horizontal rules only (three or more
 * rules of one width, booktabs style) get their columns from text alignment instead.
 */
export function findTables(segmentsIn: readonly Segment[], runs: readonly TextRun[], page: Rect, options: TableOptions = {}): TableResult {
  const { maxSegments = 3000 } = options;
  const used = new Set<TextRun>();
  const tables: GridTable[] = [];
  if (segmentsIn.length < 3 || segmentsIn.length > maxSegments) return { tables, used };
  const segments = mergeSegments(segmentsIn).filter((s) => s.to - s.from > 4);
  const hs = segments.filter((s) => s.horizontal);
  const vs = segments.filter((s) => !s.horizontal);

  // Union-find over segments that touch.
  const parent = segments.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const index = new Map<Segment, number>(segments.map((s, i) => [s, i]));
  for (const h of hs) for (const v of vs) if (touches(h, v)) parent[find(index.get(h)!)] = find(index.get(v)!);
  const clusters = new Map<number, Segment[]>();
  for (const s of segments) {
    const root = find(index.get(s)!);
    let list = clusters.get(root);
    if (!list) clusters.set(root, (list = []));
    list.push(s);
  }
  const lonely: Segment[] = [];
  for (const cluster of clusters.values()) {
    const ch = cluster.filter((s) => s.horizontal);
    const cv = cluster.filter((s) => !s.horizontal);
    if (cv.length === 0 && ch.length === 1) lonely.push(ch[0]!);
    if (ch.length < 2 || cv.length < 2) continue;
    const table = gridTable(ch, cv, runs, used);
    if (table) tables.push(table);
  }
  // Booktabs: horizontal rules of the same extent, no verticals.
  lonely.sort((a, b) => a.at - b.at);
  for (let i = 0; i < lonely.length; ) {
    const a = lonely[i]!;
    let j = i;
    while (j + 1 < lonely.length && Math.abs(lonely[j + 1]!.from - a.from) < 3 && Math.abs(lonely[j + 1]!.to - a.to) < 3) j++;
    if (j - i + 1 >= 3) {
      const region: Rect = { x0: a.from, x1: a.to, y0: a.at, y1: lonely[j]!.at };
      if (region.y1 - region.y0 < 0.6 * (page.y1 - page.y0)) {
        const rules = lonely.slice(i, j + 1).map((s) => s.at);
        const table = alignedTable(region, rules, runs, used);
        if (table) tables.push(table);
      }
    }
    i = j + 1;
  }
  return { tables, used };
}

function gridTable(hs: Segment[], vs: Segment[], runs: readonly TextRun[], used: Set<TextRun>): GridTable | undefined {
  const ys = distinct(hs.map((s) => s.at));
  const xs = distinct(vs.map((s) => s.at));
  const nRows = ys.length - 1;
  const nCols = xs.length - 1;
  if (nRows < 1 || nCols < 1 || nRows * nCols < 2) return undefined;
  const covered = (list: Segment[], at: number, from: number, to: number): boolean => {
    const mid = (from + to) / 2;
    return list.some((s) => Math.abs(s.at - at) <= 2 && s.from <= mid && s.to >= mid);
  };
  // Union-find over grid cells: merge neighbours with no rule between them.
  const id = (r: number, c: number): number => r * nCols + c;
  const parent = Array.from({ length: nRows * nCols }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      if (c + 1 < nCols && !covered(vs, xs[c + 1]!, ys[r]!, ys[r + 1]!)) parent[find(id(r, c + 1))] = find(id(r, c));
      if (r + 1 < nRows && !covered(hs, ys[r + 1]!, xs[c]!, xs[c + 1]!)) parent[find(id(r + 1, c))] = find(id(r, c));
    }
  }
  const spans = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      const root = find(id(r, c));
      const s = spans.get(root);
      if (!s) spans.set(root, { r0: r, r1: r, c0: c, c1: c });
      else {
        s.r0 = Math.min(s.r0, r);
        s.r1 = Math.max(s.r1, r);
        s.c0 = Math.min(s.c0, c);
        s.c1 = Math.max(s.c1, c);
      }
    }
  }
  const cells: (GridCell & { runs: TextRun[] })[] = [...spans.values()]
    .sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0)
    .map((s) => ({
      row: s.r0 + 1,
      col: s.c0 + 1,
      rowSpan: s.r1 - s.r0 + 1,
      colSpan: s.c1 - s.c0 + 1,
      x0: xs[s.c0]!,
      x1: xs[s.c1 + 1]!,
      y0: ys[s.r0]!,
      y1: ys[s.r1 + 1]!,
      text: "",
      runs: [],
    }));
  const box: Rect = { x0: xs[0]!, y0: ys[0]!, x1: xs[nCols]!, y1: ys[nRows]! };
  // Grid position → its (possibly spanning) cell, for a lookup by bisection.
  const cellAt: number[] = new Array<number>(nRows * nCols);
  cells.forEach((c, k) => {
    for (let r = c.row - 1; r < c.row - 1 + c.rowSpan; r++) for (let q = c.col - 1; q < c.col - 1 + c.colSpan; q++) cellAt[r * nCols + q] = k;
  });
  const locate = (x: number, y: number): (GridCell & { runs: TextRun[] }) | undefined => {
    const col = bisect(xs, x);
    const row = bisect(ys, y);
    if (col < 0 || col >= nCols || row < 0 || row >= nRows) return undefined;
    const k = cellAt[row * nCols + col];
    return k === undefined ? undefined : cells[k];
  };
  const inside = runs.filter((run) => {
    const cx = (run.x0 + run.x1) / 2;
    const cy = (run.y0 + run.y1) / 2;
    return cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
  });
  // In a table with right-to-left text a run is cut only where a column rule is drawn:
  // across a spanned cell a cut splits a word or a number (`٣٠`), whose halves the bidi
  // pass then reads in swapped order.
  const drawnOnly = inside.some((r) => hasRtl(r.text));
  for (const run of inside) {
    const cy = (run.y0 + run.y1) / 2;
    // Text merged across a column rule (formats join close words into one run).
    let pieces = [run];
    for (let c = 1; c < nCols; c++) {
      const x = xs[c]!;
      if (drawnOnly && !covered(vs, x, run.y0, run.y1)) continue;
      pieces = pieces.flatMap((p) => (p.angle === 0 && x > p.x0 + 1 && x < p.x1 - 1 ? splitRunAt(p, x) : [p]));
    }
    for (const piece of pieces) {
      const px = (piece.x0 + piece.x1) / 2;
      locate(px, cy)?.runs.push(piece);
    }
    used.add(run);
  }
  return readingColumns({ ...box, rows: nRows, cols: nCols, cells: cells.map(finishCell) });
}

/** Joins a cell's runs into text (lines top to bottom, CJK without spaces). */
function finishCell(cell: GridCell & { runs: TextRun[] }): GridCell {
  const { runs, ...rest } = cell;
  if (runs.length === 0) return rest;
  const lines = buildLines(runs, { splitGapEm: 1e9 });
  let text = "";
  for (const l of lines) {
    if (text && !isCjk(text.at(-1) ?? "") && !isCjk(l.text[0] ?? "")) text += text.endsWith("-") ? "" : " ";
    text += l.text;
  }
  // Tight box: the cell's rules are its geometry; keep them (citations frame the cell).
  return { ...rest, text: text.trim() };
}

/** Columns from text alignment between horizontal rules (booktabs tables). */
export function alignedTable(region: Rect, rules: number[], runs: readonly TextRun[], used: Set<TextRun>): GridTable | undefined {
  const inside = runs.filter((r) => {
    const cx = (r.x0 + r.x1) / 2;
    const cy = (r.y0 + r.y1) / 2;
    return cx >= region.x0 - 2 && cx <= region.x1 + 2 && cy > region.y0 && cy < region.y1;
  });
  if (inside.length < 2) return undefined;
  const segs = buildLines(inside, { splitGapEm: 0.8 });
  // Column gutters: x-ranges no line segment covers.
  const sorted = [...segs].sort((a, b) => a.x0 - b.x0);
  const xs: number[] = [region.x0];
  let reach = -Infinity;
  for (const s of sorted) {
    if (reach !== -Infinity && s.x0 > reach + 2) xs.push((reach + s.x0) / 2);
    reach = Math.max(reach, s.x1);
  }
  xs.push(region.x1);
  const nCols = xs.length - 1;
  if (nCols < 2) return undefined;
  // Rows: distinct line positions.
  const rowYs = distinct(segs.map((s) => (s.y0 + s.y1) / 2), Math.max(2, 0.5 * (segs[0]?.fontSize ?? 4)));
  if (rowYs.length < 2) return undefined;
  const bounds: number[] = [region.y0];
  for (let i = 0; i + 1 < rowYs.length; i++) {
    const between = rules.find((y) => y > rowYs[i]! && y < rowYs[i + 1]!);
    bounds.push(between ?? (rowYs[i]! + rowYs[i + 1]!) / 2);
  }
  bounds.push(region.y1);
  const nRows = rowYs.length;
  const cells: (GridCell & { runs: TextRun[] })[] = [];
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      cells.push({ row: r + 1, col: c + 1, rowSpan: 1, colSpan: 1, x0: xs[c]!, x1: xs[c + 1]!, y0: bounds[r]!, y1: bounds[r + 1]!, text: "", runs: [] });
    }
  }
  let multi = 0;
  for (let r = 0; r < nRows; r++) {
    let filled = 0;
    for (const s of segs) {
      const cy = (s.y0 + s.y1) / 2;
      if (cy < bounds[r]! || cy > bounds[r + 1]!) continue;
      for (const run of s.runs) {
        const cx = (run.x0 + run.x1) / 2;
        const c = xs.findIndex((x, i) => i < nCols && cx >= x && cx <= xs[i + 1]!);
        const cell = cells[r * nCols + Math.max(0, c)]!;
        if (cell.runs.length === 0) filled++;
        cell.runs.push(run);
      }
    }
    if (filled >= 2) multi++;
  }
  if (multi < Math.ceil(nRows / 2)) return undefined;
  for (const run of inside) used.add(run);
  return readingColumns({ ...region, rows: nRows, cols: nCols, cells: cells.map(finishCell) });
}

/**
 * Columns numbered in reading order. A table whose text reads right to left (its cells'
 * letters, by the direction rule of `bidi.ts`) starts at the right: column 1 is the
 * rightmost, as a reader and an HTML `dir="rtl"` table mean it, and cells are listed row
 * by row in that order, so the table's text, markdown and HTML follow. Tables without an
 * RTL character come back untouched.
 */
export function readingColumns(table: GridTable): GridTable {
  if (!table.cells.some((c) => hasRtl(c.text))) return table;
  const votes = { rtl: 0, ltr: 0 };
  for (const c of table.cells) countDirection(c.text, votes);
  if (!rtlWins(votes)) return table;
  const cells = table.cells.map((c) => ({ ...c, col: table.cols - c.col - c.colSpan + 2 })).sort((a, b) => a.row - b.row || a.col - b.col);
  return { ...table, cells };
}

/** Index i with edges[i] <= v < edges[i + 1] (v on the last edge counts as inside). */
function bisect(edges: readonly number[], v: number): number {
  if (v < edges[0]! || v > edges[edges.length - 1]!) return -1;
  let lo = 0;
  let hi = edges.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (edges[mid]! <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}
