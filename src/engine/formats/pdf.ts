import PQueue from "p-queue";
import { DocParseError, LocalErrorCode, abortError } from "../../errors.js";
import type { DraftDocument, DraftPage, FormatContext, FormatHandler } from "../draft.js";
import { FIGURE_SCALE, finishDocument, fromFrame, layoutPage, toDraftElements, type PageLayout, type PlacedImage, type Rect } from "../layout/index.js";
import { openPdf, pageRotation, pdfError, type PdfDocument } from "./pdf-load.js";
import { ocrConcurrency, ocrLanguages } from "../ocr.js";
import { ocrPageRuns } from "./pdf-ocr.js";
import { readOutline } from "./pdf-outline.js";
import type { ImageWithPng, ReadPage, TextPageOptions } from "./pdf-page.js";
import { renderLoadedRegions, renderPdfPage, type RegionPng } from "./pdf-render.js";
import { ThreadedPdf } from "./pdf-thread.js";

/** Resolution page sizes are reported at (pixels = points × dpi / 72). @default 144 */
export const PDF_DPI = 144;

/**
 * PDF through pdfjs-dist: pages are read and laid out into blocks on parser threads
 * (several at once for long documents), then the document-wide pass decides titles,
 * running headers and footers, captions and continuations. Scanned pages, and every
 * page under parse_mode "scan", are rendered in this thread and OCRed on the OCR worker
 * pool (ocr.ts), a few at a time, in page order.
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
  const reader = ctx.parseMode === "scan" ? await ocrReader(bytes, ctx) : textReader(bytes, ctx);
  // Scanned pages are OCRed a few at a time: as many as the OCR pool reads at once, plus
  // one rendering meanwhile (each holds a rendered page image until it is read).
  const ocrQueue = new PQueue({ concurrency: ocrConcurrency() + 1 });
  // Ends this document's OCR when the parse ends early (timeout, a failed page, abort): a
  // page being read stops, one rendered meanwhile does not take a worker after the parse.
  const ocrStop = new AbortController();
  const stopOcr = (): void => ocrStop.abort(abortError(ctx.signal));
  ctx.signal?.addEventListener("abort", stopOcr, { once: true });
  try {
    const { numPages, outline } = await bounded(reader.opened, deadline, ctx);
    const numbers = selectPages(numPages, ctx);
    const read = await bounded(reader.read(numbers), deadline, ctx);
    const ocred = new Map<number, Promise<ReadPage>>();
    for (const [i, n] of numbers.entries()) {
      if (read[i] !== "scanned") continue;
      const page = ocrQueue.add(() => reader.ocr(n, ocrStop.signal));
      // Awaited in page order below; one that fails before its turn is not unhandled.
      page.catch(() => undefined);
      ocred.set(i, page);
    }
    const dpi = engineDpi(ctx);
    const layouts: PageLayout[] = [];
    const pages: DraftPage[] = [];
    const failedPages: number[] = [];
    const pngs = new WeakMap<PlacedImage, Uint8Array>();
    for (const [i, n] of numbers.entries()) {
      let layout = read[i]!;
      if (layout === "scanned") {
        try {
          layout = await bounded(ocred.get(i)!, deadline, ctx);
        } catch (cause) {
          layout = DocParseError.isInstance(cause) ? cause : pdfError(cause, n);
        }
      }
      if (layout instanceof Error) {
        if (layout.code === LocalErrorCode.Timeout || layout.code === LocalErrorCode.Aborted) throw layout;
        // 500: its parser thread stopped (memory limit, crash), the page was not found broken; retryable.
        if (layout.code === 500) throw layout;
        // One broken page does not sink the document: report it (50207 upstream).
        failedPages.push(n);
        continue;
      }
      keepPngs(layout, pngs);
      const figures = vectorFigures(layout);
      if (figures.length && ctx.capabilities.include_image_data) await bounded(renderFigures(reader, layout.number, figures, pngs), deadline, ctx);
      layouts.push(layout);
      const k = dpi / 72;
      const display = layout.frame ?? layout;
      pages.push({ number: n, width: Math.round(display.width * k), height: Math.round(display.height * k), dpi, angle: layout.rotate, status: "Success" });
    }
    if (numbers.length > 0 && failedPages.length === numbers.length) {
      throw new DocParseError(40422, `No page of the PDF could be read (${failedPages.length} failed)`);
    }
    const laid = finishDocument(layouts, outline);
    const elements = toDraftElements(laid, layouts, { imageBytes: ctx.capabilities.include_image_data ? (img) => pngs.get(img) : undefined });
    const out: DraftDocument = { filetype: "application/pdf", pageCount: numPages, pages, elements };
    if (failedPages.length) out.failedPages = failedPages;
    return out;
  } finally {
    // Pages not started yet are dropped; those started stop (all are done after a full parse).
    ocrQueue.clear();
    ctx.signal?.removeEventListener("abort", stopOcr);
    stopOcr();
    await reader.close();
  }
}

/** A page's layout, a failure, or "scanned" (its text comes from OCR). */
type PageOutcome = ReadPage | DocParseError | "scanned";

/** How a document's pages are read: text layer on parser threads, or OCR here. */
interface PageReader {
  opened: Promise<{ numPages: number; outline: PdfOutline }>;
  read(numbers: readonly number[]): Promise<PageOutcome[]>;
  /** OCR of page `n`; `signal` ends it with the parse. */
  ocr(n: number, signal: AbortSignal): Promise<ReadPage>;
  /** PNGs of regions of page `n` (display space) at `scale` pixels per point, in order. */
  renderRegions(n: number, regions: readonly Rect[], scale: number): Promise<RegionPng[]>;
  close(): Promise<void>;
}

type PdfOutline = Awaited<ReturnType<typeof readOutline>>;

/** Text-layer pages on parser threads; pages found to be scans are OCRed here (parse_mode "lite": never). */
function textReader(bytes: Uint8Array, ctx: FormatContext): PageReader {
  const caps = ctx.capabilities;
  const pdf = new ThreadedPdf(bytes, { password: ctx.password, maxImagePixels: ctx.limits.maxImagePixels, threads: ctx.limits.pdfThreads });
  const options: TextPageOptions = {
    chars: caps.include_char_details,
    removeWatermark: caps.remove_watermark,
    imageData: caps.include_image_data,
    maxImagePixels: ctx.limits.maxImagePixels,
    detectScans: ctx.parseMode !== "lite",
  };
  // Opened for the first scanned page or vector figure only: renders need glyph outlines and a canvas.
  let canvasDoc: Promise<PdfDocument> | undefined;
  const canvas = (): Promise<PdfDocument> => (canvasDoc ??= openPdf(bytes, { password: ctx.password, maxImagePixels: ctx.limits.maxImagePixels }));
  return {
    opened: pdf.opened,
    read: async (numbers) => (await pdf.readPages(numbers, options)).map((r) => (DocParseError.isInstance(r) ? r : r.scanned ? "scanned" : r.layout)),
    ocr: async (n, signal) => ocrPage(await canvas(), n, ctx, signal),
    renderRegions: async (n, regions, scale) => renderRegions(await canvas(), n, regions, scale),
    close: async () => {
      pdf.close();
      const doc = await canvasDoc?.catch(() => undefined);
      await doc?.destroy();
    },
  };
}

/** parse_mode "scan": every page rendered and OCRed, in this thread. */
async function ocrReader(bytes: Uint8Array, ctx: FormatContext): Promise<PageReader> {
  const doc = openPdf(bytes, { password: ctx.password, maxImagePixels: ctx.limits.maxImagePixels });
  doc.catch(() => undefined);
  return {
    opened: doc.then(async (d) => ({ numPages: d.numPages, outline: await readOutline(d) })),
    read: async (numbers) => numbers.map(() => "scanned" as const),
    ocr: async (n, signal) => ocrPage(await doc, n, ctx, signal),
    renderRegions: async (n, regions, scale) => renderRegions(await doc, n, regions, scale),
    close: async () => {
      const d = await doc.catch(() => undefined);
      await d?.destroy();
    },
  };
}

/** Renders page `n`, OCRs it and lays out the words (display frame, no images). */
async function ocrPage(doc: PdfDocument, n: number, ctx: FormatContext, signal: AbortSignal): Promise<ReadPage> {
  if (signal.aborted) throw abortError(signal);
  let page: Awaited<ReturnType<PdfDocument["getPage"]>>;
  try {
    page = await doc.getPage(n);
  } catch (cause) {
    throw pdfError(cause, n);
  }
  try {
    const runs = await ocrPageRuns(doc, page, { signal, lang: ocrLanguages(ctx) });
    const { width, height } = page.getViewport({ scale: 1 });
    const blocks = layoutPage({ width, height, runs, segments: [], images: [] }, { chars: ctx.capabilities.include_char_details });
    return { number: n, width, height, frame: { angle: 0, width, height }, rotate: pageRotation(page), blocks };
  } catch (cause) {
    throw pdfError(cause, n);
  } finally {
    page.cleanup();
  }
}

/** A vector figure's picture and where it lies on the page as displayed. */
interface FigurePicture {
  image: PlacedImage;
  region: Rect;
}

/**
 * A page's figures drawn as vector graphics, each with its box on the displayed page and
 * its picture's size in pixels there (a page laid out sideways has its figures turned
 * back, as their pictures are).
 */
function vectorFigures(layout: PageLayout): FigurePicture[] {
  const frame = layout.frame;
  const out: FigurePicture[] = [];
  for (const b of layout.blocks) {
    const image = b.image;
    if (!image?.vector) continue;
    const region = frame && frame.angle !== 0 ? fromFrame(image, frame) : { x0: image.x0, y0: image.y0, x1: image.x1, y1: image.y1 };
    image.width = Math.max(1, Math.round((region.x1 - region.x0) * FIGURE_SCALE));
    image.height = Math.max(1, Math.round((region.y1 - region.y0) * FIGURE_SCALE));
    out.push({ image, region });
  }
  return out;
}

/**
 * Renders the pictures of a page's vector figures into `pngs` (image data was asked
 * for): the page drawn once, each figure cut out of it. A figure that cannot be rendered
 * (no canvas) keeps its element without picture, as an image whose pixels cannot be
 * decoded does.
 */
async function renderFigures(reader: PageReader, n: number, figures: readonly FigurePicture[], pngs: WeakMap<PlacedImage, Uint8Array>): Promise<void> {
  try {
    const rendered = await reader.renderRegions(
      n,
      figures.map((f) => f.region),
      FIGURE_SCALE,
    );
    figures.forEach((f, i) => {
      const r = rendered[i]!;
      pngs.set(f.image, r.png);
      // A page too large to draw at full scale was drawn smaller.
      f.image.width = r.width;
      f.image.height = r.height;
    });
  } catch {
    // No picture: the figure's element still carries its box and labels.
  }
}

/** Renders regions of one page of an open document (see `renderLoadedRegions`). */
async function renderRegions(doc: PdfDocument, n: number, regions: readonly Rect[], scale: number): Promise<RegionPng[]> {
  const page = await doc.getPage(n);
  try {
    return await renderLoadedRegions(doc, page, regions, scale);
  } finally {
    page.cleanup();
  }
}

/** Moves each image's PNG (encoded on the parser thread) into `pngs`. */
function keepPngs(layout: ReadPage, pngs: WeakMap<PlacedImage, Uint8Array>): void {
  for (const b of layout.blocks) {
    const img = b.image as ImageWithPng | undefined;
    if (!img?.png) continue;
    pngs.set(img, img.png);
    delete img.png;
  }
}

function timeout(ms: number): DocParseError {
  return new DocParseError(LocalErrorCode.Timeout, `Parsing the PDF took longer than ${ms} ms`);
}

/** Races work against the deadline and the abort signal (the caller closes the document). */
function bounded<T>(work: Promise<T>, deadline: number, ctx: FormatContext): Promise<T> {
  if (ctx.signal?.aborted) return Promise.reject(abortError(ctx.signal));
  const ms = deadline - Date.now();
  if (ms <= 0) return Promise.reject(timeout(ctx.limits.timeoutMs));
  return new Promise<T>((resolve, reject) => {
    // Settled by the work, the deadline or the signal, whichever comes first; the timer and
    // the listener go at once, so work that never settles holds nothing.
    const done = (settle: () => void): void => {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", onAbort);
      settle();
    };
    const timer = setTimeout(() => done(() => reject(timeout(ctx.limits.timeoutMs))), ms);
    const onAbort = (): void => done(() => reject(abortError(ctx.signal)));
    ctx.signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => done(() => resolve(value)),
      (error: unknown) => done(() => reject(error)),
    );
  });
}
