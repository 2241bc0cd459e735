import { DocParseError, LocalErrorCode, abortError } from "../../errors.js";
import type { DraftDocument, DraftPage, FormatContext, FormatHandler } from "../draft.js";
import { finishDocument, layoutPage, toDraftElements, type OutlineEntry, type PageLayout, type PlacedImage } from "../layout/index.js";
import { extractPage, type FontCache } from "./pdf-extract.js";
import { openPdf, pdfError, type PdfDocument, type PdfPage } from "./pdf-load.js";
import { ocrPageRuns } from "./pdf-ocr.js";
import { encodePng, type RawImage } from "./pdf-png.js";
import { renderPdfPage } from "./pdf-render.js";

/** Resolution page sizes are reported at (pixels = points × dpi / 72). @default 144 */
export const PDF_DPI = 144;

/** Fewer text-layer characters than this on a page with an image: treat it as a scan. @default 8 */
const SCAN_TEXT_CHARS = 8;

/** Outline entries read at most (a hostile outline can be huge). */
const MAX_OUTLINE = 10_000;

/**
 * PDF through pdfjs-dist: pages are read one at a time (getPage → extract → cleanup),
 * laid out into blocks, then the document-wide pass decides titles, running headers
 * and footers, captions and continuations.
 */
export const pdfFormat: FormatHandler = {
  id: "pdf",
  mimeType: "application/pdf",
  parse: parsePdf,
  renderPage: renderPdfPage,
};

/** The page numbers to read, after page_range and the page limit. Throws 40424 beyond the document. */
export function selectPages(pageCount: number, ctx: Pick<FormatContext, "pageRange" | "limits">): number[] {
  const pages: number[] = [];
  if (!ctx.pageRange) {
    for (let n = 1; n <= pageCount; n++) pages.push(n);
  } else {
    for (const span of ctx.pageRange) {
      if (span.from > pageCount) {
        throw new DocParseError(40424, `page_range starts at page ${span.from}, beyond the document's ${pageCount} page(s)`);
      }
      for (let n = span.from; n <= Math.min(span.to, pageCount); n++) pages.push(n);
    }
  }
  if (pages.length > ctx.limits.maxPages) {
    throw new DocParseError(
      LocalErrorCode.LimitExceeded,
      `The PDF has ${pages.length} pages to parse; the limit is ${ctx.limits.maxPages} (use page_range to parse part of it)`,
    );
  }
  return pages;
}

function engineDpi(ctx: FormatContext): number {
  const dpi = (ctx.config.config?.engine_params as { dpi?: unknown } | undefined)?.dpi;
  return typeof dpi === "number" && dpi >= 36 && dpi <= 600 ? dpi : PDF_DPI;
}

async function parsePdf(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  if (ctx.signal?.aborted) throw abortError(ctx.signal);
  const deadline = Date.now() + ctx.limits.timeoutMs;
  // Glyph outlines only matter for canvas renders: OCR of every page under parse_mode "scan".
  const glyphPaths = ctx.parseMode === "scan";
  const doc = await openPdf(bytes, { password: ctx.password, maxImagePixels: ctx.limits.maxImagePixels, glyphPaths });
  try {
    const pageCount = doc.numPages;
    const numbers = selectPages(pageCount, ctx);
    const dpi = engineDpi(ctx);
    const outline = await readOutline(doc);
    const fonts: FontCache = new Map();
    const layouts: PageLayout[] = [];
    const pages: DraftPage[] = [];
    const failedPages: number[] = [];
    const pngs = new WeakMap<PlacedImage, Uint8Array>();
    const caps = ctx.capabilities;
    for (const [i, n] of numbers.entries()) {
      if (ctx.signal?.aborted) throw abortError(ctx.signal);
      // Keep the parser PREFETCH pages ahead: the first iteration starts them all, then one more each page.
      for (let j = i === 0 ? 1 : PREFETCH; j <= PREFETCH; j++) {
        const next = numbers[i + j];
        if (next !== undefined) prefetch(doc, next);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw timeout(ctx.limits.timeoutMs);
      let layout: PageLayout & { rotate: number };
      try {
        layout = await bounded(readPage(doc, n, fonts, ctx, pngs), remaining, ctx);
      } catch (cause) {
        if (DocParseError.isInstance(cause) && (cause.code === LocalErrorCode.Timeout || cause.code === LocalErrorCode.Aborted)) throw cause;
        // One broken page does not sink the document: report it (50207 upstream).
        failedPages.push(n);
        continue;
      }
      layouts.push(layout);
      const k = dpi / 72;
      const display = layout.frame ?? layout;
      pages.push({ number: n, width: Math.round(display.width * k), height: Math.round(display.height * k), dpi, angle: layout.rotate, status: "Success" });
    }
    if (numbers.length > 0 && failedPages.length === numbers.length) {
      throw new DocParseError(40422, `No page of the PDF could be read (${failedPages.length} failed)`);
    }
    const laid = finishDocument(layouts, outline);
    const elements = toDraftElements(laid, layouts, { imageBytes: caps.include_image_data ? (img) => pngs.get(img) : undefined });
    const out: DraftDocument = { filetype: "application/pdf", pageCount, pages, elements };
    if (failedPages.length) out.failedPages = failedPages;
    return out;
  } finally {
    await doc.destroy();
  }
}

async function readPage(
  doc: PdfDocument,
  n: number,
  fonts: FontCache,
  ctx: FormatContext,
  pngs: WeakMap<PlacedImage, Uint8Array>,
): Promise<PageLayout & { rotate: number }> {
  let page: PdfPage;
  try {
    page = await doc.getPage(n);
  } catch (cause) {
    throw pdfError(cause, n);
  }
  try {
    const caps = ctx.capabilities;
    const extracted = await extractPage(page, fonts, {
      chars: caps.include_char_details,
      removeWatermark: caps.remove_watermark,
      imagePixels: caps.include_image_data,
    });
    let runs = extracted.runs;
    let frame = extracted.frame;
    let { width, height } = extracted;
    const scanned = extracted.textChars < SCAN_TEXT_CHARS && extracted.images.length > 0;
    const ocr = (ctx.parseMode === "scan" || scanned) && ctx.parseMode !== "lite";
    if (ocr) {
      // OCR sees the rendered page: display space, no turned frame.
      runs = await ocrPageRuns(doc, page, ctx.signal);
      frame = { angle: 0, width: frame.width, height: frame.height };
      [width, height] = [frame.width, frame.height];
    }
    const images = ocr ? [] : extracted.images;
    const blocks = layoutPage({ width, height, runs, segments: ocr ? [] : extracted.segments, images }, { chars: caps.include_char_details });
    if (caps.include_image_data) {
      for (const b of blocks) {
        const img = b.image as (PlacedImage & { raw?: RawImage }) | undefined;
        if (!img?.raw) continue;
        if (img.raw.width * img.raw.height <= ctx.limits.maxImagePixels) {
          const png = encodePng(img.raw);
          if (png) pngs.set(img, png);
        }
        delete img.raw;
      }
    }
    return { number: n, width, height, frame, rotate: extracted.rotate, blocks };
  } catch (cause) {
    throw pdfError(cause, n);
  } finally {
    page.cleanup();
  }
}

/**
 * Pages whose operator lists are requested ahead of the one being laid out. A few, not
 * one: on the parser thread pages take uneven times, and a short queue keeps that thread
 * busy while this one lays out; each waiting list is one page's operators.
 */
const PREFETCH = 3;

/**
 * Starts reading page `n`'s operator list while the current page is laid out: the parser
 * thread (or, in this thread, libuv's pool inflating content streams) works on it
 * meanwhile instead of idling. pdfjs caches the page and its operator list, so
 * `readPage` picks up the same work (and the same error, if any).
 */
function prefetch(doc: PdfDocument, n: number): void {
  doc.getPage(n).then(
    (page) => page.getOperatorList().then(noop, noop),
    noop,
  );
}

const noop = (): void => undefined;

/** Outline entries whose destination page is resolved, at most; the rest match any page. */
const MAX_OUTLINE_DESTS = 2_000;

async function readOutline(doc: PdfDocument): Promise<OutlineEntry[]> {
  let items: Awaited<ReturnType<PdfDocument["getOutline"]>>;
  try {
    items = await doc.getOutline();
  } catch {
    return [];
  }
  const flat: { title: string; depth: number; dest: unknown }[] = [];
  const walk = (list: typeof items, depth: number): void => {
    for (const item of list ?? []) {
      if (flat.length >= MAX_OUTLINE || depth > 12) return;
      if (item.title?.trim()) flat.push({ title: item.title, depth, dest: item.dest });
      walk(item.items as typeof items, depth + 1);
    }
  };
  walk(items, 0);
  const out: OutlineEntry[] = [];
  for (const [i, e] of flat.entries()) {
    const entry: OutlineEntry = { title: e.title, depth: e.depth };
    if (i < MAX_OUTLINE_DESTS) {
      const page = await destinationPage(doc, e.dest);
      if (page !== undefined) entry.page = page;
    }
    out.push(entry);
  }
  return out;
}

/** The 1-based page an outline destination points to, or undefined. */
async function destinationPage(doc: PdfDocument, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === "string" ? await doc.getDestination(dest) : dest;
    const ref = Array.isArray(explicit) ? explicit[0] : undefined;
    if (ref && typeof ref === "object") return (await doc.getPageIndex(ref as Parameters<PdfDocument["getPageIndex"]>[0])) + 1;
    if (typeof ref === "number") return ref + 1;
  } catch {
    // A broken destination: the entry matches on any page.
  }
  return undefined;
}

function timeout(ms: number): DocParseError {
  return new DocParseError(LocalErrorCode.Timeout, `Parsing the PDF took longer than ${ms} ms`);
}

/** Races a page against the time left and the abort signal (the caller destroys the document). */
function bounded<T>(work: Promise<T>, ms: number, ctx: FormatContext): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timeout(ctx.limits.timeoutMs)), ms);
    const onAbort = (): void => reject(abortError(ctx.signal));
    ctx.signal?.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", onAbort);
    });
  });
}
