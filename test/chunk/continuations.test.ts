import { describe, expect, it } from "vitest";
import { chunkDocument, chunkDocumentWithReport } from "../../src/chunk/chunk-document.js";
import { continuationJoiner } from "../../src/chunk/continuations.js";
import { box, el, result } from "./support/elements.js";

describe("continuationJoiner", () => {
  it("joins Latin text with a space, CJK with nothing, a hyphenated word with nothing", () => {
    expect(continuationJoiner("the quick", "brown fox")).toBe(" ");
    expect(continuationJoiner("它在下一", "页继续")).toBe("");
    expect(continuationJoiner("see Table", "表格")).toBe("");
    expect(continuationJoiner("docu-", "ment")).toBe("");
    expect(continuationJoiner("well-", "Known")).toBe(" ");
  });
});

describe("result.continuations", () => {
  it("joins a paragraph continued on the next page, listing regions on both pages", () => {
    const a = el("NarrativeText", "The paragraph starts on page one and", { element_id: "a", page_number: 1 });
    const b = el("NarrativeText", "ends on page two.", { element_id: "b", page_number: 2, metadata: { is_continuation: true, continuation_of: "a" } });
    const [c, ...rest] = chunkDocument(result([a, el("Footer", "footer", { page_number: 1 }), el("Header", "header", { page_number: 2 }), b]));
    expect(rest).toEqual([]);
    expect(c!.text).toBe("The paragraph starts on page one and ends on page two.");
    expect(c!.metadata.pages).toEqual([1, 2]);
    expect(c!.metadata.regions.map((r) => [r.elementId, r.page])).toEqual([["a", 1], ["b", 2]]);
  });

  it("joins Chinese halves without a space", () => {
    const a = el("NarrativeText", "这是第一页的段落，它在下一", { element_id: "a", page_number: 1 });
    const b = el("NarrativeText", "页继续。", { element_id: "b", page_number: 2, metadata: { is_continuation: true } });
    expect(chunkDocument(result([a, b]))[0]!.text).toBe("这是第一页的段落，它在下一页继续。");
  });

  it("follows is_continuation alone to the previous kept element on an earlier page", () => {
    const a = el("NarrativeText", "first half", { element_id: "a", page_number: 3 });
    const b = el("NarrativeText", "second half", { element_id: "b", page_number: 4, metadata: { is_continuation: true } });
    const chunks = chunkDocument(result([a, el("PageNumber", "3", { page_number: 3 }), b]));
    expect(chunks.map((c) => c.text)).toEqual(["first half second half"]);
  });

  it("joins table rows across pages, dropping the repeated header, and narrows per page", () => {
    const t1 = el("Table", "| Name | Qty |\n|---|---|\n| a | 1 |\n| b | 2 |", { element_id: "t1", page_number: 1 });
    const t2 = el("Table", "| Name | Qty |\n|---|---|\n| c | 3 |", { element_id: "t2", page_number: 2, metadata: { is_continuation: true, continuation_of: "t1" } });
    const [c] = chunkDocument(result([t1, t2]), { tableFormat: "markdown" });
    expect(c!.text).toBe("| Name | Qty |\n| --- | --- |\n| a | 1 |\n| b | 2 |\n| c | 3 |");
    expect(c!.metadata.table).toEqual({ elementId: "t1", rowStart: 2, rowEnd: 4, headerRows: 1, rows: 4 });
    expect(c!.metadata.pages).toEqual([1, 2]);
    expect(c!.metadata.elementIds).toEqual(["t1", "t2"]);
  });

  it("repeats the header on the page-two piece of a long continued table", () => {
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => `| item ${from + i} | ${from + i} |`).join("\n");
    const t1 = el("Table", `| Name | Qty |\n|---|---|\n${rows(0, 30)}`, { element_id: "t1", page_number: 1 });
    const t2 = el("Table", `| Name | Qty |\n|---|---|\n${rows(30, 30)}`, { element_id: "t2", page_number: 2, metadata: { continuation_of: "t1" } });
    const chunks = chunkDocument(result([t1, t2]), { tableFormat: "markdown", maxTokens: 120 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.text.startsWith("| Name | Qty |\n| --- | --- |\n")).toBe(true);
    const last = chunks[chunks.length - 1]!;
    expect(last.metadata.pages).toEqual([2]);
    expect(last.metadata.elementIds).toEqual(["t2"]);
  });

  it.each([
    ["a missing element", { continuation_of: "ghost" }, "continuation_unresolved"],
    ["a later element", { continuation_of: "c" }, "continuation_unresolved"],
    ["an element of another kind", { continuation_of: "t" }, "continuation_mismatch"],
  ])("keeps an element on its own when it continues %s, with a warning", (_, metadata, code) => {
    const t = el("Table", "a b\n1 2", { element_id: "t", page_number: 1 });
    const b = el("NarrativeText", "orphan text", { element_id: "b", page_number: 2, metadata });
    const c = el("NarrativeText", "later", { element_id: "c", page_number: 3 });
    const { chunks, warnings } = chunkDocumentWithReport(result([t, b, c]), { strategy: "by_element" });
    expect(chunks.map((x) => x.text)).toContain("orphan text");
    expect(warnings.map((w) => w.code)).toContain(code);
  });

  it("does not join is_continuation on the first page", () => {
    const { chunks, warnings } = chunkDocumentWithReport(result([el("NarrativeText", "alone", { metadata: { is_continuation: true }, coordinates: box(0) })]));
    expect(chunks.map((c) => c.text)).toEqual(["alone"]);
    expect(warnings.map((w) => w.code)).toEqual(["continuation_unresolved"]);
  });
});
