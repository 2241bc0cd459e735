import { describe, expect, it } from "vitest";
import { buildDocumentTree } from "../../src/chunk/document-tree.js";
import { toNodes } from "../../src/chunk/nodes.js";
import type { ChunkWarning } from "../../src/chunk/options.js";
import type { Element } from "../../src/wire/index.js";

function tree(elements: Element[], titleTree?: unknown) {
  const warnings: ChunkWarning[] = [];
  const nodes = toNodes(elements, (w) => warnings.push(w));
  const t = buildDocumentTree(nodes, titleTree, (w) => warnings.push(w));
  const path = (id: string) => t.headingChain(nodes.findIndex((n) => n.id === id)).map((i) => nodes[i]!.id);
  return { t, nodes, warnings, path };
}

const e = (element_id: string, type: string, metadata: Element["metadata"] = {}): Element => ({
  element_id,
  type,
  text: element_id,
  page_number: 1,
  coordinates: [0, 0, 1, 0, 1, 1, 0, 1],
  metadata,
});

describe("buildDocumentTree (hierarchy present)", () => {
  const elements = [
    e("intro", "NarrativeText"),
    e("h1", "Title", { category_depth: 0, children_ids: ["p1", "h2"] }),
    e("p1", "NarrativeText", { parent_id: "h1" }),
    e("h2", "Title", { category_depth: 1, parent_id: "h1", children_ids: ["p2"] }),
    e("p2", "NarrativeText", { parent_id: "h2" }),
    e("h3", "Title", { category_depth: 0 }),
    e("p3", "ListItem", { parent_id: "h3" }),
  ];

  it("follows parent_id/children_ids and uses category_depth for levels", () => {
    const { t, warnings, path, nodes } = tree(elements);
    expect(warnings).toEqual([]);
    expect(t.mode).toBe("hierarchy");
    expect(path("intro")).toEqual([]);
    expect(path("p1")).toEqual(["h1"]);
    expect(path("p2")).toEqual(["h1", "h2"]);
    expect(path("h2")).toEqual(["h1", "h2"]);
    expect(path("p3")).toEqual(["h3"]);
    expect(t.level[nodes.findIndex((n) => n.id === "h2")]).toBe(2);
  });

  it("accepts parents given only by children_ids", () => {
    const { path, warnings } = tree([e("h", "Title", { children_ids: ["p"] }), e("p", "NarrativeText")]);
    expect(warnings).toEqual([]);
    expect(path("p")).toEqual(["h"]);
  });
});

describe("buildDocumentTree (fallback to Title order)", () => {
  it("warns hierarchy_missing and nests by category_depth when there are no links", () => {
    const { t, warnings, path } = tree([
      e("a", "Title", { category_depth: 0 }),
      e("b", "Title", { category_depth: 1 }),
      e("p", "NarrativeText"),
      e("c", "Title", { category_depth: 0 }),
      e("q", "NarrativeText"),
    ]);
    expect(t.mode).toBe("title_order");
    expect(warnings.map((w) => w.code)).toEqual(["hierarchy_missing"]);
    expect(path("p")).toEqual(["a", "b"]);
    expect(path("q")).toEqual(["c"]);
  });

  it("takes levels from title_tree when category_depth is absent", () => {
    const { path } = tree([e("a", "Title"), e("b", "Title"), e("p", "NarrativeText")], [
      { element_id: "a", title: "a", level: 1, page_number: 1, children: [{ element_id: "b", title: "b", level: 2, page_number: 1, children: [] }] },
    ]);
    expect(path("p")).toEqual(["a", "b"]);
  });

  it("treats every Title as level 1 when nothing says otherwise", () => {
    const { path } = tree([e("a", "Title"), e("b", "Title"), e("p", "NarrativeText")]);
    expect(path("p")).toEqual(["b"]);
  });

  it("does not warn for a flat document without titles", () => {
    expect(tree([e("p", "NarrativeText")]).warnings).toEqual([]);
  });

  it.each([
    ["dangling_parent", [e("h", "Title"), e("p", "NarrativeText", { parent_id: "nope" })]],
    ["self_parent", [e("h", "Title"), e("p", "NarrativeText", { parent_id: "p" })]],
    ["dangling_child", [e("h", "Title", { children_ids: ["ghost"] }), e("p", "NarrativeText")]],
    ["parent_conflict", [e("h", "Title", { children_ids: ["p"] }), e("g", "Title"), e("p", "NarrativeText", { parent_id: "g" })]],
    ["parent_cycle", [e("h", "Title", { parent_id: "g" }), e("g", "Title", { parent_id: "h" }), e("p", "NarrativeText", { parent_id: "h" })]],
  ])("falls back with %s + hierarchy_inconsistent warnings, never throws", (code, elements) => {
    const { t, warnings, path } = tree(elements as Element[]);
    expect(t.mode).toBe("title_order");
    expect(warnings.map((w) => w.code)).toContain(code);
    expect(warnings.map((w) => w.code)).toContain("hierarchy_inconsistent");
    expect(Array.isArray(path("p"))).toBe(true);
  });

  it("handles a 50,000-deep parent chain without overflowing the stack", () => {
    const deep: Element[] = [e("t", "Title")];
    for (let i = 0; i < 50_000; i++) deep.push(e(`l${i}`, "ListItem", { parent_id: i === 0 ? "t" : `l${i - 1}` }));
    const { path, warnings } = tree(deep);
    expect(warnings).toEqual([]);
    expect(path("l49999")).toEqual(["t"]);
  });
});
