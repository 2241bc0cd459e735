import { firstFromTop, type TextRun } from "./types.js";

/*
 * Line numbers: pleading paper's 1–28 down the left margin, a word processor's line
 * numbering (every line, or every fifth), a patent's 5, 10, 15… in the gutter between its
 * columns. They are apparatus, not text: spliced into sentences they garble them, read
 * as a column they cut the page's columns apart, and the first and the last pass for page
 * numbers. `layoutPage` drops them before anything reads the page.
 */

/** Fewest numbers a column of line numbers holds on a page. */
const MIN_NUMBERS = 8;

/** Fewest numbers counting by five or ten (every fifth line numbered) in a page's margin. */
const MIN_SPARSE = 4;

/** A number drawn as one run or a glyph a run (Chromium), with its value and box. */
interface Numeral {
  runs: TextRun[];
  value: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  fontSize: number;
}

/**
 * The page's runs without its line numbers: a column of bare numbers at one place (their
 * right or left edges or their middles within 1.5 pt), eight or more (four counting by
 * five or ten in the page's margin), counting up by one step (1, 2, 5 or 10) from one to
 * the next at a steady pitch (within 15 %, most of them: a heading's taller line aside), each
 * standing 1 em or more apart from the text on its row, its strip clear of other text
 * (see {@link clear}), and told from a list numbered without punctuation: two numbers
 * alone on their rows (a pleading's blank lines), two numbered lines going on in lower
 * case (the middle of a sentence), or numbers set smaller than the text beside them.
 * Returns `runs` itself when there are none.
 */
export function dropLineNumbers(runs: readonly TextRun[]): readonly TextRun[] {
  let digits = 0;
  for (const r of runs) if (isDigits(r.text)) digits++;
  if (digits < MIN_SPARSE) return runs;
  const numerals = readNumerals(runs);
  if (numerals.length < MIN_SPARSE) return runs;
  const rows = [...runs].sort((a, b) => a.y0 - b.y0);
  const drop = new Set<TextRun>();
  // Right-aligned, left-aligned or centred (a patent's gutter: `5` under `10`).
  const edges = [(n: Numeral) => n.x1, (n: Numeral) => n.x0, (n: Numeral) => (n.x0 + n.x1) / 2];
  // The longest first: numbers set flush left (1–12) are one column by their left edges,
  // two by their right ones.
  const columns = edges.flatMap((edge) => columnsBy(numerals, edge)).sort((a, b) => b.length - a.length);
  for (const column of columns) {
    if (column.some((n) => drop.has(n.runs[0]!))) continue;
    if (lineNumbers(column, rows)) for (const n of column) for (const r of n.runs) drop.add(r);
  }
  return drop.size ? runs.filter((r) => !drop.has(r)) : runs;
}

/** A bare number of up to four figures (the first character tested first: most runs are words). */
const isDigits = (text: string): boolean => {
  const c = text.charCodeAt(0);
  return ((c >= 48 && c <= 57) || c === 32) && /^\s*\d{1,4}\s*$/.test(text);
};

/** Bare numbers: digit runs on one baseline touching each other (`1` `4` → 14), horizontal only. */
function readNumerals(runs: readonly TextRun[]): Numeral[] {
  const pieces = runs.filter((r) => r.angle === 0 && isDigits(r.text)).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: Numeral[] = [];
  for (const r of pieces) {
    const last = out[out.length - 1];
    const prev = last?.runs[last.runs.length - 1];
    if (last && prev && Math.abs(r.y0 - prev.y0) < 0.5 && r.x0 - prev.x1 < 0.15 * r.fontSize && r.x0 >= prev.x0) {
      last.runs.push(r);
      last.x1 = r.x1;
      last.value = Number(last.runs.map((p) => p.text.trim()).join(""));
      continue;
    }
    out.push({ runs: [r], value: Number(r.text.trim()), x0: r.x0, x1: r.x1, y0: r.y0, y1: r.y1, fontSize: r.fontSize });
  }
  return out;
}

/** Numerals sharing an edge (`edge` within 1.5 pt), top to bottom, in groups of {@link MIN_SPARSE} or more. */
function columnsBy(numerals: readonly Numeral[], edge: (n: Numeral) => number): Numeral[][] {
  const sorted = [...numerals].sort((a, b) => edge(a) - edge(b));
  const out: Numeral[][] = [];
  let group: Numeral[] = [];
  for (const n of sorted) {
    if (group.length && edge(n) - edge(group[0]!) > 1.5) {
      if (group.length >= MIN_SPARSE) out.push(group);
      group = [];
    }
    group.push(n);
  }
  if (group.length >= MIN_SPARSE) out.push(group);
  return out.map((g) => g.sort((a, b) => a.y0 - b.y0));
}

/** Whether a column of numerals, top to bottom, is a page's line numbering (see {@link dropLineNumbers}). */
function lineNumbers(column: readonly Numeral[], rows: readonly TextRun[]): boolean {
  // Counting up by one step, at a steady pitch a step.
  const steps: number[] = [];
  const pitches: number[] = [];
  for (let i = 1; i < column.length; i++) {
    const step = column[i]!.value - column[i - 1]!.value;
    if (step <= 0) return false;
    steps.push(step);
    pitches.push((column[i]!.y0 - column[i - 1]!.y0) / step);
  }
  const step = mostCommon(steps);
  if (![1, 2, 5, 10].includes(step) || steps.filter((s) => s === step).length < 0.8 * steps.length) return false;
  const pitch = [...pitches].sort((a, b) => a - b)[pitches.length >> 1]!;
  if (pitches.filter((p) => Math.abs(p - pitch) <= 0.15 * pitch).length < 0.6 * pitches.length) return false;
  // Under eight, only every fifth or tenth line numbered, out in the page's margin.
  if (column.length < MIN_NUMBERS && !(step >= 5 && column.every((n) => n.value % step === 0) && inMargin(column, rows))) return false;
  if (!clear(column, rows, pitch, step >= 5)) return false;
  // Apart from the text on their rows, and told from a list's numbers.
  let alone = 0;
  let midSentence = 0;
  let smaller = 0;
  let near = 0;
  for (const n of column) {
    const em = n.fontSize;
    const beside = rowRuns(rows, n).filter((r) => !n.runs.includes(r));
    if (beside.some((r) => r.x1 > n.x0 - em && r.x0 < n.x1 + em)) near++;
    const after = beside.filter((r) => r.x0 >= n.x1).sort((a, b) => a.x0 - b.x0)[0];
    if (!beside.length) alone++;
    if (after && /^\s*\p{Ll}/u.test(after.text)) midSentence++;
    // Against the text after the number, or before it when the numbers stand right of
    // the text (a poem's 5, 10, 15 out past its lines).
    const text = after ?? beside.filter((r) => r.x1 <= n.x0).sort((a, b) => b.x1 - a.x1)[0];
    if (text && n.fontSize <= 0.9 * text.fontSize) smaller++;
  }
  // A verse line long enough to reach its number (numbers set at one place a little past
  // the usual line) is a near miss or two; a list has its text beside every number.
  if (near > Math.floor(0.2 * column.length)) return false;
  return alone >= 2 || midSentence >= 2 || smaller >= 0.5 * column.length;
}

/** The width of one figure of a column's numbers (the widest number's width over its figures). */
const figureWidth = (column: readonly Numeral[]): number => Math.max(...column.map((n) => (n.x1 - n.x0) / String(n.value).length));

/**
 * Whether run `r` reaches no more than `figure` (a figure's width) into numbers spanning
 * `x0`–`x1` from one side: a long verse line's end (its comma, drawn alone) under a
 * poem's line numbers set at one place, where a table's `No.` or a paragraph stands over
 * them.
 */
const grazes = (r: TextRun, x0: number, x1: number, figure: number): boolean => (r.x0 < x0 + figure && r.x1 <= x0 + figure) || (r.x1 > x1 - figure && r.x0 >= x1 - figure);

/**
 * Whether nothing else stands in a column's strip (its width and 0.5 em either side), from
 * three lines (of `pitch`) above its first number to three below its last: line numbers
 * have the margin or the gutter to themselves, where a table's row numbers have their
 * `No.` over them and a list's numbers the paragraph before it. Numbers counting by five
 * or ten (`sparse`) are neither: they need only the rows next to them clear (within 1 em:
 * a poem's notes follow its last line, and that may be numbered), and text grazing them
 * (see {@link grazes}) is not in the way.
 */
function clear(column: readonly Numeral[], rows: readonly TextRun[], pitch: number, sparse: boolean): boolean {
  const own = new Set(column.flatMap((n) => n.runs));
  const em = column[0]!.fontSize;
  const reach = sparse ? em : 3 * pitch;
  const figure = sparse ? figureWidth(column) : 0;
  const left = Math.min(...column.map((n) => n.x0));
  const right = Math.max(...column.map((n) => n.x1));
  const x0 = left - 0.5 * em;
  const x1 = right + 0.5 * em;
  const y0 = column[0]!.y0 - reach;
  const y1 = column[column.length - 1]!.y1 + reach;
  for (const r of rows) {
    if (r.y0 > y1) break;
    if (r.y1 < y0 || own.has(r) || r.x1 <= x0 || r.x0 >= x1 || (sparse && grazes(r, left, right, figure))) continue;
    // Another number of the same kind counting on (pleading paper's 1–28 past the strip's
    // ends) is no text in the way.
    if (isDigits(r.text)) continue;
    return false;
  }
  return true;
}

/**
 * Whether a column of numerals stands left or right of all the other text from its first
 * number's row to its last's, text grazing the numbers aside (see {@link grazes}): a poem's numbers stand out past its lines,
 * where a headnote, an epigraph or the notes above and below may run the page's full width.
 */
function inMargin(column: readonly Numeral[], rows: readonly TextRun[]): boolean {
  const own = new Set(column.flatMap((n) => n.runs));
  const figure = figureWidth(column);
  const x0 = Math.min(...column.map((n) => n.x0));
  const x1 = Math.max(...column.map((n) => n.x1));
  const top = column[0]!.y0;
  const bottom = column[column.length - 1]!.y1;
  let left = true;
  let right = true;
  // From the first run whose top may reach the first number's row (four times its height above it).
  for (let i = firstFromTop(rows, top - 4 * (column[0]!.y1 - top)); i < rows.length && rows[i]!.y0 < bottom; i++) {
    const r = rows[i]!;
    if (own.has(r) || r.y1 <= top) continue;
    if (r.x0 < x1 - figure) right = false;
    if (r.x1 > x0 + figure) left = false;
    if (!left && !right) return false;
  }
  return true;
}

/** Runs level with numeral `n` (their middles within half its height), from `rows` sorted by top. */
function rowRuns(rows: readonly TextRun[], n: Numeral): TextRun[] {
  const mid = (n.y0 + n.y1) / 2;
  const half = (n.y1 - n.y0) / 2;
  const out: TextRun[] = [];
  // From the first run whose top may reach the numeral's middle (a run four times its
  // height above it at most).
  for (let i = firstFromTop(rows, n.y0 - 4 * (n.y1 - n.y0)); i < rows.length && rows[i]!.y0 <= n.y1; i++) {
    const r = rows[i]!;
    if (Math.abs((r.y0 + r.y1) / 2 - mid) <= half) out.push(r);
  }
  return out;
}

function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  let best = values[0] ?? 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > (counts.get(best) ?? 0)) best = v;
  }
  return best;
}
