import type { ChunkRegion } from "./chunk.js";
import type { DocNode } from "./nodes.js";
import { boundsOf, rectToCoordinates } from "./rect.js";

/** Axis-aligned box of 8-number quads (TL TR BR BL), as 8 numbers again. */
export function boundingQuad(quads: readonly (readonly number[])[]): number[] | undefined {
  const r = boundsOf(quads);
  return r && rectToCoordinates(r);
}

interface CharIndex {
  /** Character positions, ascending. */
  at: Int32Array;
  boxes: (readonly number[])[];
}

/**
 * Finds boxes for parts of elements. Per-element character indexes are built once and
 * searched by bisection, so narrowing many pieces of one long element stays linear.
 */
export class RegionFinder {
  private readonly charIndex = new Map<number, CharIndex | null>();

  /** The element's whole box. */
  whole(node: DocNode): ChunkRegion {
    return { page: node.page, coordinates: [...node.coordinates], elementId: node.id };
  }

  /**
   * The box of source characters [start, end) of an element: narrowed from
   * `char_details` when it has them there, else the whole box marked `approximate`.
   */
  part(node: DocNode, start: number, end: number): ChunkRegion {
    if (start <= 0 && end >= node.text.length) return this.whole(node);
    const index = this.indexOf(node);
    if (index) {
      const lo = lowerBound(index.at, start);
      const hi = lowerBound(index.at, end);
      if (hi > lo) {
        const quad = boundingQuad(index.boxes.slice(lo, hi));
        if (quad) return { page: node.page, coordinates: quad, elementId: node.id };
      }
    }
    const r = this.whole(node);
    r.approximate = true;
    return r;
  }

  private indexOf(node: DocNode): CharIndex | null {
    const known = this.charIndex.get(node.index);
    if (known !== undefined) return known;
    const details = node.element.char_details;
    let result: CharIndex | null = null;
    if (Array.isArray(details) && details.length > 0) {
      const items: { at: number; box: readonly number[] }[] = [];
      details.forEach((c, i) => {
        if (!c || !Array.isArray(c.coordinates) || c.coordinates.length < 8) return;
        items.push({ at: typeof c.index === "number" ? c.index : i, box: c.coordinates });
      });
      items.sort((a, b) => a.at - b.at);
      if (items.length > 0) result = { at: Int32Array.from(items, (x) => x.at), boxes: items.map((x) => x.box) };
    }
    this.charIndex.set(node.index, result);
    return result;
  }
}

function lowerBound(a: Int32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One region per element per page, in first-seen order: boxes of the same element on
 * the same page are united (approximate if any part was).
 */
export function mergeRegions(regions: readonly ChunkRegion[]): ChunkRegion[] {
  // Chunks have a handful of regions: a linear scan beats a Map with string keys.
  const out: ChunkRegion[] = [];
  const groups: ChunkRegion[][] = [];
  const index = regions.length > 64 ? new Map<string, number>() : undefined;
  for (const r of regions) {
    let k = 0;
    if (index) k = index.get(`${r.page}\u0000${r.elementId}`) ?? out.length;
    else while (k < out.length && (out[k]!.page !== r.page || out[k]!.elementId !== r.elementId)) k++;
    if (k === out.length) {
      index?.set(`${r.page}\u0000${r.elementId}`, k);
      out.push(r);
      groups.push([r]);
    } else groups[k]!.push(r);
  }
  for (let k = 0; k < out.length; k++) {
    const list = groups[k]!;
    if (list.length === 1) continue;
    const first = list[0]!;
    const quad = boundingQuad(list.map((r) => r.coordinates)) ?? [...first.coordinates];
    const merged: ChunkRegion = { page: first.page, coordinates: quad, elementId: first.elementId };
    if (list.some((r) => r.approximate)) merged.approximate = true;
    out[k] = merged;
  }
  return out;
}

