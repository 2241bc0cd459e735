import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEPARATORS, splitTextRanges, type Separator } from "../../src/chunk/split-text.js";
import { approximateTokenizer, cl100kTokenizer } from "../../src/chunk/tokenizer.js";

const LANGCHAIN_DEFAULT: Separator[] = ["\n\n", "\n", " ", ""].map((value) => ({ value, keep: "start" as const }));
const asciiText = fc
  .array(fc.constantFrom("lorem", "ipsum", "dolor", "sit", "amet", " ", " ", "\n", "\n\n", "x", "consectetur"), { maxLength: 120 })
  .map((xs) => xs.join(""));

describe("splitTextRanges", () => {
  it("gives what LangChain's RecursiveCharacterTextSplitter gives (same separators, same length)", async () => {
    await fc.assert(
      fc.asyncProperty(asciiText, fc.integer({ min: 5, max: 60 }), fc.integer({ min: 0, max: 4 }), async (text, size, overlapTenths) => {
        const overlap = Math.floor((size * overlapTenths) / 10);
        const theirs = await new RecursiveCharacterTextSplitter({ chunkSize: size, chunkOverlap: overlap }).splitText(text);
        const ours = splitTextRanges(text, { chunkSize: size, chunkOverlap: overlap, separators: LANGCHAIN_DEFAULT, count: (t) => t.length });
        expect(ours.map((r) => text.slice(r.start, r.end))).toEqual(theirs);
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it("keeps Chinese sentence enders with their sentence", () => {
    const text = "第一句话在这里。第二句话也在这里！第三句话是问题吗？第四句；最后一句。";
    const pieces = splitTextRanges(text, { chunkSize: 12, count: (t) => approximateTokenizer().count(t) }).map((r) => text.slice(r.start, r.end));
    expect(pieces.join("")).toBe(text);
    for (const p of pieces) {
      expect(approximateTokenizer().count(p)).toBeLessThanOrEqual(12);
      expect(p).toMatch(/[。！？；]$/);
    }
  });

  it("prefers paragraph breaks, then sentences, over spaces", () => {
    const text = "One short sentence. Another one here.\n\nA second paragraph that is here.";
    const pieces = splitTextRanges(text, { chunkSize: 12, count: (t) => cl100kTokenizer().count(t) }).map((r) => text.slice(r.start, r.end));
    expect(pieces).toEqual(["One short sentence. Another one here.", "A second paragraph that is here."]);
  });

  it("never exceeds chunkSize by the exact count, on English and Chinese, with cl100k", () => {
    const count = (t: string) => cl100kTokenizer().count(t);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("The model", " reads", " documents.", " ", "\n", "\n\n", "模型", "阅读文档。", "表格，", "以及图片！", "1234", "..."), { maxLength: 200 }),
        fc.integer({ min: 4, max: 40 }),
        (xs, size) => {
          const text = xs.join("");
          for (const r of splitTextRanges(text, { chunkSize: size, count })) {
            if (!r.oversized) expect(count(text.slice(r.start, r.end))).toBeLessThanOrEqual(size);
          }
        },
      ),
      { numRuns: 150, seed: 6 },
    );
  });

  it("returns trimmed, ordered ranges that cover every non-space character once without overlap", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), fc.integer({ min: 2, max: 30 }), (text, size) => {
        const ranges = splitTextRanges(text, { chunkSize: size, count: (t) => approximateTokenizer().count(t) });
        let last = 0;
        let covered = "";
        for (const r of ranges) {
          expect(r.start).toBeGreaterThanOrEqual(last);
          expect(r.end).toBeGreaterThan(r.start);
          last = r.end;
          covered += text.slice(r.start, r.end);
        }
        expect(covered.replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
      }),
      { numRuns: 200, seed: 8 },
    );
  });

  it("never cuts a surrogate pair, and flags a code point bigger than the budget", () => {
    const text = "😀".repeat(30);
    const ranges = splitTextRanges(text, { chunkSize: 1, count: (t) => cl100kTokenizer().count(t) });
    for (const r of ranges) {
      const piece = text.slice(r.start, r.end);
      expect(piece).toBe("😀");
      expect(r.oversized).toBe(true);
    }
  });

  it("repeats about overlapTokens between consecutive pieces", () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
    const ranges = splitTextRanges(words, { chunkSize: 20, chunkOverlap: 6, count: (t) => cl100kTokenizer().count(t) });
    expect(ranges.length).toBeGreaterThan(2);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.start).toBeLessThan(ranges[i - 1]!.end);
  });

  it("has paragraph, line, Chinese and Latin sentence separators by default", () => {
    const values = DEFAULT_SEPARATORS.map((s) => s.value);
    for (const v of ["\n\n", "\n", "。", "！", "？", "；", ". ", " ", ""]) expect(values).toContain(v);
  });
});
