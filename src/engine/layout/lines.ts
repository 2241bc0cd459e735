import { accented, combiningMark } from "./accents.js";
import { hasRtl, logicalRuns } from "./bidi.js";
import { clauseNumber, countsOn, hangsFromMarker, keyValue, labelEnd, labelledValue, MARKER_TAB_EM, markerColumn, tocNumber } from "./row-joins.js";
import { seatDropCaps } from "./drop-caps.js";
import { columnGutters, type NoteSide } from "./gutters.js";
import { FIGURE, type Line, type TextRun } from "./types.js";
import { cjkWordSpace, letterSpacing, monoSpaces, narrowestCjkGap, needsSpace } from "./word-spaces.js";

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

const MATH_SYMBOLS = /[=+\u2212\u00b1\u00d7\u00f7\u2200-\u22ff\u2190-\u21ff\u221a\u222b\u2211\u220f]/g;
/**
 * A Greek letter standing alone (`α = 0.05`, `Δt`): a variable. Inside a Greek word it is
 * Greek prose (`Ετήσια έκθεση`), and a formula only in a math font (`run.math`).
 */
const LONE_GREEK = /(?<![\p{Script=Greek}\p{M}])[\u0391-\u03c9](?![\p{Script=Greek}\p{M}])/gu;

/** Whether the run's baseline is horizontal (rotation within 2° of 0). */
export const horizontal = (r: TextRun): boolean => Math.abs(r.angle) < 2 || Math.abs(r.angle - 360) < 2;

/**
 * Whether the run's baseline is off the page's axes (more than 2° from any right angle):
 * a diagonal watermark (`DRAFT`, `CONFIDENTIAL` kept when watermarks are not removed), a
 * chart's slanted labels. Text a document reads by is set level or at right angles.
 */
export const offAxis = (r: TextRun): boolean => {
  const slant = ((r.angle % 90) + 90) % 90;
  return slant > 2 && slant < 88;
};

/**
 * Groups runs into lines: a run shares a row with the runs near it when it overlaps each
 * of them vertically by half the smaller height (see `groupRows`). A row is then cut only
 * at gutters: a column gutter running down the page, even one narrower than `splitGapEm`
 * (0.6 of it will do); a gap wider than `gutterEm`; or a gap wider than `splitGapEm`
 * lined up with wide gaps on nearby rows (columns, table cells) — so the wide word spaces
 * of justified text in a narrow column do not break lines apart, and a table of
 * contents' entries keep their page numbers. Runs with a rotated baseline (rare: table
 * heads set sideways, axis titles, stamps, watermarks) make lines of their own along
 * their baseline (see `rotatedLines`). Lines come back top to bottom, then left to right.
 */
export function buildLines(runs: readonly TextRun[], options: LineOptions = {}): Line[] {
  const { splitGapEm = 1.0, gutterEm = 3 } = options;
  const flat: TextRun[] = [];
  const tilted: TextRun[] = [];
  for (const r of runs) {
    if (r.text.trim() === "") continue;
    if (horizontal(r)) flat.push(r);
    else tilted.push(r);
  }
  const lines: Line[] = tilted.length ? rotatedLines(tilted) : [];
  seatDropCaps(flat);
  flat.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);

  // 1. Rows: runs sharing a baseline band, left to right, duplicates dropped.
  const rows = groupRows(flat, ROW_REACH_EM);

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
        rw.gaps.push({ at: i, from: right, to: r.x0, size: em, em: gap / em, candidate: gap > minEm * em, code: r.mono && prev.mono });
      }
      if (r.x1 > right) right = r.x1;
    }
  }

  // 3. Cut at gutters: column gutters running down the page (however narrow); very wide
  //    gaps always; a wide gap clearly wider than the word spaces beside it when it lines
  //    up with a column or cell edge on a nearby row; a gap no wider than its neighbours
  //    (justified prose) only when it lines up on three.
  const gutters = columnGutters(rows, 0.6 * splitGapEm);
  // Where each row's `Label:` ends, if it opens with one (worked out once a row).
  const labelEnds: number[] = [];
  const labels = (k: number): number => (labelEnds[k] ??= labelEnd(rows[k]!.runs));
  for (let k = 0; k < rows.length; k++) {
    const rw = rows[k]!;
    const cuts: number[] = [];
    // Cuts at a margin note's strip, by run index: the side the note stands on.
    const notes = new Map<number, NoteSide>();
    const weak: Gap[] = [];
    let valueAt = -1;
    let valueX = 0;
    const labelled = labels(k);
    const keyed = rw.gaps.length ? keyValue(rows, k) : undefined;
    rw.gaps.forEach((g, i) => {
      if (g.at === labelled && labelledValue(rows, k, labels)) {
        [valueAt, valueX] = [g.at, rw.runs[g.at]!.x0];
        return;
      }
      if (g.at === keyed?.at) {
        [valueAt, valueX] = [g.at, keyed.x];
        return;
      }
      if (g.em < MARKER_TAB_EM && hangsFromMarker(rw.runs, g.at, cuts) && (g.em < gutterEm || markerColumn(rows, k, rw.runs[g.at - 1]!))) return;
      if (g.em < MARKER_TAB_EM && clauseNumber(rows, k, g.at, cuts)) return;
      if (g.at === 1 && g.em < 4 && countsOn(rows, k)) return;
      if (g.at === 1 && g.code && lineNumbered(rows, k)) return;
      if (gutters.has(g)) {
        cuts.push(g.at);
        const side = gutters.get(g);
        if (side) notes.set(g.at, side);
        return;
      }
      // (A gap too narrow to cut stays whatever it is: a contents entry is looked for only at a wider one.)
      if (!g.candidate) return;
      if (tocNumber(rows, k, g.at)) return;
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
      // A row of figures with no word space, every gap over the cut width (a table row
      // whose cells all stand 2 em apart), cuts beside a number where two nearby rows have
      // an edge; so does a short one, five pieces at most, ending in a figure (`North
      // Leeds  40`, its words kerned into pieces). (A loose line of justified prose has its
      // gaps all wide too, not its figures.)
      const figures = () =>
        FIGURE.test(rw.runs[g.at]!.text) ||
        FIGURE.test(rw.runs[g.at - 1]!.text) ||
        (FIGURE.test(rw.runs[rw.runs.length - 1]!.text) && rw.gaps.filter((h) => h.em > 0.15).length <= 4);
      if ((distinct && hits >= 1) || (hits >= 2 && figures() && rw.gaps.every((h) => h.em <= 0.15 || h.candidate))) cuts.push(g.at);
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
    for (const to of [...cuts, rw.runs.length]) {
      const line = makeLine(rw.runs.slice(from, to));
      if (valueAt > from && valueAt < to) line.valueX = valueX;
      if (notes.get(to) === "left" || notes.get(from) === "right") line.note = true;
      lines.push(line);
      from = to;
    }
  }
  lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return lines;
}

/** The widest gap (font sizes) along a rotated line between two runs it joins. */
const ALONG_GAP_EM = 1.5;
/** How far (degrees) two rotated runs' baselines may differ in direction and still make one line. */
const ROTATED_ANGLE_SLACK = 2;

/** A rotated run measured in its own baseline's frame. */
interface Tilted {
  run: TextRun;
  /** Where the run starts and ends along its reading direction. */
  from: number;
  to: number;
  /** Where its middle stands across the baseline. */
  across: number;
}

/**
 * Lines of runs with a rotated baseline: runs sharing a direction (within 2°) and a
 * baseline (middles less than half a font size apart across it), each starting within
 * one and a half font sizes of where the one before ends (a quad between words stays
 * inside the line, as it does in a level one: pdflatex's section mark `3 SIDEWAYS` up
 * a turned page's edge), make one line, read in their own direction and
 * spaced where the gap along the baseline is over 0.15 em, as upright text is. Writers
 * draw such text in pieces: Chromium cuts a sideways head at every kerning pair (`Y` +
 * `ear 2022 T` + `otal`), LibreOffice draws a cell's bottom-to-top text one glyph a run,
 * pdflatex a `\rotatebox` one word a run, an SVG chart's axis title at its kerns. Read
 * top to bottom as boxes, 90° text came out backwards and letter by letter.
 */
function rotatedLines(runs: readonly TextRun[]): Line[] {
  const byAngle = [...runs].sort((a, b) => a.angle - b.angle);
  const lines: Line[] = [];
  for (let i = 0; i < byAngle.length; ) {
    let j = i + 1;
    while (j < byAngle.length && byAngle[j]!.angle - byAngle[i]!.angle <= ROTATED_ANGLE_SLACK) j++;
    chainAlong(byAngle.slice(i, j).map(tilt), lines);
    i = j;
  }
  return lines;
}

/** Chains runs of one direction into lines (pushed to `lines`), taking them by where they start along it. */
function chainAlong(measured: Tilted[], lines: Line[]): void {
  measured.sort((a, b) => a.from - b.from);
  // Chains open while a later run may still join them.
  const open: Tilted[][] = [];
  for (const t of measured) {
    const r = t.run;
    let best: Tilted[] | undefined;
    let bestOff = Infinity;
    let kept = 0;
    for (const chain of open) {
      const last = chain[chain.length - 1]!;
      const em = Math.max(r.fontSize, last.run.fontSize);
      if (t.from - last.to > ALONG_GAP_EM * em) {
        lines.push(alongLine(chain)); // nothing later starts closer
        continue;
      }
      open[kept++] = chain;
      const off = Math.abs(t.across - last.across);
      if (off < 0.5 * em && off < bestOff) [best, bestOff] = [chain, off];
    }
    open.length = kept;
    if (!best) open.push([t]);
    else {
      const last = best[best.length - 1]!;
      // Same text drawn twice at (almost) the same spot: fake bold, or a shadow.
      if (r.text === last.run.text && Math.abs(t.from - last.from) < 0.2 * r.fontSize && bestOff < 0.2 * r.fontSize) continue;
      best.push(t);
    }
  }
  for (const chain of open) lines.push(alongLine(chain));
}

/**
 * A rotated run's extent along its reading direction and its middle across it. Its box
 * is axis-aligned, so off the right angles (a 45° chart label, a 35° watermark) the box
 * reaches past the glyphs at each end by about height × |sin·cos|, taken off here with
 * the font size for the height.
 */
function tilt(run: TextRun): Tilted {
  const rad = (run.angle * Math.PI) / 180;
  // Display space grows downwards: the reading direction is (cos, −sin), across it (sin, cos).
  const [c, s] = [Math.cos(rad), Math.sin(rad)];
  const xs = c >= 0 ? [run.x0, run.x1] : [run.x1, run.x0];
  const ys = s >= 0 ? [run.y1, run.y0] : [run.y0, run.y1];
  const inset = run.fontSize * Math.abs(s * c);
  const from = c * xs[0]! - s * ys[0]! + inset;
  const to = c * xs[1]! - s * ys[1]! - inset;
  const mid = (from + to) / 2;
  return { run, from: Math.min(from, mid), to: Math.max(to, mid), across: (s * (run.x0 + run.x1)) / 2 + (c * (run.y0 + run.y1)) / 2 };
}

/** A line of rotated runs in reading order, spaced by the gaps along their baseline. */
function alongLine(chain: readonly Tilted[]): Line {
  let text = "";
  for (let i = 0; i < chain.length; i++) {
    const { run, from } = chain[i]!;
    const prev = chain[i - 1];
    const gap = prev ? from - prev.to : 0;
    if (prev && gap > 0.15 * Math.min(run.fontSize, prev.run.fontSize) && !text.endsWith(" ") && !run.text.startsWith(" ")) text += " ";
    text += run.text;
  }
  return { ...makeLine(chain.map((t) => t.run)), text };
}

/**
 * Groups runs, sorted by vertical centre, into rows that share a baseline band. A run
 * joins a row when it overlaps, by half the smaller height, every run of the row within
 * `reachEm` font sizes of it horizontally; when none is that close (the same baseline in
 * another column, a distant table cell), the row's whole band. Judging a run by its
 * neighbours keeps a tall run from chaining lines together: a heading or a display
 * formula in one column beside two body lines of the other, or a drop cap beside its
 * paragraph, would otherwise merge those lines into one row and interleave their words.
 */
function groupRows(sorted: readonly TextRun[], reachEm: number): Row[] {
  const bands: Band[] = [];
  const open: Band[] = [];
  for (const r of sorted) {
    let best: Band | undefined;
    let bestShare = 0.5;
    let kept = 0;
    for (const band of open) {
      if (band.y1 <= r.y0) continue; // passed for good: runs come top to bottom
      open[kept++] = band;
      const share = fit(band, r, reachEm);
      // Two bands fitting alike (columns of different sizes, their baselines offset, a
      // band's extent grown by the other column): the one with a run beside r takes it,
      // else a word drawn a glyph a run (Chromium) breaks between rows.
      if (share > bestShare || (share === bestShare && (!best || (!nearRun(best, r, reachEm) && nearRun(band, r, reachEm))))) [best, bestShare] = [band, share];
    }
    open.length = kept;
    if (best) {
      best.runs.push(r);
      if (r.y0 < best.y0) best.y0 = r.y0;
      if (r.y1 > best.y1) best.y1 = r.y1;
      if (r.y1 - r.y0 < best.minH) best.minH = r.y1 - r.y0;
    } else {
      const band = { runs: [r], y0: r.y0, y1: r.y1, minH: r.y1 - r.y0 };
      bands.push(band);
      open.push(band);
    }
  }
  return bands.map((band) => {
    band.runs.sort((a, b) => a.x0 - b.x0);
    const kept: TextRun[] = [];
    for (const r of band.runs) {
      const prev = kept[kept.length - 1];
      // Same text drawn twice at (almost) the same spot: fake bold, or a shadow.
      if (prev && r.text === prev.text && Math.abs(r.x0 - prev.x0) < 0.2 * r.fontSize && Math.abs(r.y0 - prev.y0) < 0.2 * r.fontSize) continue;
      kept.push(r);
    }
    return { runs: seatAccents(kept), y0: band.y0, y1: band.y1, gaps: [] };
  });
}

/**
 * A row's runs with each accent drawn on its own over a letter (TeX's capitals: `\'E`
 * raises `´` over the `E` of `Ecole`) taken into that letter: `École`. The accent is a
 * run of one spacing accent whose middle stands over the first glyph of a run beside it.
 */
function seatAccents(runs: TextRun[]): TextRun[] {
  let out = runs;
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    if (a.text.length !== 1) continue;
    const code = a.text.charCodeAt(0);
    const mark = combiningMark(code);
    if (!mark) continue;
    const middle = (a.x0 + a.x1) / 2;
    const j = [i + 1, i - 1].find((k) => {
      const r = out[k];
      if (!r || r === a || !/^\p{L}/u.test(r.text)) return false;
      const firstEnd = r.chars?.[0]?.x1 ?? r.x0 + (r.x1 - r.x0) / Math.max(1, r.text.length);
      return middle >= r.x0 && middle <= Math.max(firstEnd, r.x0 + 0.8 * r.fontSize) && a.y0 < r.y0 + 0.5 * r.fontSize;
    });
    if (j === undefined) continue;
    const r = out[j]!;
    const first = [...r.text][0]!;
    const letter = accented(first, mark);
    const seated: TextRun = { ...r, text: letter + r.text.slice(first.length), y0: Math.min(r.y0, a.y0) };
    if (r.chars?.length) seated.chars = [{ ...r.chars[0]!, text: letter }, ...r.chars.slice(1)];
    out = out === runs ? [...runs] : out;
    out[j] = seated;
    out.splice(i, 1);
    i--;
  }
  return out;
}

interface Band {
  runs: TextRun[];
  y0: number;
  y1: number;
  /** Height of the band's shortest run. */
  minH: number;
}

/** How well `r` sits in `band`: its vertical overlap share with the worst-fitting near run, else with the band. */
function fit(band: Band, r: TextRun, reachEm: number): number {
  // Fast path, the common case of a plain line: every run of the band loses at most
  // `out` of its height outside r, so none overlaps it by less than 1 - out / minH.
  const out = Math.max(0, r.y0 - band.y0) + Math.max(0, band.y1 - r.y1);
  if (band.minH > 0 && out <= 0.5 * band.minH) return 1 - out / band.minH;
  let worst = Infinity;
  for (const s of band.runs) {
    const reach = reachEm * Math.max(r.fontSize, s.fontSize);
    if (s.x0 - r.x1 > reach || r.x0 - s.x1 > reach) continue;
    const share = overlapShare(r, s);
    if (share < 0.5) return share;
    if (share < worst) worst = share;
  }
  return worst === Infinity ? overlapShare(r, band) : worst;
}

/** Whether a run of `band` stands within reach of `r` along the row. */
function nearRun(band: Band, r: TextRun, reachEm: number): boolean {
  for (let i = band.runs.length - 1; i >= 0; i--) {
    const s = band.runs[i]!;
    const reach = reachEm * Math.max(r.fontSize, s.fontSize);
    if (s.x0 - r.x1 <= reach && r.x0 - s.x1 <= reach) return true;
  }
  return false;
}

/** Vertical overlap of two extents as a share of the smaller height (a flat extent counts whole when touched). */
function overlapShare(a: { y0: number; y1: number }, b: { y0: number; y1: number }): number {
  const ov = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const h = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return h > 0 ? ov / h : ov >= 0 ? 1 : -1;
}

/** A listing's line number: a monospace integer opening its row. */
const gutterNumber = (rw: Row): number | undefined => {
  const r = rw.runs[0];
  return r?.mono && /^\d{1,5}$/.test(r.text) ? Number(r.text) : undefined;
};

/**
 * Whether row `k` opens with a listing's line number (a Pygments or MkDocs table of
 * numbers beside the code): a row within three opens with the number as many more or
 * fewer, its right edge at the same place. The code stays on the number's row however
 * deeply it is indented.
 */
function lineNumbered(rows: readonly Row[], k: number): boolean {
  const n = gutterNumber(rows[k]!);
  if (n === undefined) return false;
  const x1 = rows[k]!.runs[0]!.x1;
  for (let j = Math.max(0, k - 3); j <= Math.min(rows.length - 1, k + 3); j++) {
    if (j !== k && gutterNumber(rows[j]!) === n + j - k && Math.abs(rows[j]!.runs[0]!.x1 - x1) <= 1.5) return true;
  }
  return false;
}

/** A space between two runs of a row. */
export interface Gap {
  /** Index of the run after the gap. */
  at: number;
  from: number;
  to: number;
  /** Font size the gap is measured in (the larger of its two runs). */
  size: number;
  /** Width in font sizes. */
  em: number;
  /** Wide enough to be a cut (splitGapEm, more for code). */
  candidate: boolean;
  /** Between two monospace runs: code aligned with spaces, never a column gutter. */
  code: boolean;
}

/** How far (font sizes) runs are neighbours when rows are grouped. */
const ROW_REACH_EM = 3;

/** Runs sharing a baseline band, left to right, and the gaps between them. */
export interface Row {
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
      const startsHere = Math.abs(r.x0 - g.to) <= 1.5 && (i === 0 || r.x0 - runs[i - 1]!.x1 > em);
      const endsHere = Math.abs(r.x1 - g.from) <= 1.5 && (i === runs.length - 1 || runs[i + 1]!.x0 - r.x1 > em);
      if (startsHere || endsHere) {
        hits++;
        break;
      }
    }
  }
  return hits;
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
  // The line's text outside math fonts, to find the Greek letters that stand alone.
  let plain = "";
  let chars = 0;
  let prev: TextRun | undefined;
  const cjkGap = bidi ? Infinity : narrowestCjkGap(runs);
  const tracking = bidi ? Infinity : letterSpacing(runs);
  const cjkSpace = cjkGap === Infinity ? cjkWordSpace(runs) : NaN;
  for (const r of runs) {
    if (prev && !bidi && needsSpace(prev, r, text, cjkGap, tracking, cjkSpace)) {
      const gap = prev.mono && r.mono ? monoSpaces(prev, r) : " ";
      text += gap;
      plain += gap;
    }
    text += r.text;
    plain += r.math ? " " : r.text;
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
  if (/[\u0391-\u03c9]/.test(plain)) mathChars += plain.match(LONE_GREEK)?.length ?? 0;
  let fontSize = 0;
  let best = -1;
  for (const [size, n] of sizes) if (n > best || (n === best && size > fontSize)) [fontSize, best] = [size, n];
  // Bold by majority: a heading mixing a bold Latin font with a regular CJK fallback is
  // still a bold heading, while a paragraph with a bold lead-in phrase is not.
  // A bold label and its value in regular type (`Registration number: 09876543`) is not.
  let bold = chars > 0 && boldChars / chars >= 0.6;
  if (bold && !runs[runs.length - 1]!.bold) {
    const label = runs.findIndex((r) => !r.bold);
    if (label > 0 && /[:：]\s*$/.test(runs[label - 1]!.text) && runs.slice(label).every((r) => !r.bold)) bold = false;
  }
  return { runs, text, x0, y0, x1, y1, fontSize, bold, mono, mathShare: chars ? mathChars / chars : 0 };
}
