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

  it("makes each HTML table row one sentence, marking the header, dropping bare markup", () => {
    const text = "Return shipping costs\n\n<table><tr><th>Reason</th><th>Who pays</th></tr><tr><td>Damaged. Really!</td><td>Northwind</td></tr></table>";
    const s = splitSentences(text);
    expect(s.map((x) => [x.text, x.tableRow])).toEqual([
      ["Return shipping costs", undefined],
      ["<tr><th>Reason</th><th>Who pays</th></tr>", "header"],
      ["<tr><td>Damaged. Really!</td><td>Northwind</td></tr>", "row"],
    ]);
    for (const x of s) expect(text.slice(x.start, x.end)).toBe(x.text);
  });

  it("makes each Markdown table line one sentence, the line above | --- | the header (Chinese cells)", () => {
    const text = "费用标准\n\n| 项目 | 标准 |\n| --- | :-: |\n| 住宿。一线城市 | 每晚不超过600元 |\n之后的说明。";
    expect(splitSentences(text).map((x) => [x.text, x.tableRow])).toEqual([
      ["费用标准", undefined],
      ["| 项目 | 标准 |", "header"],
      ["| 住宿。一线城市 | 每晚不超过600元 |", "row"],
      ["之后的说明。", undefined],
    ]);
  });
});
