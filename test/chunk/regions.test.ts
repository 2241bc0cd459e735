import { describe, expect, it } from "vitest";
import { chunkDocument } from "../../src/chunk/chunk-document.js";
import { toNodes } from "../../src/chunk/nodes.js";
import { boundingQuad, mergeRegions, RegionFinder } from "../../src/chunk/regions.js";
import type { Element } from "../../src/wire/index.js";
import { el, result } from "./support/elements.js";

/** Characters laid out 40 to a line, each 0.02 wide and 0.02 tall. */
function withChars(text: string, extra: Partial<Element> = {}): Element {
  const char_details = Array.from(text, (c, i) => {
    const x = 0.05 + (i % 40) * 0.02;
    const y = 0.1 + Math.floor(i / 40) * 0.03;
    return { index: i, text: c, coordinates: [x, y, x + 0.02, y, x + 0.02, y + 0.02, x, y + 0.02] };
  });
  const lines = Math.ceil(text.length / 40);
  return el("NarrativeText", text, { coordinates: [0.05, 0.1, 0.85, 0.1, 0.85, 0.1 + lines * 0.03, 0.05, 0.1 + lines * 0.03], char_details, ...extra });
}

describe("RegionFinder", () => {
  it("returns the element box for the whole text", () => {
    const node = toNodes([withChars("abc")], () => {})[0]!;
    expect(new RegionFinder().part(node, 0, 3)).toEqual({ page: 1, coordinates: node.coordinates, elementId: node.id });
  });

  it("narrows a part of the text to its characters' box", () => {
    const node = toNodes([withChars("x".repeat(120))], () => {})[0]!;
    const r = new RegionFinder().part(node, 40, 80);
    expect(r.approximate).toBeUndefined();
    expect(r.coordinates[1]).toBeCloseTo(0.13);
    expect(r.coordinates[5]).toBeCloseTo(0.15);
  });

  it("keeps the element box, marked approximate, without char_details", () => {
    const node = toNodes([el("NarrativeText", "abcdef")], () => {})[0]!;
    const r = new RegionFinder().part(node, 2, 4);
    expect(r.approximate).toBe(true);
    expect(r.coordinates).toEqual(node.coordinates);
  });

  it("survives char_details without index, with short coordinates, or out of order", () => {
    const e = el("NarrativeText", "abcd", {
      char_details: [
        { index: 3, text: "d", coordinates: [0.4, 0.1, 0.5, 0.1, 0.5, 0.2, 0.4, 0.2] },
        { text: "?", coordinates: [0.1, 0.1] } as never,
        { index: 1, text: "b", coordinates: [0.2, 0.1, 0.3, 0.1, 0.3, 0.2, 0.2, 0.2] },
      ],
    });
    const node = toNodes([e], () => {})[0]!;
    expect(new RegionFinder().part(node, 1, 2).coordinates).toEqual([0.2, 0.1, 0.3, 0.1, 0.3, 0.2, 0.2, 0.2]);
  });
});

describe("mergeRegions / boundingQuad", () => {
  it("unites boxes of one element on one page, keeps others apart", () => {
    const a = { page: 1, elementId: "a", coordinates: [0, 0, 1, 0, 1, 1, 0, 1] };
    const a2 = { page: 1, elementId: "a", coordinates: [2, 2, 3, 2, 3, 3, 2, 3], approximate: true as const };
    const b = { page: 2, elementId: "a", coordinates: [0, 0, 1, 0, 1, 1, 0, 1] };
    expect(mergeRegions([a, b, a2])).toEqual([{ page: 1, elementId: "a", coordinates: [0, 0, 3, 0, 3, 3, 0, 3], approximate: true }, b]);
    expect(boundingQuad([])).toBeUndefined();
  });
});

describe("result.regions", () => {
  it("narrows each piece of a split element with char_details", () => {
    const text = Array.from({ length: 150 }, (_, i) => `w${i}`).join(" ");
    const chunks = chunkDocument(result([withChars(text, { element_id: "p" })]), { maxTokens: 64, tokenizer: "approximate" });
    expect(chunks.length).toBeGreaterThan(2);
    const tops = chunks.map((c) => {
      for (const r of c.metadata.regions) expect(r.approximate).toBeUndefined();
      return Math.min(...c.metadata.regions.map((r) => r.coordinates[1]!));
    });
    expect([...tops].sort((a, b) => a - b)).toEqual(tops);
    expect(tops[tops.length - 1]).toBeGreaterThan(tops[0]!);
  });

  it.each([
    ["English", Array.from({ length: 150 }, (_, i) => `w${i}`).join(" ")],
    ["Chinese", Array.from({ length: 60 }, (_, i) => `第${i}条保修期内免费维修。`).join("")],
  ])("covers a piece cut mid-line with a box per line group, so its regions hold its own characters and no other (%s)", (_, text) => {
    // 40 characters a line: pieces of ~64 approximate tokens start and end inside lines.
    const element = withChars(text, { element_id: "p" });
    const chunks = chunkDocument(result([element]), { maxTokens: 64, tokenizer: "approximate" });
    const centre = (q: readonly number[]) => ({ x: (q[0]! + q[2]!) / 2, y: (q[1]! + q[5]!) / 2 });
    const inside = (p: { x: number; y: number }, q: readonly number[]) => p.x > q[0]! && p.x < q[2]! && p.y > q[1]! && p.y < q[5]!;
    let cutMidLine = 0;
    for (const c of chunks) {
      const start = text.indexOf(c.text);
      expect(start).toBeGreaterThanOrEqual(0);
      const end = start + c.text.length;
      if (start % 40 !== 0 || end % 40 !== 0) cutMidLine++;
      for (const ch of element.char_details!) {
        if (ch.text.trim() === "") continue;
        const held = c.metadata.regions.some((r) => inside(centre(ch.coordinates), r.coordinates));
        expect(held, `${ch.text}@${ch.index} in chunk [${start}, ${end})`).toBe(ch.index >= start && ch.index < end);
      }
      expect(c.metadata.regions.length).toBeLessThanOrEqual(3);
    }
    expect(cutMidLine).toBeGreaterThan(1);
  });

  it("lists one region per element per page, every page in pages, every element in elementIds", () => {
    const [c] = chunkDocument(
      result([
        el("Title", "标题", { element_id: "t", page_number: 4 }),
        el("NarrativeText", "第一段。", { element_id: "p1", page_number: 4 }),
        el("NarrativeText", "第二段。", { element_id: "p2", page_number: 5 }),
      ]),
    );
    expect(c!.metadata.regions.map((r) => `${r.elementId}@${r.page}`)).toEqual(["t@4", "p1@4", "p2@5"]);
    expect(c!.metadata).toMatchObject({ pages: [4, 5], pageStart: 4, pageEnd: 5, elementIds: ["t", "p1", "p2"] });
  });

  it("keeps odd coordinates as given instead of failing", () => {
    const [c] = chunkDocument(result([el("NarrativeText", "x", { coordinates: [] }), el("NarrativeText", "y", { coordinates: "bad" as never })]));
    expect(c!.metadata.regions.map((r) => r.coordinates)).toEqual([[], []]);
  });
});
