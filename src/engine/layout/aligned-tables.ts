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
 * runs of words). Returns the tables and the lines they took.
 */
export function findAlignedTables(lines: readonly Line[], options: AlignedTableOptions = {}): { tables: GridTable[]; used: Set<Line> } {
  const { minRows = 3, minCols = 3 } = options;
  const used = new Set<Line>();
  const tables: GridTable[] = [];
  // Rows: lines sharing a baseline band.
  // Monospace text aligned with spaces is code or a dump, not a table.
  const sorted = [...lines].filter((l) => l.runs.length > 0 && !l.mono).sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const rows: Line[][] = [];
  for (const l of sorted) {
    const last = rows[rows.length - 1];
    const ref = last?.[0];
    if (ref && Math.abs((l.y0 + l.y1) / 2 - (ref.y0 + ref.y1) / 2) < 0.4 * Math.max(l.fontSize, ref.fontSize)) last.push(l);
    else rows.push([l]);
  }
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
    i = j + 1;
    if (run.filter((r) => r.length >= minCols).length < minRows) continue;
    const segs = run.flat();
    // Columns of prose (a three-column newsletter) line up too: in most of their rows
    // every piece is a long run of words, where a table's rows have a short cell.
    const long = (s: Line): boolean => s.text.split(/\s+/).length >= 4 && s.x1 - s.x0 > 10 * s.fontSize;
    if (run.filter((r) => r.every(long)).length >= 0.6 * run.length) continue;
    const region = {
      x0: Math.min(...segs.map((s) => s.x0)) - 1,
      x1: Math.max(...segs.map((s) => s.x1)) + 1,
      y0: Math.min(...segs.map((s) => s.y0)) - 1,
      y1: Math.max(...segs.map((s) => s.y1)) + 1,
    };
    const runs: TextRun[] = segs.flatMap((s) => s.runs);
    const taken = new Set<TextRun>();
    const table = alignedTable(region, [], runs, taken);
    if (!table || table.cols < minCols) continue;
    tables.push(table);
    for (const s of segs) used.add(s);
  }
  return { tables, used };
}

const rowSize = (row: readonly Line[]): number => Math.max(...row.map((l) => l.fontSize));
const gap = (a: readonly Line[], b: readonly Line[]): number => Math.min(...b.map((l) => l.y0)) - Math.max(...a.map((l) => l.y1));
