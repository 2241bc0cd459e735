import { createRequire } from "node:module";
import { charWeights, type RunChar, type TextRun } from "./types.js";

/**
 * Right-to-left text (Hebrew, Arabic, ...) in reading order. A PDF draws glyphs left to
 * right, so a line's runs, sorted by x, hold RTL words backwards. Like pdf.js and
 * poppler, the Unicode bidi algorithm is applied to that visual text: its levels say
 * which stretches run right to left, and reversing them (rule L2, which undoes itself)
 * gives the reading order. Runs are cut where the direction changes, so every piece
 * keeps its own box and glyph boxes.
 */

/** Characters of right-to-left scripts: Hebrew to Arabic Extended-A, their presentation forms, RTL astral blocks. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802[\udc00-\udfff]|\ud803[\udc00-\udfff]|\ud83a[\udc00-\udfff]|\ud83b[\udc00-\udfff]/;
const LETTER = /\p{L}/u;

/** Whether the text holds any right-to-left character (the cheap test before any bidi work). */
export function hasRtl(text: string): boolean {
  return RTL.test(text);
}

/** Letters of right-to-left scripts and of all others: the votes that decide a paragraph's direction. */
export interface DirectionVotes {
  rtl: number;
  ltr: number;
}

/**
 * Counts the letters of `text` into `votes`: letters of RTL scripts to `rtl`, all other
 * letters to `ltr` (digits, spaces and punctuation do not vote).
 * @param votes the tally to add to; @default a fresh one
 */
export function countDirection(text: string, votes: DirectionVotes = { rtl: 0, ltr: 0 }): DirectionVotes {
  for (const ch of text) {
    if (RTL.test(ch)) {
      if (LETTER.test(ch)) votes.rtl++;
    } else if (LETTER.test(ch)) votes.ltr++;
  }
  return votes;
}

/**
 * The paragraph-direction rule of {@link logicalRuns}, shared by blocks, tables and
 * reading order: right to left when RTL letters are at least as many as the others.
 */
export function rtlWins(votes: DirectionVotes): boolean {
  return votes.rtl > 0 && votes.rtl >= votes.ltr;
}

/** The part of bidi-js used here (the package ships no types). */
interface BidiEngine {
  getEmbeddingLevels(text: string, direction?: "ltr" | "rtl"): { levels: Uint8Array };
}

let engine: BidiEngine | undefined;

/** bidi-js, loaded on the first right-to-left line: Latin and CJK documents never load it. */
function bidi(): BidiEngine {
  engine ??= (createRequire(import.meta.url)("bidi-js") as () => BidiEngine)();
  return engine;
}

/**
 * Visual text of pieces this module made, so a piece fed back in (tables build lines
 * again from lines' runs) is read in drawing order and not reversed twice.
 */
const visualOf = new WeakMap<TextRun, TextRun>();

/** Decides whether a space goes between two runs adjacent on the page, given the text so far. */
export type SpaceRule = (prev: TextRun, next: TextRun, textSoFar: string) => boolean;

/** One character of the line in drawing order, with where it came from. */
interface Unit {
  ch: string;
  /** Index of its run in the visual order (for a space the layout put in, the run before it). */
  run: number;
  /** A space the layout put between two runs. */
  gap: boolean;
  /** Index of the character in its run (code points); -1 for a space put in. */
  at: number;
  /** Offset in the line's visual text (UTF-16), where its bidi level is. */
  offset: number;
  /** Its glyph box along x, when the run has glyph positions (or the gap, for a space). */
  box?: RunChar;
  level: number;
}

/**
 * Runs of one line (left to right, as drawn) → pieces in reading order, with their text
 * in reading order and the spaces between runs as runs of their own, so that joining
 * the pieces' texts gives the line's text. Each piece keeps its glyphs' boxes
 * (`chars`, in text order); a piece without glyph positions gets its share of the run's
 * extent. Paragraph direction: right to left when RTL letters are at least as many as
 * the others. Brackets are mirrored only where the font mapped them as drawn (see
 * {@link mirrorBrackets}).
 */
export function logicalRuns(runs: readonly TextRun[], space: SpaceRule): TextRun[] {
  const visual = runs.map((r) => visualOf.get(r) ?? r);
  const units: Unit[] = [];
  let text = "";
  const votes: DirectionVotes = { rtl: 0, ltr: 0 };
  visual.forEach((r, k) => {
    const prev = visual[k - 1];
    if (prev && space(prev, r, text)) {
      const box = { text: " ", x0: Math.min(prev.x1, r.x0), x1: Math.max(prev.x1, r.x0) };
      units.push({ ch: " ", run: k - 1, gap: true, at: -1, offset: text.length, level: 0, box });
      text += " ";
    }
    let i = 0;
    for (const ch of r.text) {
      const box = r.chars?.[i];
      units.push({ ch, run: k, gap: false, at: i++, offset: text.length, level: 0, ...(box ? { box } : {}) });
      text += ch;
    }
    countDirection(r.text, votes);
  });
  const rtl = rtlWins(votes);
  const { levels } = bidi().getEmbeddingLevels(text, rtl ? "rtl" : "ltr");
  for (const u of units) u.level = levels[u.offset] ?? 0;
  const ordered = reorder(units);
  mirrorBrackets(ordered);
  if (rtl) spaceAfterMarker(ordered, visual);
  return toPieces(visual, ordered);
}

/** List bullets (the bullet alternatives of `LIST_MARKER` in list-marker.ts). */
const BULLET = /^[\u2022\u25e6\u25aa\u25ab\u25cf\u25cb\u25a0\u25a1\u27a2\u25ba\u25b6\u2713\u2714\u00b7\uf0b7\uf0a7]/;
/** Numbered and lettered list markers of `LIST_MARKER`: `1.`, `1)`, `(1)`, `a)`, `(a)`, `iv.`, `①`. */
const NUMBERED = /^(?:\(?\d{1,3}[.)]|\(\d{1,3}\)|\(?[a-zA-Z]\)|\(?[ivxIVX]{1,4}[.)]|[\u2460-\u2473])/;

/**
 * LibreOffice draws the bullet or number of a right-to-left list item right against the
 * item's text, so no gap gives it a space (`•פריט`, `1.العنصر`), and `1.` followed by a
 * letter is not a list marker. A marker that starts a right-to-left line gets a space
 * after it, as `• item` has in left-to-right text: a zero-width gap where the marker
 * meets the text. A bullet takes it before anything; a number or letter only before a
 * right-to-left letter (so `1.5` stays).
 */
function spaceAfterMarker(units: Unit[], visual: readonly TextRun[]): void {
  let head = "";
  for (let i = 0; i < units.length && i < 8 && !units[i]!.gap; i++) head += units[i]!.ch;
  const bullet = BULLET.exec(head);
  const marker = bullet ?? NUMBERED.exec(head);
  if (!marker) return;
  const n = marker[0].length;
  const next = units[n];
  if (!next || /\s/u.test(next.ch)) return;
  if (!bullet && !(RTL.test(next.ch) && LETTER.test(next.ch))) return;
  const edge = (u: Unit): [number, number] => {
    if (u.box) return [u.box.x0, u.box.x1];
    const run = visual[u.run]!;
    return extent(run, u.at, u.at, [...run.text].length);
  };
  // Drawn right to left: the marker's left edge meets the text's right edge.
  const a = edge(next)[1];
  const b = Math.min(...units.slice(0, n).map((u) => edge(u)[0]));
  const box = { text: " ", x0: Math.min(a, b), x1: Math.max(a, b) };
  const last = units[n - 1]!;
  units.splice(n, 0, { ch: " ", run: Math.min(last.run, next.run), gap: true, at: -1, offset: -1, level: last.level, box });
}

const MIRROR: Readonly<Record<string, string>> = { "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "«": "»", "»": "«" };
const OPENERS = new Set(["(", "[", "{", "«"]);

/**
 * Fonts disagree on mirrored brackets: LibreOffice maps the glyph drawn at the left end
 * of a right-to-left "(...)" to ")", the bracket written, while Chrome maps it to "(",
 * the shape drawn, and puts the written one in an ActualText that pdf.js drops. So
 * brackets inside right-to-left text are mirrored only when that turns an unbalanced
 * line (")...(") into a balanced one. A bracket pair split across lines stays as drawn.
 */
function mirrorBrackets(units: Unit[]): void {
  const rtl = units.filter((u) => u.level % 2 === 1 && MIRROR[u.ch]);
  if (rtl.length === 0 || balanced(units.map((u) => u.ch))) return;
  if (!balanced(units.map((u) => (u.level % 2 === 1 ? (MIRROR[u.ch] ?? u.ch) : u.ch)))) return;
  for (const u of rtl) {
    u.ch = MIRROR[u.ch]!;
    if (u.box) u.box = { ...u.box, text: u.ch };
  }
}

/** Whether every bracket closes the last one opened, and all are closed. */
function balanced(chars: readonly string[]): boolean {
  const open: string[] = [];
  for (const ch of chars) {
    const pair = MIRROR[ch];
    if (!pair) continue;
    if (OPENERS.has(ch)) open.push(pair);
    else if (open.pop() !== ch) return false;
  }
  return open.length === 0;
}

/** Rule L2: from the highest level down to the lowest odd one, reverse every stretch at that level or above. */
export function reorder<T extends { level: number }>(units: readonly T[]): T[] {
  const out = [...units];
  let highest = 0;
  let lowestOdd = Infinity;
  for (const u of out) {
    if (u.level > highest) highest = u.level;
    if (u.level % 2 === 1 && u.level < lowestOdd) lowestOdd = u.level;
  }
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; i++) {
      if (out[i]!.level < level) continue;
      let j = i;
      while (j + 1 < out.length && out[j + 1]!.level >= level) j++;
      for (let a = i, b = j; a < b; a++, b--) [out[a], out[b]] = [out[b]!, out[a]!];
      i = j;
    }
  }
  return out;
}

/** Cuts the reordered characters into runs: one piece per stretch of one run read in one direction. */
function toPieces(visual: readonly TextRun[], units: readonly Unit[]): TextRun[] {
  const pieces: TextRun[] = [];
  let i = 0;
  while (i < units.length) {
    const first = units[i]!;
    let j = i;
    if (!first.gap) {
      // Consecutive characters of the same run, one step apart in the same direction.
      const step = first.level % 2 === 1 ? -1 : 1;
      while (j + 1 < units.length && !units[j + 1]!.gap && units[j + 1]!.run === first.run && units[j + 1]!.at === units[j]!.at + step) j++;
    }
    pieces.push(piece(visual, units.slice(i, j + 1)));
    i = j + 1;
  }
  return pieces;
}

function piece(visual: readonly TextRun[], units: readonly Unit[]): TextRun {
  const first = units[0]!;
  const run = visual[first.run]!;
  if (first.gap) {
    // A space between runs: the gap's box, styled like the run drawn before it (never math).
    const { chars, ocrChars: _o, confidence: _k, ...style } = run;
    const box = first.box!;
    const gap: TextRun = { ...style, text: " ", math: false, x0: box.x0, x1: box.x1 };
    if (chars || visual[first.run + 1]?.chars) gap.chars = [box];
    return gap;
  }
  const n = [...run.text].length;
  const reversed = units.length > 1 && units[1]!.at < first.at;
  const lo = reversed ? units[units.length - 1]!.at : first.at;
  const hi = reversed ? first.at : units[units.length - 1]!.at;
  const text = units.map((u) => u.ch).join("");
  // The whole run read left to right: the run itself, unchanged.
  if (!reversed && lo === 0 && hi === n - 1 && text === run.text) return run;
  const { ocrChars: _o, ...rest } = run;
  const out: TextRun = { ...rest, text };
  const [x0, x1] = extent(run, lo, hi, n);
  out.x0 = x0;
  out.x1 = x1;
  if (run.chars) out.chars = units.filter((u) => u.box).map((u) => u.box!);
  if (reversed) visualOf.set(out, { ...out, text: [...text].reverse().join(""), ...(out.chars ? { chars: [...out.chars].reverse() } : {}) });
  return out;
}

/** Extent along x of characters lo..hi (drawing order) of a run: from glyph boxes, else shared out by width. */
function extent(run: TextRun, lo: number, hi: number, n: number): [number, number] {
  if (lo === 0 && hi === n - 1) return [run.x0, run.x1];
  const boxes = run.chars?.slice(lo, hi + 1);
  if (boxes && boxes.length === hi - lo + 1) return [Math.min(...boxes.map((b) => b.x0)), Math.max(...boxes.map((b) => b.x1))];
  // Sideways runs keep their box: x is not the direction of the text there.
  if (!(Math.abs(run.angle) < 2 || Math.abs(run.angle - 360) < 2)) return [run.x0, run.x1];
  const weights = charWeights([...run.text]);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const w = run.x1 - run.x0;
  let before = 0;
  for (let i = 0; i < lo; i++) before += weights[i]!;
  let inside = 0;
  for (let i = lo; i <= hi; i++) inside += weights[i]!;
  // The run's own ends stay exact.
  const x0 = lo === 0 ? run.x0 : run.x0 + (w * before) / total;
  return [x0, hi === n - 1 ? run.x1 : x0 + (w * inside) / total];
}
