/**
 * A table's cells, whatever found the table (ruled grid, rules by row, alignment): a
 * cell's text joined from its runs, columns numbered in reading order, and what counts as
 * a figure (which never wraps in a cell, so two in a column are two rows).
 */
import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { buildLines } from "./lines.js";
import { joinsUnspaced, type GridCell, type GridTable, type TextRun } from "./types.js";

/** A cell that is a number, amount or percentage, or a mark (✓, ✗, —). */
export const NUMBER = /^(?:[-+\u2212\u2013(]?[$\u20ac\u00a3\u00a5]?\d[\d.,\s]*%?\)?|[\u2713\u2714\u2717\u2718\u00d7\u2014\u2013-])$/;

/** Joins a cell's runs into text (lines top to bottom; Chinese, Japanese and Thai without spaces). */
export function finishCell(cell: GridCell & { runs: TextRun[] }, keep: boolean): GridCell {
  const { runs, ...rest } = cell;
  if (runs.length === 0) return rest;
  const lines = buildLines(runs, { splitGapEm: 1e9 });
  let text = "";
  for (const l of lines) {
    // A word hyphenated at a cell's line end is joined, as in a paragraph (blocks.ts).
    if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(l.text)) text = keep ? text : text.slice(0, -1);
    else if (text && !joinsUnspaced(text.at(-1) ?? "", l.text[0] ?? "")) text += text.endsWith("-") ? "" : " ";
    text += l.text;
  }
  // Tight box: the cell's rules are its geometry; keep them (citations frame the cell).
  return { ...rest, text: text.trim() };
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
