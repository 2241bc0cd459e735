import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import type { Rect, TextRun } from "./types.js";

/**
 * List bullets drawn as shapes. Chromium and other Skia-based producers ("Save as PDF",
 * Google Docs exports) draw disc, circle and square markers as small paths, not glyphs,
 * so a list's text never holds its markers and its items read as one paragraph. A
 * format hands the page's small closed shapes over as {@link BulletShape}s; those that
 * sit where a bullet sits — just before the first run of a line, vertically centred on
 * it, about a third of its font size — become a marker run ("• ", "◦ ", "▪ "), and
 * list detection (blocks.ts `LIST_MARKER`, list levels in classify.ts) takes over as for
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
