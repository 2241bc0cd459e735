import { makeLine } from "./lines.js";
import type { Block, Line } from "./types.js";

/*
 * Listings (monospace blocks): how their lines go together (highlighted keywords, a
 * short first line over an indented body, two blank lines between definitions), how their
 * text is made (line pitch for blank lines, indentation in the listing's own character
 * width, line numbers dropped), and what is prose set in monospace rather than code.
 * `buildBlocks` and `finishBlock` (blocks.ts) ask these.
 */

/**
 * Whether a bold monospace line is code with its keywords highlighted, not a heading over
 * a listing or a printed file (enscript's bold page header): it mixes weights (`raise`
 * bold, `SinkError(key)` not), or is one or two words (`return`, `try:`, `else:` alone on
 * their lines).
 */
export function highlighted(line: Line): boolean {
  return line.runs.some((r) => !r.bold) || line.text.trim().split(/\s+/).length <= 2;
}

/**
 * How far right of a listing's left edge a line may start and still go on with it, in
 * font sizes, when it starts past the listing's lines: indentation (a `{` or `try:` line,
 * the body 2–8 spaces in under it, shares no width with it).
 */
const CODE_INDENT_EM = 8;

/**
 * Whether monospace `line` goes on with listing `b` by where it starts: within the
 * block's width, or indented up to {@link CODE_INDENT_EM} past its left edge. Code lines
 * are ragged, so their overlap says little (`{` over `"name": …`).
 */
export function underListing(b: Block, line: Line): boolean {
  return b.mono && line.x0 >= b.x0 - 0.5 * line.fontSize && line.x0 <= Math.max(b.x1, b.x0 + CODE_INDENT_EM * line.fontSize);
}

/** The widest gap two blank lines leave in a listing, in font sizes (three line pitches of 1.5 less a line). */
export const TWO_BLANK_LINES_EM = 4;

/**
 * Whether `line` stands two blank lines under listing `b` (PEP 8 sets two between
 * top-level definitions): three of the listing's own line pitches below its last line,
 * which two listings set one after the other match only by chance. The pitch is the
 * closest step among the block's last lines (no more are looked at: a long listing's
 * every line would be).
 */
export function twoBlankLines(b: Block, line: Line): boolean {
  const last = b.lines[b.lines.length - 1]!;
  if (b.lines.length < 2 || line.y0 - last.y1 > TWO_BLANK_LINES_EM * line.fontSize) return false;
  let pitch = Infinity;
  for (let i = b.lines.length - 1; i > 0 && i >= b.lines.length - 8; i--) {
    const d = b.lines[i]!.y0 - b.lines[i - 1]!.y0;
    if (d > 0.5 * line.fontSize && d < pitch) pitch = d;
  }
  return Math.abs(line.y0 - last.y0 - 3 * pitch) <= 0.15 * line.fontSize;
}

/** A word of prose: letters and figures (`HTTP/1.1`, `99.9%`), punctuation only around it. */
const PROSE_WORD = /^["'“‘(]?[\p{L}\p{N}][\p{L}\p{N}'’./%-]*[.,;:!?)"'”’]*$/u;

/** A line of words: six or more, four in five of them plain words (code has its braces, operators and calls). */
export function proseLike(text: string): boolean {
  const words = text.trim().split(/\s+/);
  return words.length >= 6 && words.filter((w) => PROSE_WORD.test(w)).length >= 0.8 * words.length;
}

/**
 * A block's line pitch: the closest two consecutive lines stand; when that spacing occurs
 * only once, at most 1.25 font sizes (two lines a blank line apart). Double-spaced code
 * has its wide pitch again and again, and gets no blank lines.
 */
export function linePitch(b: Block): number {
  let pitch = Infinity;
  let seen = 0;
  for (let i = 1; i < b.lines.length; i++) {
    const d = b.lines[i]!.y0 - b.lines[i - 1]!.y0;
    if (d <= 0.5 * b.fontSize) continue;
    if (Math.abs(d - pitch) <= 0.5) seen++;
    else if (d < pitch) [pitch, seen] = [d, 1];
  }
  return seen >= 2 ? pitch : Math.min(pitch, 1.25 * b.fontSize);
}

/**
 * The character width of monospace `lines`, from their own glyphs: the narrowest of their
 * runs' widths over their lengths (a writer that draws a run of spaces as one makes its
 * run read wider), else 0.6 em (Courier's). Fonts differ: LaTeX's typewriter type is
 * 0.525 em, Consolas 0.55.
 */
export function monoCharWidth(lines: readonly Line[], fontSize: number): number {
  let cw = Infinity;
  for (const l of lines) {
    for (const r of l.runs) if (r.text.length >= 2) cw = Math.min(cw, (r.x1 - r.x0) / r.text.length);
  }
  return cw >= 0.4 * fontSize && cw <= 0.7 * fontSize ? cw : 0.6 * fontSize;
}

/** A line number standing as a run of its own. */
const LINE_NUMBER = /^\d{1,5}$/;

/**
 * Drops a listing's line numbers (Sphinx, MkDocs and Pygments number every line, blank
 * ones too, in a column of their own): every line opens with a run that is a bare
 * integer, one more than the line above's, the numbers lined up at their right or left
 * edge. The block's edge becomes the code's, so indentation is measured from it; a line
 * that was only its number (a blank line of code) goes, the gap it leaves read as a
 * blank line.
 */
function dropListingNumbers(b: Block): void {
  const lines = b.lines;
  const first = lines[0]?.runs[0];
  if (lines.length < 2 || !first || !LINE_NUMBER.test(first.text)) return;
  const n0 = Number(first.text);
  let right = true;
  let left = true;
  for (let i = 0; i < lines.length; i++) {
    const r = lines[i]!.runs[0]!;
    if (!LINE_NUMBER.test(r.text) || Number(r.text) !== n0 + i) return;
    right &&= Math.abs(r.x1 - first.x1) <= 1.5;
    left &&= Math.abs(r.x0 - first.x0) <= 1.5;
  }
  if (!right && !left) return;
  const code = lines.filter((l) => l.runs.length > 1).map((l) => ({ ...makeLine(l.runs.slice(1)), ...(l.valueX !== undefined ? { valueX: l.valueX } : {}) }));
  if (!code.length) return;
  b.lines = code;
  b.x0 = Math.min(...code.map((l) => l.x0));
}

/** Each listing's character width, measured when its text is made (see {@link prepareListing}). */
const charWidths = new WeakMap<Block, number>();

/**
 * Readies a listing's lines for its text: its line numbers dropped, its character width
 * measured (its indentation is counted in it).
 */
export function prepareListing(b: Block): void {
  dropListingNumbers(b);
  charWidths.set(b, monoCharWidth(b.lines, b.fontSize));
}

/** A listing line's indentation: spaces for how far it starts right of the listing's edge. */
export function indent(line: Line, b: Block): string {
  const cw = charWidths.get(b) ?? 0.6 * line.fontSize;
  const n = Math.round((line.x0 - b.x0) / cw);
  return n > 0 ? " ".repeat(Math.min(n, 40)) : "";
}

/**
 * What only code has: braces, an assignment or comparison, an arrow, a call (`name(`, not
 * a plural's `work(s)` nor a clause's `7(d)`), a definition, an import, a preprocessor
 * line, SQL, or a shell prompt (not English's `for`, `if` or `public` opening a line). Prose set in monospace (a plain-text file printed) has none of it (semicolons
 * end its clauses too).
 */
const CODE_SIGNS = /[{}]|[=!<>]=|=>|->|[\w\]]\((?![a-z]{1,2}\)|[\divx]{1,3}\))|^\s*(?:def|class) \w+[(:]|^\s*(?:import|from) [\w.]+(?: import|;?$)|^\s*#(?:include|define)\b|^\s*(?:SELECT|INSERT|UPDATE|CREATE) [A-Z*]|^\s*[$#>] \S/m;

/** Whether a text reads as code (see {@link CODE_SIGNS}). */
export const codeLike = (text: string): boolean => CODE_SIGNS.test(text);

/**
 * Whether a page is typewritten: set all in monospace (four characters in five), a third
 * of it lines of prose. A plain-text file printed (an RFC, a licence, a screenplay), where
 * monospace says nothing of code; a page of code or configuration has few such lines.
 * Blocks give their text (lines joined), lines their own.
 */
export function typewrittenPage(parts: readonly { text: string; mono: boolean }[]): boolean {
  let all = 0;
  let mono = 0;
  let prose = 0;
  for (const p of parts) {
    all += p.text.length;
    if (!p.mono) continue;
    mono += p.text.length;
    for (const line of p.text.split("\n")) if (proseLike(line)) prose += line.length;
  }
  return all > 0 && mono >= 0.8 * all && prose >= mono / 3;
}
