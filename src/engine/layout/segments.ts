import type { Segment } from "./types.js";

/**
 * Merges collinear ruling segments that touch or overlap (tables drawn cell by cell
 * give many short pieces of one rule). Positions within `tol` page units are one line.
 */
export function mergeSegments(segments: readonly Segment[], tol = 1.5): Segment[] {
  const out: Segment[] = [];
  for (const horizontal of [true, false]) {
    const group = segments.filter((s) => s.horizontal === horizontal).sort((a, b) => a.at - b.at || a.from - b.from);
    // Bucket by position, then merge along the segment.
    let i = 0;
    while (i < group.length) {
      let j = i;
      while (j + 1 < group.length && group[j + 1]!.at - group[i]!.at <= tol) j++;
      const bucket = group.slice(i, j + 1).sort((a, b) => a.from - b.from);
      const at = bucket.reduce((s, x) => s + x.at, 0) / bucket.length;
      let cur: Segment | undefined;
      for (const s of bucket) {
        if (cur && s.from <= cur.to + tol * 2) {
          if (s.to > cur.to) cur.to = s.to;
        } else {
          if (cur) out.push(cur);
          cur = { horizontal, at, from: s.from, to: s.to };
        }
      }
      if (cur) out.push(cur);
      i = j + 1;
    }
  }
  return out;
}

/** Whether a horizontal and a vertical segment cross or touch (within `tol`). */
export function touches(h: Segment, v: Segment, tol = 2): boolean {
  return v.at >= h.from - tol && v.at <= h.to + tol && h.at >= v.from - tol && h.at <= v.to + tol;
}

/** Sorted distinct positions, values within `tol` merged to their mean. */
export function distinct(values: readonly number[], tol = 2): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  let sum = 0;
  let n = 0;
  let first = 0;
  for (const v of sorted) {
    if (n > 0 && v - first > tol) {
      out.push(sum / n);
      sum = 0;
      n = 0;
    }
    if (n === 0) first = v;
    sum += v;
    n++;
  }
  if (n > 0) out.push(sum / n);
  return out;
}
