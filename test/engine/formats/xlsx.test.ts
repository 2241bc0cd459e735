import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { DocParseError } from "../../../src/errors.js";
import { xlsxFormat } from "../../../src/engine/formats/xlsx.js";
import { formatContext } from "../../support/office-fixtures.js";

const codeOf = (e: unknown) => (DocParseError.isInstance(e) ? e.code : e);

async function workbook(build: (wb: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe("xlsx: sheets and pages", () => {
  it("puts each visible sheet on its own page with a sheet-name Title, skipping hidden ones", async () => {
    const bytes = await workbook((wb) => {
      wb.addWorksheet("Sales").addRow(["a", "b"]);
      wb.addWorksheet("Secret", { state: "hidden" }).addRow(["hidden"]);
      wb.addWorksheet("销售").addRow(["中文", "数据"]);
    });
    const doc = await xlsxFormat.parse(bytes, formatContext());
    expect(doc.estimatedLayout).toBe(true);
    expect(doc.pageCount).toBe(2);
    expect(doc.elements.map((e) => [e.type, e.page, e.text])).toEqual([
      ["Title", 1, "Sales"],
      ["Table", 1, "a b"],
      ["Title", 2, "销售"],
      ["Table", 2, "中文 数据"],
    ]);
    const all = await xlsxFormat.parse(bytes, formatContext({ engineParams: { include_hidden: true } }));
    expect(all.elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual(["Sales", "Secret", "销售"]);
  });

  it("honours page_range over sheets and refuses one beyond the workbook", async () => {
    const bytes = await workbook((wb) => {
      for (const n of ["A", "B", "C"]) wb.addWorksheet(n).addRow([n]);
    });
    const ctx = formatContext();
    ctx.pageRange = [{ from: 2, to: 3 }];
    expect((await xlsxFormat.parse(bytes, ctx)).elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual(["B", "C"]);
    ctx.pageRange = [{ from: 4, to: 4 }];
    expect(codeOf(await xlsxFormat.parse(bytes, ctx).catch((e: unknown) => e))).toBe(40424);
  });
});

describe("xlsx: cells", () => {
  it("shows typed values as Excel displays them", async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet("T");
      ws.addRow(["Item", "Date", "Amount", "Share", "Done", "Formula"]);
      const r = ws.addRow(["Widget", new Date(Date.UTC(2024, 2, 15)), 1234.5, 0.256, true, { formula: "C2*2", result: 2469 }]);
      r.getCell(2).numFmt = "yyyy-mm-dd";
      r.getCell(3).numFmt = "#,##0.00";
      r.getCell(4).numFmt = "0.0%";
      r.getCell(6).numFmt = '"$"#,##0';
      const r2 = ws.addRow(["Rich", new Date(Date.UTC(2024, 0, 5, 14, 30)), 0.5, 3, false, { text: "link", hyperlink: "http://x.test" }]);
      r2.getCell(1).value = { richText: [{ text: "Ri" }, { text: "ch", font: { bold: true } }] };
      r2.getCell(2).numFmt = "d-mmm-yy h:mm";
      // Built-in id 14 (the locale's short date), as exceljs names it.
      const r3 = ws.addRow(["Locale date", new Date(Date.UTC(2024, 11, 31))]);
      r3.getCell(2).numFmt = "mm-dd-yy";
    });
    const doc = await xlsxFormat.parse(bytes, formatContext());
    const cells = doc.elements[1]!.table!.cells;
    const at = (r: number, c: number) => cells.find((x) => x.row === r && x.col === c)?.text;
    expect([2, 3, 4, 5, 6].map((c) => at(2, c))).toEqual(["2024-03-15", "1,234.50", "25.6%", "TRUE", "$2,469"]);
    expect([1, 2, 3, 4, 5, 6].map((c) => at(3, c))).toEqual(["Rich", "5-Jan-24 14:30", "0.5", "3", "FALSE", "link"]);
    expect(at(4, 2)).toBe("2024-12-31");
  });

  it("turns merged ranges into spans, not repeated values, with the exact grid", async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet("M");
      ws.getCell("A1").value = "Region";
      ws.getCell("B1").value = "2023";
      ws.getCell("D1").value = "备注";
      ws.getCell("B2").value = "H1";
      ws.getCell("C2").value = "H2";
      ws.getCell("A3").value = "North";
      ws.getCell("B3").value = 10;
      ws.getCell("C3").value = 12;
      ws.getCell("D3").value = "ok";
      ws.mergeCells("A1:A2");
      ws.mergeCells("B1:C1");
      ws.mergeCells("D1:D2");
    });
    const doc = await xlsxFormat.parse(bytes, formatContext());
    expect(doc.elements[1]!.table).toEqual({
      rows: 3,
      cols: 4,
      headerRows: 1,
      cells: [
        { row: 1, col: 1, rowSpan: 2, text: "Region" },
        { row: 1, col: 2, colSpan: 2, text: "2023" },
        { row: 1, col: 4, rowSpan: 2, text: "备注" },
        { row: 2, col: 2, text: "H1" },
        { row: 2, col: 3, text: "H2" },
        { row: 3, col: 1, text: "North" },
        { row: 3, col: 2, text: "10" },
        { row: 3, col: 3, text: "12" },
        { row: 3, col: 4, text: "ok" },
      ],
    });
  });

  it("starts the table at the used range and applies row/column limits when asked", async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet("Big");
      for (let r = 3; r < 3 + 30; r++) for (let c = 2; c < 2 + 12; c++) ws.getCell(r, c).value = r * 100 + c;
    });
    const full = await xlsxFormat.parse(bytes, formatContext());
    const t = full.elements[1]!;
    expect([t.table!.rows, t.table!.cols, t.metadata?.range]).toEqual([30, 12, "B3:M32"]);
    const cut = await xlsxFormat.parse(bytes, formatContext({ engineParams: { max_sheet_rows: 20, max_sheet_cols: 10 } }));
    const c = cut.elements[1]!;
    expect([c.table!.rows, c.table!.cols, c.metadata?.truncated]).toEqual([20, 10, true]);
  });
});

describe("xlsx: bad input", () => {
  it("rejects a corrupt container and a bad option", async () => {
    expect(codeOf(await xlsxFormat.parse(new Uint8Array([1, 2, 3]), formatContext()).catch((e: unknown) => e))).toBe(40422);
    const ok = await workbook((wb) => wb.addWorksheet("x").addRow([1]));
    expect(codeOf(await xlsxFormat.parse(ok, formatContext({ engineParams: { max_sheet_rows: "lots" } })).catch((e: unknown) => e))).toBe(40004);
  });
});
