/**
 * Where a line's runs get a space between them (`makeLine`): a gap wider than a word
 * space's share of the type, measured against the line's own spacing where the line sets
 * one (Chinese and Japanese set glyph by glyph, letter-spaced text), a raised note mark a
 * word of its own, and monospace gaps as the spaces they hold.
 */
import { isSolidCjk, type TextRun } from "./types.js";

/**
 * The spaces between two monospace runs: as many characters as the gap holds (code
 * aligns its columns and comments with runs of spaces), at least one. The character
 * width is the longer run's own advance.
 */
export function monoSpaces(prev: TextRun, next: TextRun): string {
  const r = prev.text.length >= next.text.length ? prev : next;
  const cw = (r.x1 - r.x0) / Math.max(1, r.text.length);
  const n = cw > 0 ? Math.round((next.x0 - prev.x1) / cw) : 1;
  return " ".repeat(Math.min(40, Math.max(1, n)));
}

/** A footnote's mark: a number, a letter or a reference sign (`*` stays glued: `* ` opens a list item). */
const NOTE_MARK = /^(?:\d{1,3}|[a-z]|[\u2020\u2021\u00a7\u00b6]{1,3})$/;
/**
 * What a note's text opens with after its raised mark: a word, or a law review's citation
 * (`⁴133 N.W.2d 267`, `⁵§ 90(1)`, `⁶“Id.”`, `⁷(1990)`) — a number, a section sign, a
 * bracket or a quotation mark.
 */
const NOTE_OPENS = /[\p{L}\p{N}\u00a7(["'\u2018\u201c]/u;

/**
 * The narrowest gap (font sizes) between two Chinese or Japanese runs of a line, or
 * Infinity when there are fewer than two such gaps: the line's own spacing (set solid,
 * justified, tracked or snapped to a document grid), which a word space stands out from.
 */
export function narrowestCjkGap(runs: readonly TextRun[]): number {
  let least = Infinity;
  let seen = 0;
  for (let i = 1; i < runs.length; i++) {
    const [p, r] = [runs[i - 1]!, runs[i]!];
    if (!isSolidCjk(p.text.at(-1) ?? "") || !isSolidCjk(r.text[0] ?? "")) continue;
    seen++;
    least = Math.min(least, (r.x0 - p.x1) / Math.min(p.fontSize, r.fontSize));
  }
  return seen >= 2 ? least : Infinity;
}

/**
 * The width (font sizes) of the word spaces a line sets beside its Chinese or Japanese
 * characters, or NaN when it shows none: two gaps or more of 0.18–0.6 em, within 0.05 em
 * of each other, between a CJK character and a letter or digit (`第 1 页 共 5 页`, whose
 * spaces Chromium draws as gaps). A gap that wide between two CJK runs is then a space
 * too, though it is the line's only one (`页 共`).
 */
export function cjkWordSpace(runs: readonly TextRun[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < runs.length; i++) {
    const [p, r] = [runs[i - 1]!, runs[i]!];
    const [a, b] = [p.text.at(-1) ?? "", r.text[0] ?? ""];
    if (isSolidCjk(a) === isSolidCjk(b) || !/[\p{L}\p{Nd}]/u.test(a) || !/[\p{L}\p{Nd}]/u.test(b)) continue;
    const gap = (r.x0 - p.x1) / Math.min(p.fontSize, r.fontSize);
    if (gap >= 0.18 && gap <= 0.6) gaps.push(gap);
  }
  if (gaps.length < 2 || Math.max(...gaps) - Math.min(...gaps) > 0.05) return NaN;
  return gaps.reduce((x, y) => x + y, 0) / gaps.length;
}

/**
 * Whether a run of two characters or more is set solid, no wider than its characters' ems
 * (not tracked, not justified): a gap of 0.3 em beside it, the only one on its line, is
 * no spacing of the text's own but a break between two pieces (a contract's 甲方 and 乙方
 * cells side by side, one run each in LibreOffice's PDF).
 */
const setSolid = (r: TextRun): boolean => r.text.length >= 2 && r.x1 - r.x0 <= 1.02 * r.fontSize * [...r.text].length;

/** A run of one glyph (a character and the marks on it). */
const oneGlyph = (r: TextRun): boolean => r.text.length === 1 || (r.text.length <= 3 && /^\P{M}\p{M}+$/u.test(r.text));

/**
 * Letter-spacing narrower than this (font sizes) is read well by the 0.12 em rule; single
 * letters further apart than `TRACKING_MAX_EM` are not one word's (a word space of tracked
 * text, cells, scattered labels).
 */
const TRACKING_MIN_EM = 0.08;
const TRACKING_MAX_EM = 0.5;

/**
 * The letter-spacing (points) of a line set a glyph a run, or Infinity when it is not
 * tracked: the narrowest gap between two single letters, when no such gap is under 0.08 em,
 * three or more are under 0.5 em (wider ones are word spaces, or cells apart) and runs of
 * one glyph hold half the line's characters or more. Chromium draws letter-spaced text
 * (CSS `letter-spacing`, small caps) a glyph at a time, and LibreOffice's tracking
 * (`fo:letter-spacing`) pulls a TJ's glyphs apart into runs of one: every letter of such
 * a line stands the tracking from the next, a word space the tracking and a space's
 * width further. Untracked prose drawn a glyph a run has letters touching: not tracked.
 */
export function letterSpacing(runs: readonly TextRun[]): number {
  let least = Infinity;
  let seen = 0;
  // Characters in runs of one glyph, and in all: a tracked line is drawn a glyph a run
  // throughout, while groff and TeX cut a line's strings at word spaces and kerns anywhere
  // (`A` `s` `hell function is called lik` `e` `a` `s` `imple`).
  let single = runs[0] && oneGlyph(runs[0]) ? runs[0].text.length : 0;
  let all = runs[0]?.text.length ?? 0;
  for (let i = 1; i < runs.length; i++) {
    const [p, r] = [runs[i - 1]!, runs[i]!];
    all += r.text.length;
    if (!oneGlyph(r)) continue;
    single += r.text.length;
    if (!oneGlyph(p) || !/^\p{L}/u.test(p.text) || !/^\p{L}/u.test(r.text)) continue;
    const gap = r.x0 - p.x1;
    const em = Math.min(p.fontSize, r.fontSize);
    // Letters touching: prose drawn a glyph a run, or a kerned pair; not a tracked line.
    if (gap < TRACKING_MIN_EM * em) return Infinity;
    if (gap > TRACKING_MAX_EM * em) continue;
    seen++;
    if (gap < least) least = gap;
  }
  return seen >= 3 && 2 * single >= all ? least : Infinity;
}

/**
 * Whether a space goes between two runs of a line: a gap over 0.12 em. Between Chinese or
 * Japanese characters a gap is spacing, not a word break, unless wider than 0.6 em or a
 * space's width (a CJK font's is 0.22 em) wider than the line's narrowest such gap
 * (`2023年度 研究開発`, set glyph by glyph), or, the line's only such gap, 0.3 em between
 * two runs set solid or as wide as the line's spaces beside CJK (`cjkSpace`, see
 * {@link cjkWordSpace}). Korean spaces its words like Latin. On a
 * letter-spaced line (`tracking`, see {@link letterSpacing}) two single glyphs are one
 * word unless 0.2 em (a narrow space) further apart than the tracking: `CHAPTER SEVEN`.
 */
export function needsSpace(prev: TextRun, next: TextRun, textSoFar: string, cjkGap = Infinity, tracking = Infinity, cjkSpace = NaN): boolean {
  if (textSoFar.endsWith(" ") || next.text.startsWith(" ") || prev.dropCap) return false;
  const gap = next.x0 - prev.x1;
  const em = Math.min(prev.fontSize, next.fontSize);
  const a = textSoFar.at(-1) ?? "";
  const b = next.text[0] ?? "";
  if (isSolidCjk(a) && isSolidCjk(b)) {
    return (
      gap > 0.6 * em ||
      (gap >= 0.18 * em && gap / em >= cjkGap + 0.15) ||
      (cjkGap === Infinity && gap >= 0.3 * em && setSolid(prev) && setSolid(next)) ||
      (cjkGap === Infinity && gap >= 0.18 * em && Math.abs(gap / em - cjkSpace) <= 0.05)
    );
  }
  if (tracking !== Infinity && oneGlyph(prev) && oneGlyph(next) && gap <= tracking + 0.2 * Math.max(prev.fontSize, next.fontSize)) return false;
  // A note's raised mark opening its line (`¹Minutes of each meeting`) is a word of its own.
  if (textSoFar === prev.text && NOTE_MARK.test(prev.text) && NOTE_OPENS.test(b) && prev.fontSize <= 0.85 * next.fontSize && prev.y1 <= next.y1 - 0.2 * next.fontSize) return true;
  return gap > 0.12 * em;
}
