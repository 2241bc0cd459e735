import { describe, expect, it } from "vitest";
import { assignListLevels } from "../../../src/engine/layout/list-levels.js";
import type { Block } from "../../../src/engine/layout/types.js";

/** A list-item block spanning x0..x1 on one line. */
function item(text: string, x0: number, x1: number, y0: number): Block {
  return { kind: "list", text, x0, x1, y0, y1: y0 + 12, fontSize: 10, bold: false, mono: false, lines: [] };
}

describe("assignListLevels", () => {
  it("levels a list in the next column on its own (a comparison slide's two lists)", () => {
    const left = [item("● Full control", 40, 240, 100), item("– Hire four", 70, 240, 130), item("● Ready in June", 40, 240, 160)];
    const right = [item("● Live in six weeks", 390, 600, 100), item("– Lock-in risk", 420, 600, 130), item("● Annual licence", 390, 600, 160)];
    const blocks = [...left, ...right];
    assignListLevels(blocks);
    expect(blocks.map((b) => b.listLevel)).toEqual([0, 1, 0, 0, 1, 0]);
  });

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

  it("nests a list of the other direction between two items of the outer list, tight against them", () => {
    // A Hebrew list (right edge 540) holding an English list at the left (x0 96).
    const blocks = [
      item("פריט ראשון •", 300, 540, 100),
      item("• English nested one", 96, 300, 114),
      item("• English nested two", 96, 300, 128),
      item("פריט שני •", 380, 540, 142),
    ];
    assignListLevels(blocks);
    expect(blocks.map((b) => b.listLevel)).toEqual([0, 1, 1, 0]);
  });

  it("leaves separate lists, an aligned item of the other script and a nested list that ends the outer list alone", () => {
    // A Hebrew list, then (a list margin below) an English list whose first item nests a Hebrew one.
    const separate = [
      item("פריט אחרון •", 300, 540, 100),
      item("• Left item one", 96, 300, 136),
      item("פריט עברי מקונן •", 300, 516, 150),
      item("• Left item two", 96, 300, 164),
    ];
    assignListLevels(separate);
    expect(separate.map((b) => b.listLevel)).toEqual([0, 0, 1, 0]);
    // An English line in a Hebrew list, set against the list's right edge like the rest.
    const aligned = [item("פריט ראשון •", 300, 540, 100), item("English words •", 420, 540, 114), item("פריט שני •", 380, 540, 128)];
    assignListLevels(aligned);
    expect(aligned.map((b) => b.listLevel)).toEqual([0, 0, 0]);
    // Nothing of the outer list after the nested one: no evidence, level 0 (documented).
    const atEnd = [item("פריט ראשון •", 300, 540, 100), item("• English nested", 96, 300, 114)];
    assignListLevels(atEnd);
    expect(atEnd.map((b) => b.listLevel)).toEqual([0, 0]);
  });
});
