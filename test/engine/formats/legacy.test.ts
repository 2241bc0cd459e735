import ExcelJS from "exceljs";
import { afterEach, describe, expect, it } from "vitest";
import { DocParseError } from "../../../src/errors.js";
import { docxFormat } from "../../../src/engine/formats/docx.js";
import { legacyFormat } from "../../../src/engine/formats/legacy.js";
import { xlsxFormat } from "../../../src/engine/formats/xlsx.js";
import { convertWithLibreOffice, resetSofficeCache } from "../../../src/engine/formats/office/libreoffice.js";
import { buildDocx, buildPptx, formatContext } from "../../support/office-fixtures.js";
import { missing } from "../../support/system.js";

const HTML = `<html><head><meta charset="utf-8"></head><body><h1>Report 报告</h1><p>Intro paragraph.</p><h2>Details</h2>
<ul><li>alpha</li><li>beta<ul><li>beta.1</li></ul></li></ul>
<table border="1"><tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr><tr><td>H1</td><td>H2</td></tr><tr><td>North 北</td><td>10</td><td>12</td></tr></table></body></html>`;

const EXPECTED_TABLE = {
  rows: 3,
  cols: 3,
  headerRows: 1,
  cells: [
    { row: 1, col: 1, rowSpan: 2, text: "Region" },
    { row: 1, col: 2, colSpan: 2, text: "Sales" },
    { row: 2, col: 2, text: "H1" },
    { row: 2, col: 3, text: "H2" },
    { row: 3, col: 1, text: "North 北" },
    { row: 3, col: 2, text: "10" },
    { row: 3, col: 3, text: "12" },
  ],
};

const EXPECTED_OUTLINE = [
  ["Title", 1, "Report 报告"],
  ["NarrativeText", undefined, "Intro paragraph."],
  ["Title", 2, "Details"],
  ["ListItem", 0, "alpha"],
  ["ListItem", 0, "beta"],
  ["ListItem", 1, "beta.1"],
];

const enc = (s: string) => new TextEncoder().encode(s);
const outline = (els: { type: string; headingLevel?: number; listLevel?: number; text: string }[]) =>
  els.filter((e) => e.type !== "Table").map((e) => [e.type, e.headingLevel ?? e.listLevel, e.text]);

describe.skipIf(missing("soffice"))("LibreOffice ground truth", { timeout: 180_000 }, () => {
  it("parses a DOCX that LibreOffice wrote from our HTML with the same outline and table", async () => {
    const docx = await convertWithLibreOffice(enc(HTML), { fromExt: "html", to: "docx:MS Word 2007 XML" });
    const doc = await docxFormat.parse(docx, formatContext());
    expect(outline(doc.elements)).toEqual(EXPECTED_OUTLINE);
    expect(doc.elements.find((e) => e.type === "Table")!.table).toEqual(EXPECTED_TABLE);
  });

  it("parses an XLSX that LibreOffice Calc wrote from our HTML table with the exact spans", async () => {
    const table = HTML.slice(HTML.indexOf("<table"), HTML.indexOf("</table>") + 8);
    const xlsx = await convertWithLibreOffice(enc(`<html><head><meta charset="utf-8"></head><body>${table}</body></html>`), {
      fromExt: "html",
      to: "xlsx:Calc MS Excel 2007 XML",
      infilter: "HTML (StarCalc)",
    });
    const doc = await xlsxFormat.parse(xlsx, formatContext());
    expect(doc.elements.map((e) => e.type)).toEqual(["Title", "Table"]);
    expect(doc.elements[1]!.table).toEqual(EXPECTED_TABLE);
  });

  it("converts a legacy .doc and parses it like DOCX, keeping the source media type", async () => {
    const doc = await convertWithLibreOffice(enc(HTML), { fromExt: "html", to: "doc:MS Word 97" });
    const draft = await legacyFormat.parse(doc, formatContext({ filename: "report.doc" }));
    expect(draft.filetype).toBe("application/msword");
    expect(outline(draft.elements)).toEqual(EXPECTED_OUTLINE);
    expect(draft.elements.find((e) => e.type === "Table")!.table).toEqual(EXPECTED_TABLE);
  });

  it("converts .xls with merged cells into one page per sheet with spans", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("数据");
    ws.addRow(["Region", "Sales", null]);
    ws.addRow([null, "H1", "H2"]);
    ws.addRow(["North", 10, 12]);
    ws.mergeCells("A1:A2");
    ws.mergeCells("B1:C1");
    const xls = await convertWithLibreOffice(new Uint8Array(await wb.xlsx.writeBuffer()), { fromExt: "xlsx", to: "xls:MS Excel 97" });
    const draft = await legacyFormat.parse(xls, formatContext({ filename: "data.xls" }));
    expect(draft.filetype).toBe("application/vnd.ms-excel");
    expect(draft.elements.map((e) => [e.type, e.page])).toEqual([
      ["Title", 1],
      ["Table", 1],
    ]);
    expect(draft.elements[0]!.text).toBe("数据");
    expect(draft.elements[1]!.table!.cells).toEqual([
      { row: 1, col: 1, rowSpan: 2, text: "Region" },
      { row: 1, col: 2, colSpan: 2, text: "Sales" },
      { row: 2, col: 2, text: "H1" },
      { row: 2, col: 3, text: "H2" },
      { row: 3, col: 1, text: "North" },
      { row: 3, col: 2, text: "10" },
      { row: 3, col: 3, text: "12" },
    ]);
  });

  it("converts .ppt and keeps slide geometry and the title", async () => {
    const EMU = 914_400;
    const pptx = await buildPptx([
      { shapes: [{ kind: "title", text: "Legacy deck", x: EMU, y: EMU, cx: 8 * EMU, cy: EMU }, { kind: "body", paragraphs: [{ text: "Point one", level: 0 }], x: EMU, y: 3 * EMU, cx: 8 * EMU, cy: 2 * EMU }] },
    ]);
    const ppt = await convertWithLibreOffice(pptx, { fromExt: "pptx", to: "ppt:MS PowerPoint 97" });
    const draft = await legacyFormat.parse(ppt, formatContext({ filename: "deck.ppt" }));
    expect(draft.filetype).toBe("application/vnd.ms-powerpoint");
    expect(draft.pages).toEqual([{ number: 1, width: 1280, height: 720, dpi: 96 }]);
    expect(draft.elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Legacy deck"],
      ["ListItem", "Point one"],
    ]);
    expect(draft.elements[0]!.box!.y0).toBeCloseTo(1 / 7.5, 2);
  });

  it("converts RTF", async () => {
    const rtf = String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Times;}}{\pard\b Heading in RTF\b0\par}{\pard Plain paragraph text.\par}}`;
    const draft = await legacyFormat.parse(enc(rtf), formatContext({ filename: "note.rtf" }));
    expect(draft.filetype).toBe("application/rtf");
    expect(draft.elements.map((e) => e.text)).toEqual(["Heading in RTF", "Plain paragraph text."]);
  });
});

describe("legacy without LibreOffice", () => {
  afterEach(() => {
    delete process.env.DOCPARSE_SOFFICE;
    resetSofficeCache();
  });

  it("answers 40428, not retryable, with a message that says how to install it", async () => {
    process.env.DOCPARSE_SOFFICE = "off";
    resetSofficeCache();
    const err = await legacyFormat.parse(enc(String.raw`{\rtf1 hi}`), formatContext({ filename: "a.rtf" })).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40428);
    expect((err as DocParseError).isRetryable).toBe(false);
    expect((err as DocParseError).message).toMatch(/apt-get install/);
  });

  it("office_geometry: auto falls back to the estimated layout, libreoffice answers 40428", async () => {
    process.env.DOCPARSE_SOFFICE = "off";
    resetSofficeCache();
    const bytes = await buildDocx([{ kind: "para", text: "no printer" }]);
    const auto = await docxFormat.parse(bytes, formatContext({ engineParams: { office_geometry: "auto" } }));
    expect(auto.estimatedLayout).toBe(true);
    const err = await docxFormat.parse(bytes, formatContext({ engineParams: { office_geometry: "libreoffice" } })).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40428);
  });

  it("answers 40425 for bytes that are no known office format", async () => {
    const err = await legacyFormat.parse(enc("just text"), formatContext({ filename: "a.bin" })).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40425);
  });
});
