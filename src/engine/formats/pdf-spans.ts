import type { Rect, TextRun } from "../layout/index.js";

/*
 * Text the operator walk (`pdf-ops.ts`) places over other text: marked-content spans with
 * an ActualText, whose glyphs read as that text, and combining marks drawn on their own
 * over a run already read. The walk keeps the state; these are its shapes and measures.
 */

/**
 * A marked-content span with an ActualText (`/Span <</ActualText (...)>> BDC ... EMC`):
 * its glyphs read as that text. Chromium and LibreOffice wrap every cluster whose glyphs
 * are not its characters one for one (Indic conjuncts and reordered vowel signs, Thai
 * SARA AM drawn as two glyphs, CJK characters drawn with radical glyphs); LaTeX's accsupp
 * and Word use it too. The text goes to the span's first glyph read; the later ones add
 * only their boxes, to the run that holds it (in the same string, or one shown before).
 */
export interface ActualTextSpan {
  text: string;
  /** Marked-content depth the span opened at: its EMC is the one that brings it back. */
  depth: number;
  /** Whether a glyph has taken the text (or, empty, hidden it). */
  placed: boolean;
  /** The run the text went to, once emitted; later glyphs widen it. */
  run: TextRun | undefined;
  /** Where the text's characters start in `run.chars`, and how many. */
  charFrom: number;
  charCount: number;
}

/** Combining marks and nothing else. */
export const MARKS_ONLY = /^\p{M}+$/u;

/** Whether the run `mark` (drawn with no advance) lies on `run`'s line, over it or at its end. */
export function sitsOn(run: TextRun, mark: TextRun): boolean {
  if (run.angle !== mark.angle || !onLineOf(run, mark)) return false;
  const slack = 0.1 * run.fontSize;
  if (run.angle === 90 || run.angle === 270) return mark.y0 >= run.y0 - slack && mark.y1 <= run.y1 + slack;
  return mark.x0 >= run.x0 - slack && mark.x1 <= run.x1 + slack;
}

/** Whether `box`'s centre lies within `run`'s extent across its line (on that line). */
export function onLineOf(run: TextRun, box: Rect): boolean {
  if (run.angle === 90 || run.angle === 270) {
    const c = (box.x0 + box.x1) / 2;
    return c >= run.x0 && c <= run.x1;
  }
  const c = (box.y0 + box.y1) / 2;
  return c >= run.y0 && c <= run.y1;
}

/** Spreads `count` characters from `from` evenly over [u0, u1] (an ActualText over several glyphs). */
export function spreadChars(starts: number[], ends: number[], from: number, count: number, u0: number, u1: number): void {
  const step = (u1 - u0) / Math.max(1, count);
  for (let k = 0; k < count && from + k < starts.length; k++) {
    starts[from + k] = u0 + k * step;
    ends[from + k] = u0 + (k + 1) * step;
  }
}
