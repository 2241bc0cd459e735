import { rectOf, rectToCoordinates, unionRects, type PageSize, type Rect } from "../chunk/rect.js";
import { lineDirection } from "../chunk/line-direction.js";
import type { TextBox } from "../chunk/text-span.js";
import { isCjkChar } from "./match-terms.js";

/**
 * Geometry for highlights, on the rectangles of `../chunk/rect.ts` (the bounding
 * rectangles of the wire's 8-number boxes): the viewer draws axis-aligned rectangles.
 */

/** The same points in pixels: x × width, y × height. */
export function toPixelCoordinates(coordinates: readonly number[], size: PageSize): number[] {
  return coordinates.map((v, i) => (i % 2 === 0 ? v * size.width : v * size.height));
}

/** Area of a rectangle (0 for an empty or inverted one). */
export function rectArea(r: Rect): number {
  return Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0);
}

/** The overlap of two rectangles (possibly empty). */
export function intersectRects(a: Rect, b: Rect): Rect {
  return { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
}

/** Intersection over union, 0..1. */
export function rectIoU(a: Rect, b: Rect): number {
  const inter = rectArea(intersectRects(a, b));
  const union = rectArea(a) + rectArea(b) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Tight per-line boxes of `[start, end)` from per-character boxes (`char_details`):
 * characters whose centres fall within the same line are joined into one rectangle, the
 * line's height for level text, its width for text set sideways (a page turned by
 * /Rotate, read down or up it). `chars[i].start` is the character's offset.
 */
export function boxesFromChars(chars: readonly TextBox[], start: number, end: number): number[][] {
  const rects: Rect[] = [];
  for (const c of chars) {
    if (c.end <= start || c.start >= end) continue;
    const r = rectOf(c.coordinates);
    if (rectArea(r) === 0 && r.x1 === r.x0) continue;
    rects.push(r);
  }
  const sideways = lineDirection(rects) !== "level";
  const lines: Rect[] = [];
  for (const r of rects) {
    const last = lines[lines.length - 1];
    const [c, lo, hi] = sideways ? [(r.x0 + r.x1) / 2, last?.x0, last?.x1] : [(r.y0 + r.y1) / 2, last?.y0, last?.y1];
    // Same line when the centre sits inside the previous line's extent across it.
    if (last && c >= lo! && c <= hi!) lines[lines.length - 1] = unionRects(last, r);
    else lines.push(r);
  }
  return lines.map(rectToCoordinates);
}

// Relative advance of a glyph, in ems: CJK glyphs are square, Latin ones about half.
function advance(ch: string): number {
  if (isCjkChar(ch) || /[\u3000-\u303f\uff00-\uffef]/.test(ch)) return 1;
  if (ch === " ") return 0.3;
  return 0.5;
}

// A4 portrait, for pages whose size is unknown: the box's aspect ratio decides how many
// lines it holds.
const DEFAULT_PAGE: PageSize = { width: 1000, height: 1414 };

/**
 * Estimated per-line boxes of `[start, end)` of `text` laid out in `coordinates` (the
 * element's box) when no character geometry exists. The text is assumed to fill the box
 * in evenly wrapped lines of glyphs of one size (CJK 1 em, Latin ½ em, line height
 * 1.2 em); the line count follows from the box's area. The result is approximate: right
 * for one-line elements, close for paragraphs, coarse for ragged ones.
 */
export function narrowBox(
  coordinates: readonly number[],
  text: string,
  start: number,
  end: number,
  pageSize: PageSize = DEFAULT_PAGE,
): number[][] {
  const box = rectOf(coordinates);
  const s = Math.max(0, Math.min(start, text.length));
  const e = Math.max(s, Math.min(end, text.length));
  if (text.length === 0 || e === s) return [];
  // Cumulative advance up to each offset.
  const cum = new Float64Array(text.length + 1);
  for (let i = 0; i < text.length; i++) cum[i + 1] = cum[i]! + (text[i] === "\n" ? 0 : advance(text[i]!));
  const units = cum[text.length]!;
  if (units === 0) return [rectToCoordinates(box)];
  const wPx = (box.x1 - box.x0) * pageSize.width;
  const hPx = (box.y1 - box.y0) * pageSize.height;
  const em = Math.sqrt((wPx * hPx) / (1.2 * units));
  const lines = Math.max(1, Math.round(hPx / (1.2 * em)));
  const perLine = units / lines;
  const lineH = (box.y1 - box.y0) / lines;
  const at = (u: number, isEnd: boolean) => {
    let line = Math.floor(u / perLine);
    // An end exactly on a line boundary belongs to the line before.
    if (isEnd && line > 0 && u === line * perLine) line--;
    line = Math.min(lines - 1, Math.max(0, line));
    const frac = Math.min(1, Math.max(0, (u - line * perLine) / perLine));
    return { line, frac };
  };
  const a = at(cum[s]!, false);
  const b = at(cum[e]!, true);
  const out: number[][] = [];
  for (let line = a.line; line <= b.line; line++) {
    const f0 = line === a.line ? a.frac : 0;
    const f1 = line === b.line ? b.frac : 1;
    out.push(
      rectToCoordinates({
        x0: box.x0 + f0 * (box.x1 - box.x0),
        x1: box.x0 + f1 * (box.x1 - box.x0),
        y0: box.y0 + line * lineH,
        y1: box.y0 + (line + 1) * lineH,
      }),
    );
  }
  return out;
}
