import { expect } from "vitest";
import { ParseResultSchema, type Element, type ParseResult, type TitleNode } from "../../src/wire/index.js";

/**
 * Invariants every result of the local engine must satisfy, whatever the format:
 * schema-valid, unique ids, coordinates 8 numbers in [0,1] in TL TR BR BL order, and
 * (when present) parent/children/depth/title_tree/pages agreeing with each other.
 */
export function expectConsistentResult(result: ParseResult): void {
  const parsed = ParseResultSchema.safeParse(result);
  expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  const byId = new Map<string, Element>();
  for (const el of result.elements) {
    expect(byId.has(el.element_id), `duplicate id ${el.element_id}`).toBe(false);
    byId.set(el.element_id, el);
  }
  result.elements.forEach((el, i) => {
    const c = el.coordinates;
    expect(c).toHaveLength(8);
    for (const v of c) expect(v >= 0 && v <= 1, `coordinate ${v} of ${el.element_id}`).toBe(true);
    const [x0, y0, x1, y1t, x2, y2, x3, y3] = c as [number, number, number, number, number, number, number, number];
    expect(y1t).toBe(y0);
    expect(x2).toBe(x1);
    expect(y3).toBe(y2);
    expect(x3).toBe(x0);
    expect(x1 >= x0 && y2 >= y0).toBe(true);
    const m = el.metadata ?? {};
    if (m.parent_id !== undefined) {
      const parent = byId.get(m.parent_id);
      expect(parent, `parent of ${el.element_id}`).toBeDefined();
      expect(parent!.type).toBe("Title");
      expect(parent!.metadata?.children_ids).toContain(el.element_id);
      expect(m.category_depth).toBe((parent!.metadata?.category_depth ?? -99) + 1);
      expect(result.elements.indexOf(parent!)).toBeLessThan(i);
    } else if (m.category_depth !== undefined) {
      expect(m.category_depth).toBe(0);
    }
    for (const child of m.children_ids ?? []) expect(byId.get(child)?.metadata?.parent_id).toBe(el.element_id);
    if (m.continuation_of !== undefined) {
      expect(m.is_continuation).toBe(true);
      expect(byId.has(m.continuation_of)).toBe(true);
    }
    if (m.ref_element_id !== undefined) expect(byId.has(m.ref_element_id)).toBe(true);
  });
  if (result.title_tree) {
    const titles = result.elements.filter((e) => e.type === "Title");
    const seen: string[] = [];
    const walk = (nodes: TitleNode[], parent: string | undefined, level: number) => {
      for (const n of nodes) {
        seen.push(n.element_id);
        const el = byId.get(n.element_id)!;
        expect(el.type).toBe("Title");
        expect(n.title).toBe(el.text);
        expect(n.level).toBe(level);
        expect(n.page_number).toBe(el.page_number);
        if (el.metadata?.category_depth !== undefined) expect(el.metadata.category_depth).toBe(level - 1);
        if (el.metadata?.category_depth !== undefined) expect(el.metadata.parent_id).toBe(parent);
        walk(n.children, n.element_id, level + 1);
      }
    };
    walk(result.title_tree, undefined, 1);
    expect(seen).toEqual(titles.map((t) => t.element_id));
  }
  if (result.pages) {
    const listed = result.pages.flatMap((p) => p.element_ids ?? []);
    expect(listed).toEqual(result.elements.map((e) => e.element_id));
    for (const p of result.pages) for (const id of p.element_ids ?? []) expect(byId.get(id)!.page_number).toBe(p.page_number);
  }
}
