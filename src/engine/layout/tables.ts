import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { isCaption } from "./captions.js";
import { buildLines } from "./lines.js";
import { distinct, mergeSegments, touches } from "./segments.js";
import { isCjk, splitRunAt, type GridCell, type GridTable, type Line, type Rect, type Segment, type TextRun } from "./types.js";

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
    const cv = cluster.filter((s) => !s.horizontal);
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
    ruledTables(group, runs, page, used, tables, keep);
  }
  return { tables, used };
}

/**
 * The tables between rules of one width, top to bottom: all of them one table when they
 * read as one, else split where they lie furthest apart (two tables of a column's width
 * with prose between them), each part of three rules or more tried again. Rules spread
 * over most of the page are tried whole only when they stand at a regular pitch (a rule
 * under every row of a long statement, no rows more than four times as tall as the
 * usual one): a split would lose the row between the two parts.
 */
function ruledTables(rules: readonly Segment[], runs: readonly TextRun[], page: Rect, used: Set<TextRun>, out: GridTable[], keep: boolean): void {
  if (rules.length < 3) return;
  const first = rules[0]!;
  const region: Rect = { x0: first.from, x1: first.to, y0: first.at, y1: rules[rules.length - 1]!.at };
  if (region.y1 - region.y0 < 0.6 * (page.y1 - page.y0) || everyRow(rules)) {
    const table = alignedTable(
      region,
      rules.map((s) => s.at),
      runs,
      used,
      keep,
    );
    if (table) {
      out.push(rowsAbove(table, region, rules.map((s) => s.at), runs, used, keep));
      return;
    }
  }
  let cut = 1;
  for (let i = 2; i < rules.length; i++) if (rules[i]!.at - rules[i - 1]!.at > rules[cut]!.at - rules[cut - 1]!.at) cut = i;
  ruledTables(rules.slice(0, cut), runs, page, used, out, keep);
  ruledTables(rules.slice(cut), runs, page, used, out, keep);
}

/**
 * The table with the rows standing right above its first rule. HTML rules a row with its
 * cells' bottom border, so a header ruled under only (`th{border-bottom}`) or set on a
 * coloured band, and under a band the first row too, stand over the first rule. Up to
 * four lines set close over it (the first within an em of the rule, each within 1.6 of its
 * size of the next) are candidates, none a caption or larger than 1.15 × the table's type.
 * The most of them that, read with the table, keep its columns and every row under them,
 * each row they add filling two cells or more, join it; then the lines above those that,
 * cut at the table's column edges, make a header ({@link headerCut}: a header cell wrapped
 * onto two lines, the others centred between, or cells closer than the gutters).
 */
function rowsAbove(table: GridTable, region: Rect, rules: number[], runs: readonly TextRun[], used: Set<TextRun>, keep: boolean): GridTable {
  const own = runs.filter((r) => used.has(r) && (r.y0 + r.y1) / 2 > region.y0 && (r.y0 + r.y1) / 2 < region.y1 && (r.x0 + r.x1) / 2 >= region.x0 - 2 && (r.x0 + r.x1) / 2 <= region.x1 + 2);
  const em = median(own.map((r) => r.fontSize));
  if (!em) return table;
  const near = runs.filter((r) => !used.has(r) && r.y1 <= region.y0 + 1 && r.y0 >= region.y0 - 8 * em && r.x0 >= region.x0 - em && r.x1 <= region.x1 + em && r.angle === 0);
  if (near.length === 0) return table;
  const lines = buildLines(near, { splitGapEm: 0.6, gutterEm: 0.6 });
  const rows: Line[][] = [];
  for (const l of [...lines].sort((a, b) => b.y0 + b.y1 - (a.y0 + a.y1))) {
    const row = rows[rows.length - 1];
    if (row && Math.abs((row[0]!.y0 + row[0]!.y1) / 2 - (l.y0 + l.y1) / 2) < 0.4 * Math.max(l.fontSize, row[0]!.fontSize)) row.push(l);
    else rows.push([l]);
  }
  let reach = region.y0 - em;
  const head: Line[][] = [];
  for (const row of rows.slice(0, 4)) {
    const bottom = Math.max(...row.map((l) => l.y1));
    const top = Math.min(...row.map((l) => l.y0));
    const big = Math.max(...row.map((l) => l.fontSize));
    if (bottom < reach || big > 1.15 * em || row.some((l) => isCaption(l.text))) break;
    head.push(row);
    reach = top - 1.6 * big;
  }
  // Rows read with the table: it keeps its columns and its rows, and each added row fills
  // two cells or more (the most lines that do).
  const body = table.cells.filter((c) => c.text).map((c) => `${c.row},${c.col},${c.text}`);
  let out = table;
  let k0 = 0;
  for (let k = 1; k <= head.length; k++) {
    const lines = head.slice(0, k).flat();
    const taken = new Set<TextRun>();
    const wider = alignedTable({ ...region, y0: Math.min(...lines.map((l) => l.y0)) - 1 }, rules, [...lines.flatMap((l) => l.runs), ...own], taken, keep);
    const added = wider && wider.cols === table.cols ? wider.rows - table.rows : 0;
    if (added < 1) continue;
    const full = Array.from({ length: added }, (_, r) => wider!.cells.filter((c) => c.row === r + 1 && c.text).length >= 2);
    const rest = wider!.cells.filter((c) => c.row > added && c.text);
    if (full.every(Boolean) && rest.length === body.length && rest.every((c, i) => body[i] === `${c.row - added},${c.col},${c.text}`)) {
      out = wider!;
      k0 = k;
    }
  }
  // Then a header whose cells stand closer than the table's gutters, or wrap: cut at its
  // column edges, as many lines as make one.
  for (let k = head.length; k > k0; k--) {
    const lines = head.slice(k0, k).flat();
    const headed = headerCut(lines, out);
    if (headed) {
      out = headed;
      k0 = k;
      break;
    }
  }
  for (const l of head.slice(0, k0).flat()) for (const r of l.runs) used.add(r);
  return out;
}

/**
 * The table with `head` as its first row, cut at the table's own column edges: a header
 * whose cells stand closer than the table's gutters (`Method Description`), or wrap onto
 * more lines. Every piece of the header must lie in one column, and two columns or more
 * must get one; a line of prose over the table has pieces across its gutters.
 */
export function headerCut(head: readonly Line[], table: GridTable): GridTable | undefined {
  const edges: { x0: number; x1: number }[] = [];
  for (const c of table.cells) {
    if (c.colSpan !== 1) continue;
    const e = (edges[c.col - 1] ??= { x0: c.x0, x1: c.x1 });
    e.x0 = Math.min(e.x0, c.x0);
    e.x1 = Math.max(e.x1, c.x1);
  }
  if (edges.length !== table.cols || edges.some((e) => e === undefined)) return undefined;
  // A sentence leading into the table (`Transactions for April are listed below.`) is no header.
  if (head.some((l) => long(l) && /[.!?]$/.test(l.text.trim()))) return undefined;
  const texts = edges.map(() => [] as TextRun[]);
  for (const line of head) {
    let last: { col: number; x1: number } | undefined;
    for (const run of [...line.runs].sort((a, b) => a.x0 - b.x0)) {
      const col = edges.findIndex((e, k) => run.x0 >= (k === 0 ? -Infinity : e.x0 - 0.5 * run.fontSize) && run.x1 <= (k === edges.length - 1 ? Infinity : edges[k + 1]!.x0 + 0.5 * run.fontSize));
      if (col < 0) return undefined;
      // Header cells stand further apart than a word space: a cut at one splits a cell.
      if (last && last.col !== col && run.x0 - last.x1 < 0.6 * run.fontSize) return undefined;
      texts[col]!.push(run);
      last = { col, x1: run.x1 };
    }
  }
  // Two labels or more, each a word, a figure or a number sign (`#`); a line leading into
  // the table (`Striped rows:`) is none.
  const words = texts.map((t) => t.map((r) => r.text).join(" ").trim());
  if (words.filter(Boolean).length < 2 || words.some((w) => w && !/[\p{L}\p{N}]|^[#№]$/u.test(w)) || /[:：]$/.test(words.filter(Boolean).at(-1)!)) return undefined;
  const y0 = Math.min(...head.map((l) => l.y0));
  const y1 = Math.max(...head.map((l) => l.y1));
  const first = table.cells.filter((c) => c.row === 1);
  const below = Math.min(...first.map((c) => c.y0));
  const cells: GridCell[] = texts.map((runs, k) => ({
    row: 1,
    col: k + 1,
    rowSpan: 1,
    colSpan: 1,
    x0: edges[k]!.x0,
    x1: edges[k]!.x1,
    y0: Math.min(y0, below),
    y1: below,
    text: buildLines(runs, { splitGapEm: 1e9 })
      .map((l) => l.text.trim())
      .join(" "),
  }));
  return { ...table, y0: Math.min(table.y0, y0 - 1), rows: table.rows + 1, cells: [...cells, ...table.cells.map((c) => ({ ...c, row: c.row + 1 }))] };
}

/** A line of prose: four words or more over ten em. */
export const long = (s: Line): boolean => s.x1 - s.x0 > 10 * s.fontSize && FOUR_WORDS.test(s.text);
const FOUR_WORDS = /\S\s+\S+\s+\S+\s+\S/;

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** Whether rules (top to bottom) rule every row: five or more, none further from the next than four times the median pitch. */
function everyRow(rules: readonly Segment[]): boolean {
  if (rules.length < 5) return false;
  const pitches = rules.slice(1).map((s, i) => s.at - rules[i]!.at);
  return Math.max(...pitches) <= 4 * median(pitches);
}

function gridTable(ruledIn: Segment[], vs: Segment[], runs: readonly TextRun[], used: Set<TextRun>, keep: boolean): GridTable | undefined {
  const xs = distinct(vs.map((s) => s.at));
  const ruled = [...ruledIn, ...openEnds(ruledIn, vs, xs)];
  const hs = [...ruled, ...unruledRowEdges(distinct(ruled.map((s) => s.at)), xs, vs, runs)];
  const ys = distinct(hs.map((s) => s.at));
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
  // A grid without a word in it is drawing, not a table: a chart's plot area and
  // gridlines, a form's empty boxes.
  if (!inside.some((r) => r.text.trim() !== "")) return undefined;
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

/** A cell that is a number, amount or percentage, or a mark (✓, ✗, —). */
const NUMBER = /^(?:[-+\u2212\u2013(]?[$\u20ac\u00a3\u00a5]?\d[\d.,\s]*%?\)?|[\u2713\u2714\u2717\u2718\u00d7\u2014\u2013-])$/;

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

/** Joins a cell's runs into text (lines top to bottom, CJK without spaces). */
function finishCell(cell: GridCell & { runs: TextRun[] }, keep: boolean): GridCell {
  const { runs, ...rest } = cell;
  if (runs.length === 0) return rest;
  const lines = buildLines(runs, { splitGapEm: 1e9 });
  let text = "";
  for (const l of lines) {
    // A word hyphenated at a cell's line end is joined, as in a paragraph (blocks.ts).
    if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(l.text)) text = keep ? text : text.slice(0, -1);
    else if (text && !isCjk(text.at(-1) ?? "") && !isCjk(l.text[0] ?? "")) text += text.endsWith("-") ? "" : " ";
    text += l.text;
  }
  // Tight box: the cell's rules are its geometry; keep them (citations frame the cell).
  return { ...rest, text: text.trim() };
}

/**
 * The lines (indices into `rowYs`, top to bottom) that start rows: not those that carry
 * on a cell of the row above, a line alone in
 * its row, in a column the row above fills, starting where that cell's text starts, and
 * either closer to it than rows stand to each other (an HTML table's padded rows) or going
 * on with its open sentence (`…revokes every` / `access token`). Lines alone in a column
 * the row above leaves empty, or after a finished sentence at row spacing, stay rows.
 */
function rowStarts(rowYs: readonly number[], segs: readonly Line[], xs: readonly number[]): number[] {
  if (rowYs.length < 3) return rowYs.map((_, i) => i);
  const rowOf = (s: Line): number => {
    const cy = (s.y0 + s.y1) / 2;
    let best = 0;
    for (let r = 1; r < rowYs.length; r++) if (Math.abs(rowYs[r]! - cy) < Math.abs(rowYs[best]! - cy)) best = r;
    return best;
  };
  const colOf = (x: number): number => Math.max(0, xs.findIndex((e, i) => i < xs.length - 1 && x >= e && x <= xs[i + 1]!));
  const rows = rowYs.map(() => new Map<number, Line>());
  for (const s of segs) rows[rowOf(s)]!.set(colOf((s.x0 + s.x1) / 2), s);
  const pitches = rowYs.slice(1).map((y, r) => y - rowYs[r]!);
  const pitch = [...pitches].sort((a, b) => a - b)[pitches.length >> 1]!;
  const kept = [0];
  let last = rows[0]!;
  for (let r = 1; r < rowYs.length; r++) {
    const row = rows[r]!;
    if (row.size === 1) {
      const [col, line] = [...row][0]!;
      const above = last.get(col);
      const near = rowYs[r]! - rowYs[r - 1]! < 0.8 * pitch;
      const open = above !== undefined && !/[.!?:;)]$/.test(above.text.trimEnd()) && /^\p{Ll}/u.test(line.text);
      if (above && Math.abs(line.x0 - above.x0) <= line.fontSize && (near || open)) {
        // The cell goes on: later lines of it compare with this one.
        last.set(col, line);
        continue;
      }
    }
    kept.push(r);
    last = row;
  }
  return kept;
}

/**
 * Row starts (indices into `lineYs`) less those inside a band between two rules that is
 * one row: a column of figures holds one line there and none holds two (a cell wrapped
 * onto two lines, the figures beside it set in the middle of the row, as HTML sets them,
 * between its lines). Figures never wrap: two in a column are two rows (a booktabs body).
 */
function oneRowBands(starts: readonly number[], lineYs: readonly number[], segs: readonly Line[], xs: readonly number[], rules: readonly number[]): number[] {
  if (rules.length < 2) return [...starts];
  const ys = [...rules].sort((a, b) => a - b);
  // Band b lies between ys[b - 1] and ys[b]; 0 and ys.length are outside the rules.
  const bandOf = (y: number): number => {
    let lo = 0;
    let hi = ys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ys[mid]! < y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Per band and column: lines, and whether all are figures.
  const cols = new Map<number, Map<number, { n: number; figures: boolean }>>();
  for (const s of segs) {
    const b = bandOf((s.y0 + s.y1) / 2);
    if (b === 0 || b === ys.length) continue;
    const cx = (s.x0 + s.x1) / 2;
    const c = xs.findIndex((x, i) => i < xs.length - 1 && cx >= x && cx <= xs[i + 1]!);
    let band = cols.get(b);
    if (!band) cols.set(b, (band = new Map()));
    const cell = band.get(c) ?? { n: 0, figures: true };
    cell.n++;
    cell.figures &&= NUMBER.test(s.text.trim());
    band.set(c, cell);
  }
  const one = (b: number): boolean => {
    const band = cols.get(b);
    if (!band) return false;
    const figures = [...band.values()].filter((c) => c.figures);
    return figures.length > 0 && figures.every((c) => c.n === 1);
  };
  const kept: number[] = [];
  for (const i of starts) {
    const b = bandOf(lineYs[i]!);
    if (kept.length && b === bandOf(lineYs[kept[kept.length - 1]!]!) && one(b)) continue;
    kept.push(i);
  }
  return kept;
}

/** OCR text that is a drawn vertical rule: bars, box-drawing verticals. */
const TEXT_RULE = /^[|¦│┃║]+$/;

/** Columns from text alignment between horizontal rules (booktabs tables). */
export function alignedTable(region: Rect, rules: number[], runs: readonly TextRun[], used: Set<TextRun>, keep = false): GridTable | undefined {
  const within = runs.filter((r) => {
    const cx = (r.x0 + r.x1) / 2;
    const cy = (r.y0 + r.y1) / 2;
    return cx >= region.x0 - 2 && cx <= region.x1 + 2 && cy > region.y0 && cy < region.y1;
  });
  // A bar an OCR engine read standing alone between cells is a drawn rule: it separates
  // cells and is no cell's text. (In a text layer a bar is text: `|` and `||` in a table
  // of shell operators.)
  const inside = within.filter((r) => !(r.ocr && TEXT_RULE.test(r.text)));
  if (inside.length < 2) return undefined;
  // Inside a table every clear gap is a cell edge: no need to tell gutters from word spaces.
  const segs = buildLines(inside, { splitGapEm: 0.6, gutterEm: 0.6 });
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
  // Rows: distinct line positions, less the lines of cells wrapped onto more lines; a
  // row's top edge lies halfway from the line above it.
  const lineYs = distinct(
    segs.map((s) => (s.y0 + s.y1) / 2),
    Math.max(2, 0.5 * (segs[0]?.fontSize ?? 4)),
  );
  const starts = oneRowBands(rowStarts(lineYs, segs, xs), lineYs, segs, xs, rules);
  const rowYs = starts.map((i) => lineYs[i]!);
  if (rowYs.length < 2) return undefined;
  const bounds: number[] = [region.y0];
  for (let i = 0; i + 1 < rowYs.length; i++) {
    const between = rules.find((y) => y > rowYs[i]! && y < rowYs[i + 1]!);
    bounds.push(between ?? (lineYs[starts[i + 1]! - 1]! + rowYs[i + 1]!) / 2);
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
  for (const run of within) used.add(run);
  return readingColumns({ ...region, rows: nRows, cols: nCols, cells: cells.map((c) => finishCell(c, keep)) });
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
