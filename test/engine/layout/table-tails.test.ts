import { describe, expect, it } from "vitest";
import { compactLayout } from "../../../src/engine/formats/pdf-page.js";
import { buildBlocks, buildLines, classifyBlocks, finishDocument, type Block, type GridCell, type GridTable, type PageLayout, type TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

function page(number: number, runs: TextRun[]): PageLayout {
  const blocks = buildBlocks(buildLines(runs));
  classifyBlocks(blocks);
  blocks.sort((a, b) => a.y0 - b.y0);
  return { number, width: 600, height: 800, blocks };
}

/** A table ending at `bottom` on its page, its columns' slots at 50–250, 250–400, 400–460 (or `slots`). */
function tableBlock(rows: string[][], bottom: number, slots: [number, number][] = [[50, 250], [250, 400], [400, 460]]): Block {
  const top = bottom - 14 * rows.length;
  const cells: GridCell[] = rows.flatMap((row, r) => row.map((text, c) => ({ row: r + 1, col: c + 1, rowSpan: 1, colSpan: 1, text, x0: slots[c]![0], x1: slots[c]![1], y0: top + 14 * r, y1: top + 14 * r + 12 })));
  const table: GridTable = { x0: slots[0]![0], y0: top, x1: slots[slots.length - 1]![1], y1: bottom, rows: rows.length, cols: slots.length, cells };
  return { ...table, lines: [], text: rows.map((r) => r.join(" ")).join("\n"), fontSize: 0, bold: false, mono: false, kind: "table", table };
}

const statement = [
  ["EUR thousand", "2025", "2024"],
  ["Share capital", "10,000", "10,000"],
  ["Retained earnings", "35,030", "30,570"],
  ["Total equity", "45,030", "40,570"],
];
const prose = "The notes on the following pages form part of these financial statements and explain them.";
/** Page 1: a paragraph, then the statement down to the page's foot. */
const first = (): PageLayout => {
  const p = page(1, [run("Body text of the page, long enough to read as a paragraph of prose.", 50, 100)]);
  p.blocks.push(tableBlock(statement, 740));
  return p;
};
const kinds = (laid: ReturnType<typeof finishDocument>): [number, string][] => laid.map((l) => [l.page, l.block.kind]);

describe("finishDocument: a table's last rows carried onto the next page", () => {
  it("makes a statement's last row opening the next page a table continuing the statement, no header", () => {
    const tail = [run("Total equity and liabilities", 50, 60, { bold: true }), run("70,480", 300, 60, { bold: true }), run("67,230", 420, 60, { bold: true })];
    const laid = finishDocument([first(), page(2, [...tail, run(prose, 50, 100)])]);
    expect(kinds(laid)).toEqual([
      [1, "text"],
      [1, "table"],
      [2, "table"],
      [2, "text"],
    ]);
    const t = laid[2]!.block.table!;
    expect(t.cells.map((c) => [c.row, c.col, c.text])).toEqual([
      [1, 1, "Total equity and liabilities"],
      [1, 2, "70,480"],
      [1, 3, "67,230"],
    ]);
    expect([laid[2]!.continuationOf, t.headerRows]).toEqual([1, 0]);
    // As wide as the statement: its left edge lines up.
    expect([laid[2]!.block.x0, laid[2]!.block.x1]).toEqual([50, 460]);
  });

  it("looks past the footnotes under the table to the page's foot", () => {
    const p = first();
    p.blocks.forEach((b) => b.kind === "table" && Object.assign(b, { y0: b.y0 - 40, y1: b.y1 - 40 }));
    p.blocks.push(...page(1, [run("1 Restated for the change in accounting policy set out in note 2.", 50, 740, { fontSize: 7 })]).blocks);
    const tail = [run("Total equity and liabilities", 50, 60), run("70,480", 300, 60), run("67,230", 420, 60)];
    const laid = finishDocument([p, page(2, [...tail, run(prose, 50, 100)])]);
    expect(kinds(laid)).toEqual([
      [1, "text"],
      [1, "table"],
      [1, "text"],
      [2, "table"],
      [2, "text"],
    ]);
    expect(laid[3]!.continuationOf).toBe(1);
  });

  it("cuts rows from lines that run two columns together (pdflatex's tight columns), past a running head", () => {
    const slots: [number, number][] = [
      [50, 104],
      [104, 150],
      [150, 200],
    ];
    const prev: PageLayout = { number: 1, width: 600, height: 800, blocks: [tableBlock([["Order", "Region", "Amount"], ["Order 1018", "South", "803.47"], ["Order 1019", "East", "840.60"]], 740, slots)] };
    // `Order 1020 North` one line, the amounts another block: as page layout reads them.
    const tail = (top: number, order: string, region: string, amount: string): TextRun[] => [run(order, 50, top), run(region, 106, top), run(amount, 168, top)];
    const runs = [run("ACME Ltd - Quarterly orders", 50, 20, { fontSize: 8 }), ...tail(60, "Order 1020", "North", "877.73"), ...tail(72, "Order 1021", "South", "914.86"), run(prose, 50, 110)];
    const next = page(2, runs);
    next.blocks[0]!.kind = "header";
    for (const laid of [finishDocument([prev, next]), finishDocument([prev, next].map((p) => compactLayout({ ...p, rotate: 0 })))]) {
      expect(kinds(laid)).toEqual([
        [1, "table"],
        [2, "header"],
        [2, "table"],
        [2, "text"],
      ]);
      const t = laid[2]!.block.table!;
      expect(Array.from({ length: t.rows }, (_, r) => t.cells.filter((c) => c.row === r + 1).map((c) => c.text))).toEqual([
        ["Order 1020", "North", "877.73"],
        ["Order 1021", "South", "914.86"],
      ]);
      expect(laid[2]!.continuationOf).toBe(0);
    }
  });

  it("keeps a header repeated over the last row, and leaves what is not the table's rows alone", () => {
    const repeated = [run("EUR thousand", 50, 90, { bold: true }), run("2025", 300, 90, { bold: true }), run("2024", 420, 90, { bold: true }), run("Total equity and liabilities", 50, 104), run("70,480", 300, 104), run("67,230", 420, 104)];
    const laid = finishDocument([first(), page(2, [...repeated, run(prose, 50, 140)])]);
    expect(laid[2]!.block.table!.rows).toBe(2);
    expect([laid[2]!.continuationOf, laid[2]!.block.table!.headerRows]).toEqual([1, undefined]);
    const none = (runs: TextRun[], prev = first()): void => {
      const out = finishDocument([prev, page(2, runs)]);
      expect(out.filter((l) => l.page === 2).map((l) => l.block.kind)).not.toContain("table");
      expect(out.every((l) => l.continuationOf === undefined)).toBe(true);
    };
    // A paragraph; a heading over the next section; a signature's words under figures.
    none([run(prose, 50, 60)]);
    none([run("Notes to the accounts", 50, 60, { bold: true, fontSize: 14 }), run(prose, 50, 90)]);
    none([run("Approved by", 50, 60), run("Jane Doe", 300, 60), run("John Roe", 420, 60), run(prose, 50, 90)]);
    // A row beside other text; a table that ended high up its page.
    none([run("Total equity and liabilities", 50, 60), run("70,480", 300, 60), run("67,230", 420, 60), run("Signed", 520, 60)]);
    const high: PageLayout = { number: 1, width: 600, height: 800, blocks: [tableBlock(statement, 300)] };
    none([run("Total equity and liabilities", 50, 60), run("70,480", 300, 60), run("67,230", 420, 60), run(prose, 50, 90)], high);
  });
});
