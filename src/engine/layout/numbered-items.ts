import { hasRtl } from "./bidi.js";
import { letterOrder } from "./list-marker.js";
import { noteNumber } from "./row-joins.js";
import type { Line } from "./types.js";

/*
 * List items found by their sequence rather than by a marker of their own: lines numbered
 * without punctuation (`1⇥Closed the warehouse`, lower-case roman, a clause's `1.1`) or
 * lettered (`a. Clear the ground`), each with a neighbour numbered one more or one less.
 * `buildBlocks` starts a list item at each.
 */

/** A number alone, as some writers mark list items (ReportLab's `bulletType="1"`). */
export const BARE_NUMBER = /^\p{Nd}{1,3}$/u;
/** Five dots or more, or two ellipses: a dot leader. */
const TOC_LEADER = /(?:[.\u00b7\u2024]\s*){5,}|(?:\u2026\s*){2,}/;

/**
 * Lines that are items of a list numbered without punctuation (`1  Closed the
 * warehouse`: a number alone, or in lower-case roman, then, a tab away (0.6–4 font
 * sizes), words; a clause's `1.1` or `1.3.1`, its siblings sharing all but the last
 * number) or lettered
 * (`a. Clear the ground`, `B. Beta option`), with an item numbered or lettered one more
 * or one less within ten lines' height, its marker and text set at the same places. A
 * line of prose that happens to start with a figure or an initial (`A. Smith`) has no such
 * neighbour; headings and a table of contents' chapter lines (bold, or with dot leaders on
 * them or between them) are not items, nor the numbered lines of a listing (monospace).
 */
export function sequenceItems(lines: readonly Line[]): Set<Line> {
  const items = new Set<Line>();
  const found: { line: Line; n: number; letter: boolean; text?: number; at: number; clause?: string }[] = [];
  // Numbers whose words stand under a word space on: items only where the words start
  // with those of a number a tab away (`viii` is wider than `i`, its text at one tab stop).
  const close: { line: Line; n: number; text: number; at: number }[] = [];
  lines.forEach((line, at) => {
    if (line.bold || line.mono) return;
    const num = line.runs[0];
    // A line read right to left has its number right of its words (Hebrew, Arabic), the
    // space between them a run of its own (`bidi.ts` cuts runs where the direction
    // changes): the gap and the words' start are measured from the right.
    const words = line.runs[1]?.text === " " && hasRtl(line.text) ? line.runs[2] : line.runs[1];
    const rtl = num !== undefined && words !== undefined && num.x0 > words.x1;
    const gapTo = (w: typeof words): number => (rtl ? num!.x0 - w!.x1 : w!.x0 - num!.x1);
    const startOf = (w: typeof words): number => (rtl ? w!.x1 : w!.x0);
    // A clause numbered without a final full stop (`1.1⇥This Agreement…`, `1.3.1⇥co-operate…`):
    // its siblings share all but the last number.
    const clause = num && words && /^[\p{L}"“״«]/u.test(words.text) ? /^(\d{1,3}(?:\.\d{1,3}){0,2})\.(\d{1,3})$/.exec(num.text.trim()) : null;
    if (clause) {
      if (gapTo(words) >= 0.6 * line.fontSize) found.push({ line, n: Number(clause[2]), letter: false, text: startOf(words), at, clause: clause[1]! });
      return;
    }
    const n = num && words && /^\p{L}/u.test(words.text) ? noteNumber(num.text.trim()) : undefined;
    if (n !== undefined) {
      const gap = gapTo(words);
      if (gap >= 0.6 * line.fontSize && gap <= 4 * line.fontSize) found.push({ line, n, letter: false, text: startOf(words), at });
      else if (gap > 0.1 * line.fontSize && gap < 0.6 * line.fontSize) close.push({ line, n, text: startOf(words), at });
      return;
    }
    const m = LETTER_ITEM.exec(line.text);
    // A short lettered line over a longer one at its place is a heading over its text
    // (`A. Queueing models`, IEEE's subsections).
    const under = lines[at + 1];
    const styled = (l: Line): string => `${l.bold}|${Math.round(l.fontSize)}|${l.runs.filter((r) => r.italic).length * 2 > l.runs.length}`;
    if (m && under && styled(line) !== styled(under) && !/[.!?:;]$/.test(line.text.trimEnd()) && !LETTER_ITEM.test(under.text) && Math.abs(under.x0 - line.x0) <= 0.5 * line.fontSize && under.x1 > line.x1 + 4 * line.fontSize && under.y0 > line.y0) return;
    const letter = m ? letterOrder(m[1]!) : undefined;
    if (m && num && letter !== undefined) found.push({ line, n: letter, letter: true, ...(num.text.trim() === `${m[1]}.` && words ? { text: words.x0 } : {}), at });
  });
  for (const c of close) if (found.some((f) => !f.letter && f.text !== undefined && Math.abs(f.text - c.text) <= 1)) found.push({ ...c, letter: false });
  found.sort((a, b) => a.at - b.at);
  if (found.length < 2) return items;
  for (let i = 0; i < found.length; i++) {
    const a = found[i]!;
    for (let j = i + 1; j < found.length; j++) {
      const b = found[j]!;
      if (b.line.y0 - a.line.y1 > 10 * a.line.fontSize) break;
      if (a.letter !== b.letter || a.clause !== b.clause || Math.abs(b.n - a.n) !== 1) continue;
      const [na, nb] = [a.line.runs[0]!, b.line.runs[0]!];
      const sameMarks = Math.abs(na.x0 - nb.x0) <= 1 || (na.text.length <= 3 && nb.text.length <= 3 && Math.abs(na.x1 - nb.x1) <= 1);
      const sameText = a.text === undefined || b.text === undefined || Math.abs(a.text - b.text) <= 1;
      // A table of contents' chapters: dot leaders on the lines with them or between.
      const leaders = () => lines.slice(a.at, b.at + 2).some((l) => TOC_LEADER.test(l.text));
      if (sameMarks && sameText && !leaders()) {
        items.add(a.line);
        items.add(b.line);
      }
    }
  }
  return items;
}

/**
 * A line opening with a letter and a full stop (`a. Clear the ground`), as lettered lists
 * do, in Latin, Cyrillic, Greek, Thai or Korean (`в. Стороны`, `β. Δεύτερο`, `나. 시설`):
 * Russian `в` (in) and Greek `ο`, `η` open sentences too, so only the sequence decides.
 */
const LETTER_ITEM = /^([a-zA-Z\u0430-\u044f\u0410-\u042f\u03b1-\u03c9\u0391-\u03a9\u0e01-\u0e2e\uac00-\ud7a3])\.\s+(?=[\p{L}\p{N}"“(])/u;
