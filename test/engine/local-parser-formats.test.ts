import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LocalParser } from "../../src/engine/local-parser.js";
import { MemoryAssetStore } from "../../src/engine/assets.js";
import type { ParseConfig, ParseResult } from "../../src/wire/index.js";
import { buildDocx, buildPptx, renderTextImage } from "../support/office-fixtures.js";
import { buildPdf } from "../support/pdf-fixtures.js";
import { expectConsistentResult } from "./check-result.js";

/**
 * Every registered format through LocalParser with every capability on: whatever draft
 * a handler produces, the assembled result must be schema-valid and self-consistent
 * (ids, hierarchy, title_tree, pages, coordinates). Inputs are written here or are the
 * project's own sample documents.
 */

const ALL: ParseConfig = {
  capabilities: {
    include_hierarchy: true,
    include_inline_objects: true,
    include_char_details: true,
    include_image_data: true,
    include_table_structure: true,
    pages: true,
    title_tree: true,
  },
};

const parser = new LocalParser({ assets: new MemoryAssetStore(), assetBaseUrl: "http://127.0.0.1:1/api/v1/docparse/assets" });

async function parse(bytes: Uint8Array | string, filename?: string): Promise<ParseResult> {
  const input = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
  const result = await parser.parse(input, { ...(filename ? { filename } : {}), config: ALL });
  expectConsistentResult(result);
  return result;
}

const sample = (path: string) => new Uint8Array(readFileSync(new URL(`../../examples/docs/${path}`, import.meta.url)));

describe("LocalParser over every format", () => {
  it.each([["en/device-manual.txt"], ["en/returns-policy.md"], ["zh/employee-handbook.md"], ["zh/product-faq.txt"]])("sample %s", async (path) => {
    const r = await parse(sample(path), path.split("/").pop());
    expect(r.elements.length).toBeGreaterThan(3);
    expect(r.title_tree!.length).toBeGreaterThan(0);
  });

  it("HTML", async () => {
    const r = await parse("<!doctype html><html><body><h1>Policy</h1><p>Text.</p><h2>Scope</h2><ul><li>a</li><li>b</li></ul><table><tr><th>k</th><th>v</th></tr><tr><td colspan=2>x</td></tr></table></body></html>");
    expect(r.metadata!.filetype).toBe("text/html");
    expect(r.elements.map((e) => e.type)).toEqual(expect.arrayContaining(["Title", "NarrativeText", "ListItem", "Table"]));
    expect(r.markdown).toContain('colspan="2"');
  });

  it("CSV", async () => {
    const r = await parse("name,qty\npen,2\n墨水,5\n", "t.csv");
    expect(r.elements.some((e) => e.type === "Table")).toBe(true);
  });

  it("DOCX", async () => {
    const bytes = await buildDocx([
      { kind: "heading", level: 1, text: "Handbook" },
      { kind: "para", text: "Welcome." },
      { kind: "heading", level: 2, text: "Leave" },
      { kind: "list", level: 0, text: "Annual leave" },
      { kind: "table", rows: [[{ text: "Type" }, { text: "Days" }], [{ text: "Annual" }, { text: "20" }]] },
      { kind: "pageBreak" },
      { kind: "heading", level: 1, text: "附录" },
      { kind: "para", text: "中文内容。" },
    ]);
    const r = await parse(bytes, "h.docx");
    expect(r.title_tree!.map((n) => n.title)).toEqual(["Handbook", "附录"]);
    expect(r.elements.find((e) => e.text === "附录")!.page_number).toBeGreaterThan(1);
  });

  it("XLSX", async () => {
    const ExcelJS = (await import("exceljs")).default;
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("One").addRows([["a", "b"], [1, 2]]);
    wb.addWorksheet("Two").addRows([["c"], [3]]);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const r = await parse(bytes, "w.xlsx");
    expect(r.elements.filter((e) => e.type === "Table")).toHaveLength(2);
    const part = await parser.parse(bytes, { config: { scope: { page_range: "2" }, capabilities: { pages: true } } });
    expectConsistentResult(part);
    expect(part.elements.length).toBeGreaterThan(0);
  });

  it("PPTX", async () => {
    const bytes = await buildPptx([
      { shapes: [{ kind: "title", text: "Quarterly review", x: 838200, y: 365125, cx: 10515600, cy: 1325563 }, { kind: "body", paragraphs: [{ text: "Growth" }, { text: "Detail", level: 1 }], x: 838200, y: 1825625, cx: 10515600, cy: 4351338 }] },
      { shapes: [{ kind: "title", text: "Next steps", x: 838200, y: 365125, cx: 10515600, cy: 1325563 }] },
    ]);
    const r = await parse(bytes, "deck.pptx");
    expect(r.pages!.length).toBe(2);
  });

  it("PDF, with a page image rendered on demand", async () => {
    const bytes = await buildPdf([
      { texts: [{ text: "Annual Report", x: 72, y: 72, size: 24, font: "bold" }, { text: "Revenue grew this year.", x: 72, y: 120, size: 11 }] },
      { texts: [{ text: "Second page text.", x: 72, y: 72, size: 11 }] },
    ]);
    const r = await parse(bytes, "r.pdf");
    expect(r.pages!.map((p) => p.page_image_url)).toEqual([1, 2].map((n) => `http://127.0.0.1:1/api/v1/docparse/assets/${r.file_id}/page-${n}.png`));
    const image = await parser.pageImage(r.file_id, 1);
    expect(image!.mimeType).toBe("image/png");
    expect(Buffer.from(image!.bytes.subarray(0, 4)).toString("latin1")).toBe("\x89PNG");
  });

  it("image (OCR)", async () => {
    const r = await parse(await renderTextImage(["Invoice 2024", "Total due: 120 EUR"]), "scan.png");
    expect(r.elements.map((e) => e.text).join(" ")).toMatch(/Invoice/);
  });

  it("image (OCR) in the languages engine_params.ocr_languages names", async () => {
    const png = await renderTextImage(["Rechnung für Größe und Maß"]);
    const r = await parser.parse(png, { filename: "scan.png", config: { config: { engine_params: { ocr_languages: ["deu"] } } } });
    expect(r.elements.map((e) => e.text).join(" ")).toBe("Rechnung für Größe und Maß");
  });

  it("a language whose data is not installed fails the request with 40004, for every format (also those that never OCR)", async () => {
    const config = { config: { engine_params: { ocr_languages: "fra" } } };
    await expect(parser.parse(Buffer.from("<h1>Title</h1><p>Text</p>"), { filename: "page.html", config })).rejects.toMatchObject({ code: 40004 });
    await expect(parser.parse(await renderTextImage(["Bonjour"]), { filename: "scan.png", config })).rejects.toMatchObject({ code: 40004 });
    const pdf = await buildPdf([{ texts: [{ text: "A text page", x: 72, y: 72 }] }]);
    await expect(parser.parse(pdf, { filename: "text.pdf", config })).rejects.toMatchObject({ code: 40004, message: expect.stringContaining("@tesseract.js-data/fra") });
  });
});
