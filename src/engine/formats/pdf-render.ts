import { createHash } from "node:crypto";
import { DocParseError } from "../../errors.js";
import { openPdf, pdfError, type PdfDocument, type PdfPage } from "./pdf-load.js";

/** Largest rendered page in pixels; a larger request is scaled down to fit. @default 60 million */
export const MAX_RENDER_PIXELS = 60_000_000;

interface CanvasEntry {
  canvas: { width: number; height: number; toBuffer(mime: "image/png"): Uint8Array };
  context: CanvasRenderingContext2D;
}
interface CanvasFactory {
  create(width: number, height: number): CanvasEntry;
  destroy(entry: CanvasEntry): void;
}

/**
 * Renders a page of an open document to PNG through pdfjs' own canvas factory (in Node
 * that is `@napi-rs/canvas`, pdfjs' optional dependency). White background, page
 * rotation applied, so the image matches the page geometry the parse reported.
 */
export async function renderLoadedPage(doc: PdfDocument, page: PdfPage, dpi: number, maxPixels = MAX_RENDER_PIXELS): Promise<Uint8Array> {
  let scale = dpi / 72;
  let viewport = page.getViewport({ scale });
  const pixels = viewport.width * viewport.height;
  if (pixels > maxPixels) {
    scale *= Math.sqrt(maxPixels / pixels);
    viewport = page.getViewport({ scale });
  }
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  let entry: CanvasEntry;
  try {
    entry = factory.create(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
  } catch (cause) {
    throw new DocParseError(500, "Rendering PDF pages needs @napi-rs/canvas (pdfjs-dist's optional dependency): npm install @napi-rs/canvas", { cause });
  }
  try {
    entry.context.fillStyle = "#ffffff";
    entry.context.fillRect(0, 0, entry.canvas.width, entry.canvas.height);
    await page.render({ canvasContext: entry.context, canvas: entry.canvas as unknown as HTMLCanvasElement, viewport }).promise;
    const png = entry.canvas.toBuffer("image/png");
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  } finally {
    factory.destroy(entry);
  }
}

/** A region of a page rendered: its PNG and pixel size. */
export interface RegionPng {
  png: Uint8Array;
  width: number;
  height: number;
}

/**
 * Renders regions of a page (display space, points from the top left) to PNG at `scale`
 * pixels per point: the pictures of figures drawn as vector graphics. The page is drawn
 * once (scaled down to fit `maxPixels` when large) and each region cut out of it.
 */
export async function renderLoadedRegions(
  doc: PdfDocument,
  page: PdfPage,
  regions: readonly { x0: number; y0: number; x1: number; y1: number }[],
  scale: number,
  maxPixels = MAX_RENDER_PIXELS,
): Promise<RegionPng[]> {
  if (regions.length === 0) return [];
  let viewport = page.getViewport({ scale });
  const pixels = viewport.width * viewport.height;
  if (pixels > maxPixels) viewport = page.getViewport({ scale: scale * Math.sqrt(maxPixels / pixels) });
  const k = viewport.scale;
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const whole = factory.create(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
  try {
    whole.context.fillStyle = "#ffffff";
    whole.context.fillRect(0, 0, whole.canvas.width, whole.canvas.height);
    await page.render({ canvasContext: whole.context, canvas: whole.canvas as unknown as HTMLCanvasElement, viewport }).promise;
    return regions.map((r) => {
      const width = Math.max(1, Math.round((r.x1 - r.x0) * k));
      const height = Math.max(1, Math.round((r.y1 - r.y0) * k));
      const cut = factory.create(width, height);
      try {
        cut.context.drawImage(whole.canvas as unknown as CanvasImageSource, -r.x0 * k, -r.y0 * k);
        const png = cut.canvas.toBuffer("image/png");
        return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height };
      } finally {
        factory.destroy(cut);
      }
    });
  } finally {
    factory.destroy(whole);
  }
}

/** Open documents kept for page renders, most recent last. @default 2 documents, 15 s idle */
const OPEN_DOCS = 2;
const OPEN_IDLE_MS = 15_000;

interface OpenDoc {
  key: string;
  doc: Promise<PdfDocument>;
  timer: NodeJS.Timeout | undefined;
  users: number;
}
const open: OpenDoc[] = [];

function docKey(bytes: Uint8Array, password: string | undefined): string {
  return `${createHash("sha1").update(bytes).digest("hex")}|${password ?? ""}`;
}

function release(entry: OpenDoc): void {
  entry.users--;
  if (entry.users > 0) return;
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = setTimeout(() => evict(entry), OPEN_IDLE_MS);
  // An idle cached document must not keep the process alive.
  entry.timer.unref();
}

function evict(entry: OpenDoc): void {
  const i = open.indexOf(entry);
  if (i >= 0) open.splice(i, 1);
  if (entry.timer) clearTimeout(entry.timer);
  void entry.doc.then((d) => d.destroy()).catch(() => undefined);
}

/**
 * Borrows an open document for rendering. A viewer asks for page after page of the same
 * file: reopening it for each page would parse its structure and fonts every time.
 */
async function borrow(bytes: Uint8Array, password: string | undefined): Promise<OpenDoc> {
  const key = docKey(bytes, password);
  let entry = open.find((e) => e.key === key);
  if (entry) {
    open.splice(open.indexOf(entry), 1);
  } else {
    entry = { key, doc: openPdf(bytes, password !== undefined ? { password } : {}), timer: undefined, users: 0 };
    // A failed open is not cached.
    entry.doc.catch(() => evict(entry!));
  }
  open.push(entry);
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = undefined;
  entry.users++;
  while (open.length > OPEN_DOCS) {
    const oldest = open.find((e) => e.users === 0);
    if (!oldest) break;
    evict(oldest);
  }
  return entry;
}

/** `FormatHandler.renderPage` for PDF: renders one page (documents stay open briefly for the next page). */
export async function renderPdfPage(bytes: Uint8Array, pageNumber: number, options: { dpi: number; password?: string; signal?: AbortSignal }): Promise<Uint8Array> {
  const entry = await borrow(bytes, options.password);
  try {
    const doc = await entry.doc;
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > doc.numPages) {
      throw new DocParseError(40424, `Page ${pageNumber} is beyond the document (${doc.numPages} pages)`);
    }
    let page: PdfPage;
    try {
      page = await doc.getPage(pageNumber);
    } catch (cause) {
      throw pdfError(cause, pageNumber);
    }
    try {
      return await renderLoadedPage(doc, page, options.dpi);
    } finally {
      page.cleanup();
    }
  } finally {
    release(entry);
  }
}
