/**
 * Tables from ruling lines, the page's entry point ({@link findTables}): grids of crossing
 * horizontal and vertical rules are read here; horizontal rules without column rules
 * (booktabs) go to `ruled-tables.ts`. What every table's cells share (their text, their
 * reading order) is `table-cells.ts`.
 */
import { hasRtl } from "./bidi.js";
import { buildLines, offAxis } from "./lines.js";
import { ruledTables } from "./ruled-tables.js";
import { distinct, mergeSegments, touches } from "./segments.js";
import { finishCell, NUMBER, readingColumns } from "./table-cells.js";
import { splitRunAt, type GridCell, type GridTable, type Rect, type Segment, type TextRun } from "./types.js";

/** Tuning for {@link findTables}. */
export interface TableOptions {
  /** Ignore pages with more ruling segments than this (hatching, charts). @default 3000 */
  maxSegments?: number;
  /** Keep a hyphen at a cell's line end (a writer that does not hyphenate). @default false */
  keepLineEndHyphens?: boolean;
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
  const { maxSegments = 3000, keepLineEndHyphens: keep = false } = options;
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
    const cv = openHeadBand(ch, cluster.filter((s) => !s.horizontal));
    if (cv.length === 0 && ch.length === 1) lonely.push(ch[0]!);
    if (ch.length < 2 || cv.length < 2) continue;
    const table = gridTable(ch, cv, runs, used, keep);
    if (table) tables.push(table);
  }
  // Booktabs: horizontal rules of the same extent, no verticals, one under the other
  // (whatever other rules lie between them: a fraction bar in the next column).
  lonely.sort((a, b) => a.at - b.at);
  const taken = new Set<Segment>();
  for (const a of lonely) {
    if (taken.has(a)) continue;
    const group = lonely.filter((s) => !taken.has(s) && s.at >= a.at && Math.abs(s.from - a.from) < 3 && Math.abs(s.to - a.to) < 3);
    for (const s of group) taken.add(s);
    // Narrower rules inside a table found (groups come top rule first, so the table's own
    // rules before them): a statement's subtotal rules under its figure columns only
    // (`\cline{2-3}`, a `border-top` on the amount cells), no table of their own.
    if (group.every((s) => tables.some((t) => ruleWithin(s, t)))) continue;
    ruledTables(group, runs, page, used, tables, keep);
  }
  return { tables, used };
}

/** Whether a horizontal rule lies within a table's box (2 units' slack: rule widths, padding). */
function ruleWithin(s: Segment, t: Rect): boolean {
  return s.at >= t.y0 - 2 && s.at <= t.y1 + 2 && s.from >= t.x0 - 2 && s.to <= t.x1 + 2;
}

function gridTable(ruledIn: Segment[], vs: Segment[], runs: readonly TextRun[], used: Set<TextRun>, keep: boolean): GridTable | undefined {
  const xs = distinct(vs.map((s) => s.at));
  const ruled = [...ruledIn, ...openEnds(ruledIn, vs, xs)];
  const hs = [...ruled, ...unruledRowEdges(distinct(ruled.map((s) => s.at)), xs, vs, runs)];
  const ys = distinct(hs.map((s) => s.at));
  const nRows = ys.length - 1;
  const nCols = xs.length - 1;
  if (nRows < 1 || nCols < 1 || nRows * nCols < 2) return undefined;
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
  // A slanted run (a diagonal watermark drawn over the table, letter by letter in
  // Chromium) is no cell's text: it stays out of the grid, read as the page's.
  const inside = runs.filter((run) => {
    if (offAxis(run)) return false;
    const cx = (run.x0 + run.x1) / 2;
    const cy = (run.y0 + run.y1) / 2;
    return cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
  });
  // A grid without a word in it is drawing, not a table: a chart's plot area and
  // gridlines, a form's empty boxes.
  if (!inside.some((r) => r.text.trim() !== "")) return undefined;
  // Boxes joined by connectors (a process diagram) are drawing too: the lines between two
  // boxes make a column (or a row, boxes stacked) of their own.
  const words = inside.filter((r) => r.text.trim() !== "");
  const across = words.map((r) => (r.x0 + r.x1) / 2);
  const down = words.map((r) => (r.y0 + r.y1) / 2);
  if (hasConnector(xs, ys, hs, across) || hasConnector(ys, xs, vs, down)) return undefined;
  // A box of one column whose cell holds paragraphs (three lines or more) or a table of
  // its own (words a wide gap apart on one line) is a frame: a form's section, a boxed
  // note, read as the text it holds.
  if (nCols === 1 && isFrame(words, ys)) return undefined;
  // In a table with right-to-left text a run is cut only where a column rule is drawn:
  // across a spanned cell a cut splits a word or a number (`٣٠`), whose halves the bidi
  // pass then reads in swapped order.
  const drawnOnly = inside.some((r) => hasRtl(r.text));
  for (const run of inside) {
    const cy = (run.y0 + run.y1) / 2;
    // Text merged across a column rule (formats join close words into one run). Within a
    // cell spanning the column edge (a `\multicolumn` header) there is no rule to cut at.
    let pieces = [run];
    for (let c = 1; c < nCols; c++) {
      const x = xs[c]!;
      if (drawnOnly && !covered(vs, x, run.y0, run.y1)) continue;
      if (locate(x - 0.5, cy) === locate(x + 0.5, cy)) continue;
      pieces = pieces.flatMap((p) => (p.angle === 0 && x > p.x0 + 1 && x < p.x1 - 1 ? splitRunAt(p, x) : [p]));
    }
    for (const piece of pieces) {
      const px = (piece.x0 + piece.x1) / 2;
      locate(px, cy)?.runs.push(piece);
    }
    used.add(run);
  }
  return readingColumns({ ...box, rows: nRows, cols: nCols, cells: cells.map((c) => finishCell(c, keep)) });
}

/** Whether the words of a one-column grid make a frame's contents: see {@link gridTable}. */
function isFrame(words: readonly TextRun[], ys: readonly number[]): boolean {
  // Paragraphs in most of the rows, or in one of up to three (a title band over the
  // contents, a signature line under them): a one-column table of four rows or more may
  // wrap a cell or two onto three lines.
  let full = 0;
  const rows = ys.length - 1;
  for (let r = 0; r + 1 < ys.length; r++) {
    const cell = words.filter((w) => (w.y0 + w.y1) / 2 >= ys[r]! && (w.y0 + w.y1) / 2 < ys[r + 1]!).sort((a, b) => a.y1 - b.y1 || a.x0 - b.x0);
    let baselines = 0;
    for (let i = 0; i < cell.length; i++) {
      const w = cell[i]!;
      const prev = cell[i - 1];
      if (!prev || w.y1 - prev.y1 > 0.5 * w.fontSize) baselines++;
      else if (w.x0 - prev.x1 > 2 * w.fontSize) return true;
    }
    if (baselines >= 3) full++;
  }
  return rows <= 3 ? full >= 1 : full > rows / 2;
}

/** Whether a rule of `list` at `at` (within 2) runs across the middle of `from`–`to`. */
function covered(list: readonly Segment[], at: number, from: number, to: number): boolean {
  const mid = (from + to) / 2;
  return list.some((s) => Math.abs(s.at - at) <= 2 && s.from <= mid && s.to >= mid);
}

/**
 * Whether a lane of a grid (a column between `lanes[k]` and `lanes[k + 1]`, with `ends`
 * its row edges and `rules` the horizontal rules; or a row, with the arguments turned)
 * is a connector between boxes, not a column of a table: no rule closes it at either end,
 * no text stands in it (`centres` along the lanes' axis), and the rules that cross it
 * (one at least) go on into neither neighbour — a line from one box's side to the next.
 * A table's empty column is ruled at its top or bottom, and the rules crossing it are
 * its rows' edges, which run on into the columns beside it.
 */
function hasConnector(lanes: readonly number[], ends: readonly number[], rules: readonly Segment[], centres: readonly number[]): boolean {
  const ruled = (j: number, k: number): boolean => k >= 0 && k + 1 < lanes.length && covered(rules, ends[j]!, lanes[k]!, lanes[k + 1]!);
  const last = ends.length - 1;
  for (let k = 0; k + 1 < lanes.length; k++) {
    if (ruled(0, k) || ruled(last, k)) continue;
    if (centres.some((c) => c > lanes[k]! && c < lanes[k + 1]!)) continue;
    let crossed = 0;
    let ownOnly = true;
    for (let j = 1; j < last && ownOnly; j++) {
      if (!ruled(j, k)) continue;
      crossed++;
      ownOnly = !ruled(j, k - 1) && !ruled(j, k + 1);
    }
    if (crossed > 0 && ownOnly) return true;
  }
  return false;
}

/**
 * A grid's column rules less those of a band over it left open at its top: a form's head
 * (`Form W-9` | its title | `Give form to the requester`) ruled under and divided by
 * rules that stop at that rule, none of them going on down the grid. The band is the
 * form's letterhead, not a row of its table: its title reads as a title. A band whose
 * dividers go on below (a table whose page break left no rule over its first row), or one
 * closed at its sides by rules running on down the grid, stays the grid's.
 */
function openHeadBand(hs: readonly Segment[], vs: Segment[]): Segment[] {
  if (hs.length === 0 || vs.length === 0) return vs;
  const top = Math.min(...hs.map((h) => h.at));
  const above = vs.filter((v) => v.to <= top + 2 && v.from < top - 4);
  if (above.length === 0) return vs;
  const below = vs.filter((v) => v.to > top + 2);
  if (below.some((v) => v.from < top - 4)) return vs;
  if (above.some((a) => below.some((b) => Math.abs(a.at - b.at) <= 2))) return vs;
  return below;
}

/**
 * Edges of a grid left open: column rules running on past the last horizontal rule (or
 * from above the first), two of them or more to one place — a long table cut by a page
 * break with no rule under its last row. The table ends where its column rules end.
 */
function openEnds(hs: readonly Segment[], vs: readonly Segment[], xs: readonly number[]): Segment[] {
  if (hs.length === 0 || xs.length < 2) return [];
  const top = Math.min(...hs.map((h) => h.at));
  const bottom = Math.max(...hs.map((h) => h.at));
  const from = xs[0]!;
  const to = xs[xs.length - 1]!;
  const edges: Segment[] = [];
  const end = Math.max(...vs.map((v) => v.to));
  if (end > bottom + 4 && vs.filter((v) => Math.abs(v.to - end) <= 2).length >= 2) edges.push({ horizontal: true, at: end, from, to });
  const start = Math.min(...vs.map((v) => v.from));
  if (start < top - 4 && vs.filter((v) => Math.abs(v.from - start) <= 2).length >= 2) edges.push({ horizontal: true, at: start, from, to });
  return edges;
}

/**
 * Row edges nobody drew. Many tables (LaTeX's `\\hline` under the header only, reports
 * ruled by column) leave the rows of their body without rules: a grid row then holds
 * several lines of text in every column. Where those lines line up across the columns —
 * every line height has text in two columns or more, and no column has two lines at
 * one height, and a column holds a number (or a mark) on both lines, which no cell
 * wraps — each line is a row of its own, and an edge goes between them. A cell wrapped
 * onto a second line, with nothing or only text beside it, stays one cell.
 */
function unruledRowEdges(ys: readonly number[], xs: readonly number[], vs: readonly Segment[], runs: readonly TextRun[]): Segment[] {
  const edges: Segment[] = [];
  const left = xs[0]!;
  const right = xs[xs.length - 1]!;
  for (let r = 0; r + 1 < ys.length; r++) {
    const top = ys[r]!;
    const bottom = ys[r + 1]!;
    const inRow = runs.filter((run) => {
      const cx = (run.x0 + run.x1) / 2;
      const cy = (run.y0 + run.y1) / 2;
      return cx > left && cx < right && cy > top && cy < bottom;
    });
    if (inRow.length < 4) continue;
    // Columns of this row: between the vertical rules drawn across it.
    const cuts = xs.filter((x, i) => i > 0 && i < xs.length - 1 && vs.some((v) => Math.abs(v.at - x) <= 2 && v.from <= top + 1 && v.to >= bottom - 1));
    const columns = new Map<number, TextRun[]>();
    for (const run of inRow) {
      const col = cuts.filter((x) => x <= (run.x0 + run.x1) / 2).length;
      const list = columns.get(col);
      if (list) list.push(run);
      else columns.set(col, [run]);
    }
    if (columns.size < 2) continue;
    const lines = [...columns].flatMap(([col, list]) => buildLines(list, { splitGapEm: 1e9 }).map((l) => ({ col, l })));
    const em = Math.max(...lines.map(({ l }) => l.fontSize));
    const heights = distinct(
      lines.map(({ l }) => (l.y0 + l.y1) / 2),
      0.5 * em,
    );
    if (heights.length < 2) continue;
    const band = (l: Rect): number => heights.findIndex((h) => Math.abs(h - (l.y0 + l.y1) / 2) <= 0.5 * em);
    const perBand = heights.map(() => new Set<number>());
    let clash = false;
    for (const { col, l } of lines) {
      const b = band(l);
      if (b < 0 || perBand[b]!.has(col)) clash = true;
      else perBand[b]!.add(col);
    }
    if (clash) continue;
    // A column of figures in every row (a default, an amount) shows where rows start:
    // lines between, in other columns only, are cells wrapped onto more lines (LaTeX's
    // `p{6cm}` description column).
    const figures = [...columns.keys()].filter((col) => {
      const own = lines.filter((x) => x.col === col);
      return own.length >= 2 && own.every(({ l }) => NUMBER.test(l.text));
    });
    if (figures.length) {
      const starts = heights.map((_, b) => lines.some(({ col, l }) => figures.includes(col) && band(l) === b));
      if (starts[0] && starts.filter(Boolean).length >= 2) {
        for (let b = 1; b < heights.length; b++) {
          if (!starts[b]) continue;
          const above = Math.max(...lines.filter(({ l }) => band(l) < b).map(({ l }) => l.y1));
          const below = Math.min(...lines.filter(({ l }) => band(l) === b).map(({ l }) => l.y0));
          edges.push({ horizontal: true, at: (above + below) / 2, from: left, to: right });
        }
        continue;
      }
    }
    if (perBand.some((cols) => cols.size < 2)) continue;
    for (let b = 0; b + 1 < heights.length; b++) {
      const upper = lines.filter(({ l }) => band(l) === b);
      const lower = lines.filter(({ l }) => band(l) === b + 1);
      const pairs = upper.flatMap((u) => lower.filter((d) => d.col === u.col).map((d) => [u.l.text, d.l.text] as const));
      // Only numbers (or marks), which never wrap, on both sides show that these are
      // rows: text on two lines may be one cell wrapped, in any script.
      if (!pairs.some(([u, d]) => NUMBER.test(u) && NUMBER.test(d))) continue;
      const above = Math.max(...upper.map(({ l }) => l.y1));
      const below = Math.min(...lower.map(({ l }) => l.y0));
      edges.push({ horizontal: true, at: (above + below) / 2, from: left, to: right });
    }
  }
  return edges;
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
