import { describe, expect, it } from "vitest";
import { textFormat, textToElements } from "../../../src/engine/formats/text.js";
import { CAPABILITY_DEFAULTS } from "../../../src/wire/index.js";
import { ENGINE_LIMIT_DEFAULTS } from "../../../src/engine/limits.js";
import type { FormatContext } from "../../../src/engine/draft.js";

const summary = (text: string) => textToElements(text).map((e) => [e.type, e.text, e.headingLevel ?? e.listLevel ?? null]);

describe("textToElements (English)", () => {
  it("finds numbered headings, paragraphs and lists", () => {
    const text = [
      "Annual Report",
      "",
      "1 Introduction",
      "",
      "This report covers the year. It is long enough",
      "to be hard-wrapped over two lines.",
      "",
      "1.1 Scope",
      "",
      "Items in scope:",
      "- revenue",
      "  - by region",
      "- costs",
      "",
      "2 Results",
      "",
      "Revenue grew.",
    ].join("\n");
    expect(summary(text)).toEqual([
      ["Title", "Annual Report", 1],
      ["Title", "1 Introduction", 2],
      ["NarrativeText", "This report covers the year. It is long enough to be hard-wrapped over two lines.", null],
      ["Title", "1.1 Scope", 3],
      ["NarrativeText", "Items in scope:", null],
      ["ListItem", "revenue", 0],
      ["ListItem", "by region", 1],
      ["ListItem", "costs", 0],
      ["Title", "2 Results", 2],
      ["NarrativeText", "Revenue grew.", null],
    ]);
  });

  it("does not take a run of numbered lines for headings", () => {
    const els = summary("Shopping\n\n1. Milk\n\n2. Eggs\n\n3. Bread\n");
    expect(els.filter((e) => e[0] === "Title")).toEqual([["Title", "Shopping", 1]]);
    expect(els.filter((e) => e[0] === "ListItem").map((e) => e[1])).toEqual(["1. Milk", "2. Eggs", "3. Bread"]);
  });

  it("does not take sentences for headings", () => {
    const els = summary("1. This is a full sentence that ends with a period.\n\nAnd another paragraph here.");
    expect(els.map((e) => e[0])).not.toContain("Title");
  });

  it("keeps Setext-style and CHAPTER headings", () => {
    const els = summary("CHAPTER 1 The Start\n\nText.\n\nDetails\n-------\n\nMore text.");
    expect(els).toEqual([
      ["Title", "CHAPTER 1 The Start", 1],
      ["NarrativeText", "Text.", null],
      ["Title", "Details", 2],
      ["NarrativeText", "More text.", null],
    ]);
  });

  it("takes an ALL-CAPS first line over ALL-CAPS section headings for the document title", () => {
    const els = summary("USER MANUAL\n\nGETTING STARTED\n\nPlug it in.\n\nCLEANING\n\nWipe it.");
    expect(els).toEqual([
      ["Title", "USER MANUAL", 1],
      ["Title", "GETTING STARTED", 2],
      ["NarrativeText", "Plug it in.", null],
      ["Title", "CLEANING", 2],
      ["NarrativeText", "Wipe it.", null],
    ]);
  });

  it("reads tab-separated and pipe tables", () => {
    const [tsv] = textToElements("Name\tAge\nAda\t36\nAlan\t41");
    expect(tsv!.type).toBe("Table");
    expect(tsv!.table).toMatchObject({ rows: 3, cols: 2, headerRows: 1 });
    expect(tsv!.table!.cells.find((c) => c.row === 3 && c.col === 2)!.text).toBe("41");
    const [pipe] = textToElements("| a | b |\n|---|---|\n| 1 | 2 |");
    expect(pipe!.table).toMatchObject({ rows: 2, cols: 2 });
  });

  it("reads space-aligned columns as a table (CJK counted double width), not prose", () => {
    const [en] = textToElements("Name      Age   City\nAlice     30    Paris\nBob       25    Berlin");
    expect(en!.table).toMatchObject({ rows: 3, cols: 3 });
    expect(en!.table!.cells.map((c) => c.text)).toEqual(["Name", "Age", "City", "Alice", "30", "Paris", "Bob", "25", "Berlin"]);
    const [zh] = textToElements("项目        金额      备注\n住宿        600元     一线城市\n餐饮        100元     每天");
    expect(zh!.table!.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(["住宿", "600元", "一线城市"]);
    const prose = textToElements("This is a normal paragraph that wraps\nacross three lines of prose and has\nno aligned columns at all in it.");
    expect(prose.map((e) => e.type)).toEqual(["NarrativeText"]);
  });

  it("reads $$ formulas and form-feed page breaks", () => {
    expect(summary("$$\nE = mc^2\n$$\n\fNext page")).toEqual([
      ["Formula", "E = mc^2", null],
      ["PageBreak", "", null],
      ["NarrativeText", "Next page", null],
    ]);
  });

  it("reads an indented block that looks like code as a CodeSnippet, indented prose as text", () => {
    expect(summary("Run:\n\n    ./install.sh --prefix /opt\n    make test\n\n    Just an indented sentence.")).toEqual([
      ["NarrativeText", "Run:", null],
      ["CodeSnippet", "./install.sh --prefix /opt\nmake test", null],
      ["NarrativeText", "Just an indented sentence.", null],
    ]);
  });

  it("reads fenced code verbatim, blank lines and indentation included", () => {
    const els = textToElements("Example:\n\n```\ndef f():\n\n    return 1\n```\n\nDone.");
    expect(els.map((e) => [e.type, e.text])).toEqual([
      ["NarrativeText", "Example:"],
      ["CodeSnippet", "def f():\n\n    return 1"],
      ["NarrativeText", "Done."],
    ]);
  });

  it("keeps short lines apart (an address, a signature), but joins a line broken mid-sentence", () => {
    expect(summary("Best regards\nJane Doe\nACME Ltd.").map((e) => e[1])).toEqual(["Best regards", "Jane Doe", "ACME Ltd."]);
    expect(summary("办公室\n2024年3月1日").map((e) => e[1])).toEqual(["办公室", "2024年3月1日"]);
    expect(summary("We met on Monday,\nand agreed.").map((e) => e[1])).toEqual(["We met on Monday, and agreed."]);
  });

  it("splits one-paragraph-per-line text", () => {
    const long = "word ".repeat(40).trim();
    expect(textToElements(`${long}\n${long}`).length).toBe(2);
  });
});

describe("textToElements (Chinese)", () => {
  it("finds 第X章 / 一、 / （一） headings and joins CJK lines without spaces", () => {
    const text = [
      "第一章 总则",
      "",
      "一、目的",
      "",
      "为了规范公司管理，",
      "制定本办法。",
      "",
      "（一）适用范围",
      "",
      "本办法适用于全体员工。",
      "",
      "第二章 附则",
      "",
      "本办法自发布之日起施行。",
    ].join("\n");
    expect(summary(text)).toEqual([
      ["Title", "第一章 总则", 1],
      ["Title", "一、目的", 2],
      ["NarrativeText", "为了规范公司管理，制定本办法。", null],
      ["Title", "（一）适用范围", 3],
      ["NarrativeText", "本办法适用于全体员工。", null],
      ["Title", "第二章 附则", 1],
      ["NarrativeText", "本办法自发布之日起施行。", null],
    ]);
  });

  it("does not take 第X条 articles for headings, and keeps Chinese list markers", () => {
    const els = summary("第一条 为规范管理制定本办法。\n\n要求如下：\n一、按时上班；\n二、认真工作；");
    expect(els).toEqual([
      ["NarrativeText", "第一条 为规范管理制定本办法。", null],
      ["NarrativeText", "要求如下：", null],
      ["ListItem", "一、按时上班；", 0],
      ["ListItem", "二、认真工作；", 0],
    ]);
  });

  it("finds headings on the line right above their text (official-document layout)", () => {
    const text = [
      "关于加强安全生产工作的通知",
      "",
      "一、总体要求",
      "　　坚持安全第一、预防为主。",
      "",
      "二、重点任务",
      "（一）开展隐患排查",
      "　　各部门要全面排查隐患。",
      "（二）加强培训教育",
      "　　1. 组织全员培训；",
      "　　2. 开展应急演练。",
    ].join("\n");
    expect(summary(text)).toEqual([
      ["Title", "关于加强安全生产工作的通知", 1],
      ["Title", "一、总体要求", 2],
      ["NarrativeText", "坚持安全第一、预防为主。", null],
      ["Title", "二、重点任务", 2],
      ["Title", "（一）开展隐患排查", 3],
      ["NarrativeText", "各部门要全面排查隐患。", null],
      ["Title", "（二）加强培训教育", 3],
      ["ListItem", "1. 组织全员培训；", 0],
      ["ListItem", "2. 开展应急演练。", 0],
    ]);
  });

  it("takes short 第X条 captions for headings, but not articles with their text", () => {
    expect(summary("劳动合同\n\n第一条 合同期限\n本合同期限为三年。\n\n第二条 工作内容\n乙方担任技术岗位工作。")).toEqual([
      ["Title", "劳动合同", 1],
      ["Title", "第一条 合同期限", 2],
      ["NarrativeText", "本合同期限为三年。", null],
      ["Title", "第二条 工作内容", 2],
      ["NarrativeText", "乙方担任技术岗位工作。", null],
    ]);
  });

  it("keeps a run of short numbered lines inside a block as a list", () => {
    const els = summary("水果：\n一、苹果\n二、香蕉\n三、橘子");
    expect(els.filter((e) => e[0] === "Title")).toEqual([]);
    expect(els.filter((e) => e[0] === "ListItem")).toHaveLength(3);
  });

  it("takes numbered questions for headings (FAQ)", () => {
    const els = summary("常见问题\n\n一、如何添加指纹？\n\n按下设置键。\n\n二、电池没电了怎么办？\n\n更换电池。");
    expect(els.filter((e) => e[0] === "Title")).toEqual([
      ["Title", "常见问题", 1],
      ["Title", "一、如何添加指纹？", 2],
      ["Title", "二、电池没电了怎么办？", 2],
    ]);
  });

  it("splits paragraphs at full-width indentation and sentence ends", () => {
    const els = summary("　　第一段内容。\n　　第二段内容。\n第三段。");
    expect(els.map((e) => e[1])).toEqual(["第一段内容。", "第二段内容。", "第三段。"]);
  });
});

describe("textFormat", () => {
  const ctx = { config: {}, capabilities: { ...CAPABILITY_DEFAULTS }, parseMode: "auto", limits: { ...ENGINE_LIMIT_DEFAULTS } } as FormatContext;

  it("reports the detected encoding and an estimated layout", async () => {
    const draft = await textFormat.parse(new Uint8Array([0xff, 0xfe, ...Buffer.from("Hello\n\nWorld", "utf16le")]), ctx);
    expect(draft).toMatchObject({ filetype: "text/plain", estimatedLayout: true, metadata: { encoding: "utf-16le" } });
    expect(draft.elements.map((e) => e.text)).toEqual(["Hello", "World"]);
  });
});
