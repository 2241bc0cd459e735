import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { pdfFormat } from "../../src/engine/formats/pdf.js";
import { ocrImage, ocrStats, setOcrConcurrency } from "../../src/engine/ocr.js";
import { buildPdf } from "../support/pdf-fixtures.js";
import { parsePdf } from "./pdf-helpers.js";

/**
 * A "scanned" PDF: each page (a heading and a line) rendered to an image and placed as
 * the whole page, no text layer.
 */
async function scannedPdf(...pages: string[][]): Promise<Uint8Array> {
  if (pages.length === 0) pages.push(["Scanned Invoice", "Total amount due today"]);
  const doc = await PDFDocument.create();
  for (const lines of pages) {
    const source = await buildPdf([
      {
        texts: [
          { text: lines[0]!, x: 72, y: 80, size: 28, font: "bold" },
          { text: lines[1]!, x: 72, y: 160, size: 18 },
        ],
      },
    ]);
    const png = await pdfFormat.renderPage!(source, 1, { dpi: 150 });
    const page = doc.addPage([612, 792]);
    page.drawImage(await doc.embedPng(png), { x: 0, y: 0, width: 612, height: 792 });
  }
  return doc.save();
}

describe("pdf: scanned pages", () => {
  it("OCRs in the languages engine_params.ocr_languages names", async () => {
    const bytes = await scannedPdf(["Größe und Maß", "Die Straße ist schön"]);
    const doc = await parsePdf(bytes, { engineParams: { ocr_languages: "deu" } });
    expect(doc.elements.map((e) => e.text)).toEqual(["Größe und Maß", "Die Straße ist schön"]);
  });

  it("OCRs a page without a text layer, with character confidence and candidates", async () => {
    const doc = await parsePdf(await scannedPdf(), { capabilities: { include_char_details: true } });
    const text = doc.elements.map((e) => e.text).join("\n");
    expect(text).toContain("Scanned Invoice");
    expect(text).toContain("Total amount due today");
    // The scan itself is not reported as an Image element: its text is the content.
    expect(doc.elements.some((e) => e.type === "Image")).toBe(false);
    const heading = doc.elements.find((e) => e.text.includes("Scanned Invoice"))!;
    expect(heading.box!.x0).toBeCloseTo(72 / 612, 1);
    expect(heading.box!.y0).toBeCloseTo(80 / 792, 1);
    const chars = heading.chars!;
    expect(chars.length).toBeGreaterThan(10);
    for (const c of chars.filter((c) => c.text.trim())) {
      expect(c.confidence).toBeGreaterThan(0);
      expect(c.confidence!).toBeLessThanOrEqual(1);
      expect(Array.isArray(c.candidates)).toBe(true);
    }
  }, 120_000);

  it("OCRs scanned pages side by side on the OCR pool, keeping page order", async () => {
    const pages = [1, 2, 3, 4].map((n) => [`Scanned page number ${n}`, `Body line of page ${n}`]);
    const bytes = await scannedPdf(...pages);
    const previous = setOcrConcurrency(2);
    let peakBusy = 0;
    const sampler = setInterval(() => (peakBusy = Math.max(peakBusy, ocrStats().busy)), 2);
    try {
      const doc = await parsePdf(bytes);
      expect(doc.elements.map((e) => [e.page, e.text])).toEqual(pages.flatMap((lines, i) => lines.map((l) => [i + 1, l])));
      expect(peakBusy).toBe(2);
    } finally {
      clearInterval(sampler);
      setOcrConcurrency(previous);
    }
  }, 120_000);

  it("ends the OCR of its pages when the parse ends early (timeout, abort): no page waits for or keeps a worker after it", async () => {
    // One scan on every page (rendered once): 10 pages read one at a time take seconds.
    const source = await buildPdf([{ texts: [{ text: "Page cut short", x: 72, y: 80, size: 28, font: "bold" }] }]);
    const png = await pdfFormat.renderPage!(source, 1, { dpi: 150 });
    const doc = await PDFDocument.create();
    const image = await doc.embedPng(png);
    for (let i = 0; i < 10; i++) doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    const bytes = await doc.save();
    const previous = setOcrConcurrency(1);
    try {
      for (const end of ["timeout", "abort"] as const) {
        // A worker ready first: the end lands while a page is read, not while a worker starts
        // (a call aborted then settles when the start is done, keeping the worker).
        await ocrImage(png);
        const controller = new AbortController();
        let reading = false;
        const watch = setInterval(() => {
          if (ocrStats().busy === 0) return;
          reading = true;
          if (end === "abort") setTimeout(() => controller.abort(), 300);
          clearInterval(watch);
        }, 2);
        const parsed = parsePdf(bytes, end === "timeout" ? { limits: { timeoutMs: 3000 } } : { signal: controller.signal });
        const error = await parsed.then(() => undefined, (e: unknown) => e);
        clearInterval(watch);
        expect(error, end).toMatchObject({ code: end === "timeout" ? "DOCPARSE_TIMEOUT" : "DOCPARSE_ABORTED" });
        expect(reading, `${end} came while pages were read`).toBe(true);
        // The page being read stops, the one rendered meanwhile does not take the worker next.
        const after: { busy: number; waiting: number }[] = [];
        for (let t = 0; t < 40; t++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (t >= 5) after.push(ocrStats());
        }
        expect(after.filter((s) => s.busy > 0 || s.waiting > 0).length, `${end}: samples with OCR still busy or waiting`).toBe(0);
      }
    } finally {
      setOcrConcurrency(previous);
    }
  }, 120_000);

  it('OCRs a page with a text layer under parse_mode "scan"', async () => {
    const bytes = await buildPdf([{ texts: [{ text: "Layer text here", x: 72, y: 80, size: 26 }] }]);
    const doc = await parsePdf(bytes, { parseMode: "scan", capabilities: { include_char_details: true } });
    expect(doc.elements.map((e) => e.text)).toEqual(["Layer text here"]);
    expect(doc.elements[0]!.chars!.some((c) => (c.confidence ?? 1) < 1)).toBe(true);
  }, 120_000);
});
