import type { TextRun } from "../layout/index.js";
import type { PdfDocument, PdfPage } from "./pdf-load.js";
import { ocrLineRuns } from "./ocr-runs.js";
import { renderLoadedPage } from "./pdf-render.js";

/** Resolution pages are rendered at for OCR: tesseract reads best around 200-300 dpi. @default 200 */
export const OCR_DPI = 200;

/**
 * OCR of one page (a scan, or any page under parse_mode "scan"): render, recognise with
 * tesseract.js (offline, `../ocr.js`, in `options.lang`), and turn words into layout runs
 * in page units, carrying per-character confidence and candidates.
 */
export async function ocrPageRuns(doc: PdfDocument, page: PdfPage, options: { signal?: AbortSignal | undefined; lang?: string } = {}): Promise<TextRun[]> {
  const png = await renderLoadedPage(doc, page, OCR_DPI);
  const { ocrImage } = await import("../ocr.js");
  const result = await ocrImage(png, options);
  const view = page.getViewport({ scale: 1 });
  const k = result.width > 0 ? view.width / result.width : 72 / OCR_DPI;
  return ocrLineRuns(result.lines, k);
}
