import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Chunk } from "../chunk/chunk.js";
import { DocParseError, LocalErrorCode, invalidOption } from "../errors.js";
import { CitationRetriever, type CitationRetrieverOptions, type CitedPassage } from "../retrieve/citation-retriever.js";
import type { CitationRegion } from "../retrieve/citation.js";
import type { ChunkStore } from "../store/chunk-store.js";
import { APP_CSS } from "./assets/app-css.js";
import { APP_JS } from "./assets/app-js.js";
import { PAGE_HTML } from "./assets/page-html.js";
import { fetchPageImage, ImageCache, pageImageUrlOf, type PageImage, type PageImageResolver, type PageImageSource } from "./page-images.js";

/** The colour of `.hl-quote` (see `assets/app-css.ts`), for tests and embedders. */
export const QUOTE_HIGHLIGHT_RGBA = [255, 0, 200, 0.35] as const;

/** The option defaults, pinned by a test so the TSDoc below cannot drift. */
export const VIEWER_DEFAULTS = Object.freeze({
  port: 0,
  host: "127.0.0.1",
  k: 10,
  maxQueryLength: 500,
  fetchRemoteImages: true,
  maxImageBytes: 20 * 1024 * 1024,
  imageCacheBytes: 64 * 1024 * 1024,
});

export interface ViewerOptions {
  /** Where the chunks are. */
  store: ChunkStore;
  /** The embedder the chunks were embedded with. @default new HashEmbeddings() */
  embeddings?: EmbeddingsInterface;
  /**
   * Renders page images of local parses, looked up by the chunk's `fileId`. The default
   * is a `LocalParser` on its default asset directory (created on the first page asked
   * for), which is where `ingest` with the local engine kept the sources; `false` turns
   * local renders off.
   * @default new LocalParser()
   */
  parser?: PageImageSource | false;
  /** A custom page-image lookup, tried first. */
  pageImages?: PageImageResolver;
  /** Port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to bind. Anything but loopback exposes the documents to the network. @default "127.0.0.1" */
  host?: string;
  /** Results per search. @default 10 */
  k?: number;
  /** Longest accepted query, in characters. @default 500 */
  maxQueryLength?: number;
  /** More retriever settings (expand, mmr, filter, pageSizes, ...). */
  retriever?: Partial<Omit<CitationRetrieverOptions, "store" | "embeddings">>;
  /** Proxy `page_image_url`s of remote parses (fetched by the viewer, bounded). @default true */
  fetchRemoteImages?: boolean;
  /** Largest page image fetched or rendered, bytes. @default 20 MiB */
  maxImageBytes?: number;
  /** Memory for cached page images, bytes. @default 64 MiB */
  imageCacheBytes?: number;
}

export interface Viewer {
  /** `http://host:port/` of the page. */
  url: string;
  port: number;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** One ranked result as the page receives it. */
export interface ViewerResult {
  n: number;
  id: string;
  score: number;
  sourceId: string;
  filename?: string;
  pages: number[];
  headingPath: string[];
  text: string;
  quote: { text: string; start: number; end: number; regions: CitationRegion[] };
  regions: CitationRegion[];
  /** page → same-origin image URL. */
  pageImages: Record<string, string>;
}

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

const ASSETS: Record<string, { body: string; type: string }> = {
  "/": { body: PAGE_HTML, type: "text/html; charset=utf-8" },
  "/app.js": { body: APP_JS, type: "text/javascript; charset=utf-8" },
  "/app.css": { body: APP_CSS, type: "text/css; charset=utf-8" },
};

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

function send(res: ServerResponse, status: number, body: string | Uint8Array, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": type, "content-length": String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), "application/json; charset=utf-8");
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

function checkPort(port: number): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalidOption(`Expected \`port\` to be an integer in [0, 65535], got ${port}`);
}

/**
 * Starts the citation viewer: one page with a search box, ranked results and the cited
 * page images with the quote highlighted; a JSON search API (`/api/search?q=&k=`) and a
 * page-image route (`/api/page-image?chunk=&page=`). Serves nothing else.
 *
 * @example
 * ```ts
 * const viewer = await startViewer({ store: await openStore("pglite://./rag-db") }); // local renders by default
 * console.log(`open ${viewer.url}`);
 * ```
 */
export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const {
    store,
    pageImages,
    port = VIEWER_DEFAULTS.port,
    host = VIEWER_DEFAULTS.host,
    k = VIEWER_DEFAULTS.k,
    maxQueryLength = VIEWER_DEFAULTS.maxQueryLength,
    retriever: retrieverOptions = {},
    fetchRemoteImages = VIEWER_DEFAULTS.fetchRemoteImages,
    maxImageBytes = VIEWER_DEFAULTS.maxImageBytes,
    imageCacheBytes = VIEWER_DEFAULTS.imageCacheBytes,
  } = options;
  checkPort(port);
  if (!Number.isInteger(k) || k < 1 || k > 100) throw invalidOption(`Expected \`k\` to be an integer in [1, 100], got ${k}`);
  let embeddings = options.embeddings;
  if (!embeddings) {
    const { HashEmbeddings } = await import("../embed/hash-embeddings.js");
    embeddings = new HashEmbeddings();
  }
  const retriever = new CitationRetriever({ k, maxQueryLength, ...retrieverOptions, store, embeddings });
  const cache = new ImageCache(imageCacheBytes);
  let parser: PageImageSource | false | undefined = options.parser;
  const renderer = async (): Promise<PageImageSource | undefined> => {
    if (parser === undefined) {
      const { LocalParser } = await import("../engine/local-parser.js");
      parser = new LocalParser();
    }
    return parser || undefined;
  };

  async function resolveImage(chunk: Chunk, page: number): Promise<PageImage | undefined> {
    const key = `${chunk.metadata.sourceId}\u0000${chunk.metadata.fileId ?? ""}\u0000${page}`;
    const cached = cache.get(key);
    if (cached) return cached;
    let image: PageImage | undefined;
    if (pageImages) image = (await pageImages(chunk, page)) ?? undefined;
    const fileId = chunk.metadata.fileId;
    const local = !image && fileId ? await renderer() : undefined;
    if (local && fileId) {
      // Unknown file or page, or a format without pages: fall through to the other sources.
      image = await local.pageImage(fileId, page).catch(() => undefined);
    }
    const url = image ? undefined : pageImageUrlOf(chunk, page);
    if (!image && url && fetchRemoteImages) {
      image = await fetchPageImage(url, { maxBytes: maxImageBytes, timeoutMs: 20_000 }).catch(() => undefined);
    }
    if (image && image.bytes.byteLength <= maxImageBytes) {
      cache.set(key, image);
      return image;
    }
    return undefined;
  }

  async function handleSearch(url: URL, res: ServerResponse): Promise<void> {
    const q = url.searchParams.get("q") ?? "";
    const kParam = url.searchParams.get("k");
    const wanted = kParam === null ? k : Number(kParam);
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > 100) return sendError(res, 400, "DOCPARSE_INVALID_OPTION", "k must be an integer in [1, 100]");
    if (!q.trim()) return sendError(res, 400, "DOCPARSE_INVALID_OPTION", "q is required");
    if (q.length > maxQueryLength) return sendError(res, 400, "DOCPARSE_INVALID_OPTION", `q is longer than ${maxQueryLength} characters`);
    const passages = await retriever.searchPassages(q, { k: wanted });
    const results = passages.map((p, i) => toResult(p, i));
    sendJson(res, 200, { query: q, results });
  }

  // Chunks of recently served results: page images are looked up here first, so stores
  // that cannot fetch by id (some LangChain vector stores) still get their pages shown.
  const served = new Map<string, Chunk>();
  const remember = (chunk: Chunk) => {
    served.delete(chunk.id);
    served.set(chunk.id, chunk);
    if (served.size > 5000) served.delete(served.keys().next().value!);
  };

  function toResult({ document: doc, chunks }: CitedPassage, i: number): ViewerResult {
    const c = doc.metadata.citation;
    const pageImages: Record<string, string> = {};
    for (const chunk of chunks) remember(chunk);
    for (const page of c.pages) {
      // A passage may span chunks: each page's image is asked for through a chunk on it.
      const owner = chunks.find((ch) => ch.metadata.pages.includes(page))?.id ?? doc.metadata.chunkId;
      pageImages[String(page)] = `/api/page-image?chunk=${encodeURIComponent(owner)}&page=${page}`;
    }
    const result: ViewerResult = {
      n: i + 1,
      id: doc.metadata.chunkId,
      score: doc.metadata.score,
      sourceId: c.sourceId,
      pages: c.pages,
      headingPath: c.headingPath,
      text: doc.pageContent,
      quote: { text: c.quote.text, start: c.quote.start, end: c.quote.end, regions: c.quote.regions },
      regions: c.regions,
      pageImages,
    };
    if (c.filename !== undefined) result.filename = c.filename;
    return result;
  }

  async function findChunk(id: string): Promise<Chunk | undefined> {
    const known = served.get(id);
    if (known) return known;
    try {
      return (await store.getByIds([id]))[0];
    } catch (error) {
      if (DocParseError.isInstance(error) && error.code === LocalErrorCode.Unsupported) return undefined;
      throw error;
    }
  }

  async function handlePageImage(url: URL, res: ServerResponse): Promise<void> {
    const id = url.searchParams.get("chunk") ?? "";
    const page = Number(url.searchParams.get("page"));
    if (!id || id.length > 512 || !Number.isInteger(page) || page < 1 || page > 100_000) {
      return sendError(res, 400, "DOCPARSE_INVALID_OPTION", "chunk and page (integer >= 1) are required");
    }
    // Only pages of chunks the store holds: the route cannot be used to read anything else.
    const chunk = await findChunk(id);
    if (!chunk || !chunk.metadata.pages.includes(page)) return sendError(res, 404, "NOT_FOUND", "no such chunk page");
    const image = await resolveImage(chunk, page);
    if (!image) return sendError(res, 404, "NO_PAGE_IMAGE", `no page image for page ${page}`);
    send(res, 200, image.bytes, image.mimeType, { "cache-control": "private, max-age=300" });
  }

  const loopbackOnly = LOOPBACK.has(host);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      try {
        // DNS-rebinding guard: a page on another site that resolves its name to 127.0.0.1
        // sends its own Host header, which a loopback viewer refuses.
        const hostHeader = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
        if (loopbackOnly && !LOOPBACK.has(hostHeader)) return sendError(res, 403, "FORBIDDEN_HOST", "unexpected Host header");
        if (req.method !== "GET" && req.method !== "HEAD") return sendError(res, 405, "METHOD_NOT_ALLOWED", "only GET");
        if ((req.url ?? "").length > 4096) return sendError(res, 414, "URI_TOO_LONG", "request URL too long");
        const url = new URL(req.url ?? "/", "http://viewer.invalid");
        const asset = ASSETS[url.pathname];
        if (asset) return send(res, 200, asset.body, asset.type);
        if (url.pathname === "/api/search") return await handleSearch(url, res);
        if (url.pathname === "/api/page-image") return await handlePageImage(url, res);
        sendError(res, 404, "NOT_FOUND", "not found");
      } catch (error) {
        if (res.headersSent) return void res.destroy();
        if (DocParseError.isInstance(error) && error.code === "DOCPARSE_INVALID_OPTION") return sendError(res, 400, error.code, error.message);
        const code = DocParseError.isInstance(error) ? String(error.code) : "INTERNAL";
        sendError(res, 500, code, error instanceof Error ? error.message : "internal error");
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
