import type { TextRun } from "../layout/index.js";
import type { PdfDocument, PdfPage } from "./pdf-load.js";
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
  const runs: TextRun[] = [];
  for (const line of result.lines) {
    const lineHeight = (line.box.y1 - line.box.y0) * k;
    for (const w of line.words) {
      runs.push({
        text: w.text,
        // A word's own box is its ink: `a` sits lower and shorter than `Each`, a comma
        // lower still, so rows of words would fall apart. Each word spans its line's band,
        // as an OCR text layer sets it (its characters keep their own boxes).
        x0: w.box.x0 * k,
        y0: line.box.y0 * k,
        x1: w.box.x1 * k,
        y1: line.box.y1 * k,
        // A line box spans ascenders to descenders: about 1.2 em.
        fontSize: Math.max(1, lineHeight / 1.2),
        bold: false,
        italic: false,
        mono: false,
        math: false,
        angle: 0,
        ocr: true,
        confidence: w.confidence,
        ocrChars: (w.chars ?? []).map((c) => ({
          text: c.text,
          box: { x0: c.box.x0 * k, y0: c.box.y0 * k, x1: c.box.x1 * k, y1: c.box.y1 * k },
          confidence: c.confidence,
          candidates: c.candidates,
        })),
      });
    }
  }
  return runs;
}
