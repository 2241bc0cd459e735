/**
 * Rectangles on a page. Boxes on the wire are 8 numbers (TL, TR, BR, BL corner points,
 * x,y pairs) as fractions of the page; regions and highlights are axis-aligned, so
 * everything here works on the bounding rectangle of those points. The chunk stage
 * writes boxes with these helpers and the retrieve stage reads them with the same ones.
 */

/** An axis-aligned rectangle, fractions of the page (0..1), origin top-left. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A page's size in pixels of its page image. */
export interface PageSize {
  width: number;
  height: number;
}

/**
 * The bounding rectangle of every x,y pair of `quads` (8-number boxes, or any
 * even-length coordinate lists), or undefined when they hold no pair.
 */
export function boundsOf(quads: readonly (readonly number[])[]): Rect | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const q of quads) {
    for (let i = 0; i + 1 < q.length; i += 2) {
      const x = q[i]!;
      const y = q[i + 1]!;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x0 === Infinity) return undefined;
  return { x0, y0, x1, y1 };
}

/** The bounding rectangle of 8-number (or any even-length) coordinates; all zeros when there is none. */
export function rectOf(coordinates: readonly number[]): Rect {
  const r = boundsOf([coordinates]);
  // A box that reaches to -Infinity is as useless as none: the empty rectangle.
  if (!r || !Number.isFinite(r.x0)) return { x0: 0, y0: 0, x1: 0, y1: 0 };
  return r;
}

/** 8 numbers TL TR BR BL for a rectangle. */
export function rectToCoordinates(r: Rect): number[] {
  return [r.x0, r.y0, r.x1, r.y0, r.x1, r.y1, r.x0, r.y1];
}

/** The smallest rectangle holding both. */
export function unionRects(a: Rect, b: Rect): Rect {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}
