import { describe, expect, it } from "vitest";
import { linkCaptions } from "../../src/chunk/captions.js";
import { toNodes } from "../../src/chunk/nodes.js";
import type { Element } from "../../src/wire/index.js";

const e = (element_id: string, type: string, metadata: Element["metadata"] = {}): Element => ({
  element_id,
  type,
  text: element_id,
  page_number: 1,
  coordinates: [0, 0, 1, 0, 1, 1, 0, 1],
  metadata,
});

function link(elements: Element[], kept?: boolean[]): Record<string, string> {
  const nodes = toNodes(elements, () => {});
  const root = Int32Array.from(nodes, (n) => n.index);
  const pairs = linkCaptions(nodes, kept ?? nodes.map(() => true), root);
  return Object.fromEntries([...pairs].map(([t, c]) => [nodes[t]!.id, nodes[c]!.id]));
}

describe("linkCaptions", () => {
  it("pairs through ref_element_id in either direction", () => {
    expect(link([e("cap", "TableCaption"), e("p", "NarrativeText"), e("t", "Table", { ref_element_id: "cap" })])).toEqual({ t: "cap" });
    expect(link([e("img", "Image"), e("p", "NarrativeText"), e("cap", "FigureCaption", { ref_element_id: "img" })])).toEqual({ img: "cap" });
  });

  it("pairs a TableCaption with the next table (else the previous) and a FigureCaption with the previous image (else the next)", () => {
    expect(link([e("t0", "Table"), e("cap", "TableCaption"), e("t1", "Table")])).toEqual({ t1: "cap" });
    expect(link([e("t0", "Table"), e("cap", "TableCaption")])).toEqual({ t0: "cap" });
    expect(link([e("i0", "Image"), e("cap", "FigureCaption"), e("i1", "Image")])).toEqual({ i0: "cap" });
  });

  it("gives each target one caption and each caption one target", () => {
    expect(link([e("c1", "TableCaption"), e("c2", "TableCaption"), e("t", "Table")])).toEqual({ t: "c2" });
  });

  it("skips dropped elements when looking for neighbours, and ignores refs to dropped ones", () => {
    expect(link([e("cap", "TableCaption"), e("h", "Header"), e("t", "Table")], [true, false, true])).toEqual({ t: "cap" });
    expect(link([e("cap", "TableCaption"), e("t", "Table", { ref_element_id: "cap" })], [false, true])).toEqual({});
  });
});
