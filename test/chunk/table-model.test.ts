import { describe, expect, it } from "vitest";
import { toNodes } from "../../src/chunk/nodes.js";
import { appendTable, detectTableText, rowLine, tableModel } from "../../src/chunk/table-model.js";
import { renderTable } from "../../src/chunk/tables.js";
import type { Element } from "../../src/wire/index.js";
import { el } from "./support/elements.js";

const noWarn = () => {};
const model = (element: Element) => tableModel(toNodes([element], noWarn)[0]!, noWarn);

describe("detectTableText", () => {
  it("tells HTML, Markdown and plain text apart", () => {
    expect(detectTableText("<table><tr><td>a</td></tr></table>")).toBe("html");
    expect(detectTableText("<TR><TD>a</TD></TR>")).toBe("html");
    expect(detectTableText("| a | b |\n|---|:---:|\n| 1 | 2 |")).toBe("markdown");
    expect(detectTableText("a b\n1 2")).toBe("plain");
    expect(detectTableText("x - y\n--- is not a separator without pipes")).toBe("plain");
  });
});

describe("tableModel from text", () => {
  it("parses HTML with thead, th, spans and entities", () => {
    const m = model(el("Table", '<table><thead><tr><th colspan="2">Q&amp;A</th></tr></thead><tbody><tr><td>问</td><td>答</td></tr></tbody></table>'));
    expect(m.kind).toBe("grid");
    expect(m.headerRows).toBe(1);
    expect(renderTable(m, 1, 2, "markdown")).toBe("| Q&A | Q&A |\n| --- | --- |\n| 问 | 答 |");
    expect(renderTable(m, 1, 2, "html")).toBe('<table><tr><th colspan="2">Q&amp;A</th></tr><tr><td>问</td><td>答</td></tr></table>');
  });

  it("parses Markdown pipe tables (escaped pipes kept)", () => {
    const m = model(el("Table", "| 名称 | 值 |\n|---|---|\n| a\\|b | 1 |\n| c | 2 |"));
    expect(m.headerRows).toBe(1);
    expect(m.rows.map((r) => r.fill)).toEqual([["名称", "值"], ["a|b", "1"], ["c", "2"]]);
  });

  it("keeps plain text as lines, first line as header", () => {
    const m = model(el("Table", "Name Value\nalpha 1\nbeta 2"));
    expect(m.kind).toBe("plain");
    expect(m.headerRows).toBe(1);
    expect(renderTable(m, 1, 3, "html")).toBe("Name Value\nalpha 1\nbeta 2");
  });
});

describe("appendTable", () => {
  it("drops a repeated header at the top of the continuation", () => {
    const a = model(el("Table", "| A | B |\n|---|---|\n| 1 | 2 |"));
    const b = model(el("Table", "| A | B |\n|---|---|\n| 3 | 4 |"));
    const joined = appendTable(a, b);
    expect(joined.rows.map(rowLine)).toEqual(["A B", "1 2", "3 4"]);
  });

  it("mixes grid and plain tables as lines without losing rows", () => {
    const joined = appendTable(model(el("Table", "| A | B |\n|---|---|\n| 1 | 2 |")), model(el("Table", "3 4")));
    expect(joined.kind).toBe("plain");
    expect(joined.rows.map(rowLine)).toEqual(["A B", "1 2", "3 4"]);
  });
});
