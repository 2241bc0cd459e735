import { describe, expect, it } from "vitest";
import { MemoryAssetStore } from "../../../../src/engine/assets.js";
import { docxFormat } from "../../../../src/engine/formats/docx.js";
import { htmlFormat } from "../../../../src/engine/formats/html.js";
import { LocalParser } from "../../../../src/engine/local-parser.js";
import { pptxFormat } from "../../../../src/engine/formats/pptx.js";
import { DocParseError } from "../../../../src/errors.js";
import { buildDocx, buildPptx, formatContext } from "../../../support/office-fixtures.js";
import { missing } from "../../../support/system.js";
import { expectConsistentResult } from "../../check-result.js";

const GEOMETRY = { office_geometry: "libreoffice" };

describe.skipIf(missing("soffice"))("office_geometry: libreoffice", { timeout: 180_000 }, () => {
  it("puts DOCX elements on the printed pages with real boxes, in order, keeping structure", async () => {
    const bytes = await buildDocx([
      { kind: "heading", level: 1, text: "Geometry test 几何" },
      { kind: "para", text: "First paragraph on page one. ".repeat(5) },
      { kind: "list", level: 0, text: "Item one" },
      { kind: "list", level: 1, text: "Item one point one" },
      { kind: "table", rows: [[{ text: "A", gridSpan: 2 }], [{ text: "b1" }, { text: "b2" }]] },
      { kind: "pageBreak" },
      { kind: "heading", level: 2, text: "Second page heading" },
      { kind: "para", text: "Text on page two." },
    ]);
    const doc = await docxFormat.parse(bytes, formatContext({ engineParams: GEOMETRY }));
    expect(doc.estimatedLayout).toBe(false);
    expect(doc.pageCount).toBe(2);
    // A4 at the PDF handler's 144 dpi.
    expect(doc.pages.map((p) => [p.number, p.width, p.height])).toEqual([
      [1, 1191, 1684],
      [2, 1191, 1684],
    ]);
    expect(doc.elements.map((e) => [e.type, e.page])).toEqual([
      ["Title", 1],
      ["NarrativeText", 1],
      ["ListItem", 1],
      ["ListItem", 1],
      ["Table", 1],
      ["Title", 2],
      ["NarrativeText", 2],
    ]);
    expect(doc.elements[4]!.table!.cells.map((c) => [c.row, c.col, c.colSpan, c.text])).toEqual([
      [1, 1, 2, "A"],
      [2, 1, undefined, "b1"],
      [2, 2, undefined, "b2"],
    ]);
    const boxes = doc.elements.map((e) => e.box!);
    for (const b of boxes) {
      expect(b.x0).toBeGreaterThan(0.05); // inside the page margins
      expect(b.x1).toBeLessThan(0.95);
      expect(b.y1).toBeGreaterThan(b.y0);
    }
    // Reading order is top to bottom on each page; the nested list item is indented.
    for (const i of [1, 2, 3, 4, 6]) expect(boxes[i]!.y0).toBeGreaterThanOrEqual(boxes[i - 1]!.y0);
    expect(boxes[3]!.x0).toBeGreaterThan(boxes[2]!.x0);
  });

  it("finds a borderless table that printing merged into the next lines, and the paragraph after it", async () => {
    const bytes = await buildDocx([
      { kind: "caption", text: "Table 1: spans" },
      { kind: "table", rows: [[{ text: "A", gridSpan: 2 }], [{ text: "b1" }, { text: "b2" }]] },
      { kind: "para", text: "After the table 表格之后。" },
    ]);
    const doc = await docxFormat.parse(bytes, formatContext({ engineParams: GEOMETRY }));
    const [cap, table, after] = doc.elements;
    expect([cap!.type, table!.type, after!.type]).toEqual(["TableCaption", "Table", "NarrativeText"]);
    expect(cap!.box!.y1).toBeLessThanOrEqual(table!.box!.y0 + 0.002);
    expect(table!.box!.y1).toBeLessThanOrEqual(after!.box!.y0 + 0.002);
    // The table's box spans its widest row (b1 … b2), wider than its first row's "A".
    expect(table!.box!.x1 - table!.box!.x0).toBeGreaterThan(0.1);
  });

  it("office_geometry: auto prints where LibreOffice is installed", async () => {
    const doc = await docxFormat.parse(await buildDocx([{ kind: "para", text: "auto" }]), formatContext({ engineParams: { office_geometry: "auto" } }));
    expect(doc.estimatedLayout).toBe(false);
    expect(doc.elements[0]!.box).toBeDefined();
  });

  it("gives HTML real pages too", async () => {
    const html = new TextEncoder().encode("<html><body><h1>Web page</h1><p>Some body text here.</p></body></html>");
    const doc = await htmlFormat.parse(html, formatContext({ engineParams: GEOMETRY }));
    expect(doc.estimatedLayout).toBe(false);
    expect(doc.elements.map((e) => [e.type, e.page, e.box !== undefined])).toEqual([
      ["Title", 1, true],
      ["NarrativeText", 1, true],
    ]);
    expect(doc.elements[0]!.box!.y1).toBeLessThanOrEqual(doc.elements[1]!.box!.y0 + 1e-6);
  });

  it("through LocalParser: exact coordinates and page images", async () => {
    const parser = new LocalParser({ assets: new MemoryAssetStore() });
    const bytes = await buildDocx([{ kind: "heading", level: 1, text: "Cited title" }, { kind: "para", text: "Cited body." }]);
    const r = await parser.parse(bytes, {
      filename: "c.docx",
      config: { capabilities: { pages: true }, config: { engine_params: GEOMETRY } },
    });
    expectConsistentResult(r);
    expect(r.elements.map((e) => e.metadata?.coordinates_estimated)).toEqual([undefined, undefined]);
    expect(r.pages?.[0]?.page_image_url).toBeTruthy();
  });

  it("renders PPTX slide images through LibreOffice, skipping hidden slides in the print", async () => {
    const EMU = 914_400;
    const title = (text: string) => ({ kind: "title" as const, text, x: EMU, y: EMU, cx: 10 * EMU, cy: 2 * EMU });
    const bytes = await buildPptx([{ shapes: [title("One")] }, { shapes: [title("Hidden")], hidden: true }, { shapes: [title("Three")] }]);
    const png = await pptxFormat.renderPage!(bytes, 3, { dpi: 72 });
    const { loadImage } = await import("@napi-rs/canvas");
    const img = await loadImage(Buffer.from(png));
    expect(img.width).toBe(960);
    expect(img.height).toBe(540);
    // The image of slide 3 shows slide 3, not the hidden slide 2 that precedes it.
    const hi = await pptxFormat.renderPage!(bytes, 3, { dpi: 144 });
    const { ocrImage, terminateOcr } = await import("../../../../src/engine/ocr.js");
    const seen = (await ocrImage(hi)).lines.map((l) => l.text).join(" ");
    await terminateOcr();
    expect(seen).toContain("Three");
    const err = await pptxFormat.renderPage!(bytes, 2, { dpi: 72 }).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40425);
  });
});
