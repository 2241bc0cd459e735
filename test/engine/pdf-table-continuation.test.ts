import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { DraftDocument, DraftElement } from "../../src/engine/draft.js";
import { chromiumPdf, latexPdf, randomProse, writerPdf } from "../support/pdf-fixtures.js";
import { DEBIAN_PYTHON, missing, tempDir } from "../support/system.js";
import { ofType, parsePdf } from "./pdf-helpers.js";

// Tables that a page break cuts, as each writer prints them: the piece on the next page is
// a Table going on from the one before (its header repeated or not), however few rows the
// break carries over; a different table, or text, after a table ending a page is not.

const REGIONS = ["North", "South", "East", "West", "Central"];
const orders = (n: number): string[][] => Array.from({ length: n }, (_, k) => [`Order ${1000 + k}`, REGIONS[k % 5]!, `${((k * 37) % 900) + 100}.${String((k * 13) % 100).padStart(2, "0")}`]);
const rowsOf = (t: DraftElement): string[][] => Array.from({ length: t.table!.rows }, (_, r) => t.table!.cells.filter((c) => c.row === r + 1).map((c) => c.text));

/** The document's tables, each with the index of the element it goes on from. */
function tables(doc: DraftDocument): { e: DraftElement; i: number; from?: number }[] {
  return doc.elements.flatMap((e, i) => (e.type === "Table" ? [{ e, i, ...(e.continuationOf !== undefined ? { from: e.continuationOf } : {}) }] : []));
}

/** Expects `doc`'s tables to be one table across its pages: each piece goes on from the one before, the body rows all there. */
function expectOneTable(doc: DraftDocument, body: string[][], header = ["Order", "Region", "Amount"]): { e: DraftElement; i: number; from?: number }[] {
  const parts = tables(doc);
  expect(parts.length).toBeGreaterThanOrEqual(2);
  expect(parts[0]!.from).toBeUndefined();
  for (let k = 1; k < parts.length; k++) {
    expect(parts[k]!.from, `piece ${k + 1}`).toBe(parts[k - 1]!.i);
    expect(parts[k]!.e.page).toBe(parts[k - 1]!.e.page + 1);
    expect(parts[k]!.e.table!.cols).toBe(parts[0]!.e.table!.cols);
  }
  // A piece whose header is repeated keeps it as a header row; one without starts with a body row.
  const rows = parts.flatMap(({ e }) => {
    const all = rowsOf(e);
    const headed = (e.table!.headerRows ?? 1) > 0;
    expect(headed, `page ${e.page}`).toBe(all[0]!.join("|") === header.join("|"));
    return headed ? all.slice(1) : all;
  });
  expect(rows).toEqual(body);
  return parts;
}

describe.skipIf(missing("chromium"))("pdf: tables across page breaks printed by Chromium", () => {
  // Rows of a fixed 24 px; a spacer pushes the statement down so that its last row (or,
  // with `thead` repeated, the header and the last row) goes over to the next page.
  const STATEMENT = [
    ["Cash and cash equivalents", "12,400", "10,950"],
    ["Trade receivables", "8,310", "7,920"],
    ["Inventories", "5,120", "4,870"],
    ["Total current assets", "25,830", "23,740"],
    ["Property, plant and equipment", "41,200", "39,880"],
    ["Intangible assets", "3,450", "3,610"],
    ["Total assets", "70,480", "67,230"],
    ["Trade payables", "6,210", "5,980"],
    ["Borrowings", "18,000", "19,500"],
    ["Provisions", "1,240", "1,180"],
    ["Total liabilities", "25,450", "26,660"],
    ["Share capital", "10,000", "10,000"],
    ["Retained earnings", "35,030", "30,570"],
    ["Total equity", "45,030", "40,570"],
    ["Total equity and liabilities", "70,480", "67,230"],
  ];
  const statement = (style: string): string => `<!doctype html><html><head><meta charset="utf-8"><style>
@page{size:A4;margin:2cm} body{margin:0;font:11pt "DejaVu Serif",serif} table{border-collapse:collapse;width:100%}
td,th{padding:0 8px;height:24px;line-height:24px} td+td,th+th{text-align:right;width:20%} tr{break-inside:avoid} ${style}</style></head><body>
<div style="height:${971 - 24 * 15 - 12}px"><p style="margin:0">${randomProse(2, 40)}.</p></div>
<table><thead><tr><th style="text-align:left">EUR thousand</th><th>2025</th><th>2024</th></tr></thead><tbody>
${STATEMENT.map((r) => `<tr><td>${r.join("</td><td>")}</td></tr>`).join("")}</tbody></table><p>${randomProse(6, 60)}.</p></body></html>`;
  const orderTable = (n: number, from = 0): string =>
    `<table><tr><th>Order</th><th>Region</th><th style="text-align:right">Amount</th></tr>${orders(n + from)
      .slice(from)
      .map((r) => `<tr><td>${r[0]}</td><td>${r[1]}</td><td style="text-align:right">${r[2]}</td></tr>`)
      .join("")}</table>`;
  const products = `<table><tr><th>Product</th><th>Units</th><th style="text-align:right">Price</th></tr>${Array.from({ length: 30 }, (_, k) => `<tr><td>Product ${k}</td><td>${k * 3 + 1}</td><td style="text-align:right">${k * 7 + 9}.00</td></tr>`).join("")}</table>`;
  const people = `<table><tr><th>Name</th><th>Role</th></tr>${Array.from({ length: 30 }, (_, k) => `<tr><td>Person ${k}</td><td>Engineer</td></tr>`).join("")}</table>`;
  const broken = `<div style="break-before:page"></div>`;
  let unruled: DraftDocument;
  let ruled: DraftDocument;
  let repeated: DraftDocument;
  let others: DraftDocument;
  beforeAll(async () => {
    unruled = await parsePdf(await chromiumPdf(statement("thead{display:table-row-group}")));
    ruled = await parsePdf(await chromiumPdf(statement("thead{display:table-row-group} table{border-top:1px solid #000;border-bottom:1px solid #000} thead th{border-bottom:1px solid #000}")));
    repeated = await parsePdf(await chromiumPdf(statement("thead{display:table-header-group}")));
    // Tables reaching a page's foot, each followed overleaf by what does not go on from it.
    const page = `<!doctype html><html><head><meta charset="utf-8"><style>@page{size:A4;margin:2cm} body{font:11pt/1.4 "DejaVu Serif",serif} td,th{padding:3px 10px}</style></head><body>`;
    others = await parsePdf(
      await chromiumPdf(
        `${page}${orderTable(32)}${broken}${products}${broken}${people}${broken}<h2>Products</h2>${orderTable(30, 40)}${broken}<p><b>Table 4: Orders of May</b></p>${orderTable(30, 80)}${broken}<p>${randomProse(3, 80)}.</p></body></html>`,
      ),
    );
  }, 180_000);

  it("reads a statement's last row carried over alone as a Table going on from the statement, no header", () => {
    for (const doc of [unruled, ruled]) {
      const [head, tail] = tables(doc);
      expect(tables(doc)).toHaveLength(2);
      expect(rowsOf(tail!.e)).toEqual([["Total equity and liabilities", "70,480", "67,230"]]);
      expect([tail!.e.page, tail!.from, tail!.e.table!.headerRows]).toEqual([2, head!.i, 0]);
      expect(doc.elements.filter((e) => /^(?:70,480|67,230|Total equity and liabilities)$/.test(e.text))).toEqual([]);
    }
    expectOneTable(unruled, STATEMENT, ["EUR thousand", "2025", "2024"]);
  });

  it("keeps the header repeated over the last row a header row (table-header-group)", () => {
    const parts = expectOneTable(repeated, STATEMENT, ["EUR thousand", "2025", "2024"]);
    expect(parts.map(({ e }) => e.table!.headerRows ?? 1)).toEqual([1, 1]);
  });

  it("links no table ending a page to another with its own header and columns, or other columns, a table under a heading or caption, or a paragraph", () => {
    const parts = tables(others);
    expect(parts.map(({ e }) => [e.page, e.table!.cols, e.table!.headerRows ?? 1])).toEqual([
      [1, 3, 1],
      [2, 3, 1],
      [3, 2, 1],
      [4, 3, 1],
      [5, 3, 1],
    ]);
    expect(others.elements.filter((e) => e.continuationOf !== undefined)).toEqual([]);
    expect(ofType(others, "Title").map((e) => e.text)).toContain("Products");
  });
});

describe.skipIf(missing("pdflatex"))("pdf: a pdflatex longtable whose last rows go over", () => {
  // 150 words of prose leave room for 20 body rows on the first page.
  const longtable = (rows: number, spec: string, head: string, foot: string): string => String.raw`\documentclass[11pt]{article}
\usepackage{longtable}
\begin{document}
\section{Orders}
${randomProse(1, 150)}.
\begin{longtable}{${spec}}
${head} \endfirsthead
${foot}
${orders(rows)
  .map((r) => `${r.join(" & ")} \\\\`)
  .join("\n")}
\end{longtable}
${randomProse(5, 60)}.
\end{document}
`;
  let one: DraftDocument;
  let three: DraftDocument;
  beforeAll(async () => {
    one = await parsePdf(await latexPdf(longtable(21, "|l|l|r|", String.raw`\hline Order & Region & Amount \\ \hline`, String.raw`\hline \endfoot \hline \endlastfoot`)));
    three = await parsePdf(await latexPdf(longtable(23, "llr", String.raw`Order & Region & Amount \\`, "")));
  }, 120_000);

  it("reads the last row (ruled) and the last three rows (unruled) as a Table going on from the longtable, its columns cut apart", () => {
    expect(tables(one).map(({ e }) => e.table!.rows)).toEqual([21, 1]);
    expectOneTable(one, orders(21));
    expect(rowsOf(tables(three)[1]!.e)).toEqual(orders(23).slice(20));
    expectOneTable(three, orders(23));
  });
});

describe.skipIf(missing("soffice"))("pdf: a LibreOffice Writer table whose last rows go over", () => {
  const cell = (style: string, t: string): string => `<table:table-cell table:style-name="${style}" office:value-type="string"><text:p>${t}</text:p></table:table-cell>`;
  const row = (style: string, r: string[]): string => `<table:table-row>${r.map((t) => cell(style, t)).join("")}</table:table-row>`;
  // `repeat`: the header row is a heading row, repeated on every page.
  const table = (n: number, style: string, repeat = false): string =>
    `<text:p text:style-name="Standard">${randomProse(1, 120)}.</text:p><table:table table:name="Orders"><table:table-column table:number-columns-repeated="3"/>` +
    (repeat ? `<table:table-header-rows>${row(style, ["Order", "Region", "Amount"])}</table:table-header-rows>` : row(style, ["Order", "Region", "Amount"])) +
    orders(n)
      .map((r) => row(style, r))
      .join("") +
    `</table:table><text:p text:style-name="Standard">${randomProse(5, 60)}.</text:p>`;
  const styles = `<style:style style:name="Ruled" style:family="table-cell"><style:table-cell-properties fo:border="0.5pt solid #000000" fo:padding="0.08cm"/></style:style>
<style:style style:name="Plain" style:family="table-cell"><style:table-cell-properties fo:border="none" fo:padding="0.08cm"/></style:style>`;
  let plain: DraftDocument;
  let ruled: DraftDocument;
  let repeated: DraftDocument;
  beforeAll(async () => {
    // The first page holds 30 body rows.
    plain = await parsePdf(await writerPdf(table(31, "Plain"), styles));
    ruled = await parsePdf(await writerPdf(table(32, "Ruled"), styles));
    repeated = await parsePdf(await writerPdf(table(31, "Plain", true), styles));
  }, 180_000);

  it("reads the heading row repeated over the last row as the header of a Table going on from the table, no titles", () => {
    expect(tables(repeated).map(({ e }) => [e.table!.rows, e.table!.headerRows ?? 1])).toEqual([
      [31, 1],
      [2, 1],
    ]);
    expectOneTable(repeated, orders(31));
    expect(ofType(repeated, "Title")).toEqual([]);
  });

  it("reads the last row (no borders) and the last two (bordered) as a Table going on from the table", () => {
    expect(tables(plain).map(({ e }) => e.table!.rows)).toEqual([31, 1]);
    expectOneTable(plain, orders(31));
    expect(tables(ruled).map(({ e }) => e.table!.rows)).toEqual([31, 2]);
    expectOneTable(ruled, orders(32));
  });
});

describe.skipIf(missing("reportlab"))("pdf: a ReportLab LongTable whose last rows go over, under a running head", () => {
  // A running head and a page number on every page; 31 body rows fit the first page.
  const SCRIPT = String.raw`
import sys
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.platypus import SimpleDocTemplate, Paragraph, Spacer, LongTable, TableStyle
rows = [line.split("|") for line in sys.stdin.read().splitlines()]
styles = getSampleStyleSheet()
def furniture(c, doc):
    c.saveState(); c.setFont("Helvetica", 8)
    c.drawString(2 * cm, A4[1] - 1.2 * cm, "ACME Ltd - Quarterly orders report")
    c.drawRightString(A4[0] - 2 * cm, 1.2 * cm, "Page %d" % doc.page)
    c.restoreState()
prose = " ".join(["The quarterly figures were reviewed by the finance team and the regional managers before the report went out."] * 6)
doc = SimpleDocTemplate(sys.argv[1], pagesize=A4, topMargin=2 * cm, bottomMargin=2 * cm)
t = LongTable([["Order", "Region", "Amount"]] + rows, colWidths=[4 * cm, 4 * cm, 3 * cm], repeatRows=0)
t.setStyle(TableStyle([("ALIGN", (2, 0), (2, -1), "RIGHT"), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold")]))
doc.build([Paragraph("Orders", styles["Heading1"]), Paragraph(prose, styles["BodyText"]), Spacer(1, 12), t, Spacer(1, 12), Paragraph(prose, styles["BodyText"])], onFirstPage=furniture, onLaterPages=furniture)
`;
  let doc: DraftDocument;
  beforeAll(async () => {
    const dir = tempDir("reportlab-tail-");
    try {
      const out = join(dir.path, "orders.pdf");
      execFileSync(DEBIAN_PYTHON, ["-c", SCRIPT, out], { input: orders(33).map((r) => r.join("|")).join("\n"), stdio: ["pipe", "ignore", "ignore"], timeout: 60_000 });
      doc = await parsePdf(new Uint8Array(readFileSync(out)));
    } finally {
      dir.cleanup();
    }
  }, 120_000);

  it("reads the two rows after the running head as a Table going on from the table", () => {
    expect(ofType(doc, "Header").map((e) => e.page)).toEqual([1, 2]);
    expect(tables(doc).map(({ e }) => e.table!.rows)).toEqual([32, 2]);
    expectOneTable(doc, orders(33));
  });
});
