/**
 * Metadata for vector stores that accept only flat scalar values (Chroma, some Pinecone
 * and Qdrant setups): strings, numbers and booleans stay as they are; arrays and objects
 * (regions, headingPath, pages, table, ...) become JSON strings, and the names of the
 * encoded keys are listed under {@link JSON_KEYS} so the way back is exact.
 */
export const JSON_KEYS = "docparseJsonKeys";

export type FlatValue = string | number | boolean;

/** Chunk metadata → flat scalar metadata (null and undefined values are dropped). */
export function flattenMetadata(metadata: Record<string, unknown>): Record<string, FlatValue> {
  const flat: Record<string, FlatValue> = {};
  const encoded: string[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    if (value === null || value === undefined) continue;
    if (typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) {
      flat[key] = value;
    } else {
      flat[key] = JSON.stringify(value);
      encoded.push(key);
    }
  }
  if (encoded.length > 0) flat[JSON_KEYS] = encoded.join(",");
  return flat;
}

/** The inverse of {@link flattenMetadata}; metadata without the marker is returned as is. */
export function unflattenMetadata(flat: Record<string, unknown>): Record<string, unknown> {
  const marker = flat[JSON_KEYS];
  if (typeof marker !== "string") return { ...flat };
  const out: Record<string, unknown> = {};
  const encoded = new Set(marker.split(","));
  for (const [key, value] of Object.entries(flat)) {
    if (key === JSON_KEYS) continue;
    out[key] = encoded.has(key) && typeof value === "string" ? JSON.parse(value) : value;
  }
  return out;
}
