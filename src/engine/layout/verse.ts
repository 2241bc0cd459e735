import { hasRtl } from "./bidi.js";
import { firstWordWidth } from "./paragraphs.js";
import { overlap, type Line } from "./types.js";

/*
 * Verse: a poem, a play's speeches in blank verse, a song. Its lines break where the poet
 * broke them, short of the column at varied lengths, each opening with a capital, some
 * set in (a sonnet's indented rhymes, an ode's short lines), many ending on a comma or a
 * word: read as prose, a line set in starts a paragraph and one ending on `;` with room
 * left after it ends one, and a stanza comes apart mid-sentence. Only its stanza gaps end
 * its paragraphs. `buildBlocks` asks {@link verseLines} once a page.
 */

/** Fewest lines, a stanza gap's blank line aside, a stack of verse holds. */
const MIN_LINES = 4;

/** How much wider than a stack's widest line so far a line ending it is (see {@link verseLines}). */
const PROSE_WIDTH = 1.3;

/** A line ending its sentence: a full stop, a question, an exclamation (a quote or bracket after it). */
const FULL_STOP = /[.!?\u2026]["”’)]?\s*$/;

/** A line ending on its clause: `;` or `:`, the verse line's usual end short of a full stop. */
const CLAUSE_END = /[;:]["”’)]?\s*$/;

/** A line ending on a punctuation mark: a clause's or a sentence's end, a pause (a dash). */
const PUNCTUATED = /[,;:.!?\u2026\u2013\u2014]["”’)]?\s*$/;

/** A line opening with a capital, after a quote, a bracket or an apostrophe (`’Tis`, `“Two`). */
const CAPITAL_START = /^[\s"“‘’'(\[]*\p{Lu}/u;

/**
 * The page's verse lines, each with the line it goes on from (the one above it in its
 * stack): stacks of {@link MIN_LINES} lines or more of one size, one under another at a
 * line's pitch or a stanza gap's (3 em at most), read left to right, where
 *  - four in five lines after the first open with a capital (prose's lines open with
 *    whatever word comes; verse capitalises each),
 *  - two lines or more, and a quarter of them, break on a comma or a word with room left
 *    for the next line's first word and the next opens with a capital (prose breaks
 *    mid-sentence only for want of room; a list of short sentences ends each),
 *  - a third of the lines or more end on a punctuation mark (verse pauses at its line
 *    ends; a list of references or of options' descriptions runs on without),
 *  - the lines hold three words or more, two in three of them (not a table's rows nor
 *    an address), with no gap of 2 em between their runs (not a table's cells), and
 *  - the lines are not centred (a title page's lines, each shorter, share a middle).
 * Left-to-right text only: room is measured at the lines' right ends.
 */
export function verseLines(sorted: readonly Line[]): Verse {
  const out = new Map<Line, Line>();
  const after = new Map<Line, Line>();
  const taken = new Set<Line>();
  for (let k = 0; k < sorted.length; k++) {
    const first = sorted[k]!;
    if (taken.has(first) || first.mono) continue;
    const stack = [first];
    let widest = first.x1 - first.x0;
    let prose: Line | undefined;
    let next = nextBelow(sorted, k);
    while (next !== undefined && !taken.has(sorted[next]!)) {
      const line = sorted[next]!;
      // A line far wider than all of a stack's before it is prose after the verse (a
      // closing paragraph set full under a poem or notes broken line by line).
      if (stack.length >= MIN_LINES && line.x1 - line.x0 > PROSE_WIDTH * widest) {
        prose = line;
        break;
      }
      widest = Math.max(widest, line.x1 - line.x0);
      stack.push(line);
      taken.add(line);
      next = nextBelow(sorted, next);
    }
    if (stack.length >= MIN_LINES && isVerse(stack)) {
      for (let i = 1; i < stack.length; i++) out.set(stack[i]!, stack[i - 1]!);
      if (prose) after.set(prose, stack[stack.length - 1]!);
    }
  }
  return { lines: out, after };
}

/** What {@link verseLines} finds on a page. */
export interface Verse {
  /** Each verse line after a stack's first, with the line it goes on from. */
  lines: ReadonlyMap<Line, Line>;
  /** A line of prose right under a stack (far wider than its lines), with the stack's last line: it starts a paragraph. */
  after: ReadonlyMap<Line, Line>;
}

/**
 * Index of the line under line `k` in its stack (looked for among the next eight): its
 * size, overlapping half the narrower's width, a line's pitch or a stanza gap's (a blank line at 1.5 spacing) below.
 */
function nextBelow(sorted: readonly Line[], k: number): number | undefined {
  const a = sorted[k]!;
  const fs = a.fontSize;
  for (let j = k + 1; j < Math.min(sorted.length, k + 9); j++) {
    const n = sorted[j]!;
    if (n.y0 - a.y0 < 0.8 * fs) continue;
    if (n.y0 - a.y0 > 3 * fs) return undefined;
    if (!n.mono && Math.abs(n.fontSize - fs) <= 0.1 * fs && overlap(a.x0, a.x1, n.x0, n.x1) >= 0.5 * Math.min(a.x1 - a.x0, n.x1 - n.x0)) return j;
  }
  return undefined;
}

/** Whether a stack of lines is verse (see {@link verseLines}). */
function isVerse(stack: readonly Line[]): boolean {
  const breaks = stack.length - 1;
  // Prose first: its lines open with whatever word comes, most in lower case (a cheap
  // test, run on every paragraph of four lines or more).
  let lower = 0;
  for (let i = 1; i < stack.length; i++) if (!CAPITAL_START.test(stack[i]!.text) && ++lower > 0.2 * breaks) return false;
  let capitals = 0;
  let open = 0;
  let centred = 0;
  let worded = 0;
  let punctuated = 0;
  let end = -Infinity;
  for (const l of stack) end = Math.max(end, l.x1);
  for (let i = 0; i < stack.length; i++) {
    const l = stack[i]!;
    if (hasRtl(l.text)) return false;
    if (l.text.trim().split(/\s+/).length >= 3) worded++;
    if (PUNCTUATED.test(l.text)) punctuated++;
    for (let r = 1; r < l.runs.length; r++) if (l.runs[r]!.x0 - l.runs[r - 1]!.x1 > 2 * l.fontSize) return false;
    const prev = stack[i - 1];
    if (!prev) continue;
    const capital = CAPITAL_START.test(l.text);
    if (capital) capitals++;
    const fs = l.fontSize;
    if (Math.abs(prev.x0 + prev.x1 - l.x0 - l.x1) <= 0.6 * fs && Math.abs(prev.x0 - l.x0) > 0.3 * fs) centred++;
    const text = prev.text.trimEnd();
    if (capital && !FULL_STOP.test(text) && !CLAUSE_END.test(text) && end - prev.x1 > firstWordWidth(l) + 0.5 * fs) open++;
  }
  return capitals >= 0.8 * breaks && open >= Math.max(2, 0.25 * breaks) && worded >= (2 / 3) * stack.length && punctuated >= stack.length / 3 && centred < 0.5 * breaks;
}
