import { hasRtl, logicalRuns } from "./bidi.js";
import { isCjk, type Line, type TextRun } from "./types.js";

/** Tuning for {@link buildLines}. */
export interface LineOptions {
  /**
   * A horizontal gap wider than this many font sizes ends a line segment, so two
   * columns (or two table cells) sharing a baseline become two lines. @default 1.0
   */
  splitGapEm?: number;
  /** A gap this wide (font sizes) always cuts, lined up with others or not. @default 3 */
  gutterEm?: number;
}

const MATH_SYMBOLS = /[=+\u2212\u00b1\u00d7\u00f7\u2200-\u22ff\u2190-\u21ff\u0391-\u03c9\u221a\u222b\u2211\u220f]/g;

/** Whether the run's baseline is horizontal (rotation within 2° of 0). */
const horizontal = (r: TextRun): boolean => Math.abs(r.angle) < 2 || Math.abs(r.angle - 360) < 2;

/**
 * Groups runs into lines: runs whose vertical extents overlap by half the smaller height
 * share a baseline. A baseline is then cut at a gap wider than `splitGapEm` font sizes
 * only when the gap is a gutter — wider than `gutterEm`, or lined up with wide gaps on
 * nearby rows (columns, table cells) — so the wide word spaces of justified text in a
 * narrow column do not break lines apart. Runs with a rotated baseline each become their
 * own line (rare: labels, stamps, watermarks). Lines come back top to bottom, then left
 * to right.
 */
export function buildLines(runs: readonly TextRun[], options: LineOptions = {}): Line[] {
  const { splitGapEm = 1.0, gutterEm = 3 } = options;
  const flat: TextRun[] = [];
  const lines: Line[] = [];
  for (const r of runs) {
    if (r.text.trim() === "") continue;
    if (horizontal(r)) flat.push(r);
    else lines.push(makeLine([r]));
  }
  flat.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);

  // 1. Rows: runs sharing a baseline band, left to right, duplicates dropped.
  const rows: Row[] = [];
  let row: TextRun[] = [];
  let rowY0 = 0;
  let rowY1 = 0;
  const close = (): void => {
    if (row.length === 0) return;
    row.sort((a, b) => a.x0 - b.x0);
    const kept: TextRun[] = [];
    for (const r of row) {
      const prev = kept[kept.length - 1];
      // Same text drawn twice at (almost) the same spot: fake bold, or a shadow.
      if (prev && r.text === prev.text && Math.abs(r.x0 - prev.x0) < 0.2 * r.fontSize && Math.abs(r.y0 - prev.y0) < 0.2 * r.fontSize) continue;
      kept.push(r);
    }
    rows.push({ runs: kept, y0: rowY0, y1: rowY1, gaps: [] });
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
      close();
    }
    row.push(r);
    rowY0 = r.y0;
    rowY1 = r.y1;
  }
  close();

  // 2. Gaps between runs on each row.
  for (const rw of rows) {
    let right = -Infinity;
    for (let i = 0; i < rw.runs.length; i++) {
      const r = rw.runs[i]!;
      if (i > 0) {
        const prev = rw.runs[i - 1]!;
        const em = Math.max(r.fontSize, prev.fontSize);
        const gap = r.x0 - right;
        // Code aligns with runs of spaces: monospace text is cut only at a wide gap.
        const minEm = r.mono && prev.mono ? Math.max(splitGapEm, 6) : splitGapEm;
        rw.gaps.push({ at: i, from: right, to: r.x0, em: gap / em, candidate: gap > minEm * em });
      }
      if (r.x1 > right) right = r.x1;
    }
  }

  // 3. Cut at gutters: very wide gaps always; a wide gap clearly wider than the word
  //    spaces beside it when it lines up with a column or cell edge on a nearby row; a gap
  //    no wider than its neighbours (justified prose) only when it lines up on three.
  for (let k = 0; k < rows.length; k++) {
    const rw = rows[k]!;
    const cuts: number[] = [];
    const weak: Gap[] = [];
    rw.gaps.forEach((g, i) => {
      if (!g.candidate) return;
      if (g.em >= gutterEm) {
        cuts.push(g.at);
        return;
      }
      // The widest of up to three word spaces on each side (runs may be single glyphs).
      let widest = 0;
      for (const dir of [-1, 1]) {
        let seen = 0;
        for (let j = i + dir; j >= 0 && j < rw.gaps.length && seen < 3; j += dir) {
          const h = rw.gaps[j]!;
          if (h.em <= 0.15) continue;
          seen++;
          if (h.em < gutterEm && h.em > widest) widest = h.em;
        }
      }
      const distinct = widest === 0 || g.em >= 1.5 * widest;
      const hits = alignedNearby(rows, k, g);
      if (distinct && hits >= 1) cuts.push(g.at);
      else if (hits >= 3) weak.push(g);
    });
    // A weak cut stands only where the stretch around it is not justified prose (equal
    // word spaces, at least three of them, between the strong cuts).
    for (const g of weak) {
      const lo = Math.max(0, ...cuts.filter((c) => c < g.at));
      const hi = Math.min(rw.runs.length, ...cuts.filter((c) => c > g.at));
      const words = rw.gaps.filter((h) => h.at > lo && h.at < hi && h.em > 0.15).map((h) => h.em);
      const justified = words.length >= 3 && Math.max(...words) <= 1.15 * Math.min(...words);
      if (!justified) cuts.push(g.at);
    }
    cuts.sort((a, b) => a - b);
    let from = 0;
    for (const at of cuts) {
      lines.push(makeLine(rw.runs.slice(from, at)));
      from = at;
    }
    lines.push(makeLine(rw.runs.slice(from)));
  }
  lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return lines;
}

interface Gap {
  /** Index of the run after the gap. */
  at: number;
  from: number;
  to: number;
  /** Width in font sizes. */
  em: number;
  /** Wide enough to be a cut (splitGapEm, more for code). */
  candidate: boolean;
}

interface Row {
  runs: TextRun[];
  y0: number;
  y1: number;
  gaps: Gap[];
}

/**
 * How many nearby rows (within three rows and four line heights) have a run starting
 * where the gap ends, or ending where it starts, with space beside it: the mark of a
 * column or cell edge. Word spaces of prose line up like that only by chance.
 */
function alignedNearby(rows: readonly Row[], k: number, g: Gap): number {
  const rw = rows[k]!;
  const reach = 4 * (rw.y1 - rw.y0);
  let hits = 0;
  for (let j = Math.max(0, k - 3); j <= Math.min(rows.length - 1, k + 3); j++) {
    if (j === k) continue;
    const other = rows[j]!;
    if (Math.abs(other.y0 - rw.y0) > reach) continue;
    const runs = other.runs;
    for (let i = 0; i < runs.length; i++) {
      const r = runs[i]!;
      const em = r.fontSize;
      const startsHere = Math.abs(r.x0 - g.to) <= 1.5 && (i === 0 || r.x0 - runs[i - 1]!.x1 > 0.5 * em);
      const endsHere = Math.abs(r.x1 - g.from) <= 1.5 && (i === runs.length - 1 || runs[i + 1]!.x0 - r.x1 > 0.5 * em);
      if (startsHere || endsHere) {
        hits++;
        break;
      }
    }
  }
  return hits;
}

function segRight(seg: readonly TextRun[]): number {
  let x = -Infinity;
  for (const r of seg) if (r.x1 > x) x = r.x1;
  return x;
}

/**
 * Builds a line from runs in left-to-right order, putting spaces where gaps are. A line
 * with right-to-left text gets its runs in reading order instead (see `bidi.ts`), spaces
 * included.
 */
export function makeLine(runs: TextRun[]): Line {
  const bidi = runs.some((r) => hasRtl(r.text));
  if (bidi) runs = logicalRuns(runs, needsSpace);
  let text = "";
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let boldChars = 0;
  let mono = true;
  const sizes = new Map<number, number>();
  let mathChars = 0;
  let chars = 0;
  let prev: TextRun | undefined;
  for (const r of runs) {
    if (prev && !bidi && needsSpace(prev, r, text)) text += " ";
    text += r.text;
    prev = r;
    if (r.x0 < x0) x0 = r.x0;
    if (r.y0 < y0) y0 = r.y0;
    if (r.x1 > x1) x1 = r.x1;
    if (r.y1 > y1) y1 = r.y1;
    const n = r.text.length;
    chars += n;
    if (r.bold) boldChars += n;
    if (!r.mono) mono = false;
    const size = Math.round(r.fontSize * 2) / 2;
    sizes.set(size, (sizes.get(size) ?? 0) + n);
    if (r.math) mathChars += n;
    else mathChars += r.text.match(MATH_SYMBOLS)?.length ?? 0;
  }
  let fontSize = 0;
  let best = -1;
  for (const [size, n] of sizes) if (n > best || (n === best && size > fontSize)) [fontSize, best] = [size, n];
  // Bold by majority: a heading mixing a bold Latin font with a regular CJK fallback is
  // still a bold heading, while a paragraph with a bold lead-in phrase is not.
  const bold = chars > 0 && boldChars / chars >= 0.6;
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
