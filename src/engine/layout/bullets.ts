import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { LIST_MARKER } from "./list-marker.js";
import type { Rect, TextRun } from "./types.js";

/**
 * List bullets drawn as shapes. Chromium and other Skia-based producers ("Save as PDF",
 * Google Docs exports) draw disc, circle and square markers as small paths, not glyphs,
 * so a list's text never holds its markers and its items read as one paragraph. A
 * format hands the page's small closed shapes over as {@link BulletShape}s; those that
 * sit where a bullet sits — just before the first run of a line, vertically centred on
 * it, about a third of its font size — become a marker run ("• ", "◦ ", "▪ "), and
 * list detection (list-marker.ts `LIST_MARKER`, list levels in classify.ts) takes over as for
 * a bullet glyph. Shapes that match no line are decoration and dropped.
 */

/** A small closed shape a format found among a page's paths, in page units. */
export interface BulletShape extends Rect {
  /** A filled disc, a stroked or ring-filled circle, a filled square. */
  kind: "disc" | "circle" | "square";
  /** Its colour (`#rrggbb`) when known: compared with the item's text colour. */
  colour?: string;
}

/** The marker character each shape becomes (all three are bullets of `LIST_MARKER`). */
export const BULLET_TEXT: Readonly<Record<BulletShape["kind"], string>> = { disc: "\u2022", circle: "\u25e6", square: "\u25aa" };

/** Tuning for {@link bulletRuns}; every distance is in font sizes of the item's text. */
export interface BulletOptions {
  /**
   * Gap between the shape and the item's first run. CSS puts an outside marker ~0.5 em
   * before the text (Chromium: 8 px at 16 px), word processors a tab stop of up to
   * ~0.5 in; below 0.2 em a shape touches the text (an underline end, an icon inside a
   * word). @default 0.2
   */
  minGapEm?: number;
  /** @default 2.5 */
  maxGapEm?: number;
  /**
   * Larger side of the shape. CSS markers are ~0.31 em (5 px at 16 px); bullet glyphs
   * of word processors up to ~0.5 em. Smaller is a dot or a speck, larger an icon or a
   * checkbox beside a label. @default 0.15
   */
  minSizeEm?: number;
  /** @default 0.7 */
  maxSizeEm?: number;
  /**
   * Most the shape's centre may be off the middle of the run's box (ascent to descent),
   * as a share of its height. A marker sits at mid x-height, ~0.1 em above the box's
   * middle; a chart marker beside a label's baseline or a mark between two rows of text
   * sits further off. @default 0.3
   */
  maxOffCentre?: number;
  /**
   * Text on the other side of the shape closer than this means the shape is inside a
   * line (a separator dot between two words, a chart marker in a legend row), not
   * before its first run. The layout cuts a line at gaps wider than 1 em only. @default 1
   */
  clearEm?: number;
}

/** Whether a run's baseline is horizontal (the only runs a bullet is matched to). */
const level = (r: TextRun): boolean => Math.abs(r.angle) < 2 || Math.abs(r.angle - 360) < 2;

/**
 * The marker runs of shapes that sit before a line's first run: to its left on a
 * left-to-right run, to its right on a right-to-left one (the run's letters decide, as
 * the bidi pass does). A marker run covers the shape and the gap to the item, has the
 * item run's font size and style, and glyph positions (for char_details): the shape's
 * box for the marker, the gap for the space. At most one marker per item run.
 */
export function bulletRuns(shapes: readonly BulletShape[], runs: readonly TextRun[], options: BulletOptions = {}): TextRun[] {
  const { minGapEm = 0.2, maxGapEm = 2.5, minSizeEm = 0.15, maxSizeEm = 0.7, maxOffCentre = 0.3, clearEm = 1 } = options;
  const out: TextRun[] = [];
  const taken = new Set<TextRun>();
  const rtlOf = new Map<TextRun, boolean>();
  const isRtl = (r: TextRun): boolean => {
    let v = rtlOf.get(r);
    if (v === undefined) rtlOf.set(r, (v = hasRtl(r.text) && rtlWins(countDirection(r.text))));
    return v;
  };
  for (const s of shapes) {
    const cy = (s.y0 + s.y1) / 2;
    // The nearest runs on each side whose extent spans the shape's centre.
    let left: TextRun | undefined;
    let right: TextRun | undefined;
    let inside = false;
    for (const r of runs) {
      if (cy < r.y0 || cy > r.y1 || !level(r) || r.text.trim() === "") continue;
      if (r.x1 <= s.x0) {
        if (!left || r.x1 > left.x1) left = r;
      } else if (r.x0 >= s.x1) {
        if (!right || r.x0 < right.x0) right = r;
      } else {
        inside = true;
        break;
      }
    }
    // A shape over text is a highlight, a strike or an icon in the line.
    if (inside) continue;
    const fits = (item: TextRun | undefined, gap: number, other: TextRun | undefined, otherGap: number): boolean => {
      if (!item || taken.has(item)) return false;
      const em = item.fontSize;
      if (gap < minGapEm * em || gap > maxGapEm * em) return false;
      const size = Math.max(s.x1 - s.x0, s.y1 - s.y0);
      if (size < minSizeEm * em || size > maxSizeEm * em) return false;
      if (Math.abs(cy - (item.y0 + item.y1) / 2) > maxOffCentre * (item.y1 - item.y0)) return false;
      if (!sameColour(s.colour, item.colour)) return false;
      return !other || otherGap > clearEm * em;
    };
    let item: TextRun | undefined;
    if (right && !isRtl(right) && fits(right, right.x0 - s.x1, left, left ? s.x0 - left.x1 : Infinity)) item = right;
    else if (left && isRtl(left) && fits(left, s.x0 - left.x1, right, right ? right.x0 - s.x1 : Infinity)) item = left;
    if (!item) continue;
    taken.add(item);
    out.push(markerRun(s, item, item === left));
  }
  return out;
}

/**
 * Shapes that are no bullet: a radio button's selection dot. A form flattened into the
 * page (pdf-lib's `flatten`, "print to PDF" of a filled form) draws each radio button as
 * a ring or a box with, when selected, a filled dot centred in it — no longer inside a
 * widget's appearance, so only the geometry tells it from a list's disc. A shape is
 * dropped when a painted path 1.5–4 × its size (the ring; a list marker's own path is its
 * size) stands around it, centred on it within a tenth of the ring's size.
 */
export function withoutControlDots(shapes: readonly BulletShape[], drawings: readonly Rect[]): readonly BulletShape[] {
  // Only small paths can be a control's ring: a marker is 8 pt at most.
  const rings = drawings.filter((d) => d.x1 - d.x0 <= 32 && d.y1 - d.y0 <= 32);
  if (rings.length === 0) return shapes;
  const inRing = (s: BulletShape): boolean => {
    const side = Math.max(s.x1 - s.x0, s.y1 - s.y0);
    return rings.some((d) => {
      const ring = Math.max(d.x1 - d.x0, d.y1 - d.y0);
      if (ring < 1.5 * side || ring > 4 * side || d.x0 > s.x0 || d.y0 > s.y0 || d.x1 < s.x1 || d.y1 < s.y1) return false;
      return Math.abs(d.x0 + d.x1 - s.x0 - s.x1) / 2 <= 0.1 * ring && Math.abs(d.y0 + d.y1 - s.y0 - s.y1) / 2 <= 0.1 * ring;
    });
  };
  const kept = shapes.filter((s) => !inRing(s));
  return kept.length === shapes.length ? shapes : kept;
}

/**
 * The marker run of shape `s` before `item`: its text is the marker and the space after
 * it (`"• "`; `" •"` in drawing order when the item reads right to left), its box spans
 * the shape and the gap up to the item, so no gap is left between them — Chromium puts
 * an `inside` marker, and an `outside` one at small sizes, over 1 em before the text,
 * where a line may be cut (lines.ts) and the marker would become a line of its own. The
 * glyph positions keep the shape's box for the marker and the gap for the space.
 */
function markerRun(s: BulletShape, item: TextRun, rtl: boolean): TextRun {
  const mark = BULLET_TEXT[s.kind];
  const space = rtl ? { text: " ", x0: item.x1, x1: s.x0 } : { text: " ", x0: s.x1, x1: item.x0 };
  const glyph = { text: mark, x0: s.x0, x1: s.x1 };
  return {
    text: rtl ? ` ${mark}` : `${mark} `,
    x0: rtl ? item.x1 : s.x0,
    y0: s.y0,
    x1: rtl ? s.x1 : item.x0,
    y1: s.y1,
    fontSize: item.fontSize,
    bold: item.bold,
    italic: item.italic,
    mono: item.mono,
    math: false,
    angle: 0,
    chars: rtl ? [space, glyph] : [glyph, space],
  };
}

/** What OCR engines read a round list bullet as (Tesseract: `e`, `e¢`, `©`, `«`, `¢`, `°`…). */
const MISREAD_BULLET = /^(?:e[¢©]?|[©®«»¢°·])$/;

/**
 * List bullets an OCR engine misread. Tesseract reads a round bullet as `e`, `e¢`, `e©`,
 * `©`, `®`, `«`, `»`, `¢`, `°` or `·`, so an OCR'd list's items start with a stray letter,
 * read as prose, and the marker, a tab stop away from its text, can even be cut off onto
 * a line of its own. An OCR run (`ocr`) holding only such a token becomes a bullet run
 * (`"• "`, up to the item's text, like a bullet drawn as a shape) when it stands first on
 * its line with the item's text 0.6 to 3 em after it and no nearer than the line's usual
 * word space (a tab stop), the item starting with a capital or a digit after a
 * letter-like mark (`e` is a word in Italian and Portuguese), and the page shows it is a
 * list: the item's next line hangs at its text (`e Section 2 describes…` / `format.`),
 * another such marker lines up over or under it with its text, or a numbered or
 * bulleted line sits right above or below it. What the engine read is kept as a
 * candidate of the bullet in its OCR character details. Other runs are returned as they
 * are (the same array when nothing changed).
 */
export function ocrBullets(runs: readonly TextRun[]): readonly TextRun[] {
  const marks = runs.filter((r) => r.ocr && level(r) && MISREAD_BULLET.test(r.text));
  if (marks.length === 0) return runs;
  const byHeight = new YIndex(runs.filter(level));
  const rowmates = (r: TextRun): TextRun[] => byHeight.within(r.y0, r.y1).filter((o) => o !== r && overlapY(o, r) >= 0.5 * Math.min(o.y1 - o.y0, r.y1 - r.y0));
  const starts = new Map<TextRun, boolean>();
  const startsLine = (r: TextRun): boolean => {
    let v = starts.get(r);
    if (v === undefined) starts.set(r, (v = !rowmates(r).some((o) => o.x1 <= r.x0 + 0.1 * r.fontSize && r.x0 - o.x1 < 3 * r.fontSize)));
    return v;
  };
  // The item's text after each candidate, when it stands first on its line.
  const items = new Map<TextRun, TextRun>();
  for (const m of marks) {
    const mates = rowmates(m);
    const em = m.fontSize;
    if (mates.some((o) => o.x1 <= m.x0 + 0.1 * em && m.x0 - o.x1 < 3 * em)) continue;
    let item: TextRun | undefined;
    for (const o of mates) if (o.x0 >= m.x1 - 0.1 * em && (!item || o.x0 < item.x0)) item = o;
    if (!item || m.y1 - m.y0 > 1.3 * (item.y1 - item.y0)) continue;
    const tab = item.x0 - m.x1;
    if (tab < 0.6 * item.fontSize || tab > 3 * item.fontSize || tab < wordSpace(mates, item)) continue;
    if (/^[a-z]/i.test(m.text) && !/^[\p{Lu}\p{N}]/u.test(item.text)) continue;
    items.set(m, item);
  }
  if (items.size === 0) return runs;
  const replaced = new Map<TextRun, TextRun>();
  const marksByHeight = new YIndex([...items.keys()]);
  for (const [m, item] of items) {
    const em = item.fontSize;
    const around = byHeight.within(m.y0 - 2.2 * em, m.y1 + 2.2 * em).filter((r) => r !== m && r !== item && startsLine(r));
    const hangs = around.some((r) => r.y0 > m.y0 && Math.abs(r.x0 - item.x0) < 0.3 * em);
    const aligned = marksByHeight.within(m.y0 - 8 * em, m.y1 + 8 * em).some((m2) => m2 !== m && Math.abs(m2.x0 - m.x0) < 0.5 * em && Math.abs(items.get(m2)!.x0 - item.x0) < 0.5 * em);
    const inList = around.some((r) => !items.has(r) && LIST_MARKER.test(`${r.text} `));
    if (hangs || aligned || inList) replaced.set(m, ocrMarkerRun(m, item));
  }
  return replaced.size ? runs.map((r) => replaced.get(r) ?? r) : runs;
}

/**
 * Runs by top edge, to find those reaching into a band of heights without a walk over the
 * page. Runs over four times the median height (a rule read as `|`, a tall figure label)
 * are kept apart and always looked at, so one of them does not widen every search.
 */
class YIndex {
  private readonly sorted: TextRun[];
  private readonly tall: TextRun[];
  private readonly reach: number;

  constructor(runs: readonly TextRun[]) {
    const heights = runs.map((r) => r.y1 - r.y0).sort((a, b) => a - b);
    const limit = 4 * (heights[heights.length >> 1] ?? 0);
    this.sorted = runs.filter((r) => r.y1 - r.y0 <= limit).sort((a, b) => a.y0 - b.y0);
    this.tall = runs.filter((r) => r.y1 - r.y0 > limit);
    this.reach = limit;
  }

  /** Runs whose vertical extent meets [y0, y1]. */
  within(y0: number, y1: number): TextRun[] {
    const { sorted } = this;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.y0 < y0 - this.reach) lo = mid + 1;
      else hi = mid;
    }
    const out: TextRun[] = [];
    for (let k = lo; k < sorted.length && sorted[k]!.y0 <= y1; k++) if (sorted[k]!.y1 >= y0) out.push(sorted[k]!);
    for (const r of this.tall) if (r.y0 <= y1 && r.y1 >= y0) out.push(r);
    return out;
  }
}

/** The median gap between the words of a row from `from` on (0 when it has none). */
function wordSpace(row: readonly TextRun[], from: TextRun): number {
  const words = row.filter((r) => r.x0 >= from.x0).sort((a, b) => a.x0 - b.x0);
  const gaps: number[] = [];
  for (let k = 1; k < words.length; k++) {
    const g = words[k]!.x0 - words[k - 1]!.x1;
    if (g > 0 && g < 3 * from.fontSize) gaps.push(g);
  }
  gaps.sort((a, b) => a - b);
  return gaps.length ? gaps[gaps.length >> 1]! : 0;
}

/** The bullet run of a misread marker `m` before `item`: `"• "` up to the item's text. */
function ocrMarkerRun(m: TextRun, item: TextRun): TextRun {
  const run: TextRun = { ...m, text: "\u2022 ", x1: item.x0 };
  if (m.chars) run.chars = [{ text: "\u2022", x0: m.x0, x1: m.x1 }, { text: " ", x0: m.x1, x1: item.x0 }];
  if (m.ocrChars) {
    const confidence = m.confidence ?? 1;
    run.ocrChars = [
      { text: "\u2022", box: { x0: m.x0, y0: m.y0, x1: m.x1, y1: m.y1 }, confidence, candidates: [{ text: m.text, confidence }] },
      { text: " ", box: { x0: m.x1, y0: m.y0, x1: item.x0, y1: m.y1 }, confidence: 1, candidates: [] },
    ];
  }
  return run;
}

const overlapY = (a: Rect, b: Rect): number => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);

/**
 * Whether a shape and a run have the same colour, when both are known. A list marker
 * takes its item's text colour (CSS `::marker` inherits `color`); a chart legend draws
 * a coloured swatch before black text. Channels may differ by a little (colour-space
 * round trips).
 */
function sameColour(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a === b) return true;
  const pa = rgb(a);
  const pb = rgb(b);
  if (!pa || !pb) return true;
  return Math.abs(pa[0] - pb[0]) <= 24 && Math.abs(pa[1] - pb[1]) <= 24 && Math.abs(pa[2] - pb[2]) <= 24;
}

function rgb(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? [Number.parseInt(m[1]!, 16), Number.parseInt(m[2]!, 16), Number.parseInt(m[3]!, 16)] : undefined;
}
