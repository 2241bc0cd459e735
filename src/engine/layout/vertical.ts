import { buildLines } from "./lines.js";
import { isCjk, type TextRun } from "./types.js";

/**
 * Vertical writing (tategaki) drawn glyph by glyph. Vertical CJK fonts (Identity-V) give
 * runs that already run downwards (angle 270), but browsers and many office exports set
 * vertical text with an ordinary font, placing each upright character on its own below
 * the one before. Such a page is a crowd of one-character runs that line up in columns,
 * not in rows; read as rows it comes out scrambled. Marking those characters as running
 * downwards lets the page be laid out in the 270° frame, where columns (right to left)
 * become lines (top to bottom).
 */

/** Upright single CJK characters needed before a page can count as vertical. @default 8 */
const MIN_CHARS = 8;

/**
 * Marks the upright one-character CJK runs of a vertically set page as running down
 * (angle 270) and says whether it did. A page counts as vertical when most such characters
 * have a neighbour right below them and fewer than half as many have one right beside them.
 */
export function markVerticalWriting(runs: TextRun[]): boolean {
  const glyphs = runs.filter((r) => r.angle === 0 && r.text.length === 1 && isCjk(r.text));
  if (glyphs.length < MIN_CHARS) return false;
  const chained = new Set<TextRun>();
  const below = neighbours(glyphs, "down", chained);
  if (below < 0.6 * glyphs.length) return false;
  if (neighbours(glyphs, "right") * 2 >= below) return false;
  // Only glyphs in a column turn: a running head set across the page stays upright.
  for (const r of chained) r.angle = 270;
  return true;
}

/**
 * On a vertically set page, the upright text left (running heads, page numbers, Latin
 * drawn letter by letter) becomes one run per line, built where it is upright: in the
 * turned frame it is sideways, where it could only be read run by run.
 */
export function uprightLinesAsRuns(runs: readonly TextRun[]): TextRun[] {
  const upright = runs.filter((r) => r.angle === 0);
  if (upright.length === 0) return [...runs];
  const lines = buildLines(upright).map(
    (line): TextRun => ({
      text: line.text,
      x0: line.x0,
      y0: line.y0,
      x1: line.x1,
      y1: line.y1,
      fontSize: line.fontSize,
      bold: line.bold,
      italic: line.runs.every((r) => r.italic),
      mono: line.mono,
      math: false,
      angle: 0,
      // Character boxes are shared out along the line in the turned frame.
      ...(line.runs.some((r) => r.chars) ? { chars: [...line.text].map((text) => ({ text, x0: line.x0, x1: line.x1 })) } : {}),
    }),
  );
  return [...runs.filter((r) => r.angle !== 0), ...lines];
}

/**
 * How many glyphs have another right after them `way`: same column (or row) within a
 * quarter em, a gap of at most 0.2 em — CJK is set solid, while the gap between two
 * lines (or columns) is their leading, 0.3 em and more. Sorting by column then position
 * makes each such neighbour the next glyph in order, so this stays O(n log n).
 */
function neighbours(glyphs: readonly TextRun[], way: "down" | "right", linked?: Set<TextRun>): number {
  const across = (r: TextRun): number => (way === "down" ? (r.x0 + r.x1) / 2 : (r.y0 + r.y1) / 2);
  const along0 = (r: TextRun): number => (way === "down" ? r.y0 : r.x0);
  const along1 = (r: TextRun): number => (way === "down" ? r.y1 : r.x1);
  const em = (r: TextRun): number => r.fontSize || Math.max(r.x1 - r.x0, r.y1 - r.y0);
  const sorted = [...glyphs].sort((a, b) => Math.round(across(a) / (em(a) / 4)) - Math.round(across(b) / (em(b) / 4)) || along0(a) - along0(b));
  let count = 0;
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!;
    const b = sorted[i + 1]!;
    const size = em(a);
    const gap = along0(b) - along1(a);
    if (Math.abs(across(a) - across(b)) <= size / 4 && gap > -0.25 * size && gap <= 0.2 * size) {
      count++;
      linked?.add(a).add(b);
    }
  }
  return count;
}
