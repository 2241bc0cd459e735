import type { ChunkFilter } from "../chunk-store.js";

/** Collects positional parameters while SQL is being built. */
export class Params {
  readonly values: unknown[] = [];
  /** Adds a value; returns its placeholder (`$3`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The WHERE conditions of a filter (joined with AND; `TRUE` for none), with the same
 * semantics as `matchesFilter` in memory. Every key maps to an indexed column.
 */
export function filterSql(filter: ChunkFilter | undefined, params: Params): string {
  if (filter === undefined) return "TRUE";
  const where: string[] = [];
  if (filter.sourceId !== undefined) {
    where.push(Array.isArray(filter.sourceId) ? `source_id = ANY(${params.add(filter.sourceId)}::text[])` : `source_id = ${params.add(filter.sourceId)}`);
  }
  if (filter.filename !== undefined) where.push(`filename = ${params.add(filter.filename)}`);
  if (filter.kind !== undefined) {
    where.push(Array.isArray(filter.kind) ? `kind = ANY(${params.add(filter.kind)}::text[])` : `kind = ${params.add(filter.kind)}`);
  }
  if (filter.pages !== undefined) {
    const { from, to } = filter.pages;
    // page_start/page_end narrow through the btree index; the array check is exact
    // (a chunk may skip pages between its first and last).
    if (to !== undefined) where.push(`page_start <= ${params.add(to)}::int`);
    if (from !== undefined) where.push(`page_end >= ${params.add(from)}::int`);
    const lo = from === undefined ? "" : `p >= ${params.add(from)}::int`;
    const hi = to === undefined ? "" : `p <= ${params.add(to)}::int`;
    where.push(`EXISTS (SELECT 1 FROM unnest(pages) AS p WHERE ${[lo, hi].filter(Boolean).join(" AND ") || "TRUE"})`);
  }
  if (filter.elementType !== undefined) where.push(`element_types @> ARRAY[${params.add(filter.elementType)}::text]`);
  if (filter.headingPathPrefix !== undefined && filter.headingPathPrefix.length > 0) {
    const n = filter.headingPathPrefix.length;
    // @> lets the GIN index narrow; the slice comparison checks order and position.
    const prefix = params.add(filter.headingPathPrefix);
    where.push(`heading_path @> ${prefix}::text[] AND heading_path[1:${n}] = ${prefix}::text[]`);
  }
  if (filter.metadata !== undefined && Object.keys(filter.metadata).length > 0) {
    where.push(`metadata @> ${params.add(JSON.stringify(filter.metadata))}::jsonb`);
  }
  return where.length === 0 ? "TRUE" : where.join(" AND ");
}
