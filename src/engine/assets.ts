/**
 * Where the local engine keeps the files behind its URLs: the source bytes of each
 * parsed document (so page images can be rendered on demand), rendered page PNGs, and
 * images cut out of documents. Keys are a `fileId` (sha256 hex of the source bytes) and
 * a file name inside it (`source`, `page-3.png`, `img-0.png`, ...).
 */
export interface AssetStore {
  /** Stores bytes under (fileId, name). Writing the same key again replaces it. */
  put(fileId: string, name: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under (fileId, name), or undefined when absent. */
  get(fileId: string, name: string): Promise<Uint8Array | undefined>;
  /** Whether (fileId, name) exists, without reading it. */
  has(fileId: string, name: string): Promise<boolean>;
  /** Removes (fileId, name); removing what is not there is not an error. */
  delete(fileId: string, name: string): Promise<void>;
  /**
   * A URL where (fileId, name) can be read directly when no `assetBaseUrl` is configured
   * (e.g. `file:///tmp/.../page-1.png`). The asset need not exist yet: page images are
   * rendered lazily on the first `LocalParser.asset()` call.
   */
  locate(fileId: string, name: string): string;
}

/** A file id is the sha256 of the source, in hex. */
export const FILE_ID_PATTERN = /^[0-9a-f]{64}$/;

/** Names the engine serves: page images and element images (no path separators, ever). */
export const ASSET_NAME_PATTERN = /^(?:page-[1-9]\d{0,5}\.png|img-\d{1,6}\.[a-z0-9]{2,5})$/;

/** Names of the per-document bookkeeping entries (stored, never served). */
export const SOURCE_NAME = "source";
export const SOURCE_INFO_NAME = "source.json";
/** Estimated-layout page snapshots (`layout-3.json`), drawn into page images on demand. */
export const LAYOUT_NAME_PATTERN = /^layout-[1-9]\d{0,5}\.json$/;

/** Media type for an asset file name, by extension. */
export function assetMimeType(name: string): string {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return EXT_MIME[ext] ?? "application/octet-stream";
}

/** File extension for an image media type (`png` for `image/png`). */
export function imageExtension(mimeType: string): string {
  for (const [ext, mime] of Object.entries(EXT_MIME)) if (mime === mimeType) return ext;
  return "bin";
}

const EXT_MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  tif: "image/tiff",
  svg: "image/svg+xml",
  emf: "image/emf",
  wmf: "image/wmf",
  json: "application/json",
};

/** An in-memory AssetStore: for tests and short-lived processes. `locate` gives `memory:` URLs. */
export class MemoryAssetStore implements AssetStore {
  readonly #files = new Map<string, Uint8Array>();

  async put(fileId: string, name: string, bytes: Uint8Array): Promise<void> {
    this.#files.set(`${fileId}/${name}`, bytes);
  }

  async get(fileId: string, name: string): Promise<Uint8Array | undefined> {
    return this.#files.get(`${fileId}/${name}`);
  }

  async has(fileId: string, name: string): Promise<boolean> {
    return this.#files.has(`${fileId}/${name}`);
  }

  async delete(fileId: string, name: string): Promise<void> {
    this.#files.delete(`${fileId}/${name}`);
  }

  locate(fileId: string, name: string): string {
    return `memory:${fileId}/${name}`;
  }

  /** Number of stored entries (for tests: proves when work was or was not done). */
  get size(): number {
    return this.#files.size;
  }
}
