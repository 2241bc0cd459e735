import { describe, expect, it } from "vitest";
import { assignListLevels } from "../../../src/engine/layout/classify.js";
import type { Block } from "../../../src/engine/layout/types.js";

/** A list-item block spanning x0..x1 on one line. */
function item(text: string, x0: number, x1: number, y0: number): Block {
  return { kind: "list", text, x0, x1, y0, y1: y0 + 12, fontSize: 10, bold: false, mono: false, lines: [] };
}

describe("assignListLevels", () => {
  it("levels left-to-right items by their left edge", () => {
    const blocks = [item("• one", 72, 400, 100), item("• nested", 96, 400, 120), item("• two", 72, 400, 140)];
    assignListLevels(blocks);
    expect(blocks.map((b) => b.listLevel)).toEqual([0, 1, 0]);
  });

  it("levels right-to-left items by their right edge", () => {
    const blocks = [item("פריט ראשון •", 300, 540, 100), item("קצר •", 480, 540, 120), item("פנימי •", 250, 516, 140)];
    assignListLevels(blocks);
    // A short flat item is not nested however far its left edge is; an item indented from the right is.
    expect(blocks.map((b) => b.listLevel)).toEqual([0, 0, 1]);
  });

  it("keeps each direction on its own scale on a page with both", () => {
    const blocks = [item("• one", 72, 300, 100), item("• nested", 96, 300, 120), item("פריט ראשון •", 300, 540, 200), item("פנימי •", 250, 516, 220)];
    assignListLevels(blocks);
    expect(blocks.map((b) => b.listLevel)).toEqual([0, 1, 0, 1]);
  });
});
