import { isCjk, type Line, type TextRun } from "./types.js";

/** Tuning for {@link buildLines}. */
export interface LineOptions {
  /**
   * A horizontal gap wider than this many font sizes ends a line segment, so two
   * columns (or two table cells) sharing a baseline become two lines. @default 1.0
   */
  splitGapEm?: number;
}

const MATH_SYMBOLS = /[=+\u2212\u00b1\u00d7\u00f7\u2200-\u22ff\u2190-\u21ff\u0391-\u03c9\u221a\u222b\u2211\u220f]/g;

/** Whether the run's baseline is horizontal (rotation within 2° of 0). */
const horizontal = (r: TextRun): boolean => Math.abs(r.angle) < 2 || Math.abs(r.angle - 360) < 2;

/**
 * Groups runs into lines: runs whose vertical extents overlap by half the smaller height
 * share a baseline; a line is then cut at gaps wider than `splitGapEm` font sizes.
 * Runs with a rotated baseline each become their own line (they are rare and usually
 * labels, stamps or watermarks). Lines come back top to bottom, then left to right.
 */
export function buildLines(runs: readonly TextRun[], options: LineOptions = {}): Line[] {
  const { splitGapEm = 1.0 } = options;
  const flat: TextRun[] = [];
  const lines: Line[] = [];
  for (const r of runs) {
    if (r.text.trim() === "") continue;
    if (horizontal(r)) flat.push(r);
    else lines.push(makeLine([r]));
  }
  flat.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);

  let row: TextRun[] = [];
  let rowY0 = 0;
  let rowY1 = 0;
  const flush = (): void => {
    if (row.length === 0) return;
    row.sort((a, b) => a.x0 - b.x0);
    let seg: TextRun[] = [];
    let prev: TextRun | undefined;
    for (const r of row) {
      if (prev) {
        // Same text drawn twice at (almost) the same spot: fake bold, or a shadow.
        if (r.text === prev.text && Math.abs(r.x0 - prev.x0) < 0.2 * r.fontSize && Math.abs(r.y0 - prev.y0) < 0.2 * r.fontSize) continue;
        const em = Math.max(r.fontSize, prev.fontSize);
        // Code aligns with runs of spaces: monospace text is cut only at a wide gap.
        const gapEm = r.mono && prev.mono ? Math.max(splitGapEm, 6) : splitGapEm;
        if (r.x0 - segRight(seg) > gapEm * em) {
          lines.push(makeLine(seg));
          seg = [];
        }
      }
      seg.push(r);
      prev = r;
    }
    if (seg.length) lines.push(makeLine(seg));
    row = [];
  };
  for (const r of flat) {
    if (row.length) {
      const h = Math.min(r.y1 - r.y0, rowY1 - rowY0);
      const ov = Math.min(r.y1, rowY1) - Math.max(r.y0, rowY0);
      if (ov >= 0.5 * h) {
        row.push(r);
        if (r.y0 < rowY0) rowY0 = r.y0;
        if (r.y1 > rowY1) rowY1 = r.y1;
        continue;
      }
      flush();
    }
    row.push(r);
    rowY0 = r.y0;
    rowY1 = r.y1;
  }
  flush();
  lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return lines;
}

function segRight(seg: readonly TextRun[]): number {
  let x = -Infinity;
  for (const r of seg) if (r.x1 > x) x = r.x1;
  return x;
}

/** Builds a line from runs in left-to-right order, putting spaces where gaps are. */
export function makeLine(runs: TextRun[]): Line {
  let text = "";
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let bold = true;
  let mono = true;
  const sizes = new Map<number, number>();
  let mathChars = 0;
  let chars = 0;
  let prev: TextRun | undefined;
  for (const r of runs) {
    if (prev && needsSpace(prev, r, text)) text += " ";
    text += r.text;
    prev = r;
    if (r.x0 < x0) x0 = r.x0;
    if (r.y0 < y0) y0 = r.y0;
    if (r.x1 > x1) x1 = r.x1;
    if (r.y1 > y1) y1 = r.y1;
    const n = r.text.length;
    chars += n;
    if (!r.bold) bold = false;
    if (!r.mono) mono = false;
    const size = Math.round(r.fontSize * 2) / 2;
    sizes.set(size, (sizes.get(size) ?? 0) + n);
    if (r.math) mathChars += n;
    else mathChars += r.text.match(MATH_SYMBOLS)?.length ?? 0;
  }
  let fontSize = 0;
  let best = -1;
  for (const [size, n] of sizes) if (n > best || (n === best && size > fontSize)) [fontSize, best] = [size, n];
  return { runs, text, x0, y0, x1, y1, fontSize, bold, mono, mathShare: chars ? mathChars / chars : 0 };
}

function needsSpace(prev: TextRun, next: TextRun, textSoFar: string): boolean {
  if (textSoFar.endsWith(" ") || next.text.startsWith(" ")) return false;
  const gap = next.x0 - prev.x1;
  const em = Math.min(prev.fontSize, next.fontSize);
  const a = textSoFar.at(-1) ?? "";
  const b = next.text[0] ?? "";
  // Between CJK characters a gap is spacing, not a word break.
  if (isCjk(a) && isCjk(b)) return gap > 0.6 * em;
  return gap > 0.12 * em;
}
