import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryAssetStore } from "../../../src/engine/assets.js";
import { LocalParser } from "../../../src/engine/local-parser.js";
import { terminateOcr } from "../../../src/engine/ocr.js";
import { DocParseError } from "../../../src/errors.js";
import type { ParseConfig } from "../../../src/wire/index.js";
import { buildDocx, buildPptx, renderTextImage } from "../../support/office-fixtures.js";
import { expectConsistentResult } from "../check-result.js";

/** Every format of issue 7 through the real LocalParser: detection, handler, assembler. */

afterAll(() => terminateOcr());
const parser = new LocalParser({ assets: new MemoryAssetStore() });
const ALL: ParseConfig = { capabilities: { include_table_structure: true, pages: true, title_tree: true, include_char_details: true } };
const EMU = 914_400;

describe("LocalParser with office, HTML and image formats", () => {
  it("DOCX (named .bin: detected by content) → hierarchy, table_structure, estimated coordinates", async () => {
    const bytes = await buildDocx([
      { kind: "heading", level: 1, text: "年度报告" },
      { kind: "para", text: "正文。" },
      { kind: "table", rows: [[{ text: "a", gridSpan: 2 }], [{ text: "b" }, { text: "c" }]] },
      { kind: "pageBreak" },
      { kind: "heading", level: 2, text: "Part two" },
    ]);
    const r = await parser.parse(bytes, { filename: "upload.bin", config: ALL });
    expectConsistentResult(r);
    expect(r.metadata?.filetype).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(r.elements.map((e) => e.type)).toEqual(["Title", "NarrativeText", "Table", "Title"]);
    expect(r.elements[0]!.metadata?.coordinates_estimated).toBe(true);
    expect(r.elements[3]!.page_number).toBe(2);
    expect(r.elements[2]!.table_structure).toBeDefined();
    expect(r.markdown).toContain("# 年度报告");
  });

  it("DOCX pictures come back as image data (base64) with their size", async () => {
    const png = await renderTextImage(["pic"], { width: 240 });
    const bytes = await buildDocx([{ kind: "image", png, widthPx: 240, heightPx: 100, alt: "Logo 标志" }]);
    const r = await parser.parse(bytes, {
      filename: "pic.docx",
      config: { capabilities: { include_image_data: true }, config: { engine_params: { image_output_type: "base64" } } },
    });
    expectConsistentResult(r);
    const img = r.elements[0]!;
    expect([img.type, img.text, img.metadata?.width]).toEqual(["Image", "Logo 标志", 240]);
    expect(Buffer.from(img.image_data!.base64!, "base64").equals(Buffer.from(png))).toBe(true);
  });

  it("XLSX → one page per sheet", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("One").addRow(["x", 1]);
    wb.addWorksheet("Two").addRow(["y", 2]);
    const r = await parser.parse(new Uint8Array(await wb.xlsx.writeBuffer()), { filename: "book.xlsx", config: ALL });
    expectConsistentResult(r);
    expect(r.metadata?.page_count).toBe(2);
    expect(r.elements.map((e) => [e.type, e.page_number])).toEqual([
      ["Title", 1],
      ["Table", 1],
      ["Title", 2],
      ["Table", 2],
    ]);
  });

  it("CSV → one table", async () => {
    const r = await parser.parse(new TextEncoder().encode("a,b\n1,2\n"), { filename: "t.csv", config: ALL });
    expectConsistentResult(r);
    expect(r.elements.map((e) => e.type)).toEqual(["Table"]);
  });

  it("PPTX → real coordinates, not estimated", async () => {
    const bytes = await buildPptx([{ shapes: [{ kind: "title", text: "Deck", x: EMU, y: EMU, cx: 4 * EMU, cy: EMU }] }]);
    const r = await parser.parse(bytes, { filename: "deck.pptx", config: ALL });
    expectConsistentResult(r);
    const title = r.elements[0]!;
    expect(title.type).toBe("Title");
    expect(title.metadata?.coordinates_estimated).toBeUndefined();
    expect(title.coordinates[0]).toBeCloseTo(1 / 13.333, 3);
    expect(r.pages?.[0]?.page_width).toBe(1280);
  });

  it("HTML → elements", async () => {
    const r = await parser.parse(new TextEncoder().encode("<!doctype html><h1>Hi</h1><p>Body</p>"), { filename: "p.html", config: ALL });
    expectConsistentResult(r);
    expect(r.elements.map((e) => e.type)).toEqual(["Title", "NarrativeText"]);
  });

  it("PNG → OCR text with char_details", async () => {
    const png = await renderTextImage(["Hello from an image"]);
    const r = await parser.parse(png, { filename: "scan.png", config: ALL });
    expectConsistentResult(r);
    expect(r.elements.map((e) => e.text).join(" ")).toBe("Hello from an image");
    expect(r.elements[0]!.char_details?.length).toBeGreaterThan(10);
  });

  it("wrong extensions do not matter: an XLSX named .docx is a workbook, a zip of other things is 40303", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("Real").addRow(["sheet"]);
    const r = await parser.parse(new Uint8Array(await wb.xlsx.writeBuffer()), { filename: "misnamed.docx" });
    expect(r.metadata?.filetype).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(r.elements[0]!.text).toBe("Real");
    const JSZip = (await import("jszip")).default;
    const zip = new JSZip();
    zip.file("notes.txt", "not an office file");
    const err = await parser.parse(await zip.generateAsync({ type: "uint8array" }), { filename: "fake.docx" }).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40303);
  });

  it("a zip bomb named .docx is refused with 40422", async () => {
    const JSZip = (await import("jszip")).default;
    const zip = new JSZip();
    zip.file("word/document.xml", "<a>" + "a".repeat(8 * 1024 * 1024) + "</a>");
    const bomb = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    const err = await parser.parse(bomb, { filename: "bomb.docx" }).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40422);
  });
});
