import type { TextRun } from "../layout/index.js";
import type { OcrLine } from "../ocr.js";

/**
 * OCR lines → layout runs, one per word, in page units (`k` page units per pixel),
 * carrying per-character confidence and candidates. A word's own box is its ink: `a`
 * sits lower and shorter than `Each`, a comma lower still, so rows of words would fall
 * apart; each word spans its line's band instead, as an OCR text layer sets it, while its
 * characters keep their own boxes. Scanned PDF pages and images share this, and then the
 * layout (`layoutPage`).
 */
export function ocrLineRuns(lines: readonly OcrLine[], k: number): TextRun[] {
  const runs: TextRun[] = [];
  for (const line of lines) {
    // Type size from Tesseract's model of the row (descender to ascender: about 0.9 em),
    // not from the box, which shrinks when no letter of the line has a descender.
    const fontSize = Math.max(1, line.rowHeight ? (line.rowHeight * k) / 0.9 : ((line.box.y1 - line.box.y0) * k) / 1.2);
    for (const w of line.words) {
      runs.push({
        text: w.text,
        x0: w.box.x0 * k,
        y0: line.box.y0 * k,
        x1: w.box.x1 * k,
        y1: line.box.y1 * k,
        fontSize,
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
