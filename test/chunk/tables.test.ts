import { describe, expect, it } from "vitest";
import { chunkDocument } from "../../src/chunk/chunk-document.js";
import { toNodes } from "../../src/chunk/nodes.js";
import { renderTable, rowBoundaries, splitTable, tableModel } from "../../src/chunk/tables.js";
import { approximateTokenizer, cl100kTokenizer } from "../../src/chunk/tokenizer.js";
import type { Element, TableCell } from "../../src/wire/index.js";
import { box, el, result } from "./support/elements.js";

const noWarn = () => {};
const model = (element: Element) => tableModel(toNodes([element], noWarn)[0]!, noWarn);
const cell = (row: number, col: number, text: string, extra: Partial<TableCell> = {}): TableCell => ({ row, col, text, ...extra });

describe("tableModel from table_structure", () => {
  const spans = el("Table", "Name Value\nalpha 1\n2", {
    table_structure: {
      rows: 3,
      cols: 2,
      cells: [cell(1, 1, "Name"), cell(1, 2, "Value"), cell(2, 1, "alpha", { row_span: 2 }), cell(2, 2, "1"), cell(3, 2, "2")],
    },
  });

  it("renders HTML with rowspan/colspan and header cells", () => {
    const m = model(spans);
    expect(m.headerRows).toBe(1);
    expect(renderTable(m, 1, 3, "html")).toBe(
      '<table><tr><th>Name</th><th>Value</th></tr><tr><td rowspan="2">alpha</td><td>1</td></tr><tr><td>2</td></tr></table>',
    );
  });

  it("renders Markdown with span-covered cells filled by their cell's text", () => {
    expect(renderTable(model(spans), 1, 3, "markdown")).toBe("| Name | Value |\n| --- | --- |\n| alpha | 1 |\n| alpha | 2 |");
  });

  it("never splits inside a row span", () => {
    const ok = rowBoundaries(model(spans));
    expect(ok).toEqual([true, true, false, true]);
  });

  it("treats a header cell spanning two rows as two header rows", () => {
    const m = model(
      el("Table", "", {
        table_structure: {
          rows: 4,
          cols: 2,
          cells: [cell(1, 1, "Region", { row_span: 2 }), cell(1, 2, "Sales"), cell(2, 2, "2026"), cell(3, 1, "EU"), cell(3, 2, "1"), cell(4, 1, "US"), cell(4, 2, "2")],
        },
      }),
    );
    expect(m.headerRows).toBe(2);
  });

  it("escapes HTML and Markdown in cell text", () => {
    const m = model(el("Table", "", { table_structure: { rows: 2, cols: 1, cells: [cell(1, 1, "a|b"), cell(2, 1, "<x> & y")] } }));
    expect(renderTable(m, 1, 2, "html")).toContain("<td>&lt;x&gt; &amp; y</td>");
    expect(renderTable(m, 1, 2, "markdown")).toContain("a\\|b");
  });

  it("drops overlapping cells with a warning and survives cells outside the declared size", () => {
    const warnings: string[] = [];
    const node = toNodes([el("Table", "t", { table_structure: { rows: 1, cols: 1, cells: [cell(1, 1, "a"), cell(1, 1, "dup"), cell(3, 4, "far")] } })], noWarn)[0]!;
    const m = tableModel(node, (w) => warnings.push(w.code));
    expect(warnings).toEqual(["table_cells_overlap"]);
    expect(m.rows).toHaveLength(3);
    expect(m.cols).toBe(4);
  });

  it("falls back to text when the structure has no usable cells", () => {
    const m = model(el("Table", "a b\n1 2", { table_structure: { rows: 2, cols: 2, cells: [] } }));
    expect(m.kind).toBe("plain");
    expect(m.rows.map((r) => r.line)).toEqual(["a b", "1 2"]);
  });
});

describe("splitTable", () => {
  const rows = 60;
  const big = el("Table", "", {
    table_structure: {
      rows,
      cols: 3,
      cells: Array.from({ length: rows }, (_, r) => [cell(r + 1, 1, r === 0 ? "Item" : `item ${r}`), cell(r + 1, 2, r === 0 ? "Qty" : String(r * 7)), cell(r + 1, 3, r === 0 ? "Note" : "fine")]).flat(),
    },
  });

  for (const format of ["html", "markdown"] as const) {
    it(`splits on row boundaries, repeats the header in every piece, covers each body row once (${format})`, () => {
      const m = model(big);
      const pieces = splitTable(m, format, cl100kTokenizer(), 80, 80);
      expect(pieces.length).toBeGreaterThan(3);
      let next = m.headerRows;
      for (const p of pieces) {
        expect(p.from).toBe(next);
        next = p.to;
        expect(p.tokens).toBeLessThanOrEqual(80);
        expect(p.tokens).toBe(cl100kTokenizer().count(p.text));
        expect(p.text).toContain(format === "html" ? "<th>Item</th>" : "| Item | Qty | Note |");
      }
      expect(next).toBe(rows);
    });
  }

  it("keeps a table that fits whole", () => {
    const pieces = splitTable(model(big), "html", approximateTokenizer(), 10_000, 10_000);
    expect(pieces).toHaveLength(1);
    expect(pieces[0]!.oversized).toBe(false);
  });

  it("flags a single row bigger than the budget as oversized", () => {
    const m = model(el("Table", "", { table_structure: { rows: 3, cols: 1, cells: [cell(1, 1, "h"), cell(2, 1, "word ".repeat(200)), cell(3, 1, "x")] } }));
    const pieces = splitTable(m, "html", approximateTokenizer(), 40, 40);
    expect(pieces.some((p) => p.oversized)).toBe(true);
    expect(pieces.map((p) => [p.from, p.to])).toEqual([[1, 2], [2, 3]]);
  });
});

describe("result.tables (through chunkDocument)", () => {
  it("sets metadata.table with the row range and narrows regions with cell coordinates", () => {
    const cellBox = (r: number) => [0.1, 0.1 + r * 0.01, 0.9, 0.1 + r * 0.01, 0.9, 0.11 + r * 0.01, 0.1, 0.11 + r * 0.01];
    const t = el("Table", "", {
      element_id: "t",
      coordinates: box(1),
      table_structure: { rows: 40, cols: 1, cells: Array.from({ length: 40 }, (_, r) => cell(r + 1, 1, r === 0 ? "Header" : `row number ${r} with some words`, { coordinates: cellBox(r) })) },
    });
    const chunks = chunkDocument(result([t]), { maxTokens: 100, tokenizer: "approximate" });
    expect(chunks.length).toBeGreaterThan(1);
    let expectStart = 2;
    for (const c of chunks) {
      const info = c.metadata.table!;
      expect(info).toMatchObject({ elementId: "t", headerRows: 1, rows: 40, rowStart: expectStart });
      expectStart = info.rowEnd + 1;
      expect(c.metadata.kind).toBe("table");
      expect(c.metadata.regions).toHaveLength(1);
      expect(c.metadata.regions[0]!.approximate).toBeUndefined();
      // Narrowed to the rows' cells, not the whole table box.
      expect(c.metadata.regions[0]!.coordinates).not.toEqual(box(1));
    }
    expect(expectStart).toBe(41);
  });

  it("marks a split table's region approximate when cells have no coordinates", () => {
    const t = el("Table", Array.from({ length: 40 }, (_, r) => `row ${r} has several words in it`).join("\n"), { element_id: "t" });
    const chunks = chunkDocument(result([t]), { maxTokens: 64, tokenizer: "approximate" });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks.slice(1)) expect(c.metadata.regions[0]!.approximate).toBe(true);
  });

  it("keeps the caption with the table (ref_element_id either way, or next to it) and in later pieces' embedText", () => {
    const cap = el("TableCaption", "Table 3: 年度收入", { element_id: "cap" });
    const rows = Array.from({ length: 30 }, (_, r) => `row ${r} with some words`).join("\n");
    const t = el("Table", rows, { element_id: "t", metadata: { ref_element_id: "cap" } });
    for (const elements of [[cap, t], [t, { ...cap, metadata: { ref_element_id: "t" } }], [cap, { ...t, metadata: {} }]]) {
      const chunks = chunkDocument(result(elements as Element[]), { maxTokens: 64, tokenizer: "approximate" });
      expect(chunks[0]!.text.startsWith("Table 3: 年度收入\n\n")).toBe(true);
      expect(chunks[0]!.metadata.elementIds).toEqual(["cap", "t"]);
      for (const c of chunks.slice(1)) {
        expect(c.text).not.toContain("年度收入");
        expect(c.embedText).toContain("Table 3: 年度收入");
      }
    }
  });
});
