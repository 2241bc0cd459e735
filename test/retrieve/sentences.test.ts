import { describe, expect, it } from "vitest";
import { splitSentences } from "../../src/retrieve/sentences.js";

describe("splitSentences", () => {
  it("splits English on . ! ? followed by space, not inside numbers", () => {
    const text = "Version 3.5 is out. Is it fast? Yes!  It is.";
    const s = splitSentences(text);
    expect(s.map((x) => x.text)).toEqual(["Version 3.5 is out.", "Is it fast?", "Yes!", "It is."]);
    for (const x of s) expect(text.slice(x.start, x.end)).toBe(x.text);
  });

  it("splits Chinese on 。！？ with no spaces, keeping closing quotes", () => {
    const text = "退款期限为三十天。“请保留发票。”是否包含运费？不包含；但可以申请补偿";
    expect(splitSentences(text).map((x) => x.text)).toEqual(["退款期限为三十天。", "“请保留发票。”", "是否包含运费？", "不包含；但可以申请补偿"]);
  });

  it("keeps clauses joined by a semicolon in one sentence (Chinese and English)", () => {
    expect(splitSentences("订单满五十欧元免运费。退货运费由顾客承担；商品有质量问题时由本店承担。").map((x) => x.text)).toEqual([
      "订单满五十欧元免运费。",
      "退货运费由顾客承担；商品有质量问题时由本店承担。",
    ]);
    expect(splitSentences("Shipping is free. Return shipping is paid by the customer; defective products are returned free.").map((x) => x.text)).toEqual([
      "Shipping is free.",
      "Return shipping is paid by the customer; defective products are returned free.",
    ]);
  });

  it("treats newlines as breaks and drops blank pieces", () => {
    expect(splitSentences("row one\n\n  row two \n").map((x) => x.text)).toEqual(["row one", "row two"]);
    expect(splitSentences("   ")).toEqual([]);
  });
});
