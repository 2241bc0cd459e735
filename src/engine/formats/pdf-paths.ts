/**
 * Geometry of pdfjs path buffers (`constructPath` ops): the axis-aligned rules that
 * tables are drawn with.
 */

// Drawing ops inside a constructPath buffer (`DrawOPS` in pdfjs-dist).
const DRAW_MOVE = 0;
const DRAW_LINE = 1;
const DRAW_CURVE = 2;
const DRAW_QUAD = 3;
const DRAW_CLOSE = 4;

/** Whether a `#rrggbb` fill is very light (luminance above 0.78): watermark ink. */
export function lightColour(hex: string): boolean {
  // Pages set the same few colours over and over: remember the last answer.
  if (hex === lastColour.hex) return lastColour.light;
  lastColour.hex = hex;
  lastColour.light = luminance(hex) > 0.78;
  return lastColour.light;
}

const lastColour = { hex: "", light: false };

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return 0;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => Number.parseInt(h, 16) / 255) as [number, number, number];
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/**
 * Axis-aligned segments of a path: every straight edge when stroked; for fills, only
 * thin subpaths (a rule drawn as a filled rectangle), along their long side.
 */
export function pathSegments(
  data: ArrayLike<number>,
  pt: (x: number, y: number) => [number, number],
  stroke: boolean,
  add: (ax: number, ay: number, bx: number, by: number) => void,
): void {
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let curved = false;
  const flushFill = (): void => {
    if (!stroke && !curved && minX !== Infinity) {
      const w = maxX - minX;
      const h = maxY - minY;
      if (h <= 3 && w > 4) add(minX, (minY + maxY) / 2, maxX, (minY + maxY) / 2);
      else if (w <= 3 && h > 4) add((minX + maxX) / 2, minY, (minX + maxX) / 2, maxY);
    }
    minX = minY = Infinity;
    maxX = maxY = -Infinity;
    curved = false;
  };
  const grow = (px: number, py: number): void => {
    if (px < minX) minX = px;
    if (py < minY) minY = py;
    if (px > maxX) maxX = px;
    if (py > maxY) maxY = py;
  };
  for (let i = 0; i < data.length; ) {
    const op = data[i++];
    if (op === DRAW_MOVE) {
      flushFill();
      [cx, cy] = pt(data[i]!, data[i + 1]!);
      [sx, sy] = [cx, cy];
      grow(cx, cy);
      i += 2;
    } else if (op === DRAW_LINE) {
      const [px, py] = pt(data[i]!, data[i + 1]!);
      if (stroke) add(cx, cy, px, py);
      grow(px, py);
      [cx, cy] = [px, py];
      i += 2;
    } else if (op === DRAW_CURVE) {
      [cx, cy] = pt(data[i + 4]!, data[i + 5]!);
      curved = true;
      i += 6;
    } else if (op === DRAW_QUAD) {
      [cx, cy] = pt(data[i + 2]!, data[i + 3]!);
      curved = true;
      i += 4;
    } else if (op === DRAW_CLOSE) {
      if (stroke) add(cx, cy, sx, sy);
      [cx, cy] = [sx, sy];
    } else {
      break;
    }
  }
  flushFill();
}

/** What a small closed shape looks like: a filled disc, a stroked (or ring-filled) circle, a filled square. */
export type MarkerKind = "disc" | "circle" | "square";

/** A small closed shape that may be a list bullet drawn as a path, with its display box. */
export interface MarkerShape {
  kind: MarkerKind;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Its colour (`#rrggbb`), set by the caller that knows the graphics state. */
  colour?: string;
}

// Bullet geometry, display points. CSS draws disc/circle/square markers at about a third
// of the font size (5 px at 16 px, 3.75 pt at 12 pt); across 6–24 pt text that is
// 2–8 pt. Smaller marks are dots and speckles, larger ones checkboxes (Chromium draws a
// form checkbox 13 px = 9.75 pt wide) and icons.
const MARKER_MIN = 2;
const MARKER_MAX = 8;
// A disc or square is as high as it is wide; 1.5 leaves room for rounding and skewed
// CTMs while excluding the thin filled rectangles tables draw their rules with.
const MARKER_ASPECT = 1.5;
/**
 * Longest path buffer looked at as a bullet. A circle is a move, 4–16 Béziers and a
 * close (Skia: 16, 116 numbers), a ring twice that, a square 4 lines and a close (13).
 * Longer buffers are figures: rejected before reading them.
 */
export const MARKER_MAX_DATA = 240;

/**
 * The bullet shape a painted path draws, if it is one: a single closed subpath that is
 * either all curves (a disc when filled, a circle when stroked), or an axis-aligned
 * four-sided polygon when filled (a stroked square is a checkbox, not a bullet); or two
 * concentric curved subpaths filled (a ring: a circle drawn as a fill). Its box, in
 * display space, must be 2–8 pt on each side and roughly square. Cheap for everything
 * else: a long buffer or a box of the wrong size is rejected before the path is read.
 * @param minMax the path's bounds in user space when pdfjs gives them (constructPath's third argument)
 */
export function markerShape(
  data: ArrayLike<number>,
  minMax: ArrayLike<number> | null | undefined,
  pt: (x: number, y: number) => [number, number],
  stroke: boolean,
): MarkerShape | undefined {
  if (data.length > MARKER_MAX_DATA || data.length < 9) return undefined;
  if (minMax && minMax.length >= 4 && !markerSized(boxOf([pt(minMax[0]!, minMax[1]!), pt(minMax[2]!, minMax[1]!), pt(minMax[0]!, minMax[3]!), pt(minMax[2]!, minMax[3]!)]))) return undefined;
  // Per subpath: bounds, curves, lines, and whether it was closed.
  const subs: { x0: number; y0: number; x1: number; y1: number; curves: number; lines: number; closed: boolean; sx: number; sy: number; cx: number; cy: number; axis: boolean }[] = [];
  for (let i = 0; i < data.length; ) {
    const op = data[i++];
    const sub = subs[subs.length - 1];
    if (op === DRAW_MOVE) {
      if (subs.length === 2) return undefined;
      const [x, y] = pt(data[i]!, data[i + 1]!);
      subs.push({ x0: x, y0: y, x1: x, y1: y, curves: 0, lines: 0, closed: false, sx: x, sy: y, cx: x, cy: y, axis: true });
      i += 2;
      continue;
    }
    if (!sub || sub.closed) return undefined;
    if (op === DRAW_LINE || op === DRAW_CURVE || op === DRAW_QUAD) {
      const n = op === DRAW_LINE ? 2 : op === DRAW_CURVE ? 6 : 4;
      // Control points bound a Bézier curve: the box of all points holds the shape (for
      // a circle, exactly: its control points lie inside the circumscribed square).
      for (let k = 0; k < n; k += 2) {
        const [x, y] = pt(data[i + k]!, data[i + k + 1]!);
        grow(sub, x, y);
        if (k === n - 2) {
          if (op === DRAW_LINE && Math.abs(x - sub.cx) > 0.2 && Math.abs(y - sub.cy) > 0.2) sub.axis = false;
          sub.cx = x;
          sub.cy = y;
        }
      }
      if (op === DRAW_LINE) sub.lines++;
      else sub.curves++;
      i += n;
    } else if (op === DRAW_CLOSE) {
      sub.closed = true;
    } else {
      return undefined;
    }
  }
  const a = subs[0];
  if (!a) return undefined;
  // A subpath whose last point is back at its start is closed without saying so.
  for (const s of subs) if (!s.closed && Math.abs(s.cx - s.sx) < 0.1 && Math.abs(s.cy - s.sy) < 0.1) s.closed = true;
  if (!subs.every((s) => s.closed) || !markerSized(a)) return undefined;
  const box = { x0: a.x0, y0: a.y0, x1: a.x1, y1: a.y1 };
  if (subs.length === 2) {
    // A ring: the inner circle centred in the outer one.
    const b = subs[1]!;
    const round = a.lines === 0 && b.lines === 0 && a.curves >= 4 && b.curves >= 4;
    const inside = b.x0 > a.x0 && b.x1 < a.x1 && b.y0 > a.y0 && b.y1 < a.y1;
    const tol = 0.1 * (a.x1 - a.x0);
    const centred = Math.abs(b.x0 + b.x1 - a.x0 - a.x1) / 2 < tol && Math.abs(b.y0 + b.y1 - a.y0 - a.y1) / 2 < tol;
    return !stroke && round && inside && centred ? { kind: "circle", ...box } : undefined;
  }
  if (a.lines === 0 && a.curves >= 4) return { kind: stroke ? "circle" : "disc", ...box };
  // Three or four drawn sides (the close draws the last one), all axis-aligned.
  const closingAxis = Math.abs(a.cx - a.sx) <= 0.2 || Math.abs(a.cy - a.sy) <= 0.2;
  if (!stroke && a.curves === 0 && (a.lines === 3 || a.lines === 4) && a.axis && closingAxis) return { kind: "square", ...box };
  return undefined;
}

function grow(r: { x0: number; y0: number; x1: number; y1: number }, x: number, y: number): void {
  if (x < r.x0) r.x0 = x;
  if (y < r.y0) r.y0 = y;
  if (x > r.x1) r.x1 = x;
  if (y > r.y1) r.y1 = y;
}

function boxOf(points: readonly [number, number][]): { x0: number; y0: number; x1: number; y1: number } {
  const r = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const [x, y] of points) grow(r, x, y);
  return r;
}

function markerSized(r: { x0: number; y0: number; x1: number; y1: number }): boolean {
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  return w >= MARKER_MIN && h >= MARKER_MIN && w <= MARKER_MAX && h <= MARKER_MAX && Math.max(w, h) <= MARKER_ASPECT * Math.min(w, h);
}
