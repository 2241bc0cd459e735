import { isCaption } from "./captions.js";
import { chineseNumberRank } from "./heading-numbers.js";
import { LIST_MARKER } from "./list-marker.js";
import { BARE_NUMBER } from "./numbered-items.js";
import { overlap, type Block, type Line } from "./types.js";

/*
 * Where a paragraph ends: whether a line starts a new block rather than going on with the
 * block above it — a list item's end, a first-line indent, a table of contents' or an
 * index's entry, a form's row, a short line ending a sentence, a caption's end — and the
 * measures those rules take (the column's end, a line's first word). `buildBlocks` asks
 * these for every line it could join.
 */

// Arabic question mark, full stop and semicolon end sentences too, and so do the danda
// and double danda (Devanagari, Bengali) and the Ethiopic, Khmer and Myanmar full stops.
const SENTENCE_END = /[.!?。！？:：;；"”’)）\u061f\u06d4\u061b\u0964\u0965\u1362\u17d4\u104b]$/;

/**
 * Whether a text may end a table of contents' entry, a cheap test before
 * {@link TOC_ENTRY_END}: it ends in a figure or a roman numeral's letter, and holds dots.
 */
const hasDots = (text: string): boolean => {
  const c = text.charCodeAt(text.length - 1);
  const end = (c >= 48 && c <= 57) || "ivxlcIVXLC".includes(text[text.length - 1] ?? "-");
  return end && (text.includes("..") || text.includes(". .") || text.includes("\u2026") || text.includes("\u00b7"));
};
/**
 * A back-of-book index's row: a term of up to six words, a comma, then its pages
 * (`alkalinity, 30, 76, 103`, `pumps, 12–15`).
 */
const INDEX_ROW = /^[^\d,]+(?:\s[^\d\s,]+){0,5},\s*\d{1,4}(?:[-\u2013]\d{1,4})?(?:,\s*\d{1,4}(?:[-\u2013]\d{1,4})?)*\s*$/u;

/** Whether a text ends in a figure (a cheap test before {@link INDEX_ROW}). */
const endsInFigure = (text: string): boolean => {
  const c = text.charCodeAt(text.length - 1);
  return c >= 48 && c <= 57;
};

/** A table of contents' entry ending: a dot leader to its page number. */
const TOC_ENTRY_END = /(?:(?:[.\u00b7\u2024]\s*){5,}|(?:\u2026\s*){2,})\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** Where a box's lines start and end along the reading direction: x, negated for right-to-left text. */
export const startOf = (r: { x0: number; x1: number }, rtl: boolean): number => (rtl ? -r.x1 : r.x0);
export const endOf = (r: { x0: number; x1: number }, rtl: boolean): number => (rtl ? -r.x0 : r.x1);

/**
 * Whether `line` begins a new paragraph rather than continuing block `b`. With `rtl`,
 * lines start at the right edge (measured as -x, so one set of rules serves both). With
 * `verse`, `line` is a verse line going on from `b`'s last (verse.ts `verseLines`).
 */
export function startsParagraph(b: Block, line: Line, rtl = false, columnEnd?: (rtl: boolean, near?: number) => number, verse = false): boolean {
  const first = b.lines[0]!;
  const last = b.lines[b.lines.length - 1]!;
  const fs = line.fontSize;
  const start = startOf(line, rtl);
  // List items continue with a hanging indent: anything after the marker belongs, but
  // for a line back at the marker under an item whose text stands a tab in (a paragraph
  // after the list, the marker set at the margin).
  if (b.kind === "list") {
    const [marker, words] = rtl ? rtlMarker(first) : first.runs;
    const mark = marker?.text.trim() ?? "";
    const tabbed = marker && words && startOf(words, rtl) - endOf(marker, rtl) >= 0.8 * fs && (BARE_NUMBER.test(mark) || LIST_MARKER.exec(`${mark} `)?.[0].trimEnd() === mark);
    if (start < startOf(first, rtl) - 0.5 * fs) {
      // A numbered paragraph, its number at a first-line indent and its lines wrapping back
      // to the margin (a complaint's allegations, Word's numbered paragraphs): its full line
      // with the sentence open goes on at the margin. (A bullet's lines never wrap back
      // past it.)
      const full = columnEnd !== undefined && endOf(last, rtl) >= columnEnd(rtl) - fs;
      return !(full && PARAGRAPH_NUMBER.test(first.text) && (!endsSentence(last) || /^\p{Ll}/u.test(line.text)));
    }
    // A Chinese numbered paragraph fills every line but its last: under a line stopped two
    // characters or more short of the column's edge, a line at the item's own start is the
    // next paragraph, its first line set in as the item's was (`（二）OA 系统迁移` over `各区…`).
    if (!rtl && columnEnd !== undefined && chineseNumberRank(first.text) > 0 && Math.abs(start - startOf(first, rtl)) <= 0.5 * fs && endOf(last, rtl) < columnEnd(rtl) - 2 * fs) return true;
    if (tabbed !== true || start >= startOf(words, rtl) - fs) return false;
    // An item whose lines wrap back to the margin has them run on from an open sentence.
    if (endsSentence(last)) return true;
    const short = columnEnd !== undefined && endOf(last, rtl) < columnEnd(rtl) - 4 * fs;
    return (/^\p{Lu}/u.test(line.text) || short) && !OPEN_END.test(last.text);
  }
  // Lines set in beside a drop cap, then back at the margin under it, go on.
  const cap = first.runs[0]?.dropCap ? first.runs[0] : undefined;
  if (cap && !rtl) {
    const beside = (l: Line): boolean => l.x0 >= cap.x1 - 1 && l.x0 <= cap.x1 + 2 * fs;
    const under = (l: Line): boolean => Math.abs(l.x0 - first.x0) <= 0.5 * fs;
    const hanging = b.lines.length >= 2 && beside(b.lines[1]!) && b.lines.slice(1).every((l) => beside(l) || under(l));
    if (beside(line) || (hanging && under(line))) return false;
  }
  // A table of contents' entry ends at its page number: the next line is the next entry.
  if (hasDots(last.text) && TOC_ENTRY_END.test(last.text.trimEnd())) return true;
  // An index: an entry keeps the subentries set in under it; one back at its start is the next.
  if (endsInFigure(last.text) && endsInFigure(line.text) && INDEX_ROW.test(last.text) && INDEX_ROW.test(line.text)) return start - startOf(first, rtl) < 0.5 * fs;
  // A verse line goes on in its stanza, set in or under a short line ending its clause:
  // only a stanza gap ends it, or the stanza's number over it.
  if (verse) return b.lines.length === 1 && STANZA_NUMBER.test(first.text);
  // First-line indent of a new paragraph, unless the block is one full line whose
  // sentence runs on: a hanging indent (a bibliography entry, a description list's item).
  if (start - startOf(b, rtl) > 0.8 * fs && start - startOf(last, rtl) > 0.8 * fs && !centredOn(b, line)) {
    const runsOn = b.lines.length === 1 && (!FULL_STOP.test(last.text.trimEnd()) || AUTHOR_YEAR.test(last.text.trimEnd())) && columnEnd !== undefined && endOf(last, rtl) >= columnEnd(rtl) - 2 * fs;
    return !runsOn && !underNumber(first, line, rtl);
  }
  // A form's rows (`Label:⇥value`, the values at one tab stop) are a paragraph each, and
  // so are keys with their values starting at one place (a receipt's items, their amounts
  // flush right, told by their starts or their ends), the
  // first of them after a line leading into it too, or after a row whose value stands at
  // the tab stop a word space on (`Invoice no. INV-0193`, not cut). A row ending well short of the
  // column's edge has no more to it: a line back at the margin starts a paragraph (a
  // definition's text running on fills its row).
  const tab = line.valueX;
  const above = last.valueX;
  if (tab !== undefined && (Math.abs((above ?? Infinity) - tab) <= 2 || (above !== undefined && Math.abs(startOf(last, rtl) - start) <= 2) || (b.lines.length === 1 && TERMINAL_COLON.test(last.text)) || last.runs.some((r, i) => i > 0 && Math.abs(r.x0 - tab) <= 2))) return true;
  if (!rtl && above !== undefined && tab === undefined && line.x0 < above - fs && columnEnd && last.x1 < columnEnd(false) - 4 * fs) return true;
  // Back at the first line's start under a hanging indent: the next entry.
  const second = b.lines[1];
  if (second && startOf(second, rtl) - startOf(first, rtl) > 0.8 * fs && start - startOf(first, rtl) < 0.3 * fs) return true;
  // A short line ending a sentence closes its paragraph, where the next line's first word
  // would have fitted on it (a ragged line broken before a long word goes on). A block of
  // one line is measured against its column (footnotes a line each).
  if (b.lines.length >= 2 && endOf(b, rtl) - endOf(last, rtl) > 0.15 * (b.x1 - b.x0) && endsSentence(last)) {
    // The room left measured against the column where the lines around reach further.
    const room = Math.max(endOf(b, rtl), columnEnd ? columnEnd(rtl, 2.5) : -Infinity) - endOf(last, rtl);
    if (room > firstWordWidth(line) + 0.5 * fs) return true;
  }
  if (b.lines.length === 1 && columnEnd && endsSentence(last)) {
    const room = columnEnd(rtl, 2.5) - endOf(last, rtl);
    if (room > 1.5 * fs && room > firstWordWidth(line) + 0.5 * fs) return true;
  }
  // A caption is a paragraph of its own, ended by its first short line, even without a
  // full stop (`Table 1: Budget by quarter`, then the body text flush under it): short
  // when the next line's first word would have fitted after it (a ragged line broken
  // before a long word goes on). A label alone on its line (`Figure 3`) and centred
  // captions keep their next line.
  if (Math.abs(start - startOf(last, rtl)) < 0.5 * fs && isCaption(first.text) && first.text.split(/\s+/).length >= 3) {
    const room = Math.max(endOf(b, rtl), endOf(line, rtl)) - endOf(last, rtl);
    if (room > 0.15 * (Math.max(b.x1, line.x1) - Math.min(b.x0, line.x0)) && room > firstWordWidth(line) + 0.5 * fs) return true;
  }
  return false;
}

/**
 * A right-to-left line's opening marker and its first word: `bidi.ts` cuts runs where the
 * direction changes, so a marker read right to left may be pieces (`3.2` and `.`) and the
 * space after it a run of its own. The marker's pieces are joined into one box.
 */
function rtlMarker(line: Line): [{ text: string; x0: number; x1: number } | undefined, Line["runs"][number] | undefined] {
  const runs = line.runs;
  let i = 0;
  while (i < runs.length && i < 3 && runs[i]!.text.trim() !== "") i++;
  if (i === 0 || i === 3 || runs[i]?.text.trim() !== "") return [runs[0], runs[1]];
  const pieces = runs.slice(0, i);
  const marker = { text: pieces.map((r) => r.text).join(""), x0: Math.min(...pieces.map((r) => r.x0)), x1: Math.max(...pieces.map((r) => r.x1)) };
  return [marker, runs[i + 1]];
}

/**
 * Whether `line` goes on under the words after a section number opening `first`, in
 * lower case (`1.1 Monthly output of the works in the sources of supply chapter,` then
 * `by source, over one year …`: a list of figures' wrapped entry, a long numbered heading).
 */
function underNumber(first: Line, line: Line, rtl: boolean): boolean {
  const [num, words] = first.runs;
  return !rtl && num !== undefined && words !== undefined && /^\d{1,2}(?:\.\d{1,2}){0,3}\.?$/.test(num.text.trim()) && Math.abs(line.x0 - words.x0) <= 1 && /^\p{Ll}/u.test(line.text);
}

/**
 * Whether `line` is a centred paragraph's shorter line going on from block `b`: the
 * middles of its lines and of `line` meet (within 0.15 em, where a first-line indent
 * moves it half the indent), its lines start at different places, and its last ends
 * on a word, its sentence open, the next word too long to have fitted on it. Two lines of the block at least (an index's entry and the subentry
 * set in under it may share a middle by chance), or a caption's first line.
 */
function centredOn(b: Block, line: Line): boolean {
  const last = b.lines[b.lines.length - 1]!;
  const first = b.lines[0]!;
  const mid = (l: Line): number => l.x0 + l.x1;
  const tol = 0.3 * line.fontSize;
  // A centred caption's first line has its middle over the next, its sentence open (`Table
  // 1: Recall at 5 for three` over `chunkers.`): there is no other line to measure by.
  if (b.lines.length === 1 && isCaption(first.text) && Math.abs(mid(first) - mid(line)) <= tol && line.x1 - line.x0 < first.x1 - first.x0 && WORD_END.test(first.text)) return true;
  if (b.lines.length < 2 || Math.abs(mid(last) - mid(line)) > tol || Math.abs(mid(first) - mid(last)) > tol || Math.abs(first.x0 - last.x0) <= 1) return false;
  // The line above broke because the next word would not have fitted on it (a title's
  // `Version 2`, set on its own line, would have).
  return line.x1 - line.x0 < last.x1 - last.x0 && WORD_END.test(last.text) && last.x1 - last.x0 + 0.3 * line.fontSize + firstWordWidth(line) > b.x1 - b.x0;
}

/**
 * A paragraph's number or letter (`1.`, `12)`, `(a)`, `B.`), or a Chinese one right before
 * its words (`（1）`, `（一）`, `一、`, `1．`, `1、`, `①`): a Chinese paragraph sets its first
 * line in two characters, number and all, and wraps back to the margin.
 */
const PARAGRAPH_NUMBER = /^\s*(?:\(?(?:\d{1,3}|\p{L})[.)]\s|(?:[（(](?:\d{1,3}|[一二三四五六七八九十]{1,3})[）)]|[一二三四五六七八九十]{1,3}、|\d{1,3}[．、]|[\u2460-\u2473])\s*\p{Script=Han})/u;

/** A stanza's number alone on its line (`I`, `II.`, `3`): its heading, not its first line's first word. */
const STANZA_NUMBER = /^\s*(?:[IVXLC]{1,6}|\d{1,3})\.?\s*$/;

/** An utterance broken off (`I thought we —`, `and then…`). */
export const BROKEN_OFF = /[\u2014\u2013\u2026-]\s*$/;

/** A line ending mid-sentence on a word (an index's entries end in page numbers). */
const WORD_END = /\p{L}[,;]?\s*$/u;


/** A line ending in a word no sentence ends with (`… to the` / `Landlord by standing order`). */
const OPEN_END = /\b(?:the|a|an|of|to|and|or|in|on|for|with|by|at|from|that|which|as|is|are|be|this|its|their|our|your)\s*$/i;

/** A line leading into what follows it (`Supplier details:`). */
const TERMINAL_COLON = /[:：]\s*$/;

/**
 * An author-year reference's authors and date filling its first line (`Brown, L., Gans, N.,
 * …, and Zhao, L. (2005).`): its title runs on under it, for all the full stop.
 */
const AUTHOR_YEAR = /^\p{Lu}[\p{L}'\u2019-]+,\s+\p{Lu}.*\s\(?\d{4}[a-z]?\)?\.$/u;

/** A sentence's end that no hanging line runs on from (a colon may, a semicolon too). */
const FULL_STOP = /[.!?。！？\u061f\u06d4\u0964\u0965\u1362\u17d4\u104b]["”’)）]?$/;

/**
 * Where the text column around line `k` ends (its right edge, or its left one with
 * `rtl`): the farthest end among nearby lines of its size that share most of its width —
 * with `near`, only lines within `near` font sizes above or below `line` or line `k` (a
 * caption spanning both columns over a column's text is not its edge).
 */
export function columnEnd(sorted: readonly Line[], k: number, line: Line, rtl: boolean, near = Infinity): number {
  let end = endOf(line, rtl);
  const reach = near * line.fontSize;
  const at = sorted[k]!.y0;
  for (let j = Math.max(0, k - 12); j <= Math.min(sorted.length - 1, k + 12); j++) {
    const other = sorted[j]!;
    if (Math.abs(other.fontSize - line.fontSize) > 0.15 * line.fontSize) continue;
    if (Math.abs(other.y0 - line.y0) > reach && Math.abs(other.y0 - at) > reach) continue;
    if (overlap(other.x0, other.x1, line.x0, line.x1) < 0.5 * Math.min(other.x1 - other.x0, line.x1 - line.x0)) continue;
    end = Math.max(end, endOf(other, rtl));
  }
  return end;
}

/** Width of a line's first word, from its glyphs or its first run's share of letters. */
export function firstWordWidth(line: Line): number {
  const run = line.runs[0];
  if (!run) return 0;
  const chars = run.chars;
  if (chars?.length) {
    let from = 0;
    while (from < chars.length && chars[from]!.text.trim() === "") from++;
    let to = from;
    while (to < chars.length && chars[to]!.text.trim() !== "") to++;
    if (to > from) return Math.abs(chars[to - 1]!.x1 - chars[from]!.x0);
  }
  const word = run.text.trimStart().split(/\s/, 1)[0] ?? "";
  let width = ((run.x1 - run.x0) * word.length) / Math.max(1, run.text.length);
  // A word drawn a glyph or a syllable a run (Chromium) goes on over runs with no space between.
  // The runs are in reading order: a right-to-left line's next run lies to the left of the one
  // before (Chromium's Arabic, shaped a syllable a run), so the word is measured leftwards.
  if (word.length === run.text.length) {
    for (let i = 1; i < line.runs.length; i++) {
      const next = line.runs[i]!;
      const prev = line.runs[i - 1]!;
      const leftwards = next.x0 + next.x1 < prev.x0 + prev.x1;
      const gap = leftwards ? prev.x0 - next.x1 : next.x0 - prev.x1;
      if (gap > 0.12 * next.fontSize || /^\s/.test(next.text)) break;
      const rest = next.text.split(/\s/, 1)[0] ?? "";
      const share = ((next.x1 - next.x0) * rest.length) / Math.max(1, next.text.length);
      width = leftwards ? run.x1 - next.x1 + share : next.x0 - run.x0 + share;
      if (rest.length < next.text.length) break;
    }
  }
  return width;
}

/** Whether a line ends a sentence, a footnote mark after the full stop (`…end.¹`) aside. */
export function endsSentence(line: Line): boolean {
  const text = line.text.trimEnd();
  if (SENTENCE_END.test(text)) return true;
  const tail = line.runs[line.runs.length - 1];
  if (!tail || tail === line.runs[0] || !text.endsWith(tail.text) || tail.fontSize > 0.85 * line.fontSize || tail.y1 > line.y1 - 0.2 * line.fontSize) return false;
  return SENTENCE_END.test(text.slice(0, text.length - tail.text.length).trimEnd());
}
