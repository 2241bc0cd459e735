/**
 * The element tree as the contract describes it: a Title's `category_depth` follows its
 * heading level (0 for the top), its parent is the nearest preceding Title of a higher
 * level; every other element hangs under the nearest preceding Title, one level deeper.
 * Depth is always parent depth + 1, so a jump from H1 to H3 gives depth 1, not 2: the
 * tree, the depths and `title_tree` always agree. An element going on from an earlier one
 * (`continues`) resumes that one's section, and what follows it too: a sidebar read
 * between them (a docs page's "On this page" list, a CV's right-hand column) leaves its
 * headings behind.
 */

export interface HierarchyNode {
  type: string;
  /** For Titles: 1-based heading level (missing = 1). */
  headingLevel?: number;
  /** Index of the earlier element this one goes on from (a paragraph or table across a page break). */
  continues?: number;
}

export interface Hierarchy {
  /** Index of each element's parent Title, or -1 at the top. */
  parent: number[];
  /** 0-based depth of each element. */
  depth: number[];
  /** Direct children (indices, in order) of each element; empty for non-Titles. */
  children: number[][];
}

// Running headers, footers and page numbers repeat on every page: they are not content
// under the current section, so they stay at the top level.
const DETACHED = new Set(["Header", "Footer", "PageNumber", "PageBreak"]);

export function buildHierarchy(nodes: readonly HierarchyNode[]): Hierarchy {
  const parent = new Array<number>(nodes.length).fill(-1);
  const depth = new Array<number>(nodes.length).fill(0);
  const children: number[][] = nodes.map(() => []);
  let stack: { index: number; level: number }[] = [];
  // The sections open at each element something later goes on from.
  const resumed = new Set<number>();
  for (const node of nodes) if (node.continues !== undefined) resumed.add(node.continues);
  const open = new Map<number, { index: number; level: number }[]>();
  nodes.forEach((node, i) => {
    const from = node.continues;
    if (node.type !== "Title" && from !== undefined && from < i && open.has(from)) stack = [...open.get(from)!];
    if (resumed.has(i)) open.set(i, [...stack]);
    if (node.type === "Title") {
      const level = Math.max(1, Math.floor(node.headingLevel ?? 1));
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      attach(i, stack[stack.length - 1]?.index);
      stack.push({ index: i, level });
      return;
    }
    attach(i, DETACHED.has(node.type) ? undefined : stack[stack.length - 1]?.index);
  });
  return { parent, depth, children };

  function attach(i: number, p: number | undefined): void {
    if (p === undefined) return;
    parent[i] = p;
    depth[i] = depth[p]! + 1;
    children[p]!.push(i);
  }
}
