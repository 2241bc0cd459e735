import type { TitleNode } from "../wire/index.js";
import type { Hierarchy } from "./hierarchy.js";

export interface TitleTreeInput {
  id: string;
  type: string;
  text: string;
  page: number;
}

/**
 * The heading outline from the same hierarchy as the elements: each Title becomes a node
 * with `level = category_depth + 1`, nested under its parent Title.
 */
export function buildTitleTree(items: readonly TitleTreeInput[], hierarchy: Hierarchy): TitleNode[] {
  const roots: TitleNode[] = [];
  const nodes = new Map<number, TitleNode>();
  items.forEach((item, i) => {
    if (item.type !== "Title") return;
    const node: TitleNode = {
      element_id: item.id,
      title: item.text,
      level: hierarchy.depth[i]! + 1,
      page_number: item.page,
      children: [],
    };
    nodes.set(i, node);
    const parent = nodes.get(hierarchy.parent[i]!);
    (parent ? parent.children : roots).push(node);
  });
  return roots;
}
