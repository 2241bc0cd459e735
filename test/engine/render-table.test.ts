import { describe, expect, it } from "vitest";
import { tablePlainText, tableToHtml, tableToMarkdown } from "../../src/engine/render-table.js";
import type { DraftTable } from "../../src/engine/draft.js";

const spanned: DraftTable = {
  rows: 3,
  cols: 3,
  headerRows: 1,
  cells: [
    { row: 1, col: 1, text: "Name", rowSpan: 1 },
    { row: 1, col: 2, text: "Q1 & Q2", colSpan: 2 },
    { row: 2, col: 1, text: "A", rowSpan: 2 },
    { row: 2, col: 2, text: "1" },
    { row: 2, col: 3, text: "2" },
    { row: 3, col: 2, text: "<3>" },
    { row: 3, col: 3, text: "a|b" },
  ],
};

describe("tableToHtml", () => {
  it("keeps row and column spans and escapes text", () => {
    expect(tableToHtml(spanned)).toBe(
      '<table><thead><tr><th>Name</th><th colspan="2">Q1 &amp; Q2</th></tr></thead><tbody><tr><td rowspan="2">A</td><td>1</td><td>2</td></tr><tr><td>&lt;3&gt;</td><td>a|b</td></tr></tbody></table>',
    );
  });

  it("writes no thead for a table without header rows", () => {
    expect(tableToHtml({ rows: 1, cols: 1, headerRows: 0, cells: [{ row: 1, col: 1, text: "x" }] })).toBe("<table><tbody><tr><td>x</td></tr></tbody></table>");
  });
});

describe("tableToMarkdown", () => {
  it("writes a GFM table, spans as empty cells, pipes escaped", () => {
    expect(tableToMarkdown(spanned)).toBe("| Name | Q1 & Q2 |  |\n| --- | --- | --- |\n| A | 1 | 2 |\n|  | <3> | a\\|b |");
  });
});

describe("tablePlainText", () => {
  it("joins cells by spaces and rows by newlines", () => {
    expect(tablePlainText(spanned)).toBe("Name Q1 & Q2\nA 1 2\n<3> a|b");
  });
});
