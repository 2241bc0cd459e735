import * as crypto from "node:crypto";

// One-shot `crypto.hash` (Node >= 20.12) is several times cheaper than a Hash object for
// the short strings hashed here, twice per chunk.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

/** sha256 of a string (UTF-8), hex. */
export function sha256Hex(text: string): string {
  return oneShot ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text).digest("hex");
}

/** What identifies a chunk: the same values give the same id. */
export interface ChunkIdInput {
  sourceId: string;
  elementIds: readonly string[];
  /** sha256 of the chunk text (hashing the text once serves both the id and `contentHash`). */
  contentHash: string;
  /** Where in its elements the chunk sits (text ranges, table rows), so equal texts differ. */
  locator: string;
  /** {@link optionsFingerprint} of the options used. */
  options: string;
}

/**
 * A deterministic chunk id: sha256 of source id, element ids, text hash, locator and options,
 * shaped as a UUID (version nibble 5, RFC 4122 variant) because several vector stores
 * accept only UUIDs as ids.
 */
export function chunkId(input: ChunkIdInput): string {
  const hex = sha256Hex(
    JSON.stringify([input.sourceId, input.elementIds, input.contentHash, input.locator, input.options]),
  );
  return toUuid(hex);
}

/** Formats the first 128 bits of a hex digest as a version-5-shaped UUID. */
export function toUuid(hex: string): string {
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Makes ids unique within one document: a repeated id (two chunks with identical
 * source, elements, text and locator) gets a suffix-derived id, in order, so the result
 * stays deterministic.
 */
export function uniqueIds(ids: string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = seen.get(id);
    if (n === undefined) {
      seen.set(id, 1);
      return id;
    }
    seen.set(id, n + 1);
    return toUuid(sha256Hex(`${id}#${n}`));
  });
}
