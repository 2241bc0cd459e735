import { nodeIndex, type DocNode } from "./nodes.js";
import type { ChunkWarning } from "./options.js";

/** Which elements can continue each other: tables with tables, text with text. */
export function continuationClass(type: string): "table" | "text" | undefined {
  if (type === "Table") return "table";
  if (type === "Title" || type === "Image" || type === "PageBreak") return undefined;
  return "text";
}

/**
 * Resolves continuation links to the element each chain starts at: `root[i]` is the
 * index of the first element of i's chain (i itself when it continues nothing).
 *
 * `continuation_of` wins; `is_continuation` alone continues the nearest kept element
 * before it when that is on an earlier page and of the same class. Links to a missing,
 * dropped, later or incompatible element are ignored with a warning.
 */
export function continuationRoots(
  nodes: readonly DocNode[],
  kept: readonly boolean[],
  warn: (w: ChunkWarning) => void,
): Int32Array {
  const root = Int32Array.from(nodes, (n) => n.index);
  const byId = nodeIndex(nodes);
  let previousKept = -1;
  for (const n of nodes) {
    if (!kept[n.index]) continue;
    const prev = previousKept;
    previousKept = n.index;
    const of = n.meta.continuation_of;
    const flagged = n.meta.is_continuation === true;
    if (typeof of !== "string" && !flagged) continue;
    const cls = continuationClass(n.type);
    let target: number | undefined;
    if (typeof of === "string") {
      target = byId.get(of);
      if (target === undefined || target >= n.index || !kept[target]) {
        warn({
          code: "continuation_unresolved",
          message: `${n.id} continues ${of}, which is ${target === undefined ? "missing" : target >= n.index ? "not before it" : "dropped"}; kept on its own`,
          elementId: n.id,
        });
        continue;
      }
    } else {
      if (prev === -1 || nodes[prev]!.page >= n.page) {
        warn({ code: "continuation_unresolved", message: `${n.id} is a continuation but no element on an earlier page precedes it; kept on its own`, elementId: n.id });
        continue;
      }
      target = prev;
    }
    const targetClass = continuationClass(nodes[target]!.type);
    if (cls === undefined || targetClass !== cls) {
      warn({
        code: "continuation_mismatch",
        message: `${n.id} (${n.type}) cannot continue ${nodes[target]!.id} (${nodes[target]!.type}); kept on its own`,
        elementId: n.id,
      });
      continue;
    }
    root[n.index] = root[target]!;
  }
  return root;
}

function isCjk(c: number): boolean {
  return (c >= 0x3000 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef);
}

/**
 * What goes between the two halves of a paragraph cut by a page break: nothing between
 * CJK characters or after a word-breaking hyphen, a space otherwise.
 */
export function continuationJoiner(before: string, after: string): string {
  const a = before.trimEnd();
  const b = after.trimStart();
  if (a === "" || b === "") return "";
  const last = a.charCodeAt(a.length - 1);
  const first = b.charCodeAt(0);
  if (isCjk(last) || isCjk(first)) return "";
  if (last === 45 /* - */ && /[a-z]/.test(b.charAt(0))) return "";
  return " ";
}
