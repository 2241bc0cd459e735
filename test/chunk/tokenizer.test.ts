import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import { describe, expect, it } from "vitest";
import { approximateTokenizer, cl100kTokenizer, resolveTokenizer, type Tokenizer } from "../../src/chunk/tokenizer.js";

const reference = new Tiktoken(cl100kRanks);
const exact = (text: string) => reference.encode(text, [], []).length;

// Text that exercises the pre-tokeniser: words, numbers, punctuation runs, newlines,
// trailing spaces, CJK, emoji (surrogate pairs), combining marks.
const fragment = fc.constantFrom(
  "Hello", " world", "  ", "\n", "\n\n", "\r\n", ".", "...", ",", "!?", "'s", "'LL", "123456", " 3.14",
  "中文", "测试。", "这是一个句子！", "；", "，", "　", "😀", "👍🏽", "é", "e\u0301", "ǅ", "<|endoftext|>", "\t", "--", "→",
);
const text = fc.array(fragment, { maxLength: 40 }).map((xs) => xs.join(""));

describe("cl100kTokenizer", () => {
  it("counts exactly what js-tiktoken's encoder counts", () => {
    fc.assert(fc.property(text, (t) => {
      expect(cl100kTokenizer().count(t)).toBe(exact(t));
    }), { numRuns: 400, seed: 1 });
  });

  it("counts arbitrary unicode strings exactly", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (t) => {
      expect(cl100kTokenizer().count(t)).toBe(exact(t));
    }), { numRuns: 300, seed: 2 });
  });

  it("counts long runs without spaces (long byte-pair merges)", () => {
    for (const t of ["x".repeat(700), "中".repeat(400), "ab".repeat(300), "東京都渋谷区".repeat(40)]) expect(cl100kTokenizer().count(t)).toBe(exact(t));
  });

  it("counts special-token strings as plain text instead of throwing", () => {
    expect(() => cl100kTokenizer().count("before <|endoftext|> after")).not.toThrow();
    expect(cl100kTokenizer().count("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("joins counts exactly whenever it answers (countJoined), and answers for paragraph joins", () => {
    const t = cl100kTokenizer();
    checkJoined(t, 4);
    const a = "First paragraph ends here.";
    const b = "第二段开始。";
    expect(t.countJoined!(a, t.count(a), "\n\n", b, t.count(b))).toBe(t.count(`${a}\n\n${b}`));
    expect(t.countJoined!("Heading\n\n", t.count("Heading\n\n"), "", b, t.count(b))).toBe(t.count(`Heading\n\n${b}`));
    expect(t.countJoined!("passage: ", 2, "", "text", 1)).toBeUndefined();
  });

  it("is named cl100k_base, counts the empty string as 0 and is a singleton", () => {
    expect(cl100kTokenizer().name).toBe("cl100k_base");
    expect(cl100kTokenizer().count("")).toBe(0);
    expect(cl100kTokenizer()).toBe(cl100kTokenizer());
  });
});

function checkJoined(t: Tokenizer, seed: number): void {
  let answered = 0;
  fc.assert(
    fc.property(text, fc.constantFrom("", " ", "\n", "\n\n", "\t ", "x"), text, (a, sep, b) => {
      const joined = t.countJoined!(a, t.count(a), sep, b, t.count(b));
      if (joined === undefined) return;
      answered++;
      expect(joined).toBe(t.count(a + sep + b));
    }),
    { numRuns: 1500, seed },
  );
  expect(answered).toBeGreaterThan(300);
}

describe("approximateTokenizer", () => {
  const t = approximateTokenizer();

  it("counts each CJK character as one token", () => {
    expect(t.count("中文测试")).toBe(4);
    expect(t.count("这是一个句子。")).toBe(7);
    expect(t.count("𠀀𠀁")).toBe(2); // CJK extension B, surrogate pairs
  });

  it("counts about one token per four characters of other text", () => {
    expect(t.count("abcd")).toBe(1);
    expect(t.count("abcde")).toBe(2);
    expect(t.count("hello world")).toBe(4);
    expect(t.count("a\nb")).toBe(3);
    expect(t.count("")).toBe(0);
  });

  it("mixes: Latin runs end at CJK characters", () => {
    expect(t.count("GPT模型")).toBe(3);
  });

  it("joins counts exactly whenever it answers (countJoined)", () => {
    checkJoined(t, 3);
  });

  it("stays within a factor of ~2 of cl100k on English and Chinese", () => {
    const en = "The quarterly revenue grew by twelve percent compared with the previous year, driven by services.";
    const zh = "本季度收入比去年同期增长百分之十二，主要来自服务业务的增长。";
    for (const s of [en, zh]) {
      const ratio = t.count(s) / cl100kTokenizer().count(s);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    }
  });
});

describe("resolveTokenizer", () => {
  it("resolves names and passes custom tokenizers through", () => {
    const mine: Tokenizer = { name: "words", count: (s) => s.split(/\s+/).filter(Boolean).length };
    expect(resolveTokenizer("approximate")).toBe(approximateTokenizer());
    expect(resolveTokenizer("cl100k_base")).toBe(cl100kTokenizer());
    expect(resolveTokenizer(mine)).toBe(mine);
  });
});
