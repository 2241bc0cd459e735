import { describe, expect, it } from "vitest";
import { markdownFormat, markdownToElements } from "../../../src/engine/formats/markdown.js";
import type { FormatContext } from "../../../src/engine/draft.js";
import { ENGINE_LIMIT_DEFAULTS } from "../../../src/engine/limits.js";
import { CAPABILITY_DEFAULTS } from "../../../src/wire/index.js";

describe("markdownToElements", () => {
  it("maps every block type (English)", () => {
    const md = [
      "---",
      "title: front matter is skipped",
      "---",
      "# Guide",
      "",
      "Intro with **bold** and a [link](http://x) and $a^2$ math.",
      "",
      "Setext Heading",
      "--------------",
      "",
      "- one",
      "  - one.a",
      "- two",
      "",
      "1. first",
      "2. second",
      "",
      "| Name | Qty |",
      "|------|----:|",
      "| Pen  | 2   |",
      "| Ink  | 5   |",
      "",
      "```python",
      "print('hi')",
      "```",
      "",
      "    indented code",
      "",
      "$$",
      "\\int_0^1 x\\,dx",
      "$$",
      "",
      "![A chart](chart.png)",
    ].join("\n");
    const els = markdownToElements(md);
    expect(els.map((e) => [e.type, e.text, e.headingLevel ?? e.listLevel ?? null])).toEqual([
      ["Title", "Guide", 1],
      ["NarrativeText", "Intro with bold and a link and $a^2$ math.", null],
      ["Title", "Setext Heading", 2],
      ["ListItem", "one", 0],
      ["ListItem", "one.a", 1],
      ["ListItem", "two", 0],
      ["ListItem", "1. first", 0],
      ["ListItem", "2. second", 0],
      ["Table", "Name Qty\nPen 2\nInk 5", null],
      ["CodeSnippet", "print('hi')", null],
      ["CodeSnippet", "indented code", null],
      ["Formula", "\\int_0^1 x\\,dx", null],
      ["Image", "A chart", null],
    ]);
    const table = els.find((e) => e.type === "Table")!.table!;
    expect(table).toMatchObject({ rows: 3, cols: 2, headerRows: 1 });
    expect(table.cells).toContainEqual({ row: 1, col: 2, text: "Qty" });
    const para = els[1]!;
    const at = para.text.indexOf("$a^2$") + 1;
    expect(para.objects).toEqual([{ type: "formula", text: "a^2", start: at, end: at + 3, displayMode: "inline" }]);
    expect(els.find((e) => e.type === "CodeSnippet")!.metadata).toEqual({ code_language: "python" });
  });

  it("maps every block type (Chinese)", () => {
    const md = "# 第一章 概述\n\n本章介绍系统的\n总体设计。\n\n## 1.1 目标\n\n- 提高效率\n- 降低成本\n\n| 项目 | 金额 |\n|---|---|\n| 收入 | 100 |\n";
    expect(markdownToElements(md).map((e) => [e.type, e.text])).toEqual([
      ["Title", "第一章 概述"],
      ["NarrativeText", "本章介绍系统的总体设计。"],
      ["Title", "1.1 目标"],
      ["ListItem", "提高效率"],
      ["ListItem", "降低成本"],
      ["Table", "项目 金额\n收入 100"],
    ]);
  });

  it("does not take prices for inline math", () => {
    expect(markdownToElements("It costs $5 and $10 today.")[0]!.objects).toBeUndefined();
  });

  it("keeps $$ inside code fences as code", () => {
    const els = markdownToElements("```\n$$\nnot math\n$$\n```");
    expect(els).toEqual([{ type: "CodeSnippet", text: "$$\nnot math\n$$", page: 1 }]);
  });
});

describe("markdownFormat", () => {
  const ctx = { config: {}, capabilities: { ...CAPABILITY_DEFAULTS }, parseMode: "auto", limits: { ...ENGINE_LIMIT_DEFAULTS } } as FormatContext;

  it("reads HTML tables inside Markdown (as this service writes them) with their spans", async () => {
    const md = "# 报表\n\n<table><thead><tr><th>项目</th><th>金额</th></tr></thead><tbody><tr><td colspan=\"2\">合计</td></tr></tbody></table>\n\nAfter.\n";
    const draft = await markdownFormat.parse(new TextEncoder().encode(md), ctx);
    expect(draft.elements.map((e) => e.type)).toEqual(["Title", "Table", "NarrativeText"]);
    const table = draft.elements[1]!.table!;
    expect(table).toMatchObject({ rows: 2, cols: 2 });
    expect(table.cells.find((c) => c.row === 2)).toMatchObject({ text: "合计", colSpan: 2 });
    expect(draft.elements[1]!.page).toBe(1);
  });

  it("gives data: images their bytes and size; other sources stay links, never fetched", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const draft = await markdownFormat.parse(new TextEncoder().encode(`![dot](data:image/png;base64,${png})\n\n![remote](http://example.com/a.jpg)\n`), ctx);
    const [inline, remote] = draft.elements;
    expect(inline).toMatchObject({ type: "Image", text: "dot", image: { width: 1, height: 1, mimeType: "image/png" } });
    expect(Buffer.from(inline!.image!.bytes!).toString("base64")).toBe(png);
    expect(remote).toMatchObject({ type: "Image", text: "remote", image: { mimeType: "image/jpeg", width: 0 }, metadata: { src: "http://example.com/a.jpg" } });
    expect(remote!.image!.bytes).toBeUndefined();
  });

  it("keeps other HTML blocks as text", async () => {
    const draft = await markdownFormat.parse(new TextEncoder().encode("<div>Some <b>html</b></div>\n"), ctx);
    expect(draft.elements).toEqual([{ type: "NarrativeText", text: "Some html", page: 1 }]);
  });
});
