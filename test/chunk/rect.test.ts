import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundsOf, rectOf, rectToCoordinates, unionRects, type Rect } from "../../src/chunk/rect.js";
import { boundingQuad } from "../../src/chunk/regions.js";

const quad = (x0: number, y0: number, x1: number, y1: number) => rectToCoordinates({ x0, y0, x1, y1 });

describe("boundsOf", () => {
  it("is the bounding rectangle of every point of every quad", () => {
    expect(boundsOf([quad(0.2, 0.3, 0.4, 0.5), quad(0.1, 0.6, 0.3, 0.7)])).toEqual({ x0: 0.1, y0: 0.3, x1: 0.4, y1: 0.7 });
    // Any even-length list of points, not only 8 numbers; a dangling x is ignored.
    expect(boundsOf([[0.5, 0.5], [0.2, 0.9, 0.7, 0.1, 0.99]])).toEqual({ x0: 0.2, y0: 0.1, x1: 0.7, y1: 0.9 });
  });

  it("is undefined without a single point", () => {
    expect(boundsOf([])).toBeUndefined();
    expect(boundsOf([[], [0.5]])).toBeUndefined();
  });

  it("equals the union of the rectangles of the non-empty quads", () => {
    // Hundredths: doubles would bring -0, which Math.min orders before 0 and `<` does not.
    const coord = fc.integer({ min: -200, max: 200 }).map((n) => n / 100);
    const points = fc.array(coord, { maxLength: 12 });
    fc.assert(
      fc.property(fc.array(points, { maxLength: 6 }), (quads) => {
        const rects = quads.filter((q) => q.length >= 2).map(rectOf);
        const expected = rects.length ? rects.reduce((a: Rect, b) => unionRects(a, b)) : undefined;
        expect(boundsOf(quads)).toEqual(expected);
      }),
    );
  });
});

describe("rectOf", () => {
  it("round-trips through rectToCoordinates", () => {
    const c = quad(0.1, 0.2, 0.5, 0.25);
    expect(rectOf(c)).toEqual({ x0: 0.1, y0: 0.2, x1: 0.5, y1: 0.25 });
    expect(rectToCoordinates(rectOf(c))).toEqual(c);
  });

  it("gives the empty rectangle for no points or an unbounded box", () => {
    expect(rectOf([])).toEqual({ x0: 0, y0: 0, x1: 0, y1: 0 });
    expect(rectOf([-Infinity, 0, 1, 1])).toEqual({ x0: 0, y0: 0, x1: 0, y1: 0 });
  });
});

describe("boundingQuad (chunk regions)", () => {
  it("is boundsOf as 8 numbers TL TR BR BL", () => {
    expect(boundingQuad([quad(0, 0, 1, 1), quad(2, 2, 3, 3)])).toEqual([0, 0, 3, 0, 3, 3, 0, 3]);
    expect(boundingQuad([])).toBeUndefined();
  });
});
