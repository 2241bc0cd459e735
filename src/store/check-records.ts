import { DocParseError, LocalErrorCode, invalidOption } from "../errors.js";
import type { StoredChunk } from "./chunk-store.js";

/**
 * Validates a batch before anything is written, so a bad record fails the batch with a
 * clear message. Returns the batch's vector dimension (undefined for an empty batch).
 * Later records with the same id win, as if the batch were applied in order.
 */
export function checkRecords(records: readonly StoredChunk[], storeDimension: number | undefined): { dimension?: number; records: StoredChunk[] } {
  if (!Array.isArray(records)) throw invalidOption("Expected `records` to be an array");
  let dimension = storeDimension;
  const byId = new Map<string, StoredChunk>();
  for (const record of records) {
    if (typeof record?.id !== "string" || record.id === "") throw invalidOption("Every record needs a non-empty string `id`");
    if (typeof record.metadata?.sourceId !== "string") throw invalidOption(`Record ${record.id} has no \`metadata.sourceId\``);
    const { vector } = record;
    if (!Array.isArray(vector) || vector.length === 0) throw invalidOption(`Record ${record.id} has no vector`);
    if (!vector.every((x) => Number.isFinite(x))) throw invalidOption(`Record ${record.id} has a vector with a non-finite number`);
    if (dimension === undefined) dimension = vector.length;
    else if (vector.length !== dimension) throw dimensionMismatch(vector.length, dimension, record.id);
    byId.delete(record.id);
    byId.set(record.id, record);
  }
  return { ...(dimension === undefined ? {} : { dimension }), records: [...byId.values()] };
}

/** The error for a vector whose length differs from the store's fixed dimension. */
export function dimensionMismatch(got: number, expected: number, id?: string): DocParseError {
  return new DocParseError(
    LocalErrorCode.InvalidOption,
    `Vector dimension ${got}${id ? ` (record ${id})` : ""} does not match the store's dimension ${expected}, fixed by its first write. ` +
      "Use the same embeddings for writing and querying, or a new store for a different model.",
  );
}

/** Validates a query vector against the store's dimension. */
export function checkQueryVector(vector: readonly number[], dimension: number | undefined): void {
  if (!Array.isArray(vector) || vector.length === 0 || !vector.every((x) => Number.isFinite(x))) {
    throw invalidOption("Expected `vector` to be a non-empty array of finite numbers");
  }
  if (dimension !== undefined && vector.length !== dimension) throw dimensionMismatch(vector.length, dimension);
}

/** Validates `k`. */
export function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw invalidOption(`Expected \`k\` to be an integer >= 1, got ${String(k)}`);
}
