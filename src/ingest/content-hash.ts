import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** sha256 hex of bytes or a string. */
export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** sha256 hex and size of a file, streamed so a large file is never held in memory. */
export async function hashFile(path: string, signal?: AbortSignal): Promise<{ hash: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const piece of createReadStream(path, signal ? { signal } : {})) {
    const buf = piece as Buffer;
    size += buf.length;
    hash.update(buf);
  }
  return { hash: hash.digest("hex"), size };
}

/** JSON with object keys sorted, so equal values always hash the same. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined && typeof v !== "function") out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
