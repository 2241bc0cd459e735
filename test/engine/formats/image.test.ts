import { afterAll, describe, expect, it } from "vitest";
import { DocParseError } from "../../../src/errors.js";
import { imageFormat } from "../../../src/engine/formats/image.js";
import { terminateOcr } from "../../../src/engine/ocr.js";
import { pdfFormat } from "../../../src/engine/formats/pdf.js";
import { charAccuracy, formatContext, pngHeader, renderTextBmp, renderTextImage, renderTextTiff, withPngDpi } from "../../support/office-fixtures.js";
import { latexPdf, TWO_COLUMN_PAPER } from "../../support/pdf-fixtures.js";
import { missing } from "../../support/system.js";
import { expectInReadingOrder, PAPER_READING_ORDER } from "../pdf-helpers.js";

afterAll(() => terminateOcr());
const codeOf = (e: unknown) => (DocParseError.isInstance(e) ? e.code : e);

async function titledPage(): Promise<Uint8Array> {
  const { createCanvas } = await import("@napi-rs/canvas");
  const c = createCanvas(1000, 520);
  const g = c.getContext("2d");
  g.fillStyle = "white";
  g.fillRect(0, 0, 1000, 520);
  g.fillStyle = "black";
  g.font = "bold 56px DejaVu Sans";
  g.fillText("Quarterly Report", 40, 90);
  g.font = "26px DejaVu Sans";
  ["Revenue grew by twelve percent in the", "third quarter compared with last year."].forEach((t, i) => g.fillText(t, 40, 190 + i * 40));
  ["Costs stayed flat across all regions", "and headcount did not change."].forEach((t, i) => g.fillText(t, 40, 380 + i * 40));
  return new Uint8Array(c.toBuffer("image/png"));
}

describe("image: OCR page", () => {
  it("gives one page with the file's size and dpi, a Title and paragraphs with char details", async () => {
    const png = withPngDpi(await titledPage(), 300);
    const doc = await imageFormat.parse(png, formatContext());
    expect(doc.pages).toEqual([{ number: 1, width: 1000, height: 520, dpi: 300 }]);
    expect(doc.filetype).toBe("image/png");
    const expected = [
      "Quarterly Report",
      "Revenue grew by twelve percent in the third quarter compared with last year.",
      "Costs stayed flat across all regions and headcount did not change.",
    ];
    const acc = charAccuracy(expected.join("\n"), doc.elements.map((e) => e.text).join("\n"));
    console.log(`[image] OCR character accuracy ${(acc * 100).toFixed(2)}%`);
    expect(acc).toBeGreaterThan(0.95);
    expect(doc.elements.map((e) => e.type)).toEqual(["Title", "NarrativeText", "NarrativeText"]);
    for (const el of doc.elements) {
      expect(el.chars!.length).toBe(el.text.length);
      expect(el.chars!.map((c) => c.text).join("")).toBe(el.text);
      expect(el.box!.x0).toBeGreaterThan(0.03);
      expect(el.box!.x1).toBeLessThan(1);
      for (const c of el.chars!) {
        expect(c.box.x0).toBeGreaterThanOrEqual(el.box!.x0 - 1e-9);
        expect(c.box.y1).toBeLessThanOrEqual(el.box!.y1 + 1e-9);
      }
    }
    expect(doc.elements[0]!.box!.y1).toBeLessThan(doc.elements[1]!.box!.y0);
  });

  it("reads TIFF with its resolution tag", async () => {
    const tiff = await renderTextTiff(["Scanned TIFF page"], 200);
    const doc = await imageFormat.parse(tiff, formatContext());
    expect(doc.pages[0]!.dpi).toBe(200);
    expect(doc.filetype).toBe("image/tiff");
    expect(doc.elements.map((e) => e.text).join(" ")).toBe("Scanned TIFF page");
  });

  it("reads BMP and WebP, with the BMP's resolution", async () => {
    const bmp = await imageFormat.parse(await renderTextBmp(["Bitmap text"], 150), formatContext());
    expect([bmp.filetype, bmp.pages[0]!.dpi, bmp.elements.map((e) => e.text).join(" ")]).toEqual(["image/bmp", 150, "Bitmap text"]);
    const webp = await imageFormat.parse(await renderTextImage(["WebP text"], { format: "webp" }), formatContext());
    expect([webp.filetype, webp.pages[0]!.dpi, webp.elements.map((e) => e.text).join(" ")]).toEqual(["image/webp", 72, "WebP text"]);
  });

  it("renders its page image as PNG", async () => {
    const jpeg = await renderTextImage(["x"], { format: "jpeg" });
    const png = await imageFormat.renderPage!(jpeg, 1, { dpi: 72 });
    expect(Array.from(png.subarray(1, 4))).toEqual([0x50, 0x4e, 0x47]);
  });
});

describe.skipIf(missing("pdflatex"))("image: a photographed two-column page", () => {
  it("reads it like a PDF page: columns in order, tables, list items, OCR confidence per element", async () => {
    const png = await pdfFormat.renderPage!(await latexPdf(TWO_COLUMN_PAPER), 1, { dpi: 200 });
    const doc = await imageFormat.parse(png, formatContext());
    expectInReadingOrder(doc, PAPER_READING_ORDER);
    const tables = doc.elements.filter((e) => e.type === "Table").map((e) => e.table!);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([
      [4, 3],
      [4, 4],
    ]);
    expect(doc.elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual(["• Section 2 describes the parser and its output format.", "• Section 3 evaluates retrieval with and without hierarchy."]);
    expect(doc.elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual(expect.arrayContaining(["1 Introduction", "3 Results"]));
    for (const e of doc.elements) {
      const confidence = e.metadata?.["ocr_confidence"] as number;
      expect(confidence).toBeGreaterThan(0.3);
      expect(confidence).toBeLessThanOrEqual(1);
    }
  }, 60_000);
});

describe("image: bad input", () => {
  it("40301 for an unsupported type, 40304 for sizes out of range, 40422 for empty", async () => {
    expect(codeOf(await imageFormat.parse(new TextEncoder().encode("GIF? no, plain text"), formatContext()).catch((e: unknown) => e))).toBe(40301);
    expect(codeOf(await imageFormat.parse(pngHeader(10, 10), formatContext()).catch((e: unknown) => e))).toBe(40304);
    expect(codeOf(await imageFormat.parse(pngHeader(20_000, 100), formatContext()).catch((e: unknown) => e))).toBe(40304);
    expect(codeOf(await imageFormat.parse(pngHeader(5000, 5000), formatContext({ limits: { maxImagePixels: 1_000_000 } })).catch((e: unknown) => e))).toBe(40304);
    expect(codeOf(await imageFormat.parse(new Uint8Array(), formatContext()).catch((e: unknown) => e))).toBe(40422);
  });

  it("40422 for a truncated image that passes the header check", async () => {
    const png = await renderTextImage(["truncated"]);
    expect(codeOf(await imageFormat.parse(png.subarray(0, 60), formatContext()).catch((e: unknown) => e))).toBe(40422);
  });
});
