import { describe, expect, it } from "vitest";
import { textTerms } from "../../src/embed/text-terms.js";

describe("textTerms", () => {
  it("splits words, lower-cases, drops punctuation", () => {
    expect(textTerms("Hello, World! v2.0")).toEqual(["hello", "world", "v2", "0"]);
  });

  it("cuts CJK runs into character unigrams and bigrams", () => {
    expect(textTerms("混合检索")).toEqual(["混", "混合", "合", "合检", "检", "检索", "索"]);
  });

  it("separates CJK from Latin in mixed text", () => {
    expect(textTerms("PGlite数据库")).toEqual(["pglite", "数", "数据", "据", "据库", "库"]);
  });

  it("options.wordBigrams adds bigrams of consecutive words, not across CJK", () => {
    expect(textTerms("new york 城 city", { wordBigrams: true })).toEqual(["new", "york", "new_york", "城", "city"]);
  });

  it("options.cjkUnigrams false keeps bigrams only (one-character runs keep their character)", () => {
    expect(textTerms("混合检索 的", { cjkUnigrams: false })).toEqual(["混合", "合检", "检索", "的"]);
  });

  it("handles kana and Hangul, and characters outside the BMP", () => {
    expect(textTerms("カナ")).toEqual(["カ", "カナ", "ナ"]);
    expect(textTerms("한국")).toEqual(["한", "한국", "국"]);
    expect(textTerms("𠀀𠀁")).toEqual(["𠀀", "𠀀𠀁", "𠀁"]);
  });
});
