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

  it("grows the header over the rows a header cell spans down into, in HTML and in a pipe table", () => {
    const grouped: DraftTable = {
      rows: 3,
      cols: 3,
      cells: [
        { row: 1, col: 1, text: "Region", rowSpan: 2 },
        { row: 1, col: 2, text: "Q1", colSpan: 2 },
        { row: 2, col: 2, text: "Units" },
        { row: 2, col: 3, text: "Revenue" },
        { row: 3, col: 1, text: "North" },
        { row: 3, col: 2, text: "12" },
        { row: 3, col: 3, text: "340" },
      ],
    };
    expect(tableToHtml(grouped)).toBe(
      '<table><thead><tr><th rowspan="2">Region</th><th colspan="2">Q1</th></tr><tr><th>Units</th><th>Revenue</th></tr></thead><tbody><tr><td>North</td><td>12</td><td>340</td></tr></tbody></table>',
    );
    expect(tableToMarkdown(grouped)).toBe("| Region | Q1 Units | Revenue |\n| --- | --- | --- |\n| North | 12 | 340 |");
    // A first column spanning the whole table is no header over it.
    const side: DraftTable = { rows: 2, cols: 2, cells: [{ row: 1, col: 1, text: "All", rowSpan: 2 }, { row: 1, col: 2, text: "a" }, { row: 2, col: 2, text: "b" }] };
    expect(tableToHtml(side)).toBe('<table><thead><tr><th rowspan="2">All</th><th>a</th></tr></thead><tbody><tr><td>b</td></tr></tbody></table>');
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
