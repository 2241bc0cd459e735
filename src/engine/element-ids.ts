import { createHash } from "node:crypto";

/** The document's id: sha256 of its bytes, hex. Same bytes, same id. */
export function fileIdOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Element ids: opaque, deterministic and unique in a result. An element's id comes from
 * the file id, its page and its position on that page, so parsing the same document with
 * another page_range or other capabilities gives the same ids to the same elements.
 */
export class ElementIdAllocator {
  readonly #fileId: string;
  readonly #perPage = new Map<number, number>();
  readonly #used = new Set<string>();

  constructor(fileId: string) {
    this.#fileId = fileId;
  }

  /** The id of the next element on `page` (call in reading order). */
  next(page: number): string {
    const ordinal = this.#perPage.get(page) ?? 0;
    this.#perPage.set(page, ordinal + 1);
    let id = createHash("sha256").update(`${this.#fileId}:${page}:${ordinal}`).digest("hex").slice(0, 20);
    // 80 bits make a clash practically impossible; uniqueness is still guaranteed.
    for (let k = 1; this.#used.has(id); k++) id = `${id.slice(0, 20)}-${k}`;
    this.#used.add(id);
    return id;
  }
}
