import { describe, expect, it } from "vitest";
import { continuesLine, lineDirection } from "../../src/chunk/line-direction.js";

/** Glyph boxes 0.01 along a line from (x, y), stepping by (dx, dy) glyph sizes. */
const glyphs = (n: number, x: number, y: number, dx: number, dy: number) => Array.from({ length: n }, (_, i) => ({ x0: x + i * dx * 0.01, y0: y + i * dy * 0.01, x1: x + i * dx * 0.01 + 0.01, y1: y + i * dy * 0.01 + 0.01 }));

describe("lineDirection", () => {
  it("reads level lines, line breaks and all, as level", () => {
    expect(lineDirection([...glyphs(20, 0.1, 0.1, 1, 0), ...glyphs(20, 0.1, 0.13, 1, 0)])).toBe("level");
    expect(lineDirection(glyphs(20, 0.5, 0.1, -1, 0))).toBe("level");
  });

  it("reads lines set sideways, down or up the page, as such", () => {
    expect(lineDirection([...glyphs(20, 0.8, 0.1, 0, 1), ...glyphs(20, 0.77, 0.1, 0, 1)])).toBe("down");
    expect(lineDirection([...glyphs(20, 0.2, 0.9, 0, -1), ...glyphs(20, 0.23, 0.9, 0, -1)])).toBe("up");
  });

  it("calls a lone glyph level", () => {
    expect(lineDirection(glyphs(1, 0.1, 0.1, 1, 0))).toBe("level");
  });
});

describe("continuesLine", () => {
  const down = glyphs(3, 0.8, 0.1, 0, 1);
  const line = { x0: 0.8, y0: 0.1, x1: 0.81, y1: 0.13 };
  it("takes the next glyph down a column, not one in the next column or behind", () => {
    expect(continuesLine("down", line, down[2]!, { x0: 0.8, y0: 0.13, x1: 0.81, y1: 0.14 })).toBe(true);
    expect(continuesLine("down", line, down[2]!, { x0: 0.77, y0: 0.1, x1: 0.78, y1: 0.11 })).toBe(false);
    expect(continuesLine("down", line, down[2]!, { x0: 0.8, y0: 0.1, x1: 0.81, y1: 0.11 })).toBe(false);
  });

  it("takes a level glyph on the line's height, right of its start", () => {
    const level = { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 };
    expect(continuesLine("level", level, level, { x0: 0.2, y0: 0.1, x1: 0.21, y1: 0.12 })).toBe(true);
    expect(continuesLine("level", level, level, { x0: 0.1, y0: 0.13, x1: 0.11, y1: 0.15 })).toBe(false);
  });
});
