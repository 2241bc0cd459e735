import type { Element, ElementMetadata } from "../wire/index.js";
import type { ChunkWarning } from "./options.js";

/**
 * One element of the result as the chunker sees it: required members checked and
 * defaulted once, so no later step has to guard against a hand-written or truncated
 * result.
 */
export interface DocNode {
  /** Position in `result.elements` (reading order). */
  index: number;
  /** Unique within the document (a duplicate or missing id gets a `#n` suffix). */
  id: string;
  type: string;
  text: string;
  /** 1-based page; 1 when the element had none. */
  page: number;
  coordinates: number[];
  meta: ElementMetadata;
  element: Element;
}

/** Normalises `result.elements`, reporting what it had to repair. */
export function toNodes(elements: readonly unknown[], warn: (w: ChunkWarning) => void): DocNode[] {
  const nodes: DocNode[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < elements.length; index++) {
    const raw = elements[index];
    if (typeof raw !== "object" || raw === null) {
      warn({ code: "element_invalid", message: `elements[${index}] is not an object; skipped` });
      continue;
    }
    const el = raw as Element;
    let id = typeof el.element_id === "string" && el.element_id !== "" ? el.element_id : `#${index}`;
    if (seen.has(id)) {
      const renamed = `${id}#${index}`;
      warn({ code: "duplicate_element_id", message: `element id ${id} repeats at elements[${index}]; using ${renamed}`, elementId: id });
      id = renamed;
    } else if (id !== el.element_id) {
      warn({ code: "element_id_missing", message: `elements[${index}] has no element_id; using ${id}`, elementId: id });
    }
    seen.add(id);
    const page = typeof el.page_number === "number" && Number.isFinite(el.page_number) && el.page_number >= 1 ? Math.floor(el.page_number) : 1;
    const coordinates = Array.isArray(el.coordinates) ? numbers(el.coordinates) : [];
    nodes.push({
      index: nodes.length,
      id,
      type: typeof el.type === "string" ? el.type : "UncategorizedText",
      text: typeof el.text === "string" ? el.text : "",
      page,
      coordinates,
      meta: typeof el.metadata === "object" && el.metadata !== null ? el.metadata : {},
      element: el,
    });
  }
  return nodes;
}

/** The array itself when every item is a number (the usual case), else the numbers in it. */
function numbers(values: unknown[]): number[] {
  for (const v of values) if (typeof v !== "number") return values.filter((n): n is number => typeof n === "number");
  return values as number[];
}

const indexes = new WeakMap<readonly DocNode[], Map<string, number>>();

/** Node index by element id, built once per node list and shared by every step. */
export function nodeIndex(nodes: readonly DocNode[]): ReadonlyMap<string, number> {
  let index = indexes.get(nodes);
  if (!index) {
    index = new Map();
    for (const n of nodes) index.set(n.id, n.index);
    indexes.set(nodes, index);
  }
  return index;
}
