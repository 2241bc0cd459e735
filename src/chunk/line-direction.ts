import type { Rect } from "./rect.js";

/**
 * The way a line of text runs on the page as shown: level (left to right, or right to
 * left) or sideways, a glyph above or below the one before (a page turned by /Rotate with
 * its text drawn level on the sheet, a table set landscape on a portrait page).
 */
export type LineDirection = "level" | "down" | "up";

/**
 * The direction most steps between consecutive glyph boxes take: level when the next
 * glyph's centre moves further along x than along y, else down or up. Line breaks are a
 * step or so in a line of many: the glyphs' own steps outvote them.
 */
export function lineDirection(boxes: readonly Rect[]): LineDirection {
  let level = 0;
  let down = 0;
  let up = 0;
  for (let i = 1; i < boxes.length; i++) {
    const a = boxes[i - 1]!;
    const b = boxes[i]!;
    const dx = (b.x0 + b.x1 - a.x0 - a.x1) / 2;
    const dy = (b.y0 + b.y1 - a.y0 - a.y1) / 2;
    if (Math.abs(dx) >= Math.abs(dy)) level++;
    else if (dy > 0) down++;
    else up++;
  }
  return down > level && down >= up ? "down" : up > level ? "up" : "level";
}

/**
 * Whether a glyph box `c` goes on the line `line` (the union of the line's glyphs so far)
 * ends in: level, its middle within the line's height and not behind its start; sideways,
 * its middle within the line's width and not behind `last` (the line's last glyph).
 */
export function continuesLine(direction: LineDirection, line: Rect, last: Rect, c: Rect): boolean {
  if (direction === "level") {
    const cy = (c.y0 + c.y1) / 2;
    return cy >= line.y0 && cy <= line.y1 && c.x0 >= line.x0;
  }
  const cx = (c.x0 + c.x1) / 2;
  if (cx < line.x0 || cx > line.x1) return false;
  return direction === "down" ? c.y0 >= last.y0 : c.y1 <= last.y1;
}
