import { describe, expect, it } from "vitest";
import { selectQuote } from "../../src/retrieve/select-quote.js";

describe("selectQuote", () => {
  it("picks the English sentence sharing the most query words", () => {
    const text = "The company was founded in 1998. Refunds are accepted within thirty days of purchase. Shipping is free.";
    const q = selectQuote(text, "How many days do I have for a refund?");
    expect(q.text).toBe("Refunds are accepted within thirty days of purchase.");
    expect(text.slice(q.start, q.end)).toBe(q.text);
    expect(q.score).toBeGreaterThan(0.5);
  });

  it("picks the Chinese sentence by character bigrams", () => {
    const text = "本公司成立于一九九八年。退款期限为购买后三十天。运费由买家承担。";
    const q = selectQuote(text, "退款期限是多久");
    expect(q.text).toBe("退款期限为购买后三十天。");
    expect(text.slice(q.start, q.end)).toBe(q.text);
  });

  it("joins a neighbouring sentence only when it adds query terms", () => {
    const text = "Alpha beta. Gamma delta. Unrelated words.";
    expect(selectQuote(text, "beta gamma").text).toBe("Alpha beta. Gamma delta.");
    expect(selectQuote(text, "beta").text).toBe("Alpha beta.");
    expect(selectQuote(text, "beta gamma", { maxSentences: 1 }).text).toBe("Alpha beta.");
  });

  it("does not end a quote at a semicolon: the clause after it qualifies the answer", () => {
    const zh = "订单满五十欧元免运费。退货运费由顾客承担；商品有质量问题时由本店承担。";
    expect(selectQuote(zh, "退货运费谁承担？").text).toBe("退货运费由顾客承担；商品有质量问题时由本店承担。");
    const en = "Shipping is free above fifty euros. Return shipping is paid by the customer; defective products ship back free.";
    expect(selectQuote(en, "Who pays return shipping?").text).toBe("Return shipping is paid by the customer; defective products ship back free.");
  });

  it("in a table, quotes the best-matching body row, read with its header, not the header", () => {
    const html =
      "Return shipping costs\n\n<table><tr><th>Reason for return</th><th>Who pays shipping</th><th>Restocking fee</th></tr>" +
      "<tr><td>Changed your mind</td><td>Customer</td><td>10%</td></tr><tr><td>Damaged on arrival</td><td>Northwind</td><td>None</td></tr>" +
      "<tr><td>Wrong item sent</td><td>Northwind</td><td>None</td></tr></table>";
    const q = selectQuote(html, "Who pays shipping for damaged items", { avoid: ["Return shipping costs"] });
    expect(q.text).toBe("<tr><td>Damaged on arrival</td><td>Northwind</td><td>None</td></tr>");
    // The row counts its header's matches: pays, shipping, damaged of pays, shipping, damaged, items.
    expect(q.score).toBe(0.75);
    const md = "| Reason for return | Who pays shipping |\n| --- | --- |\n| Changed your mind | Customer |\n| Damaged on arrival | Northwind |";
    expect(selectQuote(md, "Who pays shipping for damaged items").text).toBe("| Damaged on arrival | Northwind |");
  });

  it("in a Chinese table, the matching row beats a header that matches more", () => {
    const md = "| 项目 | 标准 |\n| --- | --- |\n| 住宿（一线城市） | 每晚不超过600元 |\n| 餐饮补助 | 每天100元 |";
    expect(selectQuote(md, "餐饮的项目标准").text).toBe("| 餐饮补助 | 每天100元 |");
  });

  it("a header matching alone is quoted with the row below it", () => {
    const md = "| 项目 | 标准 |\n| --- | --- |\n| 住宿 | 每晚600元 |\n| 餐饮 | 每天100元 |";
    expect(selectQuote(md, "项目标准").text).toBe("| 项目 | 标准 |\n| --- | --- |\n| 住宿 | 每晚600元 |");
  });

  it("falls back to the first sentence with score 0", () => {
    const q = selectQuote("First one. Second one.", "zebra");
    expect(q).toMatchObject({ text: "First one.", start: 0, score: 0 });
    expect(selectQuote("", "x")).toEqual({ text: "", start: 0, end: 0, score: 0 });
  });
});

describe("options.avoid", () => {
  it("quotes a heading only when nothing else matches", () => {
    const text = "退货政策\n\n顾客可以在购买后三十天内申请退货。";
    expect(selectQuote(text, "退货期限", { avoid: ["退货政策"] }).text).toBe("顾客可以在购买后三十天内申请退货。");
    expect(selectQuote("Warranty\n\nEvery device has one.", "zebra", { avoid: ["Warranty"] }).text).toBe("Every device has one.");
    expect(selectQuote("Warranty", "warranty", { avoid: ["Warranty"] }).text).toBe("Warranty");
  });
});
