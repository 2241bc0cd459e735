/**
 * Tables ruled by rows only: three or more horizontal rules of one width and no column
 * rules (LaTeX's booktabs, HTML tables ruled by their cells' bottom borders). The rules
 * give the rows; the columns come from text alignment between them ({@link alignedTable},
 * which tables with no rules at all, `aligned-tables.ts`, use too). Rules that do not read
 * as one table are split where they lie furthest apart; rows set over the first rule (an
 * HTML header ruled under only) join the table, and so does a header cut at its columns.
 * Grids of crossing rules are `tables.ts`.
 */
import { isCaption } from "./captions.js";
import { buildLines } from "./lines.js";
import { distinct } from "./segments.js";
import { finishCell, NUMBER, readingColumns } from "./table-cells.js";
import type { GridCell, GridTable, Line, Rect, Segment, TextRun } from "./types.js";

/**
 * The tables between rules of one width, top to bottom: all of them one table when they
 * read as one, else split where they lie furthest apart (two tables of a column's width
 * with prose between them), each part of three rules or more tried again. Rules spread
 * over most of the page are tried whole only when they stand at a regular pitch (a rule
 * under every row of a long statement, no rows more than four times as tall as the
 * usual one): a split would lose the row between the two parts.
 */
export function ruledTables(rules: readonly Segment[], runs: readonly TextRun[], page: Rect, used: Set<TextRun>, out: GridTable[], keep: boolean): void {
  if (rules.length < 3) return;
  const first = rules[0]!;
  const ys = rules.map((s) => s.at);
  const region = withLabels({ x0: first.from, x1: first.to, y0: first.at, y1: rules[rules.length - 1]!.at }, ys, runs, used);
  let cut = 0;
  if (region.y1 - region.y0 < 0.6 * (page.y1 - page.y0) || everyRow(ys)) {
    // Tried on a copy of `used`: a second table in the rules gives the runs back.
    const taken = new Set(used);
    const whole = alignedTable(region, ys, runs, taken, keep);
    const table = whole && rowsAbove(whole, region, ys, runs, taken, keep);
    cut = table ? secondTable(table, region, ys, runs) : 0;
    if (table && !cut) {
      for (const r of taken) used.add(r);
      out.push(table);
      return;
    }
  }
  if (!cut) {
    cut = 1;
    for (let i = 2; i < rules.length; i++) if (rules[i]!.at - rules[i - 1]!.at > rules[cut]!.at - rules[cut - 1]!.at) cut = i;
  }
  ruledTables(rules.slice(0, cut), runs, page, used, out, keep);
  ruledTables(rules.slice(cut), runs, page, used, out, keep);
}

/**
 * The region widened to the row labels left of its rules: a statement (an SEC filing's, an
 * annual report's) rules its subtotals under the figure columns only (`border-top` on the
 * amount cells), so the rules stop short of the labels. The labels are each row's nearest
 * piece left of the rules, in the cells' type (within a tenth), most of them on a line of
 * the figures, in most bands that hold figures, half of them or more starting at one left
 * edge (the rest indented under it) and ragged at their right ends: a column of prose
 * beside the table is set in its own leading and justified.
 */
function withLabels(region: Rect, rules: readonly number[], runs: readonly TextRun[], used: ReadonlySet<TextRun>): Rect {
  const inside: TextRun[] = [];
  const left: TextRun[] = [];
  for (const r of runs) {
    const cy = (r.y0 + r.y1) / 2;
    if (used.has(r) || r.angle !== 0 || cy <= region.y0 || cy >= region.y1) continue;
    const cx = (r.x0 + r.x1) / 2;
    if (cx >= region.x0 - 2 && cx <= region.x1 + 2) inside.push(r);
    else if (r.x1 <= region.x0 + 1) left.push(r);
  }
  if (inside.length < 2 || left.length === 0) return region;
  const em = median(inside.map((r) => r.fontSize));
  const rows = distinct(
    buildLines(inside, { splitGapEm: 1e9 }).map((l) => (l.y0 + l.y1) / 2),
    0.4 * em,
  );
  // Each line's piece nearest the rules (a piece further left belongs to something else).
  const pieces = buildLines(left, { splitGapEm: 0.6, gutterEm: 0.6 });
  const mid = (l: Line): number => (l.y0 + l.y1) / 2;
  const labels = pieces.filter((p) => !pieces.some((q) => q !== p && q.x0 > p.x1 && Math.abs(mid(q) - mid(p)) < 0.4 * em));
  if (labels.length < 2 || labels.some((l) => Math.abs(l.fontSize - em) > 0.1 * em)) return region;
  const aligned = labels.filter((l) => rows.some((y) => Math.abs(y - mid(l)) < 0.4 * em)).length;
  if (aligned < (2 / 3) * labels.length) return region;
  const bands = new Set(rows.map((y) => bandAt(rules, y)));
  const labelled = new Set(labels.map((l) => bandAt(rules, mid(l))));
  if ([...bands].filter((b) => labelled.has(b)).length <= bands.size / 2) return region;
  const edge = Math.min(...labels.map((l) => l.x0));
  if (labels.filter((l) => l.x0 - edge < 0.5 * em).length < labels.length / 2) return region;
  const end = Math.max(...labels.map((l) => l.x1));
  if (labels.length >= 4 && labels.filter((l) => end - l.x1 < 0.5 * em).length >= (2 / 3) * labels.length) return region;
  return { ...region, x0: edge };
}

/**
 * Where rules read as one table hold two (an HTML page's tables one under the other, each
 * `th` ruled under only, so the second's header stands in a band of the first): the index
 * of the first rule of the second, or 0. A band whose first line is one piece in the first
 * column with more lines under it, set larger than the cells (an `<h3>` over the second
 * table), or bold and an em or more above the next line (an `<h4>`: a table's group label
 * in bold stands a line's distance over its rows), is the second table's heading; a row
 * repeating the table's first (its header) is the second table's header. The cut is at
 * the rule over that band, the band left to the second table's rows above its first rule.
 */
function secondTable(table: GridTable, region: Rect, rules: readonly number[], runs: readonly TextRun[]): number {
  const inside = runs.filter((r) => r.angle === 0 && (r.y0 + r.y1) / 2 > region.y0 && (r.y0 + r.y1) / 2 < region.y1 && (r.x0 + r.x1) / 2 >= region.x0 - 2 && (r.x0 + r.x1) / 2 <= region.x1 + 2);
  const em = median(inside.map((r) => r.fontSize));
  const second = table.cells.find((c) => c.col === 2 && c.colSpan === 1)?.x0 ?? region.x1;
  const bands = rules.map(() => [] as TextRun[]);
  for (const r of inside) {
    const k = bandAt(rules, (r.y0 + r.y1) / 2);
    if (k > 0 && k < rules.length) bands[k]!.push(r);
  }
  for (let k = 1; k < rules.length; k++) {
    const runsIn = bands[k]!;
    if (runsIn.length < 2) continue;
    const top = runsIn.reduce((a, b) => (b.y0 < a.y0 ? b : a));
    const first = runsIn.filter((r) => Math.abs((r.y0 + r.y1) / 2 - (top.y0 + top.y1) / 2) < 0.4 * top.fontSize);
    const under = runsIn.filter((r) => Math.abs((r.y0 + r.y1) / 2 - (top.y0 + top.y1) / 2) >= 0.4 * top.fontSize);
    if (under.length === 0 || first.some((r) => r.x1 > second)) continue;
    const size = Math.max(...first.map((r) => r.fontSize));
    const gap = Math.min(...under.map((r) => r.y0)) - Math.max(...first.map((r) => r.y1));
    if (size >= 1.1 * em || (first.every((r) => r.bold) && gap >= em)) return k;
  }
  // A header repeated: two cells or more, the same texts as the first row's.
  const rows = new Map<number, { texts: string[]; y: number }>();
  for (const c of table.cells) {
    const row = rows.get(c.row) ?? { texts: [], y: (c.y0 + c.y1) / 2 };
    if (c.text) row.texts.push(`${c.col}:${c.text}`);
    rows.set(c.row, row);
  }
  const head = rows.get(1)?.texts;
  if (!head || head.length < 2) return 0;
  for (const [n, row] of rows) {
    if (n === 1 || row.texts.join("\t") !== head.join("\t")) continue;
    const k = bandAt(rules, row.y);
    // The rule over the band (over an empty band too: booktabs' top rule over the header).
    if (k > 1 && k < rules.length) return bands[k - 1]!.length === 0 ? k - 1 : k;
  }
  return 0;
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
  const out: GridTable = { ...table, y0: Math.min(table.y0, y0 - 1), rows: table.rows + 1, cells: [...cells, ...table.cells.map((c) => ({ ...c, row: c.row + 1 }))] };
  if (table.headerRows !== undefined) out.headerRows = table.headerRows + 1;
  return out;
}

/** A line of prose: four words or more over ten em. */
export const long = (s: Line): boolean => s.x1 - s.x0 > 10 * s.fontSize && FOUR_WORDS.test(s.text);
const FOUR_WORDS = /\S\s+\S+\s+\S+\s+\S/;

/** The band `y` lies in: b between rules[b - 1] and rules[b] (ascending); 0 and rules.length are outside them. */
function bandAt(rules: readonly number[], y: number): number {
  let lo = 0;
  let hi = rules.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rules[mid]! < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/**
 * Whether rules (their positions, top to bottom) rule every row: `least` or more (five to
 * keep rules down most of a page one table; four, three rows, to read each band as a row),
 * none further from the next than four times the median pitch.
 */
function everyRow(rules: readonly number[], least = 5): boolean {
  if (rules.length < least) return false;
  const pitches = rules.slice(1).map((y, i) => y - rules[i]!);
  return Math.max(...pitches) <= 4 * median(pitches);
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
 * When a rule runs under every row (four rules or more at about one pitch: an HTML table
 * ruled by its cells' bottom borders, Material for MkDocs and most documentation themes)
 * each band is one row whatever its cells hold — a description wrapped after a full stop,
 * or around inline code, is still its cell — unless figures say otherwise, or two of its
 * lines fill the most cells, two or more (rows ruled in groups: a cell wrapped leaves the
 * cells beside it empty on its other lines).
 */
function oneRowBands(starts: readonly number[], lineYs: readonly number[], segs: readonly Line[], xs: readonly number[], rules: readonly number[]): number[] {
  if (rules.length < 2) return [...starts];
  const ys = [...rules].sort((a, b) => a - b);
  const bandOf = (y: number): number => bandAt(ys, y);
  // The nearest line position (`lineYs` ascend).
  const lineOf = (y: number): number => {
    let lo = 0;
    let hi = lineYs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lineYs[mid + 1]! <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1 < lineYs.length && lineYs[lo + 1]! - y < y - lineYs[lo]! ? lo + 1 : lo;
  };
  // Per band and column: the lines it holds, and whether all are figures; per band and
  // line, the columns it fills.
  const cols = new Map<number, Map<number, { lines: Set<number>; figures: boolean }>>();
  const fills = new Map<number, Map<number, Set<number>>>();
  for (const s of segs) {
    const cy = (s.y0 + s.y1) / 2;
    const b = bandOf(cy);
    if (b === 0 || b === ys.length) continue;
    const cx = (s.x0 + s.x1) / 2;
    const c = xs.findIndex((x, i) => i < xs.length - 1 && cx >= x && cx <= xs[i + 1]!);
    const line = lineOf(cy);
    let band = cols.get(b);
    if (!band) cols.set(b, (band = new Map()));
    const cell = band.get(c) ?? { lines: new Set<number>(), figures: true };
    cell.lines.add(line);
    cell.figures &&= NUMBER.test(s.text.trim());
    band.set(c, cell);
    let byLine = fills.get(b);
    if (!byLine) fills.set(b, (byLine = new Map()));
    byLine.set(line, (byLine.get(line) ?? new Set<number>()).add(c));
  }
  const every = everyRow(ys, 4);
  const one = (b: number): boolean => {
    const band = cols.get(b);
    if (!band) return false;
    const figures = [...band.values()].filter((c) => c.figures);
    if (figures.some((c) => c.lines.size > 1)) return false;
    if (figures.length > 0) return true;
    if (!every) return false;
    const counts = [...fills.get(b)!.values()].map((c) => c.size);
    const most = Math.max(...counts);
    return most < 2 || counts.filter((n) => n === most).length < 2;
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
  // Runs another table took are not this one's: rules of two widths around one table.
  const within = runs.filter((r) => {
    if (used.has(r)) return false;
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
  // Column gutters: x-ranges no line segment covers; those of the figures' rows under a
  // head spanning them (see spanningHead).
  const over = headLines(segs, rules);
  let xs = gutters(region, over.size ? segs.filter((s) => !over.has(s)) : segs);
  const head = new Set([...over].filter((s) => xs.some((x, i) => i > 0 && i < xs.length - 1 && x > s.x0 + 1 && x < s.x1 - 1)));
  if (over.size && !head.size) xs = gutters(region, segs);
  const nCols = xs.length - 1;
  if (nCols < 2) return undefined;
  // Rows: distinct line positions, less the lines of cells wrapped onto more lines; a
  // row's top edge lies halfway from the line above it.
  const lineYs = distinct(
    segs.map((s) => (s.y0 + s.y1) / 2),
    Math.max(2, 0.5 * (segs[0]?.fontSize ?? 4)),
  );
  const starts = headApart(oneRowBands(rowStarts(lineYs, segs, xs), lineYs, segs, xs, rules), lineYs, head);
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
  const colAt = (x: number): number => Math.max(0, xs.findIndex((e, i) => i < nCols && x >= e && x <= xs[i + 1]!));
  const covered = new Set<(typeof cells)[number]>();
  let multi = 0;
  for (let r = 0; r < nRows; r++) {
    const inRow = segs.filter((s) => (s.y0 + s.y1) / 2 >= bounds[r]! && (s.y0 + s.y1) / 2 <= bounds[r + 1]!);
    const spans = head.size ? rowSpans(inRow, head, xs, colAt) : new Map<Line, number>();
    for (const s of inRow) {
      const c0 = spans.get(s);
      for (const run of s.runs) cells[r * nCols + (c0 ?? colAt((run.x0 + run.x1) / 2))]!.runs.push(run);
    }
    for (const [s, c0] of spans) {
      const c1 = colAt(s.x1);
      const cell = cells[r * nCols + c0]!;
      cell.colSpan = c1 - c0 + 1;
      cell.x1 = xs[c1 + 1]!;
      for (let c = c0 + 1; c <= c1; c++) covered.add(cells[r * nCols + c]!);
    }
    if (cells.slice(r * nCols, (r + 1) * nCols).filter((c) => c.runs.length > 0).length >= 2) multi++;
  }
  if (multi < Math.ceil(nRows / 2)) return undefined;
  for (const run of within) used.add(run);
  const kept = covered.size ? cells.filter((c) => !covered.has(c)) : cells;
  const table: GridTable = { ...region, rows: nRows, cols: nCols, cells: kept.map((c) => finishCell(c, keep)) };
  // Under a spanning head, the header is every row over the rule under it (the years, the
  // units row under the groups: booktabs' `\midrule`).
  const ruleUnder = head.size ? rules.find((y) => y > Math.max(...[...head].map((s) => s.y1)) && y < region.y1 - 1) : undefined;
  const headerRows = ruleUnder === undefined ? 0 : rowYs.filter((y) => y < ruleUnder).length;
  if (headerRows > 1 && headerRows < nRows) table.headerRows = headerRows;
  return readingColumns(table);
}

/** Column edges of `region`: its sides and the middle of each x-range no segment covers. */
function gutters(region: Rect, segs: readonly Line[]): number[] {
  const xs: number[] = [region.x0];
  let reach = -Infinity;
  for (const s of [...segs].sort((a, b) => a.x0 - b.x0)) {
    if (reach !== -Infinity && s.x0 > reach + 2) xs.push((reach + s.x0) / 2);
    reach = Math.max(reach, s.x1);
  }
  xs.push(region.x1);
  return xs;
}

/**
 * A table's head over its figures: the pieces on lines above the first line holding a
 * figure (two figures or more in the table), set close over it (within three of its size)
 * and between the same two rules, none a line of prose: lines further up or over a rule
 * (tried by {@link rowsAbove}, or under a letterhead's rule: an invoice's address blocks)
 * are no head of the columns and must keep them. A head
 * spanning two columns
 * (`\multicolumn{2}{c}{Group}` over `2023 2022`, a `colspan`) covers the gutter between
 * them; with the gutters taken from the lines under the head, the columns stay apart and
 * the piece becomes a cell spanning them ({@link rowSpans}). Where no head piece crosses
 * such a gutter, the gutters are everyone's, as before.
 */
function headLines(segs: readonly Line[], rules: readonly number[]): Set<Line> {
  const figures = segs.filter((s) => NUMBER.test(s.text.trim()));
  if (figures.length < 2 || rules.length === 0) return new Set();
  const first = figures.reduce((a, b) => (b.y0 < a.y0 ? b : a));
  const ys = [...rules].sort((a, b) => a - b);
  const band = bandAt(ys, (first.y0 + first.y1) / 2);
  const reach = first.y0 - 3 * first.fontSize;
  return new Set(segs.filter((s) => s.y1 <= first.y0 && s.y0 >= reach && band > 0 && bandAt(ys, (s.y0 + s.y1) / 2) === band && !long(s)));
}

/**
 * Row starts with the first line under a spanning head starting a row: a band between two
 * rules holding the head and the years under it (`Group` over `2023 2022`) is two rows, the
 * spanning cell's and the columns'.
 */
function headApart(starts: number[], lineYs: readonly number[], head: ReadonlySet<Line>): number[] {
  if (head.size === 0) return starts;
  const bottom = Math.max(...[...head].map((s) => (s.y0 + s.y1) / 2));
  const first = lineYs.findIndex((y) => y > bottom + 1);
  if (first < 0 || starts.includes(first)) return starts;
  return [...starts, first].sort((a, b) => a - b);
}

/**
 * The head pieces of a row that cross a gutter (by more than a point each side), each to
 * the first column it spans (it spans on to the column its right end lies in). None when
 * another piece of the row lies in a column they would cover: the gutters are the row's
 * own then, read by each run's centre as before.
 */
function rowSpans(inRow: readonly Line[], head: ReadonlySet<Line>, xs: readonly number[], colAt: (x: number) => number): Map<Line, number> {
  const spans = new Map<Line, number>();
  for (const s of inRow) {
    if (head.has(s) && xs.some((x, i) => i > 0 && i < xs.length - 1 && x > s.x0 + 1 && x < s.x1 - 1)) spans.set(s, colAt(s.x0));
  }
  for (const [s, c0] of spans) {
    const c1 = colAt(s.x1);
    for (const o of inRow) {
      if (o === s || (spans.get(o) === c0 && colAt(o.x1) === c1)) continue;
      const c = colAt((o.x0 + o.x1) / 2);
      if (c >= c0 && c <= c1) return new Map();
    }
  }
  return spans;
}
