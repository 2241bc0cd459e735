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
