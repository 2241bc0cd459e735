import { describe, expect, it } from "vitest";
import { readingOrder, type Rect } from "../../../src/engine/layout/index.js";

const box = (id: string, x0: number, y0: number, x1: number, y1: number): Rect & { id: string } => ({ id, x0, y0, x1, y1 });

describe("readingOrder", () => {
  it("reads two columns column by column under a full-width title", () => {
    const items = [
      box("R1", 310, 100, 560, 200),
      box("L2", 50, 210, 300, 300),
      box("T", 50, 40, 560, 80),
      box("L1", 50, 100, 300, 200),
      box("R2", 310, 210, 560, 320),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["T", "L1", "L2", "R1", "R2"]);
  });

  it("returns to full width after a two-column band", () => {
    const items = [box("L", 50, 100, 300, 200), box("R", 310, 100, 560, 200), box("F", 50, 220, 560, 260), box("L3", 50, 280, 300, 300), box("R3", 310, 280, 560, 300)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L", "R", "F", "L3", "R3"]);
  });

  it("reads a single column top to bottom", () => {
    const items = [box("c", 50, 300, 500, 320), box("a", 50, 100, 500, 120), box("b", 60, 200, 480, 220)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["a", "b", "c"]);
  });
});
