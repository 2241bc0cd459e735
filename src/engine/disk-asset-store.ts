import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
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
  }

  async get(fileId: string, name: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.#path(fileId, name)));
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
