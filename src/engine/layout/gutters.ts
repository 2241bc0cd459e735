/**
 * Column gutters and margin notes: the strips of white running down the page that cut a
 * row even where they are narrower than a line cut needs elsewhere, and which side of
 * such a strip a margin note (LaTeX's `\marginpar`) stands on.
 */
import type { Gap, Row } from "./lines.js";
import type { TextRun } from "./types.js";

/** Rows of text on either side that make a gap a column gutter candidate (font sizes). */
const GUTTER_SIDE_EM = 6;
/** Rows whose gaps must line up for a gutter. */
const GUTTER_ROWS = 4;
/** How far (in rows) to look for them. */
const GUTTER_REACH = 40;

/**
 * The gaps that are column gutters: a strip at least `minEm` font sizes wide, empty down
 * {@link GUTTER_ROWS} or more rows that have text on both sides of it, at least two of
 * them with a stretch of {@link GUTTER_SIDE_EM} font sizes of text on each side, and text
 * on such rows reaching to within a font size of the strip twice on one side and once on
 * the other. LaTeX sets
 * two columns one em apart and CSS columns default to one em, narrower than a line cut
 * needs elsewhere; the word spaces of prose never line up like that, and a list's
 * markers have no such stretch on their left. Each gutter's gaps map to the side a
 * margin note stands on ({@link marginNote}), or null between columns.
 */
export function columnGutters(rows: readonly Row[], minEm: number): Map<Gap, NoteSide | null> {
  const out = new Map<Gap, NoteSide | null>();
  const seeds = new Set<Gap>();
  for (const rw of rows) {
    for (let i = 0; i < rw.gaps.length; i++) {
      const g = rw.gaps[i]!;
      if (!g.code && g.em >= minEm && sideWidths(rw, i) >= GUTTER_SIDE_EM * g.size) seeds.add(g);
    }
  }
  const notes = marginNoteGaps(rows, minEm);
  if (seeds.size < 2 && notes.size === 0) return out;
  // Every gutter holds two seeds, so walking from the seeds finds them all.
  for (let k = 0; k < rows.length; k++) {
    for (const g of rows[k]!.gaps) {
      if ((!seeds.has(g) && !notes.has(g)) || out.has(g)) continue;
      const minWidth = minEm * g.size;
      // One strip for both directions: every gap of the gutter holds all of it.
      const lined: Gap[] = [g];
      const linedRows: Row[] = [rows[k]!];
      let lo = g.from;
      let hi = g.to;
      // Rows with text on one side only, right against the strip: a box of text beside a
      // column, its lines set at another pitch than the column's (LibreOffice's frames).
      let hugging = 0;
      // Rows ending exactly where the strip starts, or starting exactly where it ends: a
      // justified column's edge, with text beyond it on a few rows only (a margin note).
      let edgeLeft = 0;
      let edgeRight = 0;
      for (const dir of [1, -1]) {
        for (let j = k + dir, seen = 0; j >= 0 && j < rows.length && seen < GUTTER_REACH; j += dir, seen++) {
          const other = rows[j]!;
          let best: Gap | undefined;
          let bestWidth = minWidth;
          for (const h of other.gaps) {
            const width = Math.min(hi, h.to) - Math.max(lo, h.from);
            if (!h.code && width >= bestWidth) [best, bestWidth] = [h, width];
          }
          if (!best) {
            if (other.runs.some((r) => r.x1 > lo + EDGE && r.x0 < hi - EDGE)) break; // text across the strip: the gutter ends here
            if (other.runs.some((r) => Math.abs(r.x1 - lo) <= g.size || Math.abs(r.x0 - hi) <= g.size)) hugging++;
            if (other.runs.some((r) => Math.abs(r.x1 - lo) <= EDGE)) edgeLeft++;
            if (other.runs.some((r) => Math.abs(r.x0 - hi) <= EDGE)) edgeRight++;
            continue; // nothing there: no say
          }
          lo = Math.max(lo, best.from);
          hi = Math.min(hi, best.to);
          lined.push(best);
          linedRows.push(other);
        }
      }
      // Text hugging the strip, within a font size, on rows with a long stretch on both
      // sides: on one side twice at least, on the other once (a ragged column's edge). A
      // strip that only threads the wide gaps after short lines and one word space is no
      // gutter.
      const strong = lined.filter((h) => seeds.has(h));
      const left = strong.filter((h) => h.from >= lo - g.size).length;
      const right = strong.filter((h) => h.to <= hi + g.size).length;
      const column = !(lined.length + Math.min(hugging, 1) < GUTTER_ROWS || (lined.length < GUTTER_ROWS && hugging < 2) || strong.length < 2 || Math.min(left, right) < 1 || Math.max(left, right) < 2);
      // A note of several lines makes a column gutter too: it is still a note. (A sidebar
      // stands further off: it is a column, read as such.)
      const note = hi - lo < 1.5 * g.size ? marginNote(rows, lined, linedRows, lo, hi, edgeLeft, edgeRight) : undefined;
      if (!column && !note) continue;
      for (const h of lined) out.set(h, note ?? null);
    }
  }
  return out;
}

/** How far (points) a line's end may stray from a justified column's edge. */
const EDGE = 1;

/**
 * Gaps that may part a margin note from its column: starting where four rows or more
 * end, or ending where four rows or more start, to the point (a justified column's edge).
 */
function marginNoteGaps(rows: readonly Row[], minEm: number): Set<Gap> {
  const out = new Set<Gap>();
  // Four rows meeting an edge, and one more with the gap.
  if (rows.length <= GUTTER_ROWS) return out;
  const ends = new Map<number, number>();
  const starts = new Map<number, number>();
  const bump = (m: Map<number, number>, x: number) => m.set(Math.round(x), (m.get(Math.round(x)) ?? 0) + 1);
  for (const rw of rows) {
    bump(ends, segRight(rw.runs));
    bump(starts, rw.runs[0]!.x0);
  }
  const near = (m: Map<number, number>, x: number): number => {
    const k = Math.round(x);
    return (m.get(k - 1) ?? 0) + (m.get(k) ?? 0) + (m.get(k + 1) ?? 0);
  };
  for (const rw of rows) for (const g of rw.gaps) if (!g.code && g.em >= minEm && (near(ends, g.from) >= GUTTER_ROWS || near(starts, g.to) >= GUTTER_ROWS)) out.add(g);
  return out;
}

/**
 * Whether a strip holds a margin note's gap: beside a justified column, whose edge four
 * rows or more meet exactly, every row with the gap has its column side flush with that
 * edge and, on one row at least, two words or more beyond it (LaTeX's `\marginpar`, set
 * under one em from the text; a hanging section number is one word), no line of the
 * page runs across the strip, and the note is no wider than half the column.
 */
function marginNote(rows: readonly Row[], lined: readonly Gap[], linedRows: readonly Row[], lo: number, hi: number, edgeLeft: number, edgeRight: number): NoteSide | undefined {
  const words = (rw: Row, side: NoteSide): number => {
    const note = side === "right" ? rw.runs.filter((r) => r.x0 >= hi - EDGE) : rw.runs.filter((r) => r.x1 <= lo + EDGE);
    return note.map((r) => r.text).join(" ").split(/\s+/).filter(Boolean).length;
  };
  // In the margin, no line of the page runs across the strip (a manual page's terms hang
  // left of their descriptions, where its headings and paragraphs start).
  const inMargin = () => !rows.some((rw) => rw.runs.some((r) => r.x1 > lo + EDGE && r.x0 < hi - EDGE));
  // Narrower than half the column beside it (a second column of text is as wide).
  const narrow = (side: NoteSide): boolean => {
    let note = 0;
    let column = 0;
    for (const { runs } of linedRows) {
      const [start, end] = [runs[0]!.x0, runs[runs.length - 1]!.x1];
      note = Math.max(note, side === "right" ? end - hi : lo - start);
      column = Math.max(column, side === "right" ? lo - start : end - hi);
    }
    return note <= 0.5 * column;
  };
  if (edgeLeft >= GUTTER_ROWS && lined.every((h) => Math.abs(h.from - lo) <= EDGE)) return narrow("right") && linedRows.some((rw) => words(rw, "right") >= 2) && inMargin() ? "right" : undefined;
  if (edgeRight >= GUTTER_ROWS && lined.every((h) => Math.abs(h.to - hi) <= EDGE)) return narrow("left") && linedRows.some((rw) => words(rw, "left") >= 2) && inMargin() ? "left" : undefined;
  return undefined;
}

/** Which side of its strip a margin note stands on. */
export type NoteSide = "left" | "right";

/** The narrower of the two stretches of text around gap `i`, each up to a gap nearly as wide as it. */
function sideWidths(rw: Row, i: number): number {
  const g = rw.gaps[i]!;
  const wide = (h: Gap): boolean => h.to - h.from >= 0.8 * (g.to - g.from);
  let j = i - 1;
  while (j >= 0 && !wide(rw.gaps[j]!)) j--;
  const leftEdge = rw.runs[j >= 0 ? rw.gaps[j]!.at : 0]!.x0;
  let m = i + 1;
  while (m < rw.gaps.length && !wide(rw.gaps[m]!)) m++;
  const rightEdge = m < rw.gaps.length ? rw.gaps[m]!.from : segRight(rw.runs);
  return Math.min(g.from - leftEdge, rightEdge - g.to);
}

function segRight(seg: readonly TextRun[]): number {
  let x = -Infinity;
  for (const r of seg) if (r.x1 > x) x = r.x1;
  return x;
}
