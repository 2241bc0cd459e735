import { beforeAll, describe, expect, it } from "vitest";
import type { DraftDocument } from "../../src/engine/draft.js";
import { popplerWords, reportlabPdfs, type ReportLabDocuments } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { expectInReadingOrder, ofType, parsePdf, wordsNotHeld } from "./pdf-helpers.js";

// Documents written by ReportLab (Debian's python3-reportlab), the library behind many
// generated reports and invoices: `test/support/reportlab-documents.py`.
describe.skipIf(missing("reportlab", "pdftotext"))("pdf: documents written by ReportLab", () => {
  let files: ReportLabDocuments;
  const docs: Partial<Record<keyof ReportLabDocuments, DraftDocument>> = {};
  beforeAll(async () => {
    files = await reportlabPdfs();
    for (const name of ["report", "twocol", "invoice", "charts"] as const) docs[name] = await parsePdf(files[name]);
  }, 120_000);
  const texts = (doc: DraftDocument, type: string): string[] => ofType(doc, type).map((e) => e.text);

  it("reads ListFlowable bullets and numbers with their items, a tab after the marker", () => {
    const doc = docs.report!;
    expect(texts(doc, "ListItem")).toEqual([
      "• Revenue rose 12 percent to 48.2 million euros.",
      "• Operating margin was 14.1 percent, up from 13.2 percent a year earlier, thanks to lower freight costs and better prices on the long contracts signed in the spring.",
      "• Headcount grew by 35 to 1,204 employees.",
      "1 Closed the Lyon warehouse and moved its stock to Paris.",
      "2 Signed a three-year energy contract at a fixed price.",
      "3 Opened a sales office in Milan.",
    ]);
  });

  it("keeps a table cut after its first row by a page break whole across the break, and long tables continued", () => {
    const doc = docs.report!;
    const tables = doc.elements.map((e, i) => ({ e, i })).filter(({ e }) => e.type === "Table");
    // The chart's plot area (gridlines, no word inside) is no table.
    expect(tables.every(({ e }) => e.text.trim() !== "")).toBe(true);
    const head = tables.find(({ e }) => e.text.startsWith("Product line"))!;
    expect(head.e.page).toBe(1);
    expect(head.e.table!.cells.map((c) => c.text)).toEqual(["Product line", "Units", "Share", "Change", "Line A", "1000", "5%", "+0.0%"]);
    const caption = ofType(doc, "TableCaption").find((c) => c.text.startsWith("Table 2"))!;
    expect(caption.refIndex).toBe(head.i);
    const rest = tables.find(({ e }) => e.text.startsWith("Line B"))!;
    expect([rest.e.page, rest.e.continuationOf, rest.e.table!.headerRows]).toEqual([2, head.i, 0]);
    // The customer list repeats its header on pages 3 and 4: continued, header kept.
    const customers = tables.filter(({ e }) => e.text.startsWith("# Customer"));
    expect(customers.map(({ e }) => [e.page, e.table!.headerRows])).toEqual([
      [2, 1],
      [3, 1],
      [4, 1],
    ]);
    expect(customers.slice(1).map(({ e }, k) => e.continuationOf === customers[k]!.i)).toEqual([true, true]);
    expect(customers.reduce((n, { e }) => n + e.table!.rows - 1, 0)).toBe(70);
  });

  it("keeps a listing whole across its blank line", () => {
    expect(texts(docs.report!, "CodeSnippet")).toEqual(["def forecast(q):\n    return q * 1.04\n\nprint(forecast(48.2))"]);
  });

  it("reads the bar chart (a vector drawing) as one Image holding its axis labels, with its caption", () => {
    const doc = docs.report!;
    expect(texts(doc, "Image")).toEqual(["14 13 12 11 Q1 Q2 Q3 Q4"]);
    const caption = ofType(doc, "FigureCaption")[0]!;
    expect(doc.elements[caption.refIndex!]!.type).toBe("Image");
    expect(doc.elements.filter((e) => e.type === "NarrativeText" && /^(?:1[1-4]|Q[1-4])$/.test(e.text))).toEqual([]);
  });

  it("reads a pie chart with its legend and a bar chart over its gridlines as Images, not a table", () => {
    const doc = docs.charts!;
    expect(ofType(doc, "Table")).toEqual([]);
    const [pie, bars] = ofType(doc, "Image");
    for (const label of ["PDF", "Word", "HTML", "Scans", "PDF 40%", "Word 25%", "HTML 20%"]) expect(pie!.text.split(/(?<=\S) (?=[A-Z])/)).toContain(label);
    // (ReportLab sets the short bar's label `12` against its category, `Parsing12`.)
    for (const label of ["Chunking", "Embedding", "22", "30"]) expect(bars!.text.split(" ")).toContain(label);
    expect(bars!.text).toContain("Parsing");
    expect(ofType(doc, "NarrativeText").every((e) => e.text.startsWith("The chart shows"))).toBe(true);
    expect(ofType(doc, "FigureCaption").map((c) => doc.elements[c.refIndex!]!.type)).toEqual(["Image", "Image"]);
  });

  it("reads a column that runs on below a shorter one before it, and links text across column breaks", () => {
    const doc = docs.twocol!;
    const page2 = doc.elements.filter((e) => e.page === 2 && (e.type === "NarrativeText" || e.type === "Title"));
    // The right column holds only the end of 5.3.
    expect(page2.map((e) => e.text.slice(0, 14))).toEqual([
      "Paragraph 4.1.",
      "Paragraph 4.2.",
      "Paragraph 4.3.",
      "5. Section 5",
      "Paragraph 5.1.",
      "Paragraph 5.2.",
      "Paragraph 5.3.",
      "region held st",
    ]);
    const tail = doc.elements.findIndex((e) => e.page === 2 && e.text.startsWith("region held steady"));
    expect(doc.elements[doc.elements[tail]!.continuationOf!]!.text).toMatch(/^Paragraph 5\.3\./);
    expectInReadingOrder(doc, ["Field Notes on Soil Moisture", "1. Section 1", "Paragraph 1.1.", "Paragraph 2.2.", "Paragraph 2.3.", "3. Section 3", "Paragraph 4.1."]);
  });

  it("reads an invoice's letterhead as titles, its details and items as tables, each total as its label and amount", () => {
    const doc = docs.invoice!;
    expect(texts(doc, "Title").slice(0, 2)).toEqual(["ACME Supplies Ltd", "INVOICE"]);
    const [details, items] = ofType(doc, "Table").map((e) => e.table!);
    expect(details!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["12 Harbour Road", "Invoice no.", "INV-2026-0147"]);
    expect(items!.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(["Steel brackets, 40 mm", "250", "0.84", "210.00"]);
    // The items are the drawn table's seven rows; the totals under it, drawn apart, are a line each.
    expect(items!.rows).toBe(7);
    expect(doc.elements.filter((e) => /^(?:Subtotal|VAT 20%|Total due) /.test(e.text)).map((e) => [e.type, e.text])).toEqual([
      ["NarrativeText", "Subtotal 783.50 GBP"],
      ["NarrativeText", "VAT 20% 156.70 GBP"],
      ["NarrativeText", "Total due 940.20 GBP"],
    ]);
  });

  it("puts every word poppler finds inside an element holding it", async () => {
    for (const name of ["report", "twocol", "invoice", "charts"] as const) {
      expect(wordsNotHeld(docs[name]!, await popplerWords(files[name])), name).toEqual([]);
    }
  });
});
