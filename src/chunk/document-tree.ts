import type { TitleNode } from "../wire/index.js";
import { nodeIndex, type DocNode } from "./nodes.js";
import type { ChunkWarning } from "./options.js";

/**
 * The document's heading structure, built once from the elements.
 *
 * `hierarchy`: from `parent_id` / `children_ids` (with `category_depth` for levels).
 * `title_order`: when those are absent or inconsistent, every element belongs to the
 * nearest Title before it whose level is above it (levels from `category_depth`, else
 * `title_tree`, else 1).
 */
export interface DocumentTree {
  mode: "hierarchy" | "title_order";
  /** Parent node index per node, -1 at the root. */
  parent: Int32Array;
  /** 1-based heading level of each Title node, 0 for other nodes. */
  level: Int32Array;
  /** Titles from the root down to the node's nearest Title (itself when it is one). */
  headingChain(index: number): readonly number[];
}

const MAX_DETAIL_WARNINGS = 20;

/** Builds the tree; problems become warnings, never exceptions. */
export function buildDocumentTree(
  nodes: readonly DocNode[],
  titleTree: unknown,
  warn: (w: ChunkWarning) => void,
): DocumentTree {
  const treeLevels = titleTreeLevels(titleTree);
  const hasTitles = nodes.some((n) => n.type === "Title");
  const hasLinks = nodes.some((n) => typeof n.meta.parent_id === "string" || Array.isArray(n.meta.children_ids));
  if (hasLinks) {
    const problems: ChunkWarning[] = [];
    const parent = linkParents(nodes, problems);
    if (problems.length === 0) return finish("hierarchy", nodes, parent, treeLevels);
    for (const p of problems.slice(0, MAX_DETAIL_WARNINGS)) warn(p);
    warn({
      code: "hierarchy_inconsistent",
      message: `parent_id/children_ids are inconsistent (${problems.length} problem(s)); headings taken from Title order instead`,
    });
  } else if (hasTitles) {
    warn({
      code: "hierarchy_missing",
      message: "the result has no parent_id/children_ids (include_hierarchy off?); headings taken from Title order and depth",
    });
  }
  return finish("title_order", nodes, titleOrderParents(nodes, treeLevels), treeLevels);
}

function linkParents(nodes: readonly DocNode[], problems: ChunkWarning[]): Int32Array {
  const byId = nodeIndex(nodes);
  const parent = new Int32Array(nodes.length).fill(-1);
  for (const n of nodes) {
    const pid = n.meta.parent_id;
    if (typeof pid !== "string") continue;
    const p = byId.get(pid);
    if (p === undefined) {
      problems.push({ code: "dangling_parent", message: `parent_id ${pid} of ${n.id} names no element`, elementId: n.id });
    } else if (p === n.index) {
      problems.push({ code: "self_parent", message: `${n.id} is its own parent`, elementId: n.id });
    } else {
      parent[n.index] = p;
    }
  }
  for (const n of nodes) {
    const kids = n.meta.children_ids;
    if (!Array.isArray(kids)) continue;
    for (const kid of kids) {
      const c = typeof kid === "string" ? byId.get(kid) : undefined;
      if (c === undefined) {
        problems.push({ code: "dangling_child", message: `children_ids of ${n.id} names missing element ${String(kid)}`, elementId: n.id });
        continue;
      }
      if (c === n.index) {
        problems.push({ code: "self_parent", message: `${n.id} lists itself as a child`, elementId: n.id });
      } else if (parent[c] === -1 && typeof nodes[c]!.meta.parent_id !== "string") {
        parent[c] = n.index;
      } else if (parent[c] !== n.index) {
        problems.push({
          code: "parent_conflict",
          message: `${nodes[c]!.id} is a child of ${n.id} by children_ids but has parent_id ${String(nodes[c]!.meta.parent_id)}`,
          elementId: nodes[c]!.id,
        });
      }
    }
  }
  // Cycles: walk up from each node, colouring; a node met twice on one walk is a cycle.
  const state = new Uint8Array(nodes.length); // 0 new, 1 on the current walk, 2 done
  for (let i = 0; i < nodes.length; i++) {
    const walk: number[] = [];
    let j = i;
    while (j !== -1 && state[j] === 0) {
      state[j] = 1;
      walk.push(j);
      j = parent[j]!;
    }
    if (j !== -1 && state[j] === 1) {
      problems.push({ code: "parent_cycle", message: `parent links form a cycle through ${nodes[j]!.id}`, elementId: nodes[j]!.id });
      for (const k of walk) parent[k] = -1;
    }
    for (const k of walk) state[k] = 2;
  }
  return parent;
}

function titleOrderParents(nodes: readonly DocNode[], treeLevels: Map<string, number>): Int32Array {
  const parent = new Int32Array(nodes.length).fill(-1);
  const stack: { index: number; level: number }[] = [];
  for (const n of nodes) {
    if (n.type === "Title") {
      const level = declaredLevel(n, treeLevels) ?? 1;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      parent[n.index] = stack.length > 0 ? stack[stack.length - 1]!.index : -1;
      stack.push({ index: n.index, level });
    } else {
      parent[n.index] = stack.length > 0 ? stack[stack.length - 1]!.index : -1;
    }
  }
  return parent;
}

function declaredLevel(n: DocNode, treeLevels: Map<string, number>): number | undefined {
  const depth = n.meta.category_depth;
  if (typeof depth === "number" && Number.isInteger(depth) && depth >= 0) return depth + 1;
  const fromTree = treeLevels.get(n.id);
  return fromTree !== undefined && fromTree >= 1 ? fromTree : undefined;
}

function finish(
  mode: DocumentTree["mode"],
  nodes: readonly DocNode[],
  parent: Int32Array,
  treeLevels: Map<string, number>,
): DocumentTree {
  const n = nodes.length;
  // Nearest Title strictly above each node, resolved iteratively (no recursion: a long
  // chain of nested list items must not overflow the stack).
  const titleAbove = new Int32Array(n).fill(-2);
  const resolve = (start: number): number => {
    const path: number[] = [];
    let i = start;
    let found = -1;
    while (true) {
      if (titleAbove[i] !== -2) {
        found = titleAbove[i]!;
        break;
      }
      path.push(i);
      const p = parent[i]!;
      if (p === -1) {
        found = -1;
        break;
      }
      if (nodes[p]!.type === "Title") {
        found = p;
        break;
      }
      i = p;
    }
    for (const k of path) titleAbove[k] = found;
    return found;
  };
  for (let i = 0; i < n; i++) if (titleAbove[i] === -2) resolve(i);

  const level = new Int32Array(n);
  const chains = new Map<number, readonly number[]>();
  const chainOfTitle = (t: number): readonly number[] => {
    const pending: number[] = [];
    let i = t;
    let base: readonly number[] = [];
    while (i !== -1) {
      const known = chains.get(i);
      if (known) {
        base = known;
        break;
      }
      pending.push(i);
      i = titleAbove[i]!;
    }
    for (let k = pending.length - 1; k >= 0; k--) {
      const title = pending[k]!;
      base = [...base, title];
      chains.set(title, base);
    }
    return chains.get(t)!;
  };
  for (const node of nodes) {
    if (node.type !== "Title") continue;
    const chain = chainOfTitle(node.index);
    level[node.index] = declaredLevel(node, treeLevels) ?? chain.length;
  }
  const empty: readonly number[] = [];
  return {
    mode,
    parent,
    level,
    headingChain(index: number): readonly number[] {
      const t = nodes[index]?.type === "Title" ? index : titleAbove[index]!;
      return t === -1 || t === undefined ? empty : chainOfTitle(t);
    },
  };
}

function titleTreeLevels(titleTree: unknown): Map<string, number> {
  const levels = new Map<string, number>();
  if (!Array.isArray(titleTree)) return levels;
  const stack: unknown[] = [...titleTree];
  while (stack.length > 0) {
    const item = stack.pop() as Partial<TitleNode> | null;
    if (typeof item !== "object" || item === null) continue;
    if (typeof item.element_id === "string" && typeof item.level === "number") levels.set(item.element_id, item.level);
    if (Array.isArray(item.children)) for (const child of item.children) stack.push(child);
  }
  return levels;
}
