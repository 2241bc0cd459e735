import fc from "fast-check";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import type { FormatHandler } from "../../../src/engine/draft.js";
import { csvFormat } from "../../../src/engine/formats/csv.js";
import { docxFormat } from "../../../src/engine/formats/docx.js";
import { htmlFormat } from "../../../src/engine/formats/html.js";
import { imageFormat } from "../../../src/engine/formats/image.js";
import { pptxFormat } from "../../../src/engine/formats/pptx.js";
import { xlsxFormat } from "../../../src/engine/formats/xlsx.js";
import { MAX_TABLE_CELLS } from "../../../src/engine/formats/office/table-grid.js";
import { terminateOcr } from "../../../src/engine/ocr.js";
import { DocParseError } from "../../../src/errors.js";
import { buildDocx, buildPptx, formatContext, renderTextImage } from "../../support/office-fixtures.js";

/**
 * Damaged files: whatever the bytes, a handler returns a document or throws a
 * DocParseError with a service code — never a TypeError from deep inside a library.
 */

afterAll(() => terminateOcr());

async function outcome(handler: FormatHandler, bytes: Uint8Array): Promise<string> {
  try {
    await handler.parse(bytes, formatContext());
    return "ok";
  } catch (e) {
    if (DocParseError.isInstance(e) && typeof e.code === "number") return String(e.code);
    throw e;
  }
}

/** Damage: truncate, flip bytes, or splice garbage into the middle. */
const damage = (seed: Uint8Array) =>
  fc.oneof(
    fc.integer({ min: 0, max: seed.length - 1 }).map((n) => seed.subarray(0, n)),
    fc.array(fc.tuple(fc.integer({ min: 0, max: seed.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 20 }).map((flips) => {
      const copy = new Uint8Array(seed);
      for (const [i, v] of flips) copy[i] = v;
      return copy;
    }),
    fc.tuple(fc.integer({ min: 0, max: seed.length }), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([at, junk]) => {
      const out = new Uint8Array(seed.length + junk.length);
      out.set(seed.subarray(0, at));
      out.set(junk, at);
      out.set(seed.subarray(at), at + junk.length);
      return out;
    }),
  );

describe("damaged input never escapes as a non-DocParseError", { timeout: 120_000 }, () => {
  it("DOCX", async () => {
    const seed = await buildDocx([{ kind: "heading", level: 1, text: "T" }, { kind: "para", text: "p" }, { kind: "table", rows: [[{ text: "a" }]] }]);
    await fc.assert(fc.asyncProperty(damage(seed), async (b) => ["ok", "40422", "40425"].includes(await outcome(docxFormat, b))), { numRuns: 60 });
  });

  it("XLSX", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("s").addRow(["a", 1, new Date(0)]);
    const seed = new Uint8Array(await wb.xlsx.writeBuffer());
    await fc.assert(fc.asyncProperty(damage(seed), async (b) => ["ok", "40422", "40425"].includes(await outcome(xlsxFormat, b))), { numRuns: 40 });
  });

  it("PPTX", async () => {
    const seed = await buildPptx([{ shapes: [{ kind: "title", text: "T", x: 0, y: 0, cx: 100, cy: 100 }] }]);
    await fc.assert(fc.asyncProperty(damage(seed), async (b) => ["ok", "40422", "40425"].includes(await outcome(pptxFormat, b))), { numRuns: 60 });
  });

  it("HTML and CSV take any bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (b) => {
        const h = await outcome(htmlFormat, b);
        const c = await outcome(csvFormat, b);
        return ["ok", "40422"].includes(h) && ["ok", "40422"].includes(c);
      }),
      { numRuns: 100 },
    );
  });

  it("images", async () => {
    const seed = await renderTextImage(["ok"]);
    await fc.assert(
      fc.asyncProperty(damage(seed), async (b) => ["ok", "40301", "40304", "40422"].includes(await outcome(imageFormat, b))),
      { numRuns: 6 },
    );
  });
});

describe("hostile table shapes stay bounded", { timeout: 60_000 }, () => {
  it("XLSX: a far-away cell does not make a grid of billions", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("sparse");
    ws.getCell("A1").value = "top";
    ws.getCell("XFD1048576").value = "far";
    const t0 = Date.now();
    const doc = await xlsxFormat.parse(new Uint8Array(await wb.xlsx.writeBuffer()), formatContext());
    expect(Date.now() - t0).toBeLessThan(20_000);
    const sparse = doc.elements.find((e) => e.type === "Table")!;
    expect(sparse.metadata?.truncated).toBe(true);
    expect(sparse.table!.rows * sparse.table!.cols).toBeLessThanOrEqual(MAX_TABLE_CELLS);
  });

  it("XLSX: a sheet-sized merged range is refused before exceljs expands it (40425)", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("merge");
    ws.getCell("A1").value = "all";
    ws.mergeCells("A1:B2");
    const JSZipMod = (await import("jszip")).default;
    const zip = await JSZipMod.loadAsync(await wb.xlsx.writeBuffer());
    const sheet = "xl/worksheets/sheet1.xml";
    const xml = (await zip.file(sheet)!.async("string")).replace('<mergeCell ref="A1:B2"/>', '<mergeCell ref="A1:XFD1048576"/>');
    expect(xml).toContain("A1:XFD1048576");
    zip.file(sheet, xml);
    const err = await xlsxFormat.parse(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }), formatContext()).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40425);
  });

  it("CSV: one very wide row does not pad a long file into a huge grid", async () => {
    const wide = Array.from({ length: 50_000 }, (_, i) => `c${i}`).join(",");
    const csv = `${wide}\n${"x\n".repeat(100_000)}`;
    const doc = await csvFormat.parse(new TextEncoder().encode(csv), formatContext());
    const t = doc.elements[0]!;
    expect(t.metadata?.truncated).toBe(true);
    expect(t.table!.rows * t.table!.cols).toBeLessThanOrEqual(MAX_TABLE_CELLS);
  });

  it("HTML: huge colspan/rowspan values are capped", async () => {
    const html = `<table>${'<tr><td colspan="999999" rowspan="999999">x</td></tr>'.repeat(3000)}</table>`;
    const t0 = Date.now();
    const doc = await htmlFormat.parse(new TextEncoder().encode(html), formatContext());
    expect(Date.now() - t0).toBeLessThan(20_000);
    const t = doc.elements[0]!.table!;
    expect(t.cols).toBeLessThanOrEqual(1000);
    expect(t.rows * t.cols).toBeLessThanOrEqual(MAX_TABLE_CELLS * 2);
  });

  it("DOCX: an absurd gridSpan is capped", async () => {
    const JSZipMod = (await import("jszip")).default;
    const zip = await JSZipMod.loadAsync(await buildDocx([{ kind: "table", rows: [[{ text: "wide", gridSpan: 2 }]] }]));
    const xml = (await zip.file("word/document.xml")!.async("string")).replace('w:gridSpan w:val="2"', 'w:gridSpan w:val="999999999"');
    zip.file("word/document.xml", xml);
    const doc = await docxFormat.parse(await zip.generateAsync({ type: "uint8array" }), formatContext());
    expect(doc.elements[0]!.table!.cols).toBe(1000);
  });
});
