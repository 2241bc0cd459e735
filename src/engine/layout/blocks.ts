import { countDirection, hasRtl, rtlWins, type DirectionVotes } from "./bidi.js";
import { chineseNumberRank } from "./heading-numbers.js";
import { LIST_MARKER } from "./list-marker.js";
import { codeLike, highlighted, indent, linePitch, prepareListing, proseLike, TWO_BLANK_LINES_EM, twoBlankLines, typewrittenPage, underListing } from "./listings.js";
import { sequenceItems } from "./numbered-items.js";
import { BROKEN_OFF, columnEnd, endOf, endsSentence, firstWordWidth, startsParagraph } from "./paragraphs.js";
import { speakerLines } from "./speakers.js";
import { verseLines } from "./verse.js";
import { atPagePitch, cjkSpaced, setSolid, tightPitch, widerSpaced } from "./spacing.js";
import { isSolidCjk, joinsUnspaced, overlap, type Block, type Line } from "./types.js";

/**
 * A line's end that is an abbreviation, no sentence's end (`Hoffman v.` / `Red Owl
 * Stores`, `see, e.g.`): the citations of law and academic prose.
 */
const ABBREVIATION = /(?:^|[\s(])(?:v|vs|cf|e\.g|i\.e|Mr|Mrs|Ms|Dr|Prof|pp|No|Fig|Eq|Vol)\.\s*$/;

/** Whether a line opens with a note's raised mark: a number or sign set smaller than the text after it, and raised. */
const raisedMark = (l: Line): boolean => {
  const [mark, words] = l.runs;
  return mark !== undefined && words !== undefined && NOTE_MARK.test(mark.text) && mark.fontSize <= 0.85 * words.fontSize && mark.y1 <= words.y1 - 0.2 * words.fontSize;
};
const NOTE_MARK = /^\s*(?:\d{1,3}|[*\u2020\u2021\u00a7\u00b6])\s*$/;

/**
 * Whether `line` is the next footnote: it opens with a raised mark where block `b`'s
 * first line opened with one (LaTeX sets its notes a paragraph each, the marks at one
 * indent, and a note of one line may end just short of the column: `…(1990).` / `⁷Alan…`).
 */
const nextNote = (b: Block, line: Line): boolean => raisedMark(line) && Math.abs(line.x0 - b.lines[0]!.x0) <= 1 && raisedMark(b.lines[0]!);

/** Tuning for {@link buildBlocks}. */
export interface BlockOptions {
  /** Largest gap between two lines of one paragraph, in font sizes. @default 0.7 */
  maxLineGapEm?: number;
  /** Largest gap between two lines of one code block: one blank line, at a CSS line height of 1.5 too. @default 2.2 */
  maxCodeGapEm?: number;
  /**
   * Keep a hyphen at a line's end (`state-` + `funded` → `state-funded`): for writers that
   * do not hyphenate unless asked (browsers, office suites); see `writerHyphenates`.
   * @default false
   */
  keepLineEndHyphens?: boolean;
}

/**
 * Groups lines into blocks (paragraphs, list items, headings, code): a line joins the
 * block just above it when they overlap horizontally, the gap is small, font size and
 * weight agree, and nothing marks a new paragraph (a list marker, a first-line indent,
 * a short sentence-final line above). Blocks come back in top-to-bottom order of their
 * first line; reading order is decided later. In a block whose text reads right to left
 * (the direction rule of `bidi.ts`, over the block's lines) those edge tests are
 * mirrored: lines start at the right.
 */
export function buildBlocks(lines: readonly Line[], options: BlockOptions = {}): Block[] {
  const { maxLineGapEm = 0.7, maxCodeGapEm = 2.2, keepLineEndHyphens = false } = options;
  const reach = Math.max(2 * maxLineGapEm, maxCodeGapEm, TWO_BLANK_LINES_EM);
  const sorted = [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const open: Block[] = [];
  // Blocks whose last line is still close enough above to take the next line: pages with
  // thousands of scattered labels (maps, charts) stay linear instead of quadratic.
  let active: Block[] = [];
  // Direction votes per block, kept only on a page with right-to-left text: other pages
  // never count a letter.
  const votes = sorted.some((l) => hasRtl(l.text)) ? new Map<Block, DirectionVotes>() : undefined;
  const numbered = sequenceItems(sorted);
  const tight = tightPitch(sorted);
  const speakers = speakerLines(sorted);
  const verse = verseLines(sorted);
  const typewritten = typewrittenPage(sorted);
  // The next line under line `k` in its column, of its size (looked for among the next eight).
  const below = (k: number): Line | undefined => {
    const a = sorted[k]!;
    for (let j = k + 1; j < Math.min(sorted.length, k + 9); j++) {
      const n = sorted[j]!;
      if (n.y0 - a.y0 < 0.8 * a.fontSize) continue;
      if (n.y0 - a.y0 > 3 * a.fontSize) return undefined;
      if (Math.abs(n.fontSize - a.fontSize) <= 0.1 * a.fontSize && overlap(a.x0, a.x1, n.x0, n.x1) >= 0.5 * Math.min(a.x1 - a.x0, n.x1 - n.x0)) return n;
    }
    return undefined;
  };
  // Whether another line stands between `last` and line `k` under block `b` — over it, or
  // short and within 3 em of it (the `or` between two commands, set further left): a
  // listing does not go on across it. The other column's prose beside it does not count.
  const crossed = (k: number, last: Line, b: Block): boolean => {
    for (let j = k - 1; j >= 0 && sorted[j]!.y0 >= last.y0; j--) {
      const other = sorted[j]!;
      if (other === last || other.y0 < last.y1 - 1) continue;
      if (overlap(other.x0, other.x1, b.x0, b.x1) > 0) return true;
      const em = other.fontSize;
      if (other.x1 - other.x0 <= 6 * em && other.x1 > b.x0 - 3 * em && other.x0 < b.x1 + 3 * em) return true;
    }
    return false;
  };
  // Whether `last` was full: the first word of line `k` would not have fitted after it
  // (it broke for want of room, not at a paragraph's end or a line break).
  const filled = (k: number, last: Line, line: Line, rtl: boolean): boolean => columnEnd(sorted, k, last, rtl) - endOf(last, rtl) <= firstWordWidth(line) + 0.5 * line.fontSize;
  // Whether block `b`'s last line wrapped onto line `k`: it was full, and where it ends a
  // sentence, justified (it ends at the column's edge and where the line above it does,
  // within a point; a block's first line, where line `k` and the line under it both do):
  // one-line entries of about one length, a transcript's, stand at as wide a pitch.
  const wrapped = (k: number, b: Block, line: Line, rtl: boolean): boolean => {
    const last = b.lines[b.lines.length - 1]!;
    const end = endOf(last, rtl);
    const edge = columnEnd(sorted, k, last, rtl);
    if (edge - end > firstWordWidth(line) + 0.5 * line.fontSize) return false;
    if (!endsSentence(last) || ABBREVIATION.test(last.text)) return true;
    const flush = (l: Line | undefined): boolean => l !== undefined && Math.abs(endOf(l, rtl) - end) <= 1;
    return edge - end <= 1 && (b.lines.length >= 2 ? flush(b.lines[b.lines.length - 2]) : flush(line) && flush(below(k)));
  };
  // Whether line `k`, short, is the last line of block `b`'s paragraph, its one line set in
  // and full: it starts up to 4 em left of it, back at the margin, reaches past its start
  // and ends the sentence that line left open (`Part I traces … Red Owl` / `Stores.4`, an
  // epigraph's `pity.` under its first line), though they overlap too little to tell by
  // their widths. A man page's next term, hanging left of the description above it
  // (`file1 −ot file2`, `%(datefmt)T`), ends no sentence.
  const underIndent = (k: number, b: Block, line: Line): boolean => {
    const last = b.lines[0]!;
    return b.lines.length === 1 && line.x0 < last.x0 && last.x0 - line.x0 <= 4 * line.fontSize && line.x1 > last.x0 && endsSentence(line) && !endsSentence(last) && filled(k, last, line, false);
  };
  // Whether a line of line `k`'s size stands a row under `last` and a row over line `k`,
  // across both (set solid, its box overlapping theirs): a line never joins a block past
  // one left out of it (a pleading caption's line two rows down).
  const skips = (k: number, last: Line): boolean => {
    const line = sorted[k]!;
    const row = 0.8 * line.fontSize;
    if (line.y0 - last.y0 < 2 * row) return false;
    for (let j = k - 1; j >= 0 && sorted[j]!.y0 > last.y0; j--) {
      const other = sorted[j]!;
      if (other.y0 < last.y0 + row || other.y0 > line.y0 - row || Math.abs(other.fontSize - line.fontSize) > 0.15 * line.fontSize) continue;
      if (overlap(other.x0, other.x1, line.x0, line.x1) > 0 && overlap(other.x0, other.x1, last.x0, last.x1) > 0) return true;
    }
    return false;
  };
  for (let k = 0; k < sorted.length; k++) {
    const line = sorted[k]!;
    // A listing's `- item` lines (YAML, Markdown) go on with the code above them; a text
    // file printed in monospace keeps its lists.
    const inListing = (): boolean =>
      line.mono &&
      /^\s*[-*]\s/.test(line.text) &&
      active.some((b) => {
        const last = b.lines[b.lines.length - 1]!;
        const code = b.lines.length >= 2 || line.x0 > last.x0 + 0.3 * line.fontSize || /[{}()\[\];=<>]|^\s*[\w.-]+:\s+\S/.test(last.text);
        return b.mono && b.kind !== "list" && code && !proseLike(last.text) && line.y0 - last.y1 <= maxCodeGapEm * line.fontSize && line.y0 >= last.y0 && overlap(line.x0, line.x1, b.x0, b.x1) > 0;
      });
    const startsList = (LIST_MARKER.test(line.text) && !inListing()) || numbered.has(line);
    let best: Block | undefined;
    let bestGap = Infinity;
    if (active.length > 32) active = active.filter((b) => b.y1 >= line.y0 - reach * Math.max(b.fontSize, line.fontSize));
    if (!startsList) {
      for (const b of active) {
        const last = b.lines[b.lines.length - 1]!;
        const gap = line.y0 - last.y1;
        const fs = Math.max(line.fontSize, last.fontSize);
        // A listing goes on across a blank line; prose set in monospace (a plain-text
        // file printed) starts a paragraph there, and a list item ends.
        // (On a page set all in monospace, only lines with code's signs.)
        const listing = line.mono && last.mono && b.kind !== "list" && !proseLike(line.text) && !proseLike(last.text) && (!typewritten || codeLike(last.text) || codeLike(line.text));
        const maxGap = listing ? maxCodeGapEm : maxLineGapEm;
        if (gap >= bestGap || (gap < -0.3 * fs && !setSolid(last, line))) continue;
        // Prose set 1.5 or 2 lines apart throughout goes on across its wider gaps, from a
        // line that was full (a heading, an address's lines, a paragraph's end are not); a
        // listing across two blank lines (PEP 8). Chinese and Japanese lines do up to two
        // font sizes apart, whatever the page's pitch (their line boxes are one em tall).
        if (gap > maxGap * fs && !(listing && twoBlankLines(b, line)) && (listing || line.mono || !(atPagePitch(last, line, tight) || cjkSpaced(last, line)) || !wrapped(k, b, line, votes !== undefined && rtlWins(votes.get(b)!)))) continue;
        if (gap > maxLineGapEm * fs && crossed(k, last, b)) continue;
        // An OCR layer may size a line by its letters' height: `mat.` (no ascender) reads
        // smaller than the full line above it. The smaller line must be the narrower one:
        // a heading is larger and narrower than the body under it.
        const [small, big] = line.fontSize < last.fontSize ? [line, last] : [last, line];
        const ocrSlack = line.runs[0]?.ocr && last.runs[0]?.ocr && small.x1 - small.x0 <= big.x1 - big.x0;
        if (Math.abs(line.fontSize - last.fontSize) > (ocrSlack ? 0.25 : 0.15) * fs) continue;
        if (line.mono !== last.mono || (line.bold !== last.bold && !(line.mono && highlighted(line.bold ? line : last)))) continue;
        const ov = overlap(line.x0, line.x1, b.x0, b.x1);
        if (ov < 0.5 * Math.min(line.x1 - line.x0, b.x1 - b.x0) && !(line.mono && underListing(b, line)) && !underIndent(k, b, line)) continue;
        // The next speaker's turn, once the line above has finished (or broken off) its sentence.
        if (speakers.has(line) && (endsSentence(last) || BROKEN_OFF.test(last.text))) continue;
        if (nextNote(b, line)) continue;
        // (Short: two characters or more short of the column's edge; a Chinese line's first
        // word is all of it, unspaced, so `filled` cannot tell.)
        if (facedHeading(b, line) && columnEnd(sorted, k, last, false) - last.x1 >= 2 * last.fontSize) continue;
        if (!line.mono && (widerSpaced(b, line, tight, below(k), () => filled(k, last, line, votes !== undefined && rtlWins(votes.get(b)!))) || verse.after.get(line) === last || startsParagraph(b, line, votes !== undefined && rtlWins(votes.get(b)!), (rtl, near) => columnEnd(sorted, k, last, rtl, near), verse.lines.get(line) === last))) continue;
        if (skips(k, last)) continue;
        best = b;
        bestGap = gap;
      }
    }
    if (best) {
      best.lines.push(line);
      if (line.x0 < best.x0) best.x0 = line.x0;
      if (line.x1 > best.x1) best.x1 = line.x1;
      if (line.y1 > best.y1) best.y1 = line.y1;
      if (votes) countDirection(line.text, votes.get(best)!);
    } else {
      const block: Block = {
        lines: [line],
        text: "",
        x0: line.x0,
        y0: line.y0,
        x1: line.x1,
        y1: line.y1,
        fontSize: line.fontSize,
        bold: line.bold,
        mono: line.mono,
        kind: startsList ? "list" : "text",
        ...(keepLineEndHyphens ? { keepHyphens: true } : {}),
      };
      open.push(block);
      active.push(block);
      votes?.set(block, countDirection(line.text));
    }
  }
  for (const b of open) finishBlock(b);
  return open;
}

/** Computes a block's text (hyphenation repaired) and its dominant style. */
export function finishBlock(b: Block): void {
  let text = "";
  const sizes = new Map<number, number>();
  let bold = true;
  let mono = true;
  if (b.mono) prepareListing(b);
  const pitch = b.mono ? linePitch(b) : 0;
  for (let i = 0; i < b.lines.length; i++) {
    const line = b.lines[i]!;
    if (i > 0) {
      // Code keeps its blank lines: one for each line pitch skipped.
      if (b.mono) text += "\n".repeat(Math.max(0, Math.round((line.y0 - b.lines[i - 1]!.y0) / pitch) - 1));
      text = joinLines(text, line, b);
    } else text = b.mono ? indent(line, b) + line.text : line.text;
    sizes.set(line.fontSize, (sizes.get(line.fontSize) ?? 0) + line.text.length);
    if (!line.bold) bold = false;
    if (!line.mono) mono = false;
  }
  let fontSize = b.fontSize;
  let best = -1;
  for (const [size, n] of sizes) if (n > best) [fontSize, best] = [size, n];
  const face = mainFace(b.lines);
  if (face) b.face = face;
  else delete b.face;
  b.text = text;
  b.fontSize = fontSize;
  b.bold = bold;
  b.mono = mono;
  if (b.lines.some((l) => l.valueX !== undefined)) b.keyed = true;
  if (b.lines.some((l) => l.note)) b.note = true;
  if (b.lines[0]?.runs[0]?.annotation && b.lines.every((l) => l.runs.every((r) => r.annotation))) b.annotation = true;
  const first = b.lines[0];
  if (first && !mono) {
    const x = textAfterMarker(first);
    if (x !== undefined) {
      b.textX = x;
      b.markerX = first.x0;
    }
  }
}

/**
 * Whether block `b` is a Chinese numbered heading in a face of its own over `line` (a
 * notice's 黑体 `一、总体要求` over its 仿宋 paragraph, one size, neither bold): its
 * lines open with a heading number and its last line's face is not `line`'s. Cut there
 * when that last line stopped short (the caller's test), as a heading does.
 */
function facedHeading(b: Block, line: Line): boolean {
  const last = b.lines[b.lines.length - 1]!;
  if (chineseNumberRank(b.lines[0]!.text) === 0) return false;
  const [above, under] = [mainFace([last]), mainFace([line])];
  return above !== undefined && under !== undefined && above !== under;
}

/**
 * The face most of the lines' Chinese and Japanese characters are set in, else most of
 * their characters (spaces aside), when the runs know theirs. Chinese text counts first:
 * a writer sets its Latin words and figures in a Latin font of their own (Word's ASCII
 * font, a browser's font list), so `（一）ERP and CRM 升级` in the body's style is in the
 * body's Chinese face though most of its letters are in another.
 */
function mainFace(lines: readonly Line[]): string | undefined {
  const cjk = new Map<string, number>();
  const all = new Map<string, number>();
  for (const l of lines) {
    for (const r of l.runs) {
      if (!r.face) continue;
      let n = 0;
      let m = 0;
      for (const ch of r.text) {
        if (isSolidCjk(ch)) n++;
        else if (ch.trim()) m++;
      }
      if (n) cjk.set(r.face, (cjk.get(r.face) ?? 0) + n);
      all.set(r.face, (all.get(r.face) ?? 0) + n + m);
    }
  }
  let face: string | undefined;
  let best = 0;
  for (const [f, n] of cjk.size ? cjk : all) if (n > best) [face, best] = [f, n];
  return face;
}

/**
 * Where a list item's words start, after its marker: its own run's start when the marker
 * stands alone (set a tab before the text), else the marker's share of its run.
 */
function textAfterMarker(line: Line): number | undefined {
  const m = LIST_MARKER.exec(line.text);
  const run = line.runs[0];
  if (!m || !run) return undefined;
  const marker = m[0].trim();
  if (run.text.trim() === marker) return line.runs[1]?.x0;
  const at = run.text.indexOf(marker) + m[0].length;
  const chars = run.chars;
  if (chars && chars.length === run.text.length && chars[at]) return chars[at]!.x0;
  return run.x0 + ((run.x1 - run.x0) * at) / Math.max(1, run.text.length);
}

/**
 * Whether a line broken at a hyphen breaks a compound with another hyphen in it (`end-` +
 * `to-end`, `state-of-` + `the-art`): a writer that hyphenates (TeX) never breaks such a
 * word but at its own hyphens, so this one is the word's.
 */
function compound(text: string, next: string): boolean {
  const before = text.slice(text.lastIndexOf(" ") + 1, -1);
  const space = next.indexOf(" ");
  const after = space < 0 ? next : next.slice(0, space);
  return /\p{L}-\p{L}/u.test(before) || /\p{L}-\p{L}/u.test(after);
}

/** Appends a line to block text: code keeps its lines; prose repairs `hyph-\nenation`. */
function joinLines(text: string, line: Line, b: Block): string {
  if (b.mono) return `${text}\n${indent(line, b)}${line.text}`;
  const next = line.text;
  const a = text.at(-1) ?? "";
  const c = next[0] ?? "";
  if (a === "-" && /\p{Ll}/u.test(c) && /\p{L}/u.test(text.at(-2) ?? "")) return b.keepHyphens || compound(text, next) ? text + next : text.slice(0, -1) + next;
  if (joinsUnspaced(a, c)) return text + next;
  if (a === " ") return text + next;
  return `${text} ${next}`;
}
