import { describe, expect, it } from "vitest";
import { taggedCells, type StructNode } from "../../../src/engine/formats/pdf-struct.js";
import { taggedTables } from "../../../src/engine/layout/tagged-tables.js";
import type { TaggedCell, TaggedTable, TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const content = (mcid: number, page = "4R"): StructNode => ({ type: "content", id: `p${page}_mc${mcid}` });
const cell = (role: "TD" | "TH", ids: number[], spans: Partial<Pick<StructNode, "colSpan" | "rowSpan">> = {}): StructNode => ({ role, children: ids.map((id) => content(id)), ...spans });
const row = (...cells: StructNode[]): StructNode => ({ role: "TR", children: cells });

describe("taggedCells: a structure tree's table cells by MCID", () => {
  it("places cells by the HTML table model: spans of the rows above take their columns", () => {
    const tree: StructNode = {
      role: "Root",
      children: [
        {
          role: "Table",
          children: [
            { role: "THead", children: [row(cell("TH", [0], { rowSpan: 2 }), cell("TH", [1], { colSpan: 2 })), row(cell("TH", [2]), cell("TH", [3]))] },
            { role: "TBody", children: [row(cell("TD", [4]), cell("TD", [5, 6]), cell("TD", [7]))] },
          ],
        },
      ],
    };
    const cells = taggedCells(tree, "4R");
    const at = (mcid: number) => {
      const c = cells.get(mcid)!;
      return [c.row, c.col, c.rowSpan, c.colSpan, c.head];
    };
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(at)).toEqual([
      [0, 0, 2, 1, true],
      [0, 1, 1, 2, true],
      [1, 1, 1, 1, true],
      [1, 2, 1, 1, true],
      [2, 0, 1, 1, false],
      [2, 1, 1, 1, false],
      [2, 1, 1, 1, false],
      [2, 2, 1, 1, false],
    ]);
    expect(cells.get(0)!.table).toEqual({ layout: false });
    expect(cells.get(5)).toBe(cells.get(6));
  });

  it("bounds what hostile spans mark: a cell spanning a million columns and rows takes a thousand", () => {
    const tree: StructNode = { role: "Root", children: [{ role: "Table", children: [row(cell("TD", [0], { colSpan: 1e6, rowSpan: 1e6 }), cell("TD", [1])), row(cell("TD", [2]))] }] };
    const cells = taggedCells(tree, "4R");
    expect([cells.get(0)!.colSpan, cells.get(0)!.rowSpan, cells.get(1)!.col, cells.get(2)!.col]).toEqual([1000, 2, 1000, 1000]);
  });

  it("ignores other pages' content and marks a table holding a table, a heading or a list as layout", () => {
    const inner: StructNode = { role: "Table", children: [row(cell("TD", [2]), cell("TD", [3])), row(cell("TD", [4]), cell("TD", [5]))] };
    const tree: StructNode = {
      role: "Root",
      children: [
        { role: "Table", children: [row(cell("TD", [0]), { role: "TD", children: [inner] }), row(cell("TD", [1]), { role: "TD", children: [content(9, "7R")] })] },
        { role: "Table", children: [row({ role: "TD", children: [{ role: "H2", children: [content(6)] }] }, cell("TD", [7]))] },
        { role: "Table", children: [row(cell("TH", [10]), { role: "TD", children: [{ role: "L", children: [{ role: "LI", children: [content(11)] }] }] })] },
      ],
    };
    const cells = taggedCells(tree, "4R");
    expect(cells.get(0)!.table.layout).toBe(true);
    expect(cells.get(2)!.table.layout).toBe(false);
    expect([cells.get(5)!.row, cells.get(5)!.col]).toEqual([1, 1]);
    expect(cells.get(6)!.table.layout).toBe(true);
    expect(cells.get(10)!.table.layout).toBe(true);
    expect(cells.has(9)).toBe(false);
  });

  it("keeps a table our tables-only tree marks as layout", () => {
    const cells = taggedCells({ role: "Root", tablesOnly: true, children: [{ role: "Table", layout: true, children: [row(cell("TD", [0]), cell("TD", [1]))] }] }, "4R");
    expect(cells.get(0)!.table.layout).toBe(true);
  });
});

/** Runs of a table's cells: `rows` of [text, x] per cell, 14 pt apart from `top`. */
function tableRuns(shape: TaggedTable, rows: ([string, number] | null)[][], top = 100): TextRun[] {
  const runs: TextRun[] = [];
  rows.forEach((cells, r) => {
    let c = 0;
    for (const spec of cells) {
      if (spec) {
        const tag: TaggedCell = { table: shape, row: r, col: c, rowSpan: 1, colSpan: 1, head: r === 0 };
        runs.push(run(spec[0], spec[1], top + 14 * r, { cell: tag }));
      }
      c++;
    }
  });
  return runs;
}

describe("taggedTables: tables a tagged PDF declares", () => {
  it("builds a table from cells a word space apart, with a cell's words together", () => {
    const shape: TaggedTable = { layout: false };
    const runs = tableRuns(shape, [
      [["Region", 72], ["Q1", 128], ["Q2", 158]],
      [["North East", 72], ["1,200", 128], ["1,350", 158]],
      [["West", 72], ["870", 128], ["920", 158]],
    ]);
    const used = new Set<TextRun>();
    const [table, ...rest] = taggedTables(runs, used);
    expect(rest).toEqual([]);
    expect(table!.cells.map((c) => [c.row, c.col, c.text])).toEqual([
      [1, 1, "Region"],
      [1, 2, "Q1"],
      [1, 3, "Q2"],
      [2, 1, "North East"],
      [2, 2, "1,200"],
      [2, 3, "1,350"],
      [3, 1, "West"],
      [3, 2, "870"],
      [3, 3, "920"],
    ]);
    expect(used.size).toBe(runs.length);
  });

  it("puts the cells of a row that left an empty cell out in the columns they stand in", () => {
    const shape: TaggedTable = { layout: false };
    const runs = tableRuns(shape, [
      [["Site", 72], ["March", 140], ["April", 200]],
      [["Weir", 72], ["12.4", 140], ["11.9", 200]],
      // Chromium writes no TD for an empty cell: April's figure comes second.
      [["Mill", 72], ["9.8", 200]],
    ]);
    const [table] = taggedTables(runs, new Set());
    expect(table!.cells.filter((c) => c.row === 3).map((c) => [c.col, c.text])).toEqual([
      [1, "Mill"],
      [2, ""],
      [3, "9.8"],
    ]);
  });

  it("leaves layout tables, tables a ruled table took words of, tables of one column and long passages to the page", () => {
    const layout = tableRuns({ layout: true }, [
      [["News", 72], ["Events", 200]],
      [["One", 72], ["Two", 200]],
    ]);
    expect(taggedTables(layout, new Set())).toEqual([]);
    const ruled = tableRuns({ layout: false }, [
      [["A", 72], ["B", 200]],
      [["C", 72], ["D", 200]],
    ]);
    expect(taggedTables(ruled, new Set([ruled[0]!]))).toEqual([]);
    const column = tableRuns({ layout: false }, [[["A", 72]], [["B", 72]]]);
    expect(taggedTables(column, new Set())).toEqual([]);
    const passage = tableRuns({ layout: false }, [
      [["Intro", 72], [Array.from({ length: 70 }, (_, i) => `word${i}`).join(" "), 200]],
      [["C", 72], ["D", 200]],
    ]);
    expect(taggedTables(passage, new Set())).toEqual([]);
  });

  it("leaves paragraphs set side by side in cells to the page, and heads a table without header cells only by a bold first row", () => {
    const blurb = (name: string) => `${name}. We help small firms plan their move to the cloud, from the first audit to the last.`;
    const blurbs = tableRuns({ layout: false }, [
      [[blurb("Consulting"), 72], [blurb("Support"), 400]],
      [[blurb("Training"), 72], [blurb("Audits"), 400]],
    ]);
    expect(taggedTables(blurbs, new Set())).toEqual([]);
    const plain = tableRuns({ layout: false }, [
      [["2019", 72], ["Senior engineer", 200]],
      [["2015", 72], ["Engineer", 200]],
    ]);
    for (const r of plain) r.cell = { ...r.cell!, head: false };
    expect(taggedTables(plain, new Set())[0]!.headerRows).toBe(0);
    const bold = tableRuns({ layout: false }, [
      [["Year", 72], ["Role", 200]],
      [["2015", 72], ["Engineer", 200]],
    ]);
    for (const r of bold) r.cell = { ...r.cell!, head: false };
    for (const r of bold.slice(0, 2)) r.bold = true;
    expect(taggedTables(bold, new Set())[0]!.headerRows).toBeUndefined();
  });

  it("does not build a grid from rows tagged out of their drawn order", () => {
    const shape: TaggedTable = { layout: false };
    const runs = tableRuns(shape, [
      [["A", 72], ["B", 200]],
      [["C", 72], ["D", 200]],
    ]);
    // The first tagged row is drawn below the second.
    for (const r of runs.slice(0, 2)) [r.y0, r.y1] = [r.y0 + 40, r.y1 + 40];
    expect(taggedTables(runs, new Set())).toEqual([]);
  });
});
