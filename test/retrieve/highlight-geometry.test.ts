import { describe, expect, it } from "vitest";
import { rectOf, rectToCoordinates } from "../../src/chunk/rect.js";
import { boxesFromChars, narrowBox, rectIoU, toPixelCoordinates } from "../../src/retrieve/highlight-geometry.js";

describe("highlight geometry", () => {
  it("pixel boxes are normalised boxes times the page size", () => {
    const c = [0.1, 0.2, 0.5, 0.2, 0.5, 0.25, 0.1, 0.25];
    expect(toPixelCoordinates(c, { width: 1000, height: 2000 })).toEqual([100, 400, 500, 400, 500, 500, 100, 500]);
  });

  it("rectOf / rectToCoordinates round trip and IoU", () => {
    const c = [0.1, 0.2, 0.5, 0.2, 0.5, 0.25, 0.1, 0.25];
    expect(rectToCoordinates(rectOf(c))).toEqual(c);
    expect(rectIoU(rectOf(c), rectOf(c))).toBe(1);
    expect(rectIoU(rectOf(c), { x0: 0.6, y0: 0, x1: 0.7, y1: 1 })).toBe(0);
  });

  it("narrowBox on a one-line box is proportional to glyph advances", () => {
    // A wide, short box holds one line; "bbbb" is the second half of "aaaabbbb".
    const [box] = narrowBox([0.1, 0.1, 0.5, 0.1, 0.5, 0.12, 0.1, 0.12], "aaaabbbb", 4, 8);
    const r = rectOf(box!);
    expect(r.x0).toBeCloseTo(0.3);
    expect(r.x1).toBeCloseTo(0.5);
    expect(r.y0).toBeCloseTo(0.1);
    expect(r.y1).toBeCloseTo(0.12);
  });

  it("narrowBox spreads a paragraph over lines and returns one box per line touched", () => {
    const text = "x".repeat(400);
    const boxes = narrowBox([0.1, 0.1, 0.9, 0.1, 0.9, 0.3, 0.1, 0.3], text, 0, 400, { width: 1000, height: 1000 });
    expect(boxes.length).toBeGreaterThan(3);
    const last = rectOf(boxes[boxes.length - 1]!);
    expect(last.y1).toBeCloseTo(0.3);
    expect(narrowBox([0, 0, 1, 0, 1, 1, 0, 1], "abc", 2, 2)).toEqual([]);
  });

  it("boxesFromChars joins characters line by line", () => {
    const ch = (i: number, x: number, y: number) => ({ start: i, end: i + 1, coordinates: rectToCoordinates({ x0: x, y0: y, x1: x + 0.01, y1: y + 0.02 }) });
    const chars = [ch(0, 0.1, 0.1), ch(1, 0.11, 0.1), ch(2, 0.12, 0.1), ch(3, 0.1, 0.13), ch(4, 0.11, 0.13)];
    const lines = boxesFromChars(chars, 1, 5).map(rectOf);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.x0).toBeCloseTo(0.11);
    expect(lines[0]!.x1).toBeCloseTo(0.13);
    expect(lines[1]!.y0).toBeCloseTo(0.13);
  });

  it("boxesFromChars joins sideways characters (a page turned by /Rotate) column by column", () => {
    // Two lines read down the page, one glyph under the other: the first at x 0.80, the next left of it.
    const ch = (i: number, x: number, y: number) => ({ start: i, end: i + 1, coordinates: rectToCoordinates({ x0: x, y0: y, x1: x + 0.02, y1: y + 0.01 }) });
    const chars = [ch(0, 0.8, 0.1), ch(1, 0.8, 0.11), ch(2, 0.8, 0.12), ch(3, 0.77, 0.1), ch(4, 0.77, 0.11)];
    const lines = boxesFromChars(chars, 0, 5).map(rectOf);
    expect(lines).toHaveLength(2);
    const near = (r: { x0: number; y0: number; x1: number; y1: number }) => ({ x0: expect.closeTo(r.x0, 9), y0: expect.closeTo(r.y0, 9), x1: expect.closeTo(r.x1, 9), y1: expect.closeTo(r.y1, 9) });
    expect(lines[0]).toEqual(near({ x0: 0.8, y0: 0.1, x1: 0.82, y1: 0.13 }));
    expect(lines[1]).toEqual(near({ x0: 0.77, y0: 0.1, x1: 0.79, y1: 0.12 }));
  });
});
