import type { ParseInput, ParseOptions, ParsedDocument, Parser } from "../parser.js";
import { DocParseError, LocalErrorCode, abortError } from "../errors.js";
import { ParseConfigSchema, formatIssues, parsePageRange, resolveCapabilities, type PageSpan, type ParseConfig } from "../wire/index.js";
import type { AddressPolicy } from "../net/url-guard.js";
import type { EngineLimits, FormatContext, FormatHandler } from "./draft.js";
import { FORMAT_LOADERS, type FormatId } from "./registry.js";
import { assemble, type AssetWrite } from "./assemble.js";
import { ASSET_NAME_PATTERN, FILE_ID_PATTERN, SOURCE_INFO_NAME, SOURCE_NAME, assetMimeType, type AssetStore } from "./assets.js";
import { DiskAssetStore } from "./disk-asset-store.js";
import { detectFormat } from "./detect.js";
import { layoutAssetName, loadCanvas, renderFlowPage, type FlowPageSnapshot } from "./flow-render.js";
import { fileIdOf } from "./element-ids.js";
import { resolveLimits } from "./limits.js";
import { ocrLanguages } from "./ocr.js";
import { readInput } from "./read-input.js";

export interface LocalParserOptions {
  /**
   * Bounds for one document (size, pages, zip ratios, time, image pixels); each missing
   * member takes its default.
   * @default ENGINE_LIMIT_DEFAULTS (500 MiB, 5000 pages, 1 GiB unzipped, ratio 200, 600000 ms, 100 Mpx)
   */
  limits?: Partial<EngineLimits>;
  /**
   * Where source bytes (for page images on demand), rendered pages and element images go.
   * Only capabilities a request asks for (`pages` on a format with pages,
   * `include_image_data` with URLs) cause writes.
   * @default new DiskAssetStore() (under `${os.tmpdir()}/docparse-rag-assets`)
   */
  assets?: AssetStore;
  /**
   * Base of the URLs written into results: `${assetBaseUrl}/${fileId}/page-${n}.png` and
   * `${assetBaseUrl}/${fileId}/img-${k}.${ext}`. The local server sets it to its
   * `/api/v1/{product}/assets` route. Without it, URLs are the store's own (`file://`).
   * @default undefined
   */
  assetBaseUrl?: string;
  /**
   * Hosts that `{ url }` inputs may reach (SSRF guard); private and loopback addresses
   * are refused unless listed.
   * @default {} (public addresses only)
   */
  urlPolicy?: AddressPolicy;
  /** Time limit for downloading a `{ url }` input, ms. @default 30000 */
  fetchTimeoutMs?: number;
  /** Resolution of rendered page images. @default 144 */
  pageImageDpi?: number;
  /**
   * Page images for formats without real pages (TXT, Markdown, office files laid out
   * without LibreOffice): drawn from the estimated layout, so highlights land on the
   * cited text. Needs `@napi-rs/canvas`; without it, or when false, such pages have no
   * `page_image_url`. By default on exactly when `assetBaseUrl` is set: a server that
   * serves the images (the local parse service) offers them like the hosted service
   * does, while an in-process parser writes no extra files unless asked.
   * @default assetBaseUrl !== undefined
   */
  estimatedPageImages?: boolean;
  /**
   * Format handlers by format id, replacing or adding to the built-in registry (e.g. a
   * handler for a format that has none yet, or a test double). `null` switches a
   * built-in format off: its documents are then refused with 40425.
   * @default {}
   */
  formats?: Partial<Record<FormatId, (() => Promise<FormatHandler>) | null>>;
}

/** The option defaults, pinned by a test so the TSDoc above cannot drift. */
export const LOCAL_PARSER_DEFAULTS = Object.freeze({
  assetBaseUrl: undefined as string | undefined,
  fetchTimeoutMs: 30_000,
  pageImageDpi: 144,
  /** Resolved per instance: `assetBaseUrl !== undefined`. */
  estimatedPageImages: undefined as boolean | undefined,
});

/** An asset's bytes and media type. */
export interface AssetFile {
  bytes: Uint8Array;
  mimeType: string;
}

interface SourceInfo {
  format: FormatId;
  mimeType: string;
}

/**
 * The local parse engine behind the `Parser` port: the same input and the same
 * `ParseResult` as the hosted service, in process, with no network and no account.
 *
 * @example
 * ```ts
 * const parser = new LocalParser();
 * const result = await parser.parse("report.md", { config: { capabilities: { pages: true } } });
 * ```
 */
export class LocalParser implements Parser {
  readonly name = "local";
  /** The resolved limits. */
  readonly limits: EngineLimits;
  readonly #options: LocalParserOptions;
  #assets: AssetStore | undefined;
  readonly #passwords = new Map<string, string>();
  readonly #rendering = new Map<string, Promise<AssetFile | undefined>>();

  constructor(options: LocalParserOptions = {}) {
    this.limits = resolveLimits(options.limits);
    this.#options = options;
    this.#assets = options.assets;
  }

  /** The asset store (the default disk store is created on first use). */
  get assets(): AssetStore {
    this.#assets ??= new DiskAssetStore();
    return this.#assets;
  }

  /**
   * Parses one document.
   * @throws DocParseError 40004 (bad config, an OCR language not installed), 40302 (too large), 40305 (no/empty file),
   *   40303 (unknown type), 40425 (known type without a local handler), 40422 (corrupt),
   *   40424 (page_range beyond the document), `DOCPARSE_LIMIT_EXCEEDED` (more pages than
   *   `limits.maxPages`), `DOCPARSE_TIMEOUT`, `DOCPARSE_ABORTED`.
   */
  async parse(input: ParseInput, options: ParseOptions = {}): Promise<ParsedDocument> {
    const started = performance.now();
    const config = validateConfig(options.config);
    const capabilities = resolveCapabilities(config);
    const rangeText = config.scope?.page_range;
    const pageRange = rangeText ? (parsePageRange(rangeText) as PageSpan[]) : undefined;
    // Checked for every document, whether or not it will need OCR: 40004 up front.
    ocrLanguages({ config });

    const timer = new AbortController();
    const timeoutMs = this.limits.timeoutMs;
    const timeout = setTimeout(
      () => timer.abort(new DocParseError(LocalErrorCode.Timeout, `Parsing took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
    try {
      const read = await untilAborted(
        readInput(input, {
          maxBytes: this.limits.maxBytes,
          ...(options.filename !== undefined ? { filename: options.filename } : {}),
          ...(this.#options.urlPolicy ? { urlPolicy: this.#options.urlPolicy } : {}),
          fetchTimeoutMs: this.#options.fetchTimeoutMs ?? LOCAL_PARSER_DEFAULTS.fetchTimeoutMs,
          signal,
        }),
        signal,
      );
      // A URL's content type helps where the name has no extension (text formats only
      // are decided by it; binary signatures still win).
      const hint = read.filename && /\.[a-z0-9]{1,8}$/i.test(read.filename) ? read.filename : hintFromContentType(read.contentType) ?? read.filename;
      const detected = detectFormat(read.bytes, hint);
      if (!detected) {
        throw new DocParseError(40303, `Unsupported file type${read.filename ? ` (${read.filename})` : ""}: the content is not a known document format`);
      }
      const handler = await this.#handler(detected.format, detected.mimeType);
      const password = config.document?.password;
      const ctx: FormatContext = {
        config,
        capabilities,
        parseMode: config.config?.engine_params?.parse_mode ?? "auto",
        limits: this.limits,
        signal,
        mimeType: detected.mimeType,
      };
      if (read.filename !== undefined) ctx.filename = read.filename;
      if (pageRange) ctx.pageRange = pageRange;
      if (password !== undefined) ctx.password = password;

      const draft = await untilAborted(runHandler(handler, read.bytes, ctx), signal);
      // CPU-bound work never yields to the timer: check the deadline explicitly too.
      checkDeadline(started, timeoutMs);
      const fileId = fileIdOf(read.bytes);
      const base = this.#options.assetBaseUrl?.replace(/\/+$/, "");
      const canRenderPages = typeof handler.renderPage === "function";
      const estimated = draft.estimatedLayout === true || draft.pages.length === 0;
      // Estimated pages get images only where the canvas library is there to draw them.
      const paintEstimatedPages =
        capabilities.pages &&
        estimated &&
        (this.#options.estimatedPageImages ?? this.#options.assetBaseUrl !== undefined) &&
        (await loadCanvas()) !== undefined;
      const assembled = assemble(draft, {
        fileId,
        ...(read.filename !== undefined ? { filename: read.filename } : {}),
        capabilities,
        ...(pageRange ? { pageRange } : {}),
        imageOutputType: config.config?.engine_params?.image_output_type ?? "url",
        assetUrl: (name) => (base ? `${base}/${fileId}/${name}` : this.assets.locate(fileId, name)),
        canRenderPages,
        paintEstimatedPages,
        maxPages: this.limits.maxPages,
      });

      checkDeadline(started, timeoutMs);

      // Asset work only for what the request asked for.
      const keepSource = capabilities.pages && canRenderPages && !estimated;
      if (keepSource && password !== undefined) this.#rememberPassword(fileId, password);
      const source = keepSource ? { bytes: read.bytes, info: { format: detected.format, mimeType: detected.mimeType } } : undefined;
      await untilAborted(this.#storeAssets(fileId, source, assembled.assets), signal);

      const result: ParsedDocument = assembled.result;
      if (read.sourceUrl) {
        const protocol = read.sourceUrl.slice(0, read.sourceUrl.indexOf(":"));
        result.metadata = { ...result.metadata, data_source: { url: read.sourceUrl, record_locator: { protocol, remote_file_path: read.sourceUrl } } };
      }
      result.summary = { ...result.summary, duration_ms: Math.round(performance.now() - started) };
      if (assembled.partial) result.partial = true;
      return result;
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      throw err;
    } finally {
      clearTimeout(timeout);
    }
  }

  /**
   * An asset of a parsed document by name: `page-N.png` (rendered from the stored source
   * and cached on the first call) or `img-K.ext`. Undefined when the file id or the asset
   * is unknown, or the format has no page images.
   * @throws DocParseError when rendering fails (e.g. 40424 for a page beyond the document).
   */
  async asset(fileId: string, name: string): Promise<AssetFile | undefined> {
    if (!FILE_ID_PATTERN.test(fileId) || !ASSET_NAME_PATTERN.test(name)) return undefined;
    const cached = await this.assets.get(fileId, name);
    if (cached) return { bytes: cached, mimeType: assetMimeType(name) };
    const page = /^page-(\d+)\.png$/.exec(name);
    if (!page) return undefined;
    const key = `${fileId}/${name}`;
    let pending = this.#rendering.get(key);
    if (!pending) {
      pending = this.#render(fileId, Number(page[1]), name).finally(() => this.#rendering.delete(key));
      this.#rendering.set(key, pending);
    }
    return pending;
  }

  /** The PNG of one page (1-based) of a parsed document; see {@link LocalParser.asset}. */
  async pageImage(fileId: string, page: number): Promise<AssetFile | undefined> {
    if (!Number.isInteger(page) || page < 1) return undefined;
    return this.asset(fileId, `page-${page}.png`);
  }

  /** Same as {@link LocalParser.pageImage} (the name the engine's handlers use for it). */
  renderPage(fileId: string, page: number): Promise<AssetFile | undefined> {
    return this.pageImage(fileId, page);
  }

  async #render(fileId: string, page: number, name: string): Promise<AssetFile | undefined> {
    const dpi = this.#options.pageImageDpi ?? LOCAL_PARSER_DEFAULTS.pageImageDpi;
    const [source, infoBytes] = await Promise.all([this.assets.get(fileId, SOURCE_NAME), this.assets.get(fileId, SOURCE_INFO_NAME)]);
    if (!source || !infoBytes) {
      // An estimated page: drawn from the snapshot the parse stored.
      const layout = await this.assets.get(fileId, layoutAssetName(page));
      if (!layout) return undefined;
      const snapshot = JSON.parse(new TextDecoder().decode(layout)) as FlowPageSnapshot;
      const bytes = await renderFlowPage(snapshot, dpi);
      await this.assets.put(fileId, name, bytes);
      return { bytes, mimeType: "image/png" };
    }
    const info = JSON.parse(new TextDecoder().decode(infoBytes)) as SourceInfo;
    const handler = await this.#handler(info.format, info.mimeType);
    if (!handler.renderPage) return undefined;
    const password = this.#passwords.get(fileId);
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    const bytes = await untilAborted(
      handler.renderPage(source, page, { dpi, signal, ...(password !== undefined ? { password } : {}) }),
      signal,
    );
    await this.assets.put(fileId, name, bytes);
    return { bytes, mimeType: "image/png" };
  }

  // Same bytes always lay out the same way, so a stored snapshot is normally identical;
  // when it is not (another engine version), the cached page image is stale: drop it.
  async #storeLayout(fileId: string, page: number, bytes: Uint8Array): Promise<void> {
    const name = layoutAssetName(page);
    const current = await this.assets.get(fileId, name);
    if (current && Buffer.from(current).equals(bytes)) return;
    await this.assets.put(fileId, name, bytes);
    await this.assets.delete(fileId, `page-${page}.png`);
  }

  async #storeAssets(fileId: string, source: { bytes: Uint8Array; info: SourceInfo } | undefined, assets: readonly AssetWrite[]): Promise<void> {
    const writes: Promise<void>[] = [];
    if (source) writes.push(this.#storeSource(fileId, source.bytes, source.info));
    for (const asset of assets) {
      const page = /^layout-(\d+)\.json$/.exec(asset.name);
      writes.push(page ? this.#storeLayout(fileId, Number(page[1]), asset.bytes) : this.assets.put(fileId, asset.name, asset.bytes));
    }
    await Promise.all(writes);
  }

  // Page images of a protected PDF need its password later. Kept in memory only (never in
  // the asset store), for the most recent documents.
  #rememberPassword(fileId: string, password: string): void {
    this.#passwords.delete(fileId);
    this.#passwords.set(fileId, password);
    if (this.#passwords.size > MAX_REMEMBERED_PASSWORDS) this.#passwords.delete(this.#passwords.keys().next().value!);
  }

  async #storeSource(fileId: string, bytes: Uint8Array, info: SourceInfo): Promise<void> {
    if (await this.assets.has(fileId, SOURCE_NAME)) return;
    await this.assets.put(fileId, SOURCE_INFO_NAME, new TextEncoder().encode(JSON.stringify(info)));
    await this.assets.put(fileId, SOURCE_NAME, bytes);
  }

  async #handler(format: FormatId, mimeType: string): Promise<FormatHandler> {
    const override = this.#options.formats?.[format];
    const loader = override === null ? undefined : (override ?? FORMAT_LOADERS[format]);
    if (!loader) {
      throw new DocParseError(40425, `The local engine does not support ${mimeType} (${format}) documents yet`);
    }
    try {
      return await loader();
    } catch (err) {
      if (DocParseError.isInstance(err)) throw err;
      throw new DocParseError(40425, `The ${format} handler could not be loaded: ${(err as Error)?.message ?? String(err)}`, { cause: err });
    }
  }
}

const MAX_REMEMBERED_PASSWORDS = 1000;

function checkDeadline(started: number, timeoutMs: number): void {
  if (performance.now() - started > timeoutMs) {
    throw new DocParseError(LocalErrorCode.Timeout, `Parsing took longer than ${timeoutMs} ms`);
  }
}

const CONTENT_TYPE_EXTENSIONS: Record<string, string> = {
  "text/markdown": "md",
  "text/x-markdown": "md",
  "text/csv": "csv",
  "text/html": "html",
  "application/xhtml+xml": "html",
  "text/plain": "txt",
};

function hintFromContentType(contentType: string | undefined): string | undefined {
  const ext = contentType ? CONTENT_TYPE_EXTENSIONS[contentType.toLowerCase()] : undefined;
  return ext ? `document.${ext}` : undefined;
}

function validateConfig(config: unknown): ParseConfig {
  const parsed = ParseConfigSchema.safeParse(config ?? {});
  if (!parsed.success) {
    throw new DocParseError(40004, `Invalid config:\n${formatIssues(parsed.error)}`, { issues: parsed.error.issues });
  }
  return parsed.data;
}

// Handlers throw DocParseError for what they recognise; anything else a format library
// throws on bad bytes means the file is corrupt (the cause is kept for debugging).
async function runHandler(handler: FormatHandler, bytes: Uint8Array, ctx: FormatContext) {
  try {
    return await handler.parse(bytes, ctx);
  } catch (err) {
    if (DocParseError.isInstance(err) || ctx.signal?.aborted) throw err;
    throw new DocParseError(40422, `The file could not be parsed as ${handler.id}: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  }
}

/** Settles with the promise, or rejects as soon as the signal aborts (the work may go on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
