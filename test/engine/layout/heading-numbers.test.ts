import { describe, expect, it } from "vitest";
import { chineseNumberRank } from "../../../src/engine/layout/heading-numbers.js";

describe("chineseNumberRank", () => {
  it("ranks the Chinese numbering forms outermost first", () => {
    const forms = ["第一编 总则", "第一章 总则", "第二节 释义", "第十二条 违约责任", "三、保障措施", "（二）深化隐患排查", "2. 主要负责人", "（3）施工现场", "①系统需求分析"];
    const ranks = forms.map(chineseNumberRank);
    expect(ranks.every((r) => r > 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).toBe(forms.length);
  });

  it("gives 0 to unnumbered headings, decimal sections and Latin text", () => {
    for (const text of ["摘要", "2.1 版面分析", "1. Introduction", "(a) scope", "第一次会议纪要"]) expect(chineseNumberRank(text)).toBe(0);
  });
});
