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

/** `FormatHandler.renderPage` for PDF: opens the bytes, renders one page, closes. */
export async function renderPdfPage(bytes: Uint8Array, pageNumber: number, options: { dpi: number; password?: string; signal?: AbortSignal }): Promise<Uint8Array> {
  const doc = await openPdf(bytes, { password: options.password });
  try {
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > doc.numPages) {
      throw new DocParseError(40424, `Page ${pageNumber} is beyond the document (${doc.numPages} pages)`);
    }
    let page: PdfPage;
    try {
      page = await doc.getPage(pageNumber);
    } catch (cause) {
      throw pdfError(cause, pageNumber);
    }
    return await renderLoadedPage(doc, page, options.dpi);
  } finally {
    await doc.destroy();
  }
}
