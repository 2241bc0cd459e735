import { isCaption } from "./captions.js";
import { alignedTable, headerCut, long } from "./ruled-tables.js";
import { FIGURE, type GridTable, type Line, type Rect, type TextRun } from "./types.js";

/** Tuning for {@link findAlignedTables}. */
export interface AlignedTableOptions {
  /** Fewest rows with three or more cells. @default 3 */
  minRows?: number;
  /** Fewest columns. @default 3 */
  minCols?: number;
  /**
   * Boxes the page draws (panels, cards): a table whose every column stands in a box of
   * its own is a row of cards side by side, read card by card. @default []
   */
  panels?: readonly Rect[];
  /** Keep a hyphen at a cell's line end (a writer that does not hyphenate). @default false */
  keepLineEndHyphens?: boolean;
}

/**
 * Tables drawn without any rules: consecutive rows, each cut by wide gaps into several
 * line segments, whose segments line up in columns. Conservative on purpose — three or
 * more columns and three or more full rows — so two-column prose (two segments a row)
 * and label/value pairs never qualify, nor columns of prose (most rows nothing but long
 * runs of words). The page is searched whole first (a table may run across a two-column
 * page's gutter), then column by column (a table the other column's lines cut into runs
 * of rows); a whole-page table that took in a text column's lines — its prose, or a
 * formula with little of the table above or below it, on the table's baselines or
 * between them — gives way to what the columns hold. Returns the tables and the lines
 * they took.
 */
export function findAlignedTables(lines: readonly Line[], options: AlignedTableOptions = {}): { tables: GridTable[]; used: Set<Line> } {
  const { minRows = 3, minCols = 3 } = options;
  // Monospace text aligned with spaces is code or a dump, not a table.
  const usable = lines.filter((l) => l.runs.length > 0 && !l.mono);
  // Most pages have no rows of three pieces or more to start a table with: done.
  let found: Found[] = [];
  if (rowsOf(usable).filter((r) => r.length >= minCols).length >= minRows) {
    found = findIn(usable, options);
    const columns = pageColumns(usable);
    if (columns.length > 0) {
      // A table of the whole page that holds a text column's prose, or a long line set
      // in a column with other lines of the table above or below it in fewer than half
      // its rows (a display formula beside a table in the other column), took in that
      // column's text; the columns, searched apart, have the tables. A long cell of a
      // table across the page has its table column's cells above and below it.
      const prose = new Set(columns.flatMap((c) => c.members));
      const foreign = (f: Found, l: Line): boolean =>
        prose.has(l) || (long(l) && columns.some((c) => inColumn(c, l)) && f.lines.filter((o) => o !== l && o.x0 < l.x1 && o.x1 > l.x0).length < f.table.rows / 2);
      const clean = found.filter((f) => !f.lines.some((l) => foreign(f, l)));
      const taken = new Set(clean.flatMap((f) => f.lines));
      const more = byColumn(usable, columns)
        .flatMap((group) => findIn(group, options))
        .filter((f) => !f.lines.some((l) => taken.has(l)));
      found = [...clean, ...more];
    }
  }
  const panels = options.panels ?? [];
  if (panels.length >= 2) found = found.filter((f) => !cardRow(f.table, panels));
  return { tables: found.map((f) => f.table), used: new Set(found.flatMap((f) => f.lines)) };
}

/**
 * Whether each column of `table` stands in a drawn box of its own (a feature grid's or a
 * price list's cards): the box holds the centre of the column's every cell with text, and
 * no other column's.
 */
function cardRow(table: GridTable, panels: readonly Rect[]): boolean {
  const seen = new Set<Rect>();
  for (let col = 1; col <= table.cols; col++) {
    const cells = table.cells.filter((c) => c.col === col && c.colSpan === 1 && c.text.trim() !== "");
    if (cells.length === 0) return false;
    const holds = (p: Rect): boolean =>
      cells.every((c) => {
        const cx = (c.x0 + c.x1) / 2;
        const cy = (c.y0 + c.y1) / 2;
        return cx >= p.x0 && cx <= p.x1 && cy >= p.y0 && cy <= p.y1;
      });
    const panel = panels.find(holds);
    if (!panel || seen.has(panel)) return false;
    seen.add(panel);
  }
  return true;
}

/** A table and the line segments it took. */
interface Found {
  table: GridTable;
  lines: Line[];
}

function findIn(lines: readonly Line[], options: AlignedTableOptions): Found[] {
  const { minRows = 3, minCols = 3 } = options;
  const out: Found[] = [];
  const rows = rowsOf(lines);
  // The last row a table took: the row after it is no other table's header.
  let taken = -1;
  let i = 0;
  while (i < rows.length) {
    if (rows[i]!.length < 2) {
      i++;
      continue;
    }
    // A run of multi-segment rows, close together, in type of about one size (a letterhead's
    // name and `INVOICE` over the address and invoice number rows are no table row).
    // A cell wrapped onto more lines (an HTML table's description column) leaves lines
    // alone in their rows, set tight under the cell's first line, at its place.
    let j = i;
    let cells = rows[i]!;
    for (;;) {
      const next = rows[j + 1];
      if (!next || !similarSize(rows[j]!, next)) break;
      if (next.length >= 2 && (gap(rows[j]!, next) <= 1.6 * rowSize(rows[j]!) || evenPitch(rows, i, j))) cells = next;
      else if (!(next.length === 1 && gap(rows[j]!, next) <= 0.6 * rowSize(rows[j]!) && wrapsIn(cells, next[0]!))) break;
      j++;
    }
    // A line alone at the run's end is a cell going on only when it carries on an open
    // sentence; else it is what follows the table (a note, `* Estimated.`).
    while (j > i && rows[j]!.length === 1 && !carriesOn(rows.slice(i, j), rows[j]![0]!)) j--;
    const run = rows.slice(i, j + 1);
    // The row above may be the header; a header cell wrapped onto two lines or three
    // (`Rate` / `limit`, the one-line cells beside it centred between) leaves a few rows
    // set tight together.
    let top = i - 1;
    while (top - 1 > taken && i - top < 3 && gap(rows[top - 1]!, rows[top]!) <= 0.6 * rowSize(rows[top]!)) top--;
    const head = i - 1 > taken ? rows.slice(top, i).flat() : undefined;
    i = j + 1;
    if (run.filter((r) => r.length >= minCols).length < minRows) continue;
    const segs = run.flat();
    // Columns of prose (a three-column newsletter) line up too: in most of their rows
    // every piece is a long run of words, where a table's rows have a short cell.
    const full = run.filter((r) => r.length >= 2);
    if (full.filter((r) => r.every(long)).length >= 0.6 * full.length || flowing(run)) continue;
    const keep = options.keepLineEndHyphens === true;
    const table = tableOf(segs, keep);
    if (!table || table.cols < minCols) continue;
    const headed = head && withHeader(head, run, table, keep);
    out.push(head && headed ? { table: headed, lines: [...head, ...segs] } : { table, lines: segs });
    taken = j;
  }
  return out;
}

/**
 * Whether rows `j` and `j + 1` (of a run from row `i`) stand up to four of their size apart
 * at the pitch of the row before or after them: a slide's table without rules whose tall
 * rows (PowerPoint's 0.7 inch at 18 pt) leave wider gaps than a text's lines, evenly.
 */
function evenPitch(rows: readonly (readonly Line[])[], i: number, j: number): boolean {
  const mid = (k: number): number => (Math.min(...rows[k]!.map((l) => l.y0)) + Math.max(...rows[k]!.map((l) => l.y1))) / 2;
  const size = rowSize(rows[j]!);
  if (gap(rows[j]!, rows[j + 1]!) > 4 * size) return false;
  const pitch = mid(j + 1) - mid(j);
  const alike = (k: number): boolean => rows[k]!.length >= 2 && rows[k + 1]!.length >= 2 && similarSize(rows[k]!, rows[k + 1]!) && Math.abs(mid(k + 1) - mid(k) - pitch) <= Math.max(0.1 * pitch, 0.2 * size);
  return (j > i && alike(j - 1)) || (j + 2 < rows.length && alike(j + 1));
}

/**
 * Whether the run's columns are prose set in narrow boxes side by side (a slide's three
 * text boxes, a heading over a sentence wrapped in each): in most columns, at least half
 * the pieces go on in the piece under them — a line of three words or more that ends no
 * sentence, the next starting in lower case with a word that would not have fitted after
 * it (the column's widest piece is its measure) — and the last piece ends a sentence.
 * Cells of a table do not carry a sentence on from row to row; short lower-case cells
 * (`timeout`, `ls | wc`) with no full stop under them are no lines of prose.
 */
function flowing(run: readonly (readonly Line[])[]): boolean {
  // Columns: each piece goes on the column of the piece above it that it overlaps most.
  const columns: { pieces: Line[]; width: number }[] = [];
  let above: { line: Line; col: number }[] = [];
  for (const row of run) {
    const here = row.map((line) => {
      let best: { line: Line; col: number } | undefined;
      let most = 0;
      for (const a of above) {
        const overlap = Math.min(a.line.x1, line.x1) - Math.max(a.line.x0, line.x0);
        if (overlap > most) [best, most] = [a, overlap];
      }
      const col = best ? best.col : columns.push({ pieces: [], width: 0 }) - 1;
      columns[col]!.pieces.push(line);
      columns[col]!.width = Math.max(columns[col]!.width, line.x1 - line.x0);
      return { line, col };
    });
    above = here;
  }
  const flows = columns.filter(({ pieces, width }) => {
    let on = 0;
    for (let k = 1; k < pieces.length; k++) {
      const [up, down] = [pieces[k - 1]!, pieces[k]!];
      const word = /^\S+/.exec(down.text.trim())?.[0] ?? "";
      const wordWidth = ((down.x1 - down.x0) * word.length) / Math.max(1, down.text.trim().length);
      if (THREE_WORDS.test(up.text) && !/[.!?:;]$/.test(up.text.trim()) && /^\p{Ll}/u.test(down.text.trim()) && up.x1 - up.x0 + 0.25 * up.fontSize + wordWidth > width) on++;
    }
    return on >= 1 && 2 * on >= pieces.length - 1 && /[.!?]$/.test(pieces[pieces.length - 1]!.text.trim());
  }).length;
  return flows >= 2 && 2 * flows > columns.filter((c) => c.pieces.length >= 2).length;
}

/**
 * Whether `line`, alone under the run's `rows`, is a cell of the last row going on: under
 * a column other than the first, or in the cell's type closer than the rows stand to each
 * other, or carrying on an open sentence (a note under a table starts at its left edge, a
 * row's distance or more below it, often smaller).
 */
function carriesOn(rows: readonly (readonly Line[])[], line: Line): boolean {
  const row = rows[rows.length - 1]!;
  const cell = row.find((c) => Math.abs(c.x0 - line.x0) <= line.fontSize);
  if (!cell) return false;
  const left = Math.min(...rows.flat().map((c) => c.x0));
  if (cell.x0 > left + line.fontSize) return true;
  const pitches = rows.slice(1).map((r, k) => gap(rows[k]!, r)).filter((g) => g > 0);
  const alike = Math.abs(line.fontSize - cell.fontSize) <= 0.1 * cell.fontSize;
  if (alike && pitches.length && gap(row, [line]) < 0.7 * Math.min(...pitches)) return true;
  return !/[.!?:;]$/.test(cell.text.trimEnd()) && /^\p{Ll}/u.test(line.text);
}

/**
 * Whether `line` can be a cell of `row` wrapped onto another line: it starts where one of
 * the row's cells starts and ends before the next cell to the right (a paragraph under
 * the table runs on across the columns), and is no caption.
 */
function wrapsIn(row: readonly Line[], line: Line): boolean {
  const cell = row.find((c) => Math.abs(c.x0 - line.x0) <= line.fontSize);
  if (!cell || isCaption(line.text)) return false;
  const right = Math.min(...row.filter((c) => c.x0 > cell.x1).map((c) => c.x0));
  return line.x1 < right - 0.5 * line.fontSize;
}

/**
 * The table with the row above it as its header, when that row belongs: a header whose
 * cells stand under two em apart reads as one line, so the row above a table's run is
 * tried when it lies close above, within the table's width (its last cell up to 3 em
 * past it), in type no larger than the
 * table's, is no caption (`Table 2: Costs`), and, cut at the table's gaps, fills two cells
 * or more and keeps the table's columns.
 */
function withHeader(head: readonly Line[], run: readonly Line[][], table: GridTable, keep: boolean): GridTable | undefined {
  const first = run[0]!;
  if (gap(head, first) > 1.6 * rowSize(head) || rowSize(head) > 1.15 * rowSize(first)) return undefined;
  // A header's last cell may stand out past a column of short figures (`Staff` over `40`).
  const lastCol = table.cells.filter((c) => c.col === table.cols && c.text.trim() !== "");
  const past = lastCol.length > 0 && lastCol.every((c) => FIGURE.test(c.text.trim())) ? 3 : 1;
  if (head.some((l) => l.x0 < table.x0 - l.fontSize || l.x1 > table.x1 + past * l.fontSize || isCaption(l.text))) return undefined;
  const headed = tableOf([...head, ...run.flat()], keep);
  if (headed && headed.cols === table.cols && headed.rows === table.rows + 1) return headed.cells.filter((c) => c.row === 1 && c.text !== "").length >= 2 ? headed : undefined;
  return headerCut(head, table);
}

/** Lines sharing a baseline band, top to bottom. */
function rowsOf(lines: readonly Line[]): Line[][] {
  const sorted = [...lines].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const rows: Line[][] = [];
  for (const l of sorted) {
    const last = rows[rows.length - 1];
    const ref = last?.[0];
    if (ref && Math.abs((l.y0 + l.y1) / 2 - (ref.y0 + ref.y1) / 2) < 0.4 * Math.max(l.fontSize, ref.fontSize)) last.push(l);
    else rows.push([l]);
  }
  return rows;
}

/** The table read from these line segments by their alignment, if they make one. */
function tableOf(segs: readonly Line[], keep: boolean): GridTable | undefined {
  const region = {
    x0: Math.min(...segs.map((s) => s.x0)) - 1,
    x1: Math.max(...segs.map((s) => s.x1)) + 1,
    y0: Math.min(...segs.map((s) => s.y0)) - 1,
    y1: Math.max(...segs.map((s) => s.y1)) + 1,
  };
  return alignedTable(region, [], segs.flatMap((s) => s.runs), new Set<TextRun>(), keep);
}

const rowSize = (row: readonly Line[]): number => Math.max(...row.map((l) => l.fontSize));
/** Rows of one table: the larger type at most 1.5 × the smaller (an 11 pt header over 8 pt rows is one table). */
const similarSize = (a: readonly Line[], b: readonly Line[]): boolean => {
  const [x, y] = [rowSize(a), rowSize(b)];
  return Math.max(x, y) <= 1.5 * Math.min(x, y);
};
const gap = (a: readonly Line[], b: readonly Line[]): number => Math.min(...b.map((l) => l.y0)) - Math.max(...a.map((l) => l.y1));

const THREE_WORDS = /\S\s+\S+\s+\S/;

/** A text column: its long lines and the stretches of the page it runs down. */
interface PageColumn {
  x0: number;
  x1: number;
  /** Its long lines. */
  members: Line[];
  /** Vertical stretches it holds, top to bottom, each between lines crossing its edges. */
  stretches: { y0: number; y1: number }[];
}

/**
 * The page's text columns. A column is a stack of three or more long lines of one
 * measure with prose of its own: at least one of its lines alone in its row or beside
 * nothing but prose. (A table whose cells hold sentences has stacks of long lines too,
 * but every row has its short cells.) A column runs down the page until a line crosses
 * its edge (a title across the page).
 */
function pageColumns(lines: readonly Line[]): PageColumn[] {
  const longs = lines.filter(long);
  if (longs.length < 6) return [];
  const rowOf = new Map<Line, Line[]>();
  const rows = rowsOf(lines);
  const indexOf = new Map<Line[], number>();
  rows.forEach((row, i) => {
    indexOf.set(row, i);
    for (const l of row) rowOf.set(l, row);
  });
  // A line alone in its row may be a table cell wrapped onto more lines: tight under a
  // row of several cells (or under such a line), at the place of one of them.
  const wrapped = (l: Line): boolean => {
    let line = l;
    for (let i = indexOf.get(rowOf.get(l)!)! - 1; i >= 0; i--) {
      const above = rows[i]!;
      if (gap(above, [line]) > 0.6 * line.fontSize) return false;
      const cell = above.find((a) => Math.abs(a.x0 - line.x0) <= line.fontSize);
      if (!cell) return false;
      if (above.length >= 2) return true;
      line = cell;
    }
    return false;
  };
  // Stacks of long lines of one measure: starting at one x, ending near one x (ragged
  // right text ends up to a long word short of its column's edge).
  const byX = [...longs].sort((a, b) => a.x0 - b.x0);
  const stacks: PageColumn[] = [];
  for (const l of byX) {
    const home = stacks.find((c) => l.x0 - c.x0 < l.fontSize && Math.abs(l.x1 - c.x1) < Math.max(3 * l.fontSize, 0.15 * (c.x1 - c.x0)));
    if (home) {
      home.members.push(l);
      home.x1 = Math.max(home.x1, l.x1);
    } else stacks.push({ x0: l.x0, x1: l.x1, members: [l], stretches: [] });
  }
  const columns = stacks.filter((c) => c.members.length >= 3 && c.members.some((m) => rowOf.get(m)!.every(long) && !(rowOf.get(m)!.length === 1 && wrapped(m))));
  for (const c of columns) {
    const pad = c.members[0]!.fontSize;
    const crossing = lines.filter((l) => l.x0 < c.x1 && l.x1 > c.x0 && (l.x0 < c.x0 - pad || l.x1 > c.x1 + pad)).sort((a, b) => a.y0 - b.y0);
    // Members top to bottom, walked once alongside the crossing lines.
    const members = [...c.members].sort((a, b) => a.y0 - b.y0);
    let m = 0;
    let top = -Infinity;
    for (const cross of [...crossing, undefined]) {
      const bottom = cross ? cross.y0 : Infinity;
      while (m < members.length && members[m]!.y0 < top) m++;
      let inside = false;
      for (let k = m; k < members.length && members[k]!.y0 < bottom; k++) {
        if (members[k]!.y1 <= bottom) {
          inside = true;
          break;
        }
      }
      if (inside) c.stretches.push({ y0: top, y1: bottom });
      if (cross) top = Math.max(top, cross.y1);
    }
  }
  return columns;
}

/**
 * Lines grouped by the column whose stretch holds them (the widest, when columns nest:
 * a single-column page is one group); lines in no column make one more group.
 */
function byColumn(lines: readonly Line[], columns: readonly PageColumn[]): Line[][] {
  const groups = new Map<PageColumn | undefined, Line[]>();
  for (const l of lines) {
    let home: PageColumn | undefined;
    for (const c of columns) if ((!home || c.x1 - c.x0 > home.x1 - home.x0) && inColumn(c, l)) home = c;
    const group = groups.get(home);
    if (group) group.push(l);
    else groups.set(home, [l]);
  }
  return [...groups.values()];
}

/** Whether a column holds the line: within its edges, in one of its stretches. */
function inColumn(c: PageColumn, l: Line): boolean {
  const pad = c.members[0]!.fontSize;
  return l.x0 >= c.x0 - pad && l.x1 <= c.x1 + pad && holds(c.stretches, l);
}

/** Whether one of the stretches (top to bottom, not overlapping) holds the line. */
function holds(stretches: readonly { y0: number; y1: number }[], l: Line): boolean {
  let lo = 0;
  let hi = stretches.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = stretches[mid]!;
    if (l.y0 < s.y0) hi = mid - 1;
    else if (l.y1 > s.y1) lo = mid + 1;
    else return true;
  }
  return false;
}
