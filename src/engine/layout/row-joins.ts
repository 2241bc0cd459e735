import { hasRtl } from "./bidi.js";
import { digitsValue, LIST_MARKER } from "./list-marker.js";
import type { Row } from "./lines.js";
import type { TextRun } from "./types.js";

/*
 * Gaps a row is not cut at, however the pieces on either side line up down the page like
 * columns: the entries of a table of contents (its section numbers, leaders and page
 * numbers), a list marker and the words a tab after it, a form's label and its value, a
 * note's or an item's number and its text. `buildLines` asks these before it looks for
 * column gutters and cell edges.
 */

const PAGE_NO = /^\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*$/i;

/** A section number opening a table of contents' entry: `2`, `2.1`, `A.`, `IV`. */
const SECTION_NO = /^(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.?|[IVXLC]{1,6}\.?)$/;

/** A dot leader anywhere in a row's text. */
const DOTS = /(?:[.\u00b7\u2024]\s*){5,}|(?:\u2026\s*){2,}/;

/** Whether a row holds a dot leader, in one run or one run a dot (TeX sets each dot apart). */
const hasLeader = (row: Row): boolean => DOTS.test(row.runs.map((r) => r.text).join(""));

/** Five dots or more (or two ellipses), as a leader draws them. */
const LEADER = /(?:(?:[.\u00b7\u2024]\s*){5,}|(?:\u2026\s*){2,})$/;

/**
 * Whether `runs[at]` is a page number a dot leader runs up to (`2.1 Setup . . . . 7`),
 * last on its row or set well apart from what follows.
 */
function leaderToNumber(runs: readonly TextRun[], at: number): boolean {
  const run = runs[at]!;
  if (!PAGE_NO.test(run.text)) return false;
  const next = runs[at + 1];
  if (next && next.x0 - run.x1 < run.fontSize) return false;
  let before = "";
  for (let i = at - 1; i >= 0 && before.length < 16; i--) before = runs[i]!.text + before;
  return LEADER.test(before);
}

/**
 * Whether the gap before run `at` of row `k` belongs to a table of contents' entry: it
 * starts a dot leader, or leads to the page number at the end of one, or to a number last
 * on its row and right-aligned with a leader's number on a nearby row (a chapter entry
 * set without dots), or follows, less than 3 em on, the section number the entry starts
 * with, leaders on rows nearby. The numbers line up down the page like a table column, but each entry
 * reads as one line with its numbers.
 */
export function tocNumber(rows: readonly Row[], k: number, at: number): boolean {
  const runs = rows[k]!.runs;
  if (leaderToNumber(runs, at)) return true;
  // The gap (under 3 em) after an entry's section number, with leaders on rows nearby.
  if (at === 1 && SECTION_NO.test(runs[0]!.text) && runs[1]!.x0 - runs[0]!.x1 < 3 * Math.max(runs[0]!.fontSize, runs[1]!.fontSize)) {
    for (let j = Math.max(0, k - 3); j <= Math.min(rows.length - 1, k + 3); j++) if (hasLeader(rows[j]!)) return true;
  }
  // The gap before a leader starts.
  let after = "";
  for (let i = at; i < runs.length && after.length < 16; i++) after += runs[i]!.text;
  if (/^(?:(?:[.\u00b7\u2024]\s*){5,}|(?:\u2026\s*){2,})/.test(after)) return true;
  if (at !== runs.length - 1 || !PAGE_NO.test(runs[at]!.text)) return false;
  const right = runs[at]!.x1;
  for (let j = Math.max(0, k - 3); j <= Math.min(rows.length - 1, k + 3); j++) {
    const other = rows[j]!.runs;
    const last = other.length - 1;
    if (j !== k && last > 0 && Math.abs(other[last]!.x1 - right) <= 1.5 && leaderToNumber(other, last)) return true;
  }
  return false;
}

/** How far a form's label reaches: a few words ending in a colon. */
const LABEL = /^[^:：]{1,48}[:：]$/;

/** Where the label of a `Label:  value` row ends: the index of the value's first run. */
export function labelEnd(runs: readonly TextRun[]): number {
  let text = "";
  for (let i = 0; i < runs.length - 1 && i < 8; i++) {
    text += (i > 0 ? " " : "") + runs[i]!.text.trim();
    if (text.length > 48) return -1;
    if (/[:：]$/.test(text)) return LABEL.test(text) && text.split(/\s+/).length <= 6 ? i + 1 : -1;
  }
  return -1;
}

/**
 * A row's last two pieces, cut by wide gaps (1 em or more): the run where the first of
 * them starts and the run where the last starts; undefined for a row in one piece, or
 * when the pair does not stand apart from the pieces before it. (An invoice's number and
 * dates may share their rows with the letterhead's lines, far to their left.)
 */
function lastPieces(row: Row): { from: number; at: number } | undefined {
  let from = 0;
  let at = -1;
  let before = 0;
  let last = 0;
  for (const g of row.gaps) {
    if (g.em < 1) continue;
    [from, at, before, last] = [Math.max(at, 0), g.at, last, g.em];
  }
  // With pieces before the key, the pair stands apart: the gap before it three times the
  // one inside it, and 4 em at least (a table's last two cells are as far from the rest).
  if (from > 0 && (before < 3 * last || before < 4)) return undefined;
  return at > 0 ? { from, at } : undefined;
}

/** A key's words: up to five, from a letter, not ending in a figure (an index's page). */
const KEY = /^\p{L}[^\n]{0,40}[^\d\s]$/u;

/**
 * An amount of money (`18.99`, `-2.01`, `€1,250.00`, `(45.00)`, `12,50 €`): a key before
 * one may end in a figure (`Broadband Fibre 500`, `Paracetamol 500mg x16`, `CARD VISA
 * ****4421`), where an index's page numbers have no cents.
 */
const MONEY = /^[-\u2212(]?(?:[$€£¥]|[A-Z]{3} )?\s?\d{1,3}(?:[,.\u202f\u00a0 ]?\d{3})*[.,]\d{2}\)?(?: ?[$€£¥]| [A-Z]{3})?$/u;

/**
 * A key ending in anything but a space, from a letter or a receipt's quantity (`2 x 3.40`):
 * before an amount of money.
 */
const KEY_BEFORE_MONEY = /^(?:\p{L}|\d{1,4} ?[x×@] ?\d)[^\n]{0,40}\S$/u;

/**
 * Where row `k`'s value starts, if its last two pieces are a key and its value
 * (`Subtotal⇥€17,732.40`, `Due date⇥11 April 2024`): a key of up to five words, a value of
 * up to four, and two rows more within four alike, two of the three values mostly
 * figures, keys at the same place
 * and values starting (after a gap wider than a word space) or ending at the same place
 * (an invoice's totals, its number and dates). Such rows line up like two columns, but
 * each is read as one line; two columns of words (names, terms) have no figures on their
 * right.
 */
export function keyValue(rows: readonly Row[], k: number): { at: number; x: number } | undefined {
  // A value need not be mostly figures (`0.5 NTU`, `0 per 100 ml`) when two rows around
  // it, alike, have theirs so and a third is alike: the block is read one way throughout.
  const own = keyValueShape(rows[k]!, false);
  if (!own) return undefined;
  const runs = rows[k]!.runs;
  const [left, start, end] = [runs[own.from]!.x0, runs[own.at]!.x0, runs[runs.length - 1]!.x1];
  if (priced(rows[k]!, own.from, own.at)) return { at: own.at, x: end };
  // Rows alike, and those of them whose values are mostly figures.
  let [starts, ends, startFigures, endFigures] = [0, 0, 0, 0];
  for (let j = Math.max(0, k - 4); j <= Math.min(rows.length - 1, k + 4); j++) {
    const row = rows[j]!;
    const other = row.runs;
    // A key at the same place, opening a piece.
    const from = other.findIndex((r, i) => Math.abs(r.x0 - left) <= 2 && (i === 0 || row.gaps[i - 1]!.em >= 1));
    if (from < 0) continue;
    // A value at the same place, after a gap wider than a word space (a short key's
    // row may not be cut at all), and no other wide gap after the key.
    const at = other.findIndex((r, i) => i > from && Math.abs(r.x0 - start) <= 2 && row.gaps[i - 1]!.em >= 0.3);
    if (at > 0 && row.gaps.every((g) => g.at <= from || g.em < 1 || g.at === at) && keyAndValue(row, from, at, false)) {
      starts++;
      if (keyAndValue(row, from, at, true)) startFigures++;
    }
    const shape = keyValueShape(row, false);
    if (shape && shape.from === from && Math.abs(other[other.length - 1]!.x1 - end) <= 2) {
      ends++;
      if (keyAndValue(row, shape.from, shape.at, true)) endFigures++;
    }
  }
  if (starts >= 3 && startFigures >= 2) return { at: own.at, x: start };
  if (ends >= 3 && endFigures >= 2) return { at: own.at, x: end };
  return undefined;
}

/** A receipt's quantity at its unit price (`2 x 3.40`, `3 @ 1,80`). */
const QUANTITY = /^(\d{1,4}) ?[x×@] ?(\d{1,6}[.,]\d{2})$/;

/**
 * Whether a row's key is a quantity at a unit price and its value their product
 * (`2 x 3.40⇥6.80`, set under its item on a receipt): a key and its value on its own.
 */
function priced(row: Row, from: number, at: number): boolean {
  const q = QUANTITY.exec(row.runs.slice(from, at).map((r) => r.text).join(" ").replace(/\s+/g, " ").trim());
  const value = row.runs.slice(at).map((r) => r.text).join("").replace(/\s+/g, "");
  if (!q || !/^\d{1,7}[.,]\d{2}$/.test(value)) return false;
  const cents = (t: string): number => Math.round(100 * Number(t.replace(",", ".")));
  return Number(q[1]) * cents(q[2]!) === cents(value);
}

/** A row's last two pieces when they are shaped like a key and its value (`figures`: see {@link keyAndValue}). */
function keyValueShape(row: Row, figures = true): { from: number; at: number } | undefined {
  const pieces = lastPieces(row);
  return pieces && keyAndValue(row, pieces.from, pieces.at, figures) ? pieces : undefined;
}

/**
 * Whether a row's runs from `from` to `at` read as a key and those from `at` on as its
 * value: a key of up to five words, a value of up to four holding a figure, with
 * `figures` half its letters and figures figures (`€17,732.40`, `12 March 2024`,
 * `INV-2024-0193`; not an address's `Warehouse 3`).
 */
function keyAndValue(row: Row, from: number, at: number, figures: boolean): boolean {
  // Asked of a row again and again by the rows around it: worked out once per split.
  let known = judged.get(row);
  if (!known) judged.set(row, (known = new Map()));
  const key = from * 4096 + at;
  let verdict = known.get(key);
  if (verdict === undefined) known.set(key, (verdict = judge(row, from, at)));
  return figures ? verdict === 2 : verdict >= 1;
}

/** Each row's verdicts by split (`from * 4096 + at`): 0 no, 1 a key and a value, 2 a value mostly figures. */
const judged = new WeakMap<Row, Map<number, number>>();

/** The verdict of {@link keyAndValue} for one split of a row. */
function judge(row: Row, from: number, at: number): number {
  // Words counted at the gaps first (two columns of prose have many): no text built.
  let keyWords = 1;
  let valueWords = 1;
  for (const g of row.gaps) if (g.at > from && g.em > 0.12 && g.at !== at && (g.at < at ? ++keyWords > 5 : ++valueWords > 4)) return 0;
  // And the spaces inside runs (a writer may set a phrase as one run).
  const spaces = (a: number, b: number, most: number): boolean => {
    let n = 0;
    for (let i = a; i < b; i++) {
      const t = row.runs[i]!.text.trim();
      for (let c = t.indexOf(" "); c >= 0; c = t.indexOf(" ", c + 1)) if (++n > most) return false;
    }
    return true;
  };
  if (!/^(?:\p{L}|\d{1,4} ?[x×@] ?\d)/u.test(row.runs[from]!.text) || !spaces(from, at, 5 - keyWords) || !spaces(at, row.runs.length, 4 - valueWords)) return 0;
  // Runs may be single glyphs (Chromium): a space only at a gap.
  const text = (a: number, b: number): string => {
    let out = row.runs[a]!.text;
    for (let i = a + 1; i < b; i++) out += (row.gaps[i - 1]!.em > 0.12 ? " " : "") + row.runs[i]!.text;
    return out.replace(/\s+/g, " ").trim();
  };
  const key = text(from, at);
  const value = text(at, row.runs.length);
  if (!(KEY.test(key) || (KEY_BEFORE_MONEY.test(key) && MONEY.test(value))) || key.split(" ").length > 5 || value.split(" ").length > 4) return 0;
  const digits = value.replace(/\D/g, "").length;
  if (digits === 0) return 0;
  return 2 * digits >= value.replace(/[^\p{L}\p{N}]/gu, "").length ? 2 : 1;
}

/**
 * Whether the gap where row `k`'s label ends (`labels`, memoised {@link labelEnd}) parts a form's label from its value
 * (`Company name:⇥Blue Harbour Ltd`): the row's label ends there in a colon, and another
 * row nearby has its label at the same place and its value at the same tab stop. The
 * labels and the values line up down the page like two columns, but each row is read
 * as one line, the value after its label.
 */
export function labelledValue(rows: readonly Row[], k: number, labels: (k: number) => number): boolean {
  const runs = rows[k]!.runs;
  const at = labels(k);
  if (at <= 0) return false;
  const x = runs[at]!.x0;
  const left = runs[0]!.x0;
  const label = runs[at - 1]!;
  let alike = false;
  // Rows with a piece starting at the value's place, after something: in a form each is a
  // labelled row; beside a column of prose (its lines ending `as follows:` now and then)
  // most are not.
  let starts = 0;
  let labelled = 0;
  for (let j = Math.max(0, k - 8); j <= Math.min(rows.length - 1, k + 8); j++) {
    const other = rows[j]!.runs;
    // Rows in two pieces, the second at the value's place (a table's rows have more).
    const at = other.findIndex((r, i) => i > 0 && Math.abs(r.x0 - x) <= 2);
    if (at > 0 && rows[j]!.gaps.filter((g) => g.em >= 1).length === 1) starts++;
    const end = labels(j);
    if (end <= 0 || Math.abs(other[end]!.x0 - x) > 2 || Math.abs(other[0]!.x0 - left) > 2) continue;
    labelled++;
    // Labels of one form differ, and a tab (not a word space) follows one of them at least.
    const tab = Math.max(x - label.x1, other[end]!.x0 - other[end - 1]!.x1) >= 0.8 * label.fontSize;
    if (j !== k && tab && other[end - 1]!.text.trim() !== label.text.trim()) alike = true;
  }
  return alike && labelled >= 0.6 * starts;
}

/**
 * Whether the gap before run `at` follows a list marker alone at the start of its row or
 * segment (`•`, `1.`, `(a)`) and leads to words: ReportLab, Word and LibreOffice set an
 * item's text a tab (1–2.5 em) after its marker, and the markers line up down the list
 * like a table column, but each item reads as one line from its marker. The marker may be
 * drawn a glyph a run (Chromium: `(`, `c`, `)`), its runs touching.
 */
export function hangsFromMarker(runs: readonly TextRun[], at: number, cuts: readonly number[]): boolean {
  const marker = rtlMarker(runs, at);
  if (marker !== undefined) return isMarkerText(marker) || isMarkerText([...marker].reverse().join(""));
  if (!/^[\p{L}"“‘'(]/u.test(runs[at]!.text)) return false;
  if (at === 1 || cuts.includes(at - 1)) return isMarker(runs[at - 1]!);
  // The segment's start: the last cut before `at`, or the row's.
  let start = 0;
  for (const c of cuts) if (c < at && c > start) start = c;
  if (at - start > 8) return false;
  let text = runs[start]!.text;
  for (let i = start + 1; i < at; i++) {
    if (runs[i]!.x0 - runs[i - 1]!.x1 > WORD_SPACE_EM * runs[i]!.fontSize) return false;
    text += runs[i]!.text;
  }
  return isMarker({ ...runs[start]!, text });
}

/** A gap wider than this (font sizes) is a word space; narrower, the glyphs of one word. */
const WORD_SPACE_EM = 0.15;

/**
 * The marker or number closing a row drawn left to right whose words read right to left
 * (a Hebrew or Arabic item, `1.⇥…` set from the right: the words left of gap `at`, the
 * marker right of it, last on the row), in reading order: its pieces from the right
 * (LibreOffice draws `1.` as `.` and `1`, the full stop on the left). Undefined when the
 * words before the gap hold no RTL letter or do not start (at their right end) with a
 * letter, quote or bracket, or the marker is more than three pieces or spaced out.
 */
function rtlMarker(runs: readonly TextRun[], at: number): string | undefined {
  const words = runs[at - 1];
  if (!words || runs.length - at > 3 || !hasRtl(words.text) || !RTL_WORD_START.test(words.text)) return undefined;
  let text = runs[runs.length - 1]!.text.trim();
  for (let i = runs.length - 2; i >= at; i--) {
    if (runs[i + 1]!.x0 - runs[i]!.x1 > 0.3 * runs[i]!.fontSize) return undefined;
    text += runs[i]!.text.trim();
  }
  return text;
}

/**
 * Right-to-left words drawn left to right: their first letter is the run's last glyph, a
 * letter of any case (Hebrew and Arabic have none), a quote (`״`, `«`) or a bracket (drawn
 * mirrored or not).
 */
const RTL_WORD_START = /[\p{L}"“”‘'()״׳«»]\s*$/u;

/** A note's or item's number alone: `1`, `12` (`१२` in any script's digits), or in lower-case roman (LibreOffice's endnotes: `iv`). */
const BARE_NUMBER = /^(?:\p{Nd}{1,3}|[ivxl]{1,6})$/u;

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50 };

/** The value of a note's number alone (`1`, `12`, or lower-case roman: `iv` = 4), else undefined. */
export function noteNumber(text: string): number | undefined {
  if (!BARE_NUMBER.test(text)) return undefined;
  if (/^\p{Nd}/u.test(text)) return digitsValue(text);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const v = ROMAN[text[i]!]!;
    n += v < (ROMAN[text[i + 1] ?? ""] ?? 0) ? -v : v;
  }
  return n;
}

/** The number opening row `k`, a tab before words (a footnote, an item), and how many words (up to a few). */
function rowNumber(rows: readonly Row[], k: number): { n: number; words: number } | undefined {
  const row = rows[k]!;
  const [num, first] = row.runs;
  if (!num || !first || first.mono || !/^\p{L}/u.test(first.text)) return undefined;
  const n = noteNumber(num.text.trim());
  if (n === undefined) return undefined;
  // The number in the text's type (a listing's or a pleading's line numbers are smaller),
  // and nothing after the words but words (a table row has more cells).
  if (Math.abs(num.fontSize - first.fontSize) > 0.15 * Math.max(num.fontSize, first.fontSize)) return undefined;
  if (row.gaps.some((g) => g.at > 1 && g.em >= 1)) return undefined;
  let text = "";
  for (let i = 1; i < rows[k]!.runs.length && text.length < 40; i++) text += ` ${rows[k]!.runs[i]!.text}`;
  const words = text.trim().split(/\s+/).length;
  return words >= 2 ? { n, words } : undefined;
}

/**
 * Whether row `k` is one of notes or items numbered in a stack (`1⇥Information assets
 * include…`, `2⇥See also…`, LibreOffice's footnotes and `iv⇥See…` endnotes; a manual's
 * exit codes): a row nearby
 * opens with the number one more or one less, at the same place, one of the two with
 * four words or more. The numbers line up like a column, but each
 * note reads as one line from its number.
 */
export function countsOn(rows: readonly Row[], k: number): boolean {
  const own = rowNumber(rows, k);
  if (own === undefined) return false;
  const x = rows[k]!.runs[0]!.x0;
  // Five rows numbered one after another, one of them going on in mid-sentence, are
  // numbered lines (a pleading's), not notes (each a sentence from a capital).
  const numbered = [k];
  for (let j = k - 1; j >= 0 && numbered.length < 5 && rowNumber(rows, j)?.n === own.n - (k - j); j--) numbered.push(j);
  for (let j = k + 1; j < rows.length && numbered.length < 5 && rowNumber(rows, j)?.n === own.n + (j - k); j++) numbered.push(j);
  if (numbered.length >= 5 && numbered.some((j) => !/^\p{Lu}/u.test(rows[j]!.runs[1]!.text))) return false;
  for (let j = Math.max(0, k - 4); j <= Math.min(rows.length - 1, k + 4); j++) {
    if (j === k || Math.abs(rows[j]!.runs[0]!.x0 - x) > 1.5) continue;
    const other = rowNumber(rows, j);
    // Sentences on one of the two at least: not a table's numbered column of short cells.
    if (other !== undefined && Math.abs(other.n - own.n) === 1 && Math.max(own.words, other.words) >= 4) return true;
  }
  return hangingNote(rows, k);
}

/**
 * Whether row `k` opens the one note at a page's foot, its number hanging a tab before its
 * words (LibreOffice's footnote of two lines or more, with no note numbered one apart to
 * tell it by): the next row starts right under the words, in their type, and the rows from
 * here down are in type smaller than most of the text above (the body).
 */
function hangingNote(rows: readonly Row[], k: number): boolean {
  const [, words] = rows[k]!.runs;
  const next = rows[k + 1]?.runs[0];
  if (!words || !next || Math.abs(next.x0 - words.x0) > 1.5 || Math.abs(next.fontSize - words.fontSize) > 0.15 * words.fontSize) return false;
  if (next.y0 - words.y1 > words.fontSize) return false;
  // LibreOffice sets notes in 10 pt under a body of 10.5 pt as well as 12.
  const larger = 1.04 * words.fontSize;
  for (let j = k + 1; j < rows.length; j++) if (rows[j]!.runs.some((r) => r.fontSize > larger)) return false;
  let body = 0;
  let small = 0;
  for (let j = 0; j < k; j++) for (const r of rows[j]!.runs) r.fontSize >= larger ? (body += r.text.length) : (small += r.text.length);
  return body > small;
}

/** A clause's number without a final full stop: `1.1`, `3.2.4` (UK contracts). */
const CLAUSE = /^\d{1,3}(?:\.\d{1,3}){1,3}$/;
/** A number opening a row: `1`, `1.`, `1.1`, `3.2.4.`. */
const NUMBERED = /^\d{1,3}(?:\.\d{1,3}){0,3}\.?$/;

/**
 * Whether gap `at` of row `k` parts a clause's number without a final full stop from its
 * words (`1.1⇥This Agreement shall…`): the number opens the row (or a piece of it), its
 * words start with a capital or a quote, and another row within six opens with a number
 * at the same place, words after it (its sibling `1.2`, its parent `1.`), and no cell
 * further on the row: a piece past a wide gap starting where a piece of a row within
 * three does (a justified line's wide word spaces line up with nothing). A decimal in a table's first column has figures
 * beside it, or more cells.
 */
export function clauseNumber(rows: readonly Row[], k: number, at: number, cuts: readonly number[]): boolean {
  const runs = rows[k]!.runs;
  const rtl = rtlMarker(runs, at);
  if (rtl !== undefined) return rtlClause(rows, k, at, rtl);
  if (at !== 1 && !cuts.includes(at - 1)) return false;
  const num = runs[at - 1]!;
  if (!CLAUSE.test(num.text.trim()) || !/^[\p{Lu}"“‘'(]/u.test(runs[at]!.text)) return false;
  // A table's row has more cells to the right (a version table's `1.1⇥First release⇥2023`).
  const further = rows[k]!.gaps.filter((g) => g.at > at && g.em >= 1);
  if (further.some((g) => cellEdge(rows, k, g.to))) return false;
  for (let j = Math.max(0, k - 6); j <= Math.min(rows.length - 1, k + 6); j++) {
    const [first, next] = rows[j]!.runs;
    if (j !== k && first && next && Math.abs(first.x0 - num.x0) <= 2 && NUMBERED.test(first.text.trim()) && /^[\p{L}"“‘'(]/u.test(next.text)) return true;
  }
  return false;
}

/**
 * {@link clauseNumber} mirrored for a row whose words read right to left (`number`, from
 * {@link rtlMarker}, closes it on the right): its cells further on stand to the left, and a
 * sibling row ends at the number's right edge with a number, words before it.
 */
function rtlClause(rows: readonly Row[], k: number, at: number, number: string): boolean {
  if (!CLAUSE.test(number)) return false;
  const right = rows[k]!.runs[rows[k]!.runs.length - 1]!.x1;
  if (rows[k]!.gaps.some((g) => g.at < at && g.em >= 1 && cellEdge(rows, k, g.to))) return false;
  for (let j = Math.max(0, k - 6); j <= Math.min(rows.length - 1, k + 6); j++) {
    const other = rows[j]!.runs;
    if (j === k || other.length < 2 || Math.abs(other[other.length - 1]!.x1 - right) > 2) continue;
    const gap = rows[j]!.gaps.findLast((g) => g.em >= 0.3);
    const theirs = gap && rtlMarker(other, gap.at);
    if (theirs !== undefined && NUMBERED.test(theirs)) return true;
  }
  return false;
}

/** Whether a row within three of row `k` has a piece starting at `x` (within 1.5), after a gap of half an em. */
function cellEdge(rows: readonly Row[], k: number, x: number): boolean {
  for (let j = Math.max(0, k - 3); j <= Math.min(rows.length - 1, k + 3); j++) {
    if (j === k) continue;
    const { runs, gaps } = rows[j]!;
    for (let i = 1; i < runs.length; i++) if (Math.abs(runs[i]!.x0 - x) <= 1.5 && gaps[i - 1]!.em >= 0.5) return true;
  }
  return false;
}

/** Widest tab after a list marker: Word's multilevel lists set the text up to ~7 em in. */
export const MARKER_TAB_EM = 8;

/** A run that is a list marker and nothing else (`•`, `1.`, `1.2.1.`, `(a)`, `a.`). */
function isMarker(run: TextRun): boolean {
  return isMarkerText(run.text.trim());
}

/** A list marker and nothing else: see {@link isMarker}; Hebrew and Arabic letters too (`א.`, `ب)`). */
function isMarkerText(marker: string): boolean {
  return marker.length <= 8 && (LIST_MARKER.exec(`${marker} `)?.[0].trimEnd() === marker || /^[a-zA-Z\u05d0-\u05ea\u0627-\u064a][.)]$/.test(marker));
}

/**
 * Whether another row nearby starts with a marker at the same place: markers set at the
 * margin, each level's text a wider tab in (Word's legal numbering `1.`, `1.1.`, `1.2.1.`).
 */
export function markerColumn(rows: readonly Row[], k: number, marker: TextRun): boolean {
  // A row read right to left has its marker last (see hangsFromMarker): `marker`, the run
  // before its gap, is its words; the markers line up at their right edges.
  if (hasRtl(marker.text)) {
    const right = rows[k]!.runs[rows[k]!.runs.length - 1]!.x1;
    for (let j = Math.max(0, k - 6); j <= Math.min(rows.length - 1, k + 6); j++) {
      const other = rows[j]!.runs;
      const gap = rows[j]!.gaps.findLast((g) => g.em >= 0.3);
      if (j !== k && gap && Math.abs(other[other.length - 1]!.x1 - right) <= 2 && hangsFromMarker(other, gap.at, [])) return true;
    }
    return false;
  }
  for (let j = Math.max(0, k - 6); j <= Math.min(rows.length - 1, k + 6); j++) {
    const first = rows[j]!.runs[0];
    if (j !== k && first && rows[j]!.runs.length > 1 && Math.abs(first.x0 - marker.x0) <= 2 && isMarker(first)) return true;
  }
  return false;
}
