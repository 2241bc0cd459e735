import { describe, expect, it } from "vitest";
import { nodeIndex, toNodes } from "../../src/chunk/nodes.js";
import type { ChunkWarning } from "../../src/chunk/options.js";
import type { Element } from "../../src/wire/index.js";

const e = (element_id: string, type: string): Element => ({ element_id, type, text: element_id, page_number: 1, coordinates: [0, 0, 1, 0, 1, 1, 0, 1] });

describe("toNodes", () => {
  it("repairs missing and duplicate ids, missing text and pages, with warnings", () => {
    const warnings: ChunkWarning[] = [];
    const nodes = toNodes(
      [{ type: "NarrativeText" }, e("a", "Title"), e("a", "NarrativeText"), null, { element_id: "b", type: 3, text: 5, page_number: -2 }] as unknown[],
      (w) => warnings.push(w),
    );
    expect(nodes.map((n) => n.id)).toEqual(["#0", "a", "a#2", "b"]);
    expect(nodes[0]!.text).toBe("");
    expect(nodes[3]!.page).toBe(1);
    expect(nodes[3]!.type).toBe("UncategorizedText");
    expect(warnings.map((w) => w.code)).toEqual(["element_id_missing", "duplicate_element_id", "element_invalid"]);
  });

  it("indexes nodes by id once per list", () => {
    const nodes = toNodes([e("a", "Title"), e("b", "NarrativeText")], () => {});
    expect(nodeIndex(nodes).get("b")).toBe(1);
    expect(nodeIndex(nodes)).toBe(nodeIndex(nodes));
  });
});
