import { describe, expect, it } from "vitest";
import { EmbedText } from "../../src/chunk/embed-text.js";
import { resolveChunkOptions, type ChunkOptions } from "../../src/chunk/options.js";
import type { Section } from "../../src/chunk/sections.js";

const section = (path: string[]): Section => ({ id: path.join("/") || "root", titleIndexes: path.map((_, i) => i), titleIds: path, headingPath: path });
const make = (o: ChunkOptions = {}) => new EmbedText(resolveChunkOptions(o));

describe("EmbedText.render", () => {
  it("puts the heading path before the text, and only the text when there is none", () => {
    const e = make();
    expect(e.render("body", ["A", "B"])).toBe("A > B\n\nbody");
    expect(e.render("body", [])).toBe("body");
    expect(e.render("body", ["A"], "Table 1")).toBe("A > Table 1\n\nbody");
  });

  it("fills {headingPath} without the caption and {context} with it", () => {
    const e = make({ embedTemplate: "[{headingPath}] ({context}) {text}" });
    expect(e.render("x", ["A"], "Cap")).toBe("[A] (A > Cap) x");
  });
});

describe("EmbedText.tokensAround", () => {
  it("equals counting the rendered text, for both built-in tokenizers", () => {
    for (const tokenizer of ["cl100k_base", "approximate"] as const) {
      const e = make({ tokenizer });
      const t = resolveChunkOptions({ tokenizer }).tokenizer;
      for (const text of ["Plain body.", "中文正文。", "<table><tr><td>1</td></tr></table>"]) {
        const n = e.tokensAround(text, t.count(text), ["第一章", "Scope"]);
        expect(n).toBe(t.count(e.render(text, ["第一章", "Scope"])));
      }
    }
  });

  it("gives up (undefined) when the template glues the text to a word", () => {
    const e = make({ embedTemplate: "passage:{text}" });
    expect(e.tokensAround("body", 1, ["A"])).toBeUndefined();
  });
});

describe("EmbedText.prefix", () => {
  it("drops outer headings while the prefix takes more than half of maxTokens", () => {
    const e = make({ maxTokens: 20, tokenizer: "approximate" });
    const p = e.prefix(section(["one two three four five six seven eight", "nine ten eleven twelve thirteen", "Last"]));
    expect(p.path).toEqual(["Last"]);
    expect(p.tokens * 2).toBeLessThanOrEqual(20);
  });
});
