import type { Chunk } from "../chunk/chunk.js";
import { invalidOption } from "../errors.js";
import type { ChunkFilter } from "./chunk-store.js";

const FILTER_KEYS = new Set(["sourceId", "filename", "pages", "kind", "elementType", "headingPathPrefix", "metadata"]);

/**
 * Checks a filter at the boundary, so a typo (`sourceID`) fails loudly instead of
 * silently matching everything. Returns the filter.
 */
export function checkFilter(filter: ChunkFilter | undefined): ChunkFilter | undefined {
  if (filter === undefined) return undefined;
  if (typeof filter !== "object" || filter === null) throw invalidOption("Expected `filter` to be an object");
  for (const key of Object.keys(filter)) {
    if (!FILTER_KEYS.has(key)) {
      throw invalidOption(`Unknown filter key \`${key}\`; accepted: ${[...FILTER_KEYS].join(", ")} (other metadata keys go under \`metadata\`)`);
    }
  }
  const { pages, metadata } = filter;
  if (pages !== undefined) {
    for (const end of ["from", "to"] as const) {
      const value = pages[end];
      if (value !== undefined && !Number.isInteger(value)) throw invalidOption(`Expected \`filter.pages.${end}\` to be an integer, got ${String(value)}`);
    }
  }
  if (metadata !== undefined) {
    for (const [key, value] of Object.entries(metadata)) {
      if (!["string", "number", "boolean"].includes(typeof value)) {
        throw invalidOption(`Expected \`filter.metadata.${key}\` to be a string, number or boolean`);
      }
    }
  }
  return filter;
}

/** Whether a chunk passes a filter (the in-memory reference semantics every adapter follows). */
export function matchesFilter(chunk: Chunk, filter: ChunkFilter | undefined): boolean {
  if (filter === undefined) return true;
  const m = chunk.metadata;
  if (filter.sourceId !== undefined && !oneOf(m.sourceId, filter.sourceId)) return false;
  if (filter.filename !== undefined && m.filename !== filter.filename) return false;
  if (filter.kind !== undefined && !oneOf(m.kind, filter.kind)) return false;
  if (filter.pages !== undefined) {
    const { from = -Infinity, to = Infinity } = filter.pages;
    if (!m.pages.some((p) => p >= from && p <= to)) return false;
  }
  if (filter.elementType !== undefined && !m.elementTypes.includes(filter.elementType)) return false;
  if (filter.headingPathPrefix !== undefined) {
    const prefix = filter.headingPathPrefix;
    if (prefix.length > m.headingPath.length || prefix.some((title, i) => m.headingPath[i] !== title)) return false;
  }
  if (filter.metadata !== undefined) {
    for (const [key, value] of Object.entries(filter.metadata)) {
      if (m[key] !== value) return false;
    }
  }
  return true;
}

function oneOf<T>(value: T, wanted: T | readonly T[]): boolean {
  return Array.isArray(wanted) ? wanted.includes(value) : value === wanted;
}
