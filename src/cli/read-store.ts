import { existsSync } from "node:fs";
import { invalidOption } from "../errors.js";
import { openStoreUrl } from "../ingest/defaults.js";
import type { ChunkStore } from "../store/chunk-store.js";

/**
 * Opens a store for a read-only command (`query`, `view`). Opening a `pglite://`
 * directory creates it, so a mistyped path would silently become an empty store that
 * answers "no matching passages": a directory that does not exist is refused instead.
 */
export async function openExistingStore(url: string): Promise<ChunkStore> {
  if (/^pglite:\/\//i.test(url)) {
    const { pgliteDir } = await import("../store/open-store.js");
    const dir = pgliteDir(url);
    if (dir !== undefined && !existsSync(dir)) {
      throw invalidOption(`No store at ${url}: the directory ${dir} does not exist. Check the path, or ingest into it first (docparse-rag ingest <paths> --store ${url}).`);
    }
  }
  return openStoreUrl(url);
}
