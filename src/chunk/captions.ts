import { nodeIndex, type DocNode } from "./nodes.js";

const CAPTION_TYPES = new Set(["TableCaption", "FigureCaption"]);

/**
 * Pairs tables and images with their captions: first through `ref_element_id` (either
 * direction), then a TableCaption next to a table (before it, else after) and a
 * FigureCaption next to an image (after it, else before). Returns caption index by
 * target index; targets are chain roots (a continued table's caption is the first
 * part's).
 */
export function linkCaptions(
  nodes: readonly DocNode[],
  kept: readonly boolean[],
  root: Int32Array,
): Map<number, number> {
  const byId = nodeIndex(nodes);
  const captionOf = new Map<number, number>();
  const used = new Set<number>();
  const isTarget = (i: number) => kept[i] === true && (nodes[i]!.type === "Table" || nodes[i]!.type === "Image") && root[i] === i;
  const isCaption = (i: number) => kept[i] === true && !used.has(i) && root[i] === i && nodes[i]!.type !== "Table" && nodes[i]!.type !== "Image" && nodes[i]!.type !== "Title";
  const pair = (target: number, caption: number) => {
    if (captionOf.has(target) || used.has(caption)) return;
    captionOf.set(target, caption);
    used.add(caption);
  };
  for (const n of nodes) {
    const ref = n.meta.ref_element_id;
    if (typeof ref !== "string") continue;
    const other = byId.get(ref);
    if (other === undefined || other === n.index) continue;
    if (isTarget(n.index) && isCaption(other)) pair(n.index, other);
    else if (isTarget(other) && isCaption(n.index) && CAPTION_TYPES.has(n.type)) pair(other, n.index);
  }
  // Neighbours by kept order.
  const keptOrder: number[] = [];
  for (const n of nodes) if (kept[n.index]) keptOrder.push(n.index);
  for (let k = 0; k < keptOrder.length; k++) {
    const i = keptOrder[k]!;
    const type = nodes[i]!.type;
    if (!CAPTION_TYPES.has(type) || used.has(i) || root[i] !== i) continue;
    const want = type === "TableCaption" ? "Table" : "Image";
    const next = keptOrder[k + 1];
    const prev = keptOrder[k - 1];
    const order = type === "TableCaption" ? [next, prev] : [prev, next];
    for (const t of order) {
      if (t !== undefined && nodes[t]!.type === want && isTarget(t) && !captionOf.has(t)) {
        pair(t, i);
        break;
      }
    }
  }
  return captionOf;
}
