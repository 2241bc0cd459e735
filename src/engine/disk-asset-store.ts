import { mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ASSET_NAME_PATTERN, FILE_ID_PATTERN, LAYOUT_NAME_PATTERN, SOURCE_INFO_NAME, SOURCE_NAME, type AssetStore } from "./assets.js";
import { invalidOption } from "../errors.js";

export interface DiskAssetStoreOptions {
  /** Directory holding one sub-directory per file id. @default `${os.tmpdir()}/docparse-rag-assets` */
  directory?: string;
}

/** The default directory of {@link DiskAssetStore}. */
export function defaultAssetDirectory(): string {
  return join(tmpdir(), "docparse-rag-assets");
}

/**
 * An AssetStore on the local disk: `<directory>/<fileId>/<name>`. Writes go through a
 * temp file and a rename, so a concurrent reader never sees half a PNG. Nothing is
 * deleted automatically: point `directory` at a place you clean, or use the OS temp dir.
 */
export class DiskAssetStore implements AssetStore {
  /** The root directory. */
  readonly directory: string;

  constructor(options: DiskAssetStoreOptions = {}) {
    this.directory = options.directory ?? defaultAssetDirectory();
  }

  async put(fileId: string, name: string, bytes: Uint8Array): Promise<void> {
    const path = this.#path(fileId, name);
    await mkdir(join(this.directory, fileId), { recursive: true });
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
    await this.#touch(fileId);
  }

  // The directory's mtime is the document's last use, for prune().
  async #touch(fileId: string): Promise<void> {
    const now = new Date();
    await utimes(join(this.directory, fileId), now, now).catch(() => {});
  }

  async get(fileId: string, name: string): Promise<Uint8Array | undefined> {
    try {
      const bytes = new Uint8Array(await readFile(this.#path(fileId, name)));
      await this.#touch(fileId);
      return bytes;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  async has(fileId: string, name: string): Promise<boolean> {
    try {
      await stat(this.#path(fileId, name));
      return true;
    } catch {
      return false;
    }
  }

  async delete(fileId: string, name: string): Promise<void> {
    await rm(this.#path(fileId, name), { force: true });
  }

  /**
   * Deletes the assets of every document not written or read for `olderThanMs`
   * (a document's directory is touched on each write and read). Returns how many
   * documents were removed. Run it on your own schedule; nothing calls it for you.
   */
  async prune(olderThanMs: number): Promise<number> {
    let entries: string[];
    try {
      entries = await readdir(this.directory);
    } catch {
      return 0;
    }
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const id of entries) {
      if (!FILE_ID_PATTERN.test(id)) continue;
      const dir = join(this.directory, id);
      try {
        if ((await stat(dir)).mtimeMs < cutoff) {
          await rm(dir, { recursive: true, force: true });
          removed++;
        }
      } catch {
        // Removed concurrently: nothing to do.
      }
    }
    return removed;
  }

  locate(fileId: string, name: string): string {
    return pathToFileURL(this.#path(fileId, name)).href;
  }

  // Names and ids are checked here too: this is the one place that touches paths.
  #path(fileId: string, name: string): string {
    if (!FILE_ID_PATTERN.test(fileId)) throw invalidOption(`Not a file id: ${JSON.stringify(fileId)}`);
    if (name !== SOURCE_NAME && name !== SOURCE_INFO_NAME && !ASSET_NAME_PATTERN.test(name) && !LAYOUT_NAME_PATTERN.test(name)) {
      throw invalidOption(`Not an asset name: ${JSON.stringify(name)}`);
    }
    return join(this.directory, fileId, name);
  }
}
