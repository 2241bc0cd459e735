import type { Chunk } from "../chunk/chunk.js";

/** A page image ready to send. */
export interface PageImage {
  bytes: Uint8Array;
  mimeType: string;
}

/**
 * What the viewer needs from a parser to show local renders. `LocalParser` implements
 * it: renders on demand and caches them on disk by `fileId`.
 */
export interface PageImageSource {
  /** PNG (or other image) of a 1-based page of a parsed file; undefined (or a rejection) when unknown. */
  pageImage(fileId: string, page: number): Promise<PageImage | undefined>;
}

/** A custom page-image lookup, tried before the built-in ones. Undefined: not found here. */
export type PageImageResolver = (chunk: Chunk, page: number) => Promise<PageImage | undefined> | PageImage | undefined;

/**
 * The remote `page_image_url` of a page if the chunk carries one: `metadata.pageImageUrls`
 * as `{ [page]: url }` or `[{ page, url }]`, or `metadata.pageImages` in the same shapes.
 */
export function pageImageUrlOf(chunk: Chunk, page: number): string | undefined {
  for (const key of ["pageImageUrls", "pageImages"]) {
    const v = chunk.metadata[key];
    let url: unknown;
    if (Array.isArray(v)) {
      const hit = v.find((x: unknown) => (x as { page?: unknown })?.page === page) as { url?: unknown } | undefined;
      url = hit?.url;
    } else if (v && typeof v === "object") {
      const hit = (v as Record<string, unknown>)[String(page)];
      url = typeof hit === "object" && hit !== null ? (hit as { url?: unknown }).url : hit;
    }
    if (typeof url === "string" && /^https?:\/\//i.test(url)) return url;
  }
  return undefined;
}

const IMAGE_TYPES = /^image\/(png|jpeg|webp|gif)$/;

/**
 * Fetches a remote page image for the viewer to proxy (the page's CSP allows only
 * same-origin images). Bounded in size and time; anything but an image is refused.
 */
export async function fetchPageImage(url: string, options: { maxBytes: number; timeoutMs: number }): Promise<PageImage | undefined> {
  const res = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs), redirect: "follow" });
  const mimeType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!res.ok || !IMAGE_TYPES.test(mimeType) || !res.body) {
    await res.body?.cancel();
    return undefined;
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += part.byteLength;
    if (size > options.maxBytes) return undefined;
    parts.push(part);
  }
  return { bytes: Buffer.concat(parts), mimeType };
}

/** A small least-recently-used cache of page images, bounded by total bytes. */
export class ImageCache {
  readonly #items = new Map<string, PageImage>();
  #bytes = 0;
  constructor(readonly maxBytes: number) {}

  get(key: string): PageImage | undefined {
    const v = this.#items.get(key);
    if (v) {
      this.#items.delete(key);
      this.#items.set(key, v);
    }
    return v;
  }

  set(key: string, value: PageImage): void {
    if (value.bytes.byteLength > this.maxBytes) return;
    const old = this.#items.get(key);
    if (old) this.#bytes -= old.bytes.byteLength;
    this.#items.delete(key);
    this.#items.set(key, value);
    this.#bytes += value.bytes.byteLength;
    for (const [k, v] of this.#items) {
      if (this.#bytes <= this.maxBytes) break;
      this.#items.delete(k);
      this.#bytes -= v.bytes.byteLength;
    }
  }
}
