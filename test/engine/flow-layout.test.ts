import { describe, expect, it } from "vitest";
import { FLOW_PAGE, flowLayout, wrapText } from "../../src/engine/flow-layout.js";
import type { DraftElement } from "../../src/engine/draft.js";

describe("wrapText", () => {
  it("breaks Latin text at spaces, never inside a word that fits", () => {
    const text = "alpha beta gamma delta epsilon";
    const lines = wrapText(text, 120, 20);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) {
      const piece = text.slice(l.start, l.end);
      expect(piece).toBe(piece.trim());
      expect(text.split(" ")).toEqual(expect.arrayContaining(piece.split(" ")));
      expect(l.width).toBeLessThanOrEqual(120);
    }
  });

  it("counts CJK characters as full width and breaks between any of them", () => {
    const zh = "汉".repeat(20);
    const en = "a".repeat(20);
    expect(wrapText(zh, 10_000, 10)[0]!.width).toBe(200);
    expect(wrapText(en, 10_000, 10)[0]!.width).toBeCloseTo(122); // "a" is 0.61 em in DejaVu Sans
    const lines = wrapText(zh, 55, 10);
    expect(lines.map((l) => l.end - l.start)).toEqual([5, 5, 5, 5]);
  });

  it("never starts a line with closing CJK punctuation", () => {
    const text = "一二三四。五六七八";
    const lines = wrapText(text, 40, 10);
    for (const l of lines) expect("。，、；：！？）」".includes(text[l.start]!)).toBe(false);
    expect(lines[0]!.end - lines[0]!.start).toBe(3);
  });

  it("hard-breaks a word longer than the line and honours newlines", () => {
    expect(wrapText("x".repeat(30), 52, 10).length).toBeGreaterThan(2);
    expect(wrapText("a\nb\n\nc", 1000, 10).map((l) => [l.start, l.end])).toEqual([[0, 1], [2, 3], [4, 4], [5, 6]]);
  });
});

describe("flowLayout", () => {
  const p = (text: string): DraftElement => ({ type: "NarrativeText", text, page: 1 });

  it("places elements top to bottom inside the margins of an A4 page", () => {
    const { elements, pageCount } = flowLayout([{ type: "Title", text: "T", page: 1, headingLevel: 1 }, p("one"), p("two")]);
    expect(pageCount).toBe(1);
    const m = FLOW_PAGE.margin;
    let lastBottom = 0;
    for (const { element } of elements) {
      const b = element.box!;
      expect(b.x0).toBeCloseTo(m / FLOW_PAGE.width);
      expect(b.y0).toBeGreaterThanOrEqual(lastBottom);
      expect(b.y1).toBeLessThanOrEqual(1 - m / FLOW_PAGE.height);
      lastBottom = b.y1;
    }
  });

  it("indents list items by level", () => {
    const { elements } = flowLayout([
      { type: "ListItem", text: "a", page: 1, listLevel: 0 },
      { type: "ListItem", text: "b", page: 1, listLevel: 1 },
    ]);
    expect(elements[1]!.element.box!.x0).toBeGreaterThan(elements[0]!.element.box!.x0);
  });

  it("moves a title that does not fit to the next page instead of splitting it", () => {
    const filler = Array.from({ length: 50 }, () => "line").join("\n");
    const { elements } = flowLayout([{ type: "CodeSnippet", text: filler, page: 1 }, { type: "Title", text: "Next section heading", page: 1, headingLevel: 1 }]);
    expect(elements.at(-1)!.element.page).toBe(2);
    expect(elements.filter((e) => e.element.type === "Title")).toHaveLength(1);
  });

  it("splits a long table by rows, with cell boxes, continuation links and the header on the first piece", () => {
    const rows = 120;
    const cells = Array.from({ length: rows }, (_, r) => [1, 2].map((c) => ({ row: r + 1, col: c, text: `r${r + 1}c${c}` }))).flat();
    const { elements, pageCount } = flowLayout([{ type: "Table", text: "", page: 1, table: { rows, cols: 2, cells, headerRows: 1 } }]);
    expect(pageCount).toBeGreaterThan(1);
    expect(elements.length).toBe(pageCount);
    expect(elements.reduce((n, e) => n + e.element.table!.rows, 0)).toBe(rows);
    expect(elements[0]!.element.table!.headerRows).toBe(1);
    expect(elements[1]!.element.table!.headerRows).toBe(0);
    expect(elements[1]!.continues).toBe(0);
    expect(elements[1]!.element.table!.cells[0]).toMatchObject({ row: 1, col: 1 });
    expect(elements[1]!.element.text.split("\n")[0]).toBe(elements[1]!.element.table!.cells.slice(0, 2).map((c) => c.text).join(" "));
    for (const e of elements) expect(e.cellBoxes).toHaveLength(e.element.table!.cells.length);
  });

  it("starts a new page after a PageBreak", () => {
    const { elements, pageCount } = flowLayout([p("a"), { type: "PageBreak", text: "", page: 1 }, p("b")]);
    expect(pageCount).toBe(2);
    expect(elements.map((e) => e.element.page)).toEqual([1, 1, 2]);
  });

  it("gives per-character boxes when asked, in text order", () => {
    const { elements } = flowLayout([p("ab 中文")], { chars: true });
    const chars = elements[0]!.element.chars!;
    expect(chars.map((c) => c.text).join("")).toBe("ab 中文");
    expect(chars[4]!.box.x1 - chars[4]!.box.x0).toBeGreaterThan(chars[0]!.box.x1 - chars[0]!.box.x0);
  });

  it("starts a new page where the handler's page number changes (a Word page break)", () => {
    const { elements, pageCount } = flowLayout([p("a"), { ...p("b"), page: 2 }, { ...p("c"), page: 2 }]);
    expect(pageCount).toBe(2);
    expect(elements.map((e) => e.element.page)).toEqual([1, 2, 2]);
    // The handler's numbers survive when nothing overflowed (page_range applied by a handler).
    expect(flowLayout([{ ...p("x"), page: 2 }, { ...p("y"), page: 4 }]).elements.map((e) => e.element.page)).toEqual([2, 4]);
    // Overflow pushes later pages on.
    const tall = { type: "CodeSnippet", text: Array.from({ length: 80 }, () => "line").join("\n"), page: 1 };
    expect(flowLayout([tall, { ...p("z"), page: 2 }]).elements.map((e) => e.element.page)).toEqual([1, 2, 3]);
  });

  it("fixedPages keeps the handler's page numbers and grows a page instead of overflowing", () => {
    const rows = 200;
    const cells = Array.from({ length: rows }, (_, r) => ({ row: r + 1, col: 1, text: `r${r}` }));
    const { elements, pageCount, pageSizes } = flowLayout(
      [
        { type: "Title", text: "Sheet1", page: 1, headingLevel: 1 },
        { type: "Table", text: "", page: 1, table: { rows, cols: 1, cells } },
        { type: "Title", text: "Sheet3", page: 3, headingLevel: 1 },
      ],
      { fixedPages: true },
    );
    expect(pageCount).toBe(3);
    expect(elements.map((e) => e.element.page)).toEqual([1, 1, 3]);
    expect(pageSizes.get(1)!.height).toBeGreaterThan(FLOW_PAGE.height * 3);
    expect(pageSizes.get(3)!.height).toBe(FLOW_PAGE.height);
    expect(elements[1]!.element.box!.y1).toBeLessThanOrEqual(1);
    expect(elements[2]!.element.box!.y0).toBeCloseTo(FLOW_PAGE.margin / FLOW_PAGE.height);
  });
});
