import { describe, expect, it } from "vitest";
import { readingOrder, type Rect } from "../../src/engine/layout/index.js";

// Review 2026-11-22b of "reading order: a gutter is a column break only when boxes on its
// two sides share a row somewhere" (9fd221f).
const box = (id: string, x0: number, y0: number, x1: number, y1: number): Rect & { id: string } => ({ id, x0, y0, x1, y1 });

describe("readingOrder: gutters whose sides never share a row", () => {
  it("keeps two real columns when a third side (a margin tab) only sits in a gap of its neighbour", () => {
    // Two columns of paragraphs whose breaks do not line up, and a thumb-index tab at the
    // right page edge level with the right column's paragraph break. The tab never shares a
    // row with the right column; the columns share many.
    const items = [
      box("L1", 50, 100, 250, 300),
      box("L2", 50, 310, 250, 700),
      box("R1", 280, 100, 480, 395),
      box("R2", 280, 425, 480, 700),
      box("tab", 510, 400, 540, 420),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L1", "L2", "R1", "tab", "R2"]);
  });

  it("reads alternating boxes top to bottom also when they touch exactly (zero overlap, zero gap)", () => {
    // As the unit test of 9fd221f, but each note starts exactly where its code block ends.
    const items = [box("code1", 50, 100, 300, 160), box("note1", 330, 160, 450, 175), box("code2", 50, 180, 300, 240), box("note2", 330, 240, 450, 255)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["code1", "note1", "code2", "note2"]);
  });
});
