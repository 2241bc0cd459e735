import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildHierarchy } from "../../src/engine/hierarchy.js";
import { buildTitleTree } from "../../src/engine/title-tree.js";
import type { TitleNode } from "../../src/wire/index.js";

const T = (level: number) => ({ type: "Title", headingLevel: level });
const P = { type: "NarrativeText" };

describe("buildHierarchy", () => {
  it("nests titles by heading level and content under the nearest title", () => {
    const h = buildHierarchy([P, T(1), P, T(2), P, T(3), P, T(2), T(1), P]);
    expect(h.parent).toEqual([-1, -1, 1, 1, 3, 3, 5, 1, -1, 8]);
    expect(h.depth).toEqual([0, 0, 1, 1, 2, 2, 3, 1, 0, 1]);
    expect(h.children[1]).toEqual([2, 3, 7]);
    expect(h.children[3]).toEqual([4, 5]);
  });

  it("gives a skipped level depth parent + 1 (H1 then H3)", () => {
    const h = buildHierarchy([T(1), T(3), P, T(2)]);
    expect(h.depth).toEqual([0, 1, 2, 1]);
    expect(h.parent).toEqual([-1, 0, 1, 0]);
  });

  it("resumes the section of what an element goes on from, past a sidebar's heading read between them", () => {
    // Options > a table; the sidebar's "On this page" (a level-2 title) and its list; the
    // table going on overleaf, then the page's next paragraph and heading.
    const h = buildHierarchy([T(1), T(2), P, T(2), P, { type: "Table", continues: 2 }, P, T(2)]);
    expect(h.parent).toEqual([-1, 0, 1, 0, 3, 1, 1, 0]);
    expect(h.children[3]).toEqual([4]);
  });

  it("keeps headers, footers and page numbers at the top level", () => {
    const h = buildHierarchy([T(1), { type: "Header" }, P, { type: "PageNumber" }]);
    expect(h.parent).toEqual([-1, -1, 0, -1]);
  });

  it("always agrees with itself and with the title tree (property)", () => {
    const node = fc.oneof(
      fc.integer({ min: 1, max: 6 }).map((l) => ({ type: "Title", headingLevel: l })),
      fc.constantFrom("NarrativeText", "ListItem", "Table", "Footer").map((type) => ({ type })),
    );
    fc.assert(
      fc.property(fc.array(node, { maxLength: 60 }), (nodes) => {
        const h = buildHierarchy(nodes);
        nodes.forEach((n, i) => {
          const p = h.parent[i]!;
          if (p >= 0) {
            expect(p).toBeLessThan(i);
            expect(nodes[p]!.type).toBe("Title");
            expect(h.depth[i]).toBe(h.depth[p]! + 1);
            expect(h.children[p]).toContain(i);
          } else expect(h.depth[i]).toBe(0);
          if (n.type !== "Title") expect(h.children[i]).toEqual([]);
        });
        const items = nodes.map((n, i) => ({ id: `e${i}`, type: n.type, text: `t${i}`, page: 1 }));
        const tree = buildTitleTree(items, h);
        const flat: [string, number, string | undefined][] = [];
        const walk = (ns: TitleNode[], parent?: string) =>
          ns.forEach((x) => {
            flat.push([x.element_id, x.level, parent]);
            walk(x.children, x.element_id);
          });
        walk(tree);
        const titles = nodes.flatMap((n, i) => (n.type === "Title" ? [i] : []));
        expect(flat).toEqual(titles.map((i) => [`e${i}`, h.depth[i]! + 1, h.parent[i]! >= 0 ? `e${h.parent[i]}` : undefined]));
      }),
    );
  });
});
