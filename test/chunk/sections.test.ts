import { describe, expect, it } from "vitest";
import { chunkDocument } from "../../src/chunk/chunk-document.js";
import type { Element } from "../../src/wire/index.js";
import { el, result } from "./support/elements.js";

const title = (id: string, text: string, depth: number) => el("Title", text, { element_id: id, metadata: { category_depth: depth } });
const para = (id: string, text: string) => el("NarrativeText", text, { element_id: id });

const doc: Element[] = [
  para("pre", "Preface text."),
  title("h1", "1 Overview", 0),
  para("a", "Overview body."),
  title("h11", "1.1 Scope", 1),
  para("b", "Scope body."),
  title("h111", "1.1.1 Detail", 2),
  para("c", "Detail body."),
  title("h2", "2 Results", 0),
  para("d", "Results body."),
];

describe("options.headingLevel", () => {
  it("never lets a chunk span two sections at the configured level", () => {
    const at1 = chunkDocument(result(doc), { headingLevel: 1 });
    expect(at1.map((c) => c.metadata.elementIds)).toEqual([["pre"], ["h1", "a", "h11", "b", "h111", "c"], ["h2", "d"]]);
    const at3 = chunkDocument(result(doc), { headingLevel: 3 });
    expect(at3.map((c) => c.metadata.elementIds)).toEqual([["pre"], ["h1", "a"], ["h11", "b"], ["h111", "c"], ["h2", "d"]]);
  });
});

describe("result.headingPath", () => {
  it("is the titles from the root to the chunk's section", () => {
    const chunks = chunkDocument(result(doc), { headingLevel: 3 });
    expect(chunks.map((c) => c.metadata.headingPath)).toEqual([[], ["1 Overview"], ["1 Overview", "1.1 Scope"], ["1 Overview", "1.1 Scope", "1.1.1 Detail"], ["2 Results"]]);
    expect(chunks.map((c) => c.metadata.sectionId)).toEqual(["root", "h1", "h11", "h111", "h2"]);
  });

  it("goes in front of the body in embedText, without repeating a title that is in the body", () => {
    const chunks = chunkDocument(result(doc), { headingLevel: 3 });
    expect(chunks[0]!.embedText).toBe("Preface text.");
    expect(chunks[2]!.embedText).toBe("1 Overview\n\n1.1 Scope\n\nScope body.");
    expect(chunks[3]!.embedText).toBe("1 Overview > 1.1 Scope\n\n1.1.1 Detail\n\nDetail body.");
  });

  it("is repeated in front of every piece of a long section", () => {
    const long = Array.from({ length: 60 }, (_, i) => para(`p${i}`, `Paragraph ${i} says something about the topic at some length.`));
    const chunks = chunkDocument(result([title("h", "第一章 总则", 0), ...long]), { maxTokens: 100 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(1)) expect(c.embedText.startsWith("第一章 总则\n\n")).toBe(true);
    for (const c of chunks) expect(c.metadata.tokens).toBeLessThanOrEqual(100);
  });

  it("drops outer headings from embedText when the path would take over half the budget", () => {
    const deep = [title("a", "A ".repeat(30), 0), title("b", "B ".repeat(30), 1), title("c", "Chapter C", 2), para("p", "body")];
    const [c] = chunkDocument(result(deep), { maxTokens: 64, headingLevel: 3, tokenizer: "approximate" }).slice(-1);
    expect(c!.metadata.headingPath).toHaveLength(3);
    expect(c!.embedText.startsWith("A A")).toBe(false);
    expect(c!.metadata.tokens).toBeLessThanOrEqual(64);
  });
});

describe("heading without content", () => {
  it("goes down into its first sub-section's chunk", () => {
    const chunks = chunkDocument(result([title("h1", "Part I", 0), title("h11", "Chapter 1", 1), para("p", "Text.")]), { headingLevel: 2 });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.text).toBe("Part I\n\nChapter 1\n\nText.");
    expect(chunks[0]!.metadata.sectionId).toBe("h11");
    expect(chunks[0]!.metadata.headingPath).toEqual(["Part I", "Chapter 1"]);
  });

  it("stays its own chunk when the next section is a sibling", () => {
    const chunks = chunkDocument(result([title("a", "Empty", 0), title("b", "Next", 0), para("p", "Text.")]));
    expect(chunks.map((c) => c.text)).toEqual(["Empty", "Next\n\nText."]);
  });
});

describe("options.minTokens", () => {
  const sub = [title("h", "Section", 0), para("a", "Short intro."), title("s1", "Sub one", 3), para("b", "B text."), title("s2", "Sub two", 3), para("c", "C text.")];

  it("merges sub-sections into the chunk while it is below minTokens", () => {
    const chunks = chunkDocument(result(sub), { minTokens: 200 });
    expect(chunks.map((c) => c.metadata.elementIds)).toEqual([["h", "a", "s1", "b", "s2", "c"]]);
  });

  it("starts a new chunk at a sub-heading once the chunk holds minTokens", () => {
    const chunks = chunkDocument(result(sub), { minTokens: 1 });
    expect(chunks.map((c) => c.metadata.elementIds)).toEqual([["h", "a"], ["s1", "b"], ["s2", "c"]]);
    expect(chunks.map((c) => c.metadata.sectionId)).toEqual(["h", "h", "h"]);
  });
});
