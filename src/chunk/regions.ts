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
  /** 1 where the character is whitespace: it says nothing about which line text is on. */
  blank: Uint8Array;
}

/**
 * Finds boxes for parts of elements. Per-element character indexes are built once and
 * searched by bisection, so narrowing many pieces of one long element stays linear.
 */
export class RegionFinder {
  private readonly charIndex = new Map<number, CharIndex | null>();
  /** The characters each narrowed region was made of, for {@link RegionFinder.lines}. */
  private readonly narrowed = new WeakMap<ChunkRegion, { index: CharIndex; lo: number; hi: number }>();

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
        if (quad) {
          const region: ChunkRegion = { page: node.page, coordinates: quad, elementId: node.id };
          this.narrowed.set(region, { index, lo, hi });
          return region;
        }
      }
    }
    const r = this.whole(node);
    r.approximate = true;
    return r;
  }

  /**
   * A region {@link RegionFinder.part} narrowed, cut where its box would take in other
   * text: a part that starts or ends inside a line the element's other characters share
   * (a long paragraph split mid-line) gets its first line, the lines between and its last
   * line as boxes of their own; one bounding box would cover the words of the pieces
   * before and after on those lines. Any other region comes back as it is.
   */
  lines(region: ChunkRegion): ChunkRegion[] {
    const known = this.narrowed.get(region);
    if (!known) return [region];
    const { index, lo, hi } = known;
    const box = (k: number) => boxRect(index.boxes[k]!);
    // The nearest printed characters outside the part, before and after it.
    let before = lo - 1;
    while (before >= 0 && index.blank[before]) before--;
    let after = hi;
    while (after < index.at.length && index.blank[after]) after++;
    const headCut = before >= 0 && sameLine(box(before), box(lo));
    const tailCut = after < index.at.length && sameLine(box(after), box(hi - 1));
    if (!headCut && !tailCut) return [region];
    let headEnd = lo + 1;
    while (headEnd < hi && sameLine(box(headEnd), box(lo))) headEnd++;
    // One line: its bounding box is already exact.
    if (headEnd >= hi) return [region];
    let tailStart = hi - 1;
    while (tailStart > headEnd && sameLine(box(tailStart - 1), box(hi - 1))) tailStart--;
    const cuts = [lo, ...(headCut ? [headEnd] : []), ...(tailCut ? [tailStart] : []), hi].filter((v, i, a) => i === 0 || v > a[i - 1]!);
    const out: ChunkRegion[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const quad = boundingQuad(index.boxes.slice(cuts[i], cuts[i + 1]));
      if (quad) out.push({ page: region.page, coordinates: quad, elementId: region.elementId });
    }
    return out.length > 0 ? out : [region];
  }

  private indexOf(node: DocNode): CharIndex | null {
    const known = this.charIndex.get(node.index);
    if (known !== undefined) return known;
    const details = node.element.char_details;
    let result: CharIndex | null = null;
    if (Array.isArray(details) && details.length > 0) {
      const items: { at: number; box: readonly number[]; blank: boolean }[] = [];
      details.forEach((c, i) => {
        if (!c || !Array.isArray(c.coordinates) || c.coordinates.length < 8) return;
        items.push({ at: typeof c.index === "number" ? c.index : i, box: c.coordinates, blank: typeof c.text === "string" && c.text.trim() === "" });
      });
      items.sort((a, b) => a.at - b.at);
      if (items.length > 0) result = { at: Int32Array.from(items, (x) => x.at), boxes: items.map((x) => x.box), blank: Uint8Array.from(items, (x) => (x.blank ? 1 : 0)) };
    }
    this.charIndex.set(node.index, result);
    return result;
  }
}

function boxRect(q: readonly number[]): { y0: number; y1: number } {
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 1; i < q.length; i += 2) {
    y0 = Math.min(y0, q[i]!);
    y1 = Math.max(y1, q[i]!);
  }
  return { y0, y1 };
}

/** Whether two character boxes sit on one text line: each one's middle inside the other's height. */
function sameLine(a: { y0: number; y1: number }, b: { y0: number; y1: number }): boolean {
  const ca = (a.y0 + a.y1) / 2;
  const cb = (b.y0 + b.y1) / 2;
  return ca >= b.y0 && ca <= b.y1 && cb >= a.y0 && cb <= a.y1;
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

