import { describe, expect, it } from "vitest";
import { chromiumPdf, rawPdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import type { DraftTable } from "../../src/engine/draft.js";
import { parsePdf } from "./pdf-helpers.js";

// Tagged PDFs (Chromium prints them; Word and LibreOffice with tagging on) declare their
// tables' cells in the structure tree: a compact table with no rules is read by its tags.

const page = (body: string): string => `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body{font-family:"DejaVu Sans";font-size:10pt;margin:2cm} td,th{padding:1px 6px;text-align:left} h2{font-size:13pt}
</style></head><body>${body}</body></html>`;

const cellsOf = (table: DraftTable) => table.cells.map((c) => [c.row, c.col, c.rowSpan ?? 1, c.colSpan ?? 1, c.text]);

describe.skipIf(missing("chromium"))("pdf: tables a tagged PDF declares (Chromium)", () => {
  it("reads a compact table without rules cell by cell, spans, header rows and an empty cell kept", async () => {
    const doc = await parsePdf(
      await chromiumPdf(
        page(`<p>Water quality results for the March sampling round are listed below.</p>
<table><tr><th rowspan=2>Site</th><th colspan=2>Nitrate (mg/l)</th><th>Iron</th></tr>
<tr><th>March</th><th>April</th><th>mg/l</th></tr>
<tr><td>Weir Road</td><td>12.4</td><td>11.9</td><td>0.05</td></tr>
<tr><td>Mill Lane</td><td></td><td>9.8</td><td>0.02</td></tr>
<tr><td>Church Street pumping station</td><td>8.1</td><td>8.3</td><td>0.11</td></tr></table>
<p>All sites met the drinking water standard.</p>`),
      ),
    );
    expect(doc.elements.map((e) => e.type)).toEqual(["NarrativeText", "Table", "NarrativeText"]);
    const table = doc.elements[1]!.table!;
    expect([table.rows, table.cols, table.headerRows]).toEqual([5, 4, 2]);
    expect(cellsOf(table)).toEqual([
      [1, 1, 2, 1, "Site"],
      [1, 2, 1, 2, "Nitrate (mg/l)"],
      [1, 4, 1, 1, "Iron"],
      [2, 2, 1, 1, "March"],
      [2, 3, 1, 1, "April"],
      [2, 4, 1, 1, "mg/l"],
      [3, 1, 1, 1, "Weir Road"],
      [3, 2, 1, 1, "12.4"],
      [3, 3, 1, 1, "11.9"],
      [3, 4, 1, 1, "0.05"],
      [4, 1, 1, 1, "Mill Lane"],
      [4, 2, 1, 1, ""],
      [4, 3, 1, 1, "9.8"],
      [4, 4, 1, 1, "0.02"],
      [5, 1, 1, 1, "Church Street pumping station"],
      [5, 2, 1, 1, "8.1"],
      [5, 3, 1, 1, "8.3"],
      [5, 4, 1, 1, "0.11"],
    ]);
  }, 60_000);

  it("reads a table set out for layout (headings in its cells) as the text it holds, and a data table inside one as a table", async () => {
    const doc = await parsePdf(
      await chromiumPdf(
        page(`<table><tr><td style="width:45%;vertical-align:top"><h2>Library news</h2><p>The reading room reopens on Monday after the winter works.</p></td>
<td style="vertical-align:top"><h2>Opening hours</h2><table><tr><th>Day</th><th>Hours</th></tr><tr><td>Monday</td><td>9–17</td></tr><tr><td>Tuesday</td><td>9–20</td></tr><tr><td>Saturday</td><td>10–13</td></tr></table></td></tr></table>`),
      ),
    );
    const titles = doc.elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toEqual(["Library news", "Opening hours"]);
    const tables = doc.elements.filter((e) => e.type === "Table");
    expect(tables.map((t) => cellsOf(t.table!).map((c) => c[4]))).toEqual([["Day", "Hours", "Monday", "9–17", "Tuesday", "9–20", "Saturday", "10–13"]]);
    expect(doc.elements.find((e) => e.text.startsWith("The reading room"))?.type).toBe("NarrativeText");
  }, 60_000);
});

/** A table cell of {@link taggedPage}: its text at (x, baseline y), its role, attributes, and a heading it is wrapped in. */
interface RawCell {
  text: string;
  x: number;
  y: number;
  role: "TD" | "TH";
  attributes?: string;
  heading?: boolean;
}

/**
 * A page tagged the way Word writes it: attributes as one dictionary (`/A << /O /Table
 * /ColSpan 2 >>`), rows under THead (those of `head` rows) and TBody, each cell's content
 * marked with its MCID. Helvetica 10 pt, a paragraph above the table.
 */
function taggedPage(rows: RawCell[][], head: number): Uint8Array {
  const cells = rows.flat();
  const content = ["BT /F1 10 Tf 72 730 Td (Prices per box, before discount.) Tj ET"];
  cells.forEach((c, mcid) => content.push(`/${c.heading ? "H1" : c.role} <</MCID ${mcid}>> BDC BT /F1 10 Tf ${c.x} ${c.y} Td (${c.text}) Tj ET EMC`));
  // Objects: 1 catalog, 2 pages, 3 page, 4 contents, 5 font, 6 root, 7 table, 8 thead,
  // 9 tbody, then the rows, the cells, and the headings.
  const rowObj = (r: number) => 10 + r;
  const cellObj = (i: number) => 10 + rows.length + i;
  const headingObj = (i: number) => 10 + rows.length + cells.length + i;
  const owner = (i: number) => (cells[i]!.heading ? headingObj(i) : cellObj(i));
  const refs = (ns: number[]) => ns.map((n) => `${n} 0 R`).join(" ");
  let k = 0;
  const rowCells = rows.map((row) => row.map(() => k++));
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 6 0 R /MarkInfo << /Marked true >> >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /StructParents 0 >>",
    { dict: "", data: content.join("\n") },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Type /StructTreeRoot /K [7 0 R] /ParentTree << /Nums [0 [${refs(cells.map((_, i) => owner(i)))}]] >> /ParentTreeNextKey 1 >>`,
    "<< /Type /StructElem /S /Table /P 6 0 R /K [8 0 R 9 0 R] >>",
    `<< /Type /StructElem /S /THead /P 7 0 R /K [${refs(rows.slice(0, head).map((_, r) => rowObj(r)))}] >>`,
    `<< /Type /StructElem /S /TBody /P 7 0 R /K [${refs(rows.slice(head).map((_, r) => rowObj(head + r)))}] >>`,
    ...rowCells.map((ids, r) => `<< /Type /StructElem /S /TR /P ${r < head ? 8 : 9} 0 R /K [${refs(ids.map(cellObj))}] >>`),
    ...cells.map((c, i) => {
      const r = rowCells.findIndex((ids) => ids.includes(i));
      return `<< /Type /StructElem /S /${c.role} /P ${rowObj(r)} 0 R /Pg 3 0 R /K ${c.heading ? `${headingObj(i)} 0 R` : i} ${c.attributes ?? ""} >>`;
    }),
    ...cells.map((c, i) => (c.heading ? `<< /Type /StructElem /S /H1 /P ${cellObj(i)} 0 R /Pg 3 0 R /K ${i} >>` : "<< >>")),
  ]);
}

const cellAt = (text: string, x: number, y: number, role: "TD" | "TH" = "TD", more: Partial<RawCell> = {}): RawCell => ({ text, x, y, role, ...more });

describe("pdf: tables tagged the way Word writes them", () => {
  it("reads cells, spans and header rows from the tags, a cell's words a wide gap apart kept together", async () => {
    const bytes = taggedPage(
      [
        [cellAt("Item", 72, 700, "TH", { attributes: "/A << /O /Table /RowSpan 2 >>" }), cellAt("Cost per box", 200, 700, "TH", { attributes: "/A << /O /Table /ColSpan 2 >>" })],
        [cellAt("Net", 200, 688, "TH"), cellAt("Tax", 260, 688, "TH")],
        [cellAt("Ink         black", 72, 676), cellAt("4.00", 200, 676), cellAt("0.80", 260, 676)],
        [cellAt("Paper", 72, 664), cellAt("2.50", 200, 664), cellAt("0.50", 260, 664)],
      ],
      2,
    );
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => e.type)).toEqual(["NarrativeText", "Table"]);
    const table = doc.elements[1]!.table!;
    expect([table.rows, table.cols, table.headerRows]).toEqual([4, 3, 2]);
    expect(cellsOf(table)).toEqual([
      [1, 1, 2, 1, "Item"],
      [1, 2, 1, 2, "Cost per box"],
      [2, 2, 1, 1, "Net"],
      [2, 3, 1, 1, "Tax"],
      [3, 1, 1, 1, "Ink black"],
      [3, 2, 1, 1, "4.00"],
      [3, 3, 1, 1, "0.80"],
      [4, 1, 1, 1, "Paper"],
      [4, 2, 1, 1, "2.50"],
      [4, 3, 1, 1, "0.50"],
    ]);
  });

  it("does not read a table whose cells hold headings (a page set out in a table) as one", async () => {
    const bytes = taggedPage(
      [
        [cellAt("Opening", 72, 700, "TD", { heading: true }), cellAt("Events", 300, 700, "TD", { heading: true })],
        [cellAt("Open daily from nine.", 72, 686), cellAt("Talks every Friday.", 300, 686)],
        [cellAt("Closed on holidays.", 72, 674), cellAt("Booking opens soon.", 300, 674)],
      ],
      0,
    );
    const doc = await parsePdf(bytes);
    expect(doc.elements.some((e) => e.type === "Table")).toBe(false);
  });
});
