import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { isSolidCjk, type Block, type Line } from "./types.js";

/*
 * Paragraph spacing: whether a line stands further below a block than its lines stand from
 * each other (a paragraph's margin), measured against the pitch of the page's prose lines
 * set closest at its place and size. `buildBlocks` starts a new block there.
 */

/**
 * Whether `line` stands further below block `b` than its lines stand from each other, by
 * 0.3 em or more at their tops and their bottoms alike (a paragraph's spacing, however
 * small: a browser's `margin: 0 0 6px`; a raised or lowered glyph moves only one of
 * them). A block of one line is measured against `tight`'s pitch of the page's lines of
 * prose set closest at `line`'s place and size; where that place has too few lines of its
 * own, against the pitch of the lines of its size anywhere on the page, else against the
 * line under `line` (`next`): text set 1.5 lines apart throughout stands alike everywhere.
 * The size's pitch may be a quotation's or a list's set closer at another place, so under
 * a `full` line (one that broke for want of room) it must be confirmed by `next`, and a
 * sentence running on (`…builds a client,` / `overrides`) goes on; one-line entries (a
 * manual's option descriptions, a parameter list) are short and stay apart.
 */
export function widerSpaced(b: Block, line: Line, tight: ReadonlyMap<number, number>, next: Line | undefined, full: () => boolean): boolean {
  const n = b.lines.length;
  const last = b.lines[n - 1]!;
  const step = 0.3 * line.fontSize;
  const wider = (top: number, bottom: number): boolean => line.y0 - last.y0 - top > step && line.y1 - last.y1 - bottom > step;
  if (n >= 2) {
    const upper = b.lines[n - 2]!;
    return wider(last.y0 - upper.y0, last.y1 - upper.y1);
  }
  const own = tight.get(pitchKey(line));
  if (own !== undefined) return wider(own, own);
  const byNext = (): boolean => next !== undefined && wider(next.y0 - line.y0, next.y1 - line.y1);
  const anywhere = tight.get(pitchKey(line, true));
  if (anywhere === undefined) return byNext();
  if (!wider(anywhere, anywhere)) return false;
  return !full() || (!runsOn(last, line) && (next === undefined || byNext()));
}

/** Whether `line` goes on with the sentence of `last`: that ends on a word or a comma, `line` starts in lower case. */
const runsOn = (last: Line, line: Line): boolean => /[\p{L},]\s*$/u.test(last.text) && /^\p{Ll}/u.test(line.text);

/**
 * Whether `line` stands under `last` no further than the page's lines of prose at its
 * place and size stand from each other, 0.3 em allowed (as {@link widerSpaced} allows):
 * text set 1.5 or 2 lines apart throughout (Word's Double, a brief's 24 pt on 12 pt,
 * LibreOffice's proportional spacing over a Type 1 font's 1 em line box), whose gaps are
 * wider than a line's. Only the pitch measured at `line`'s own place counts: a manual's
 * synopsis lines set 24 pt apart do not carry its subheading set out at the left.
 */
export function atPagePitch(last: Line, line: Line, tight: ReadonlyMap<number, number>): boolean {
  const pitch = tight.get(pitchKey(line));
  // At their tops or their bottoms: a vowel mark over an Arabic letter (a tanween) raises
  // only its line's top.
  return pitch !== undefined && Math.min(line.y0 - last.y0, line.y1 - last.y1) <= pitch + 0.3 * line.fontSize;
}

/**
 * Whether two lines of Chinese or Japanese (half their characters or more; the lower one
 * may be mostly figures and Latin when it starts no further right than the upper) stand within
 * two font sizes of each other, top to top: a CJK font's line box is about one em tall,
 * so text set 1.5 or 1.75 lines apart (a government notice's 16 pt on a 28 pt line,
 * Word's 1.5 lines) leaves 0.75 em or more between lines, past a paragraph's usual gap,
 * even on a page with too few lines to learn its pitch from. The line above must still
 * have been full (`buildBlocks`), and a Chinese paragraph starts at a first-line indent.
 */
export function cjkSpaced(last: Line, line: Line): boolean {
  if (line.y0 - last.y0 > 2 * Math.max(last.fontSize, line.fontSize) || !mostlyCjk(last.text)) return false;
  // A line of figures and Latin words with some Chinese in it (a reference entry's
  // `[R]. 北京, 2024.`) goes on where it wraps back to where the line above starts, or
  // left of it; a signature's date, right-aligned under the office's name, does not.
  return mostlyCjk(line.text) || ([...line.text].some(isSolidCjk) && line.x0 <= last.x0 + 0.5 * line.fontSize);
}

function mostlyCjk(text: string): boolean {
  let n = 0;
  for (const ch of text) if (isSolidCjk(ch)) n++;
  return 2 * n >= text.length;
}

/**
 * Whether `line` stands a line under `last` although their boxes overlap by 0.3 em or more:
 * type set solid (a CSS line height equal to the font size, a pleading's caption at 12 pt
 * on 12 pt), where Chromium's line boxes (the font's ascent and descent) are 1.36 em tall.
 * Tops and bottoms alike stand 0.9 em apart or more; a raised or overprinted piece less.
 */
export function setSolid(last: Line, line: Line): boolean {
  const row = 0.9 * Math.max(last.fontSize, line.fontSize);
  return line.y0 - last.y0 >= row && line.y1 - last.y1 >= row;
}

/** Where a line's pitch is looked up: its size and where it starts (with `anywhere`, its size alone). */
export const pitchKey = (l: Line, anywhere = false): number => Math.round(l.fontSize) * 65536 + (anywhere ? 65535 : Math.min(65534, Math.max(0, Math.round(startX(l) / 2))));

const rightToLeft = new WeakMap<Line, boolean>();

/**
 * Where a line starts: its left edge, or its right one when its text reads right to left
 * (the rule of `bidi.ts`): a ragged-left Arabic paragraph's lines all start at the right
 * margin. Decided once a line; a line with no RTL character costs one regex test.
 */
const startX = (l: Line): number => {
  if (!hasRtl(l.text)) return l.x0;
  let rtl = rightToLeft.get(l);
  if (rtl === undefined) rightToLeft.set(l, (rtl = rtlWins(countDirection(l.text))));
  return rtl ? l.x1 : l.x0;
};

/**
 * The pitch of a page's lines of prose set closest, by size and place (and by size
 * alone, for places with too few lines of their own: see {@link pitchKey}): a fifth of the
 * way up the pitches between each line of twenty characters or more and the next such
 * line under it starting at its place (within a point), or back at the margin under a
 * first line set in (counted at the margin: a double-spaced brief's paragraphs of four
 * lines make three pairs there, not two), 0.8 to 3 font sizes down, when five pairs or
 * more were found — or three, all within 0.8 pt of each other (Chromium sets lines on
 * its 0.75 pt pixel grid): a short page set at a fixed line pitch (the last page of a
 * Chinese government notice, 16 pt type on a 28 pt line, where a CJK font's tall line
 * box leaves 0.75 em between lines). A
 * paragraph's lines stand at it; paragraphs further apart; a quotation set in stands at
 * its own.
 */
export function tightPitch(sorted: readonly Line[]): Map<number, number> {
  const pitches = new Map<number, number[]>();
  const prose = (l: Line): boolean => l.text.length >= 20 && !l.mono;
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    if (!prose(a)) continue;
    for (let j = i + 1; j < Math.min(sorted.length, i + 8); j++) {
      const b = sorted[j]!;
      const d = b.y0 - a.y0;
      if (d < 0.8 * a.fontSize) continue;
      if (d > 3 * a.fontSize) break;
      if (!prose(b) || Math.abs(b.fontSize - a.fontSize) > 0.1 * a.fontSize) continue;
      const place = Math.abs(startX(b) - startX(a)) <= 1 ? a : firstLineOver(a, b) ? b : undefined;
      if (!place) continue;
      for (const key of [pitchKey(place), pitchKey(a, true)]) {
        const list = pitches.get(key);
        if (list) list.push(d);
        else pitches.set(key, [d]);
      }
      break;
    }
  }
  const out = new Map<number, number>();
  for (const [key, list] of pitches) {
    if (list.length < 3) continue;
    list.sort((x, y) => x - y);
    if (list.length < 5 && list[list.length - 1]! - list[0]! > 0.8) continue;
    out.set(key, list[Math.floor(list.length / 5)]!);
  }
  return out;
}

/**
 * Whether `a` is a justified paragraph's first line set in over `b`, back at the margin:
 * 0.8 to 4 em further right, ending where `b` does (within a point: a quotation set in
 * on both sides ends short of the text after it, a manual page's one-line description
 * where the next option's line happens to).
 */
const firstLineOver = (a: Line, b: Line): boolean => {
  const indent = a.x0 - b.x0;
  return indent >= 0.8 * a.fontSize && indent <= 4 * a.fontSize && Math.abs(a.x1 - b.x1) <= 1;
};
