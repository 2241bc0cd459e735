import { alignedTable } from "./tables.js";
import type { GridTable, Line, TextRun } from "./types.js";

/** Tuning for {@link findAlignedTables}. */
export interface AlignedTableOptions {
  /** Fewest rows with three or more cells. @default 3 */
  minRows?: number;
  /** Fewest columns. @default 3 */
  minCols?: number;
}

/**
 * Tables drawn without any rules: consecutive rows, each cut by wide gaps into several
 * line segments, whose segments line up in columns. Conservative on purpose — three or
 * more columns and three or more full rows — so two-column prose (two segments a row)
 * and label/value pairs never qualify, nor columns of prose (most rows nothing but long
 * runs of words). On a page set in columns each column is searched on its own, so the
 * other column's lines, on the table's baselines or between them, stay out of its rows.
 * Returns the tables and the lines they took.
 */
export function findAlignedTables(lines: readonly Line[], options: AlignedTableOptions = {}): { tables: GridTable[]; used: Set<Line> } {
  const used = new Set<Line>();
  const tables: GridTable[] = [];
  // Monospace text aligned with spaces is code or a dump, not a table.
  const usable = lines.filter((l) => l.runs.length > 0 && !l.mono);
  // Most pages have no rows of three pieces or more to start a table with: done.
  const { minRows = 3, minCols = 3 } = options;
  if (rowsOf(usable).filter((r) => r.length >= minCols).length < minRows) return { tables, used };
  for (const group of columnGroups(usable)) findIn(group, options, tables, used);
  return { tables, used };
}

function findIn(lines: readonly Line[], options: AlignedTableOptions, tables: GridTable[], used: Set<Line>): void {
  const { minRows = 3, minCols = 3 } = options;
  const rows = rowsOf(lines);
  let i = 0;
  while (i < rows.length) {
    if (rows[i]!.length < 2) {
      i++;
      continue;
    }
    // A run of multi-segment rows, close together.
    let j = i;
    while (j + 1 < rows.length && rows[j + 1]!.length >= 2 && gap(rows[j]!, rows[j + 1]!) <= 1.6 * rowSize(rows[j]!)) j++;
    const run = rows.slice(i, j + 1);
    const head = rows[i - 1];
    i = j + 1;
    if (run.filter((r) => r.length >= minCols).length < minRows) continue;
    const segs = run.flat();
    // Columns of prose (a three-column newsletter) line up too: in most of their rows
    // every piece is a long run of words, where a table's rows have a short cell.
    if (run.filter((r) => r.every(long)).length >= 0.6 * run.length) continue;
    const table = tableOf(segs);
    if (!table || table.cols < minCols) continue;
    // A header row set with narrow gaps reads as one line: it belongs to the table when,
    // cut at the table's gaps, it keeps the table's columns.
    const headed = head && !head.some((l) => used.has(l)) && gap(head, run[0]!) <= 1.6 * rowSize(head) && head.every((l) => l.x0 >= table.x0 - l.fontSize && l.x1 <= table.x1 + l.fontSize) ? tableOf([...head, ...segs]) : undefined;
    if (head && headed && headed.cols === table.cols && headed.rows === table.rows + 1) {
      tables.push(headed);
      for (const s of head) used.add(s);
    } else tables.push(table);
    for (const s of segs) used.add(s);
  }
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
function tableOf(segs: readonly Line[]): GridTable | undefined {
  const region = {
    x0: Math.min(...segs.map((s) => s.x0)) - 1,
    x1: Math.max(...segs.map((s) => s.x1)) + 1,
    y0: Math.min(...segs.map((s) => s.y0)) - 1,
    y1: Math.max(...segs.map((s) => s.y1)) + 1,
  };
  return alignedTable(region, [], segs.flatMap((s) => s.runs), new Set<TextRun>());
}

const rowSize = (row: readonly Line[]): number => Math.max(...row.map((l) => l.fontSize));
const gap = (a: readonly Line[], b: readonly Line[]): number => Math.min(...b.map((l) => l.y0)) - Math.max(...a.map((l) => l.y1));

/** A line of prose: four words or more over ten em. */
const long = (s: Line): boolean => s.x1 - s.x0 > 10 * s.fontSize && FOUR_WORDS.test(s.text);
const FOUR_WORDS = /\S\s+\S+\s+\S+\s+\S/;

interface PageColumn {
  x0: number;
  x1: number;
  members: Line[];
}

/**
 * The page's lines by text column. A column is a stack of three or more long lines of
 * one measure with prose of its own: at least one of its lines alone in its row or
 * beside nothing but prose. (A table whose cells hold sentences has stacks of long lines
 * too, but every row has its short cells.) A column runs down the page until a line
 * crosses its edge (a title or a table across the page); a line belongs to the widest
 * column whose stretch holds it, so a single-column page is one group. Lines in no
 * column make one more group.
 */
function columnGroups(lines: readonly Line[]): Line[][] {
  const longs = lines.filter(long);
  if (longs.length < 6) return [lines as Line[]];
  const rowOf = new Map<Line, Line[]>();
  for (const row of rowsOf(lines)) for (const l of row) rowOf.set(l, row);
  // Stacks of long lines of one measure: starting at one x, ending near one x (ragged
  // right text ends up to a long word short of its column's edge).
  const byX = [...longs].sort((a, b) => a.x0 - b.x0);
  const stacks: PageColumn[] = [];
  for (const l of byX) {
    const home = stacks.find((s) => l.x0 - s.x0 < l.fontSize && Math.abs(l.x1 - s.x1) < Math.max(3 * l.fontSize, 0.15 * (s.x1 - s.x0)));
    if (home) {
      home.members.push(l);
      home.x1 = Math.max(home.x1, l.x1);
    } else stacks.push({ x0: l.x0, x1: l.x1, members: [l] });
  }
  const columns = stacks.filter((c) => c.members.length >= 3 && c.members.some((m) => rowOf.get(m)!.every(long)));
  if (columns.length === 0) return [lines as Line[]];
  // Each column's stretches: between the lines that cross its edges.
  const stretches: { column: PageColumn; y0: number; y1: number }[] = [];
  for (const c of columns) {
    const pad = c.members[0]!.fontSize;
    const crossing = lines.filter((l) => l.x0 < c.x1 && l.x1 > c.x0 && (l.x0 < c.x0 - pad || l.x1 > c.x1 + pad)).map((l) => [l.y0, l.y1] as const);
    crossing.sort((a, b) => a[0] - b[0]);
    let top = -Infinity;
    for (const [y0, y1] of [...crossing, [Infinity, Infinity] as const]) {
      if (c.members.some((m) => m.y0 >= top && m.y1 <= y0)) stretches.push({ column: c, y0: top, y1: y0 });
      top = Math.max(top, y1);
    }
  }
  const groups = new Map<PageColumn | undefined, Line[]>();
  for (const l of lines) {
    let home: PageColumn | undefined;
    for (const s of stretches) {
      const c = s.column;
      const pad = c.members[0]!.fontSize;
      if (l.x0 >= c.x0 - pad && l.x1 <= c.x1 + pad && l.y0 >= s.y0 && l.y1 <= s.y1 && (!home || c.x1 - c.x0 > home.x1 - home.x0)) home = c;
    }
    const group = groups.get(home);
    if (group) group.push(l);
    else groups.set(home, [l]);
  }
  return [...groups.values()];
}
