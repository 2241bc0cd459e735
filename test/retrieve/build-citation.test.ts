import { describe, expect, it } from "vitest";
import { buildCitation, toPassage } from "../../src/retrieve/build-citation.js";
import { makeChunk } from "./make-chunks.js";

const box = (y0: number, y1: number) => [0.1, y0, 0.9, y0, 0.9, y1, 0.1, y1];
const TITLE = { page: 1, elementId: "title", coordinates: box(0.4, 0.45) };
const TABLE = { page: 1, elementId: "table", coordinates: box(0.47, 0.6) };
const tableInfo = { elementId: "table", rowStart: 1, rowEnd: 3, headerRows: 1, rows: 4 };

describe("buildCitation: table quotes", () => {
  it("boxes an HTML row quote with the table only, never the title above it", async () => {
    const text =
      "Return shipping costs\n\n<table><tr><th>Reason for return</th><th>Who pays shipping</th></tr>" +
      "<tr><td>Changed your mind</td><td>Customer</td></tr><tr><td>Damaged on arrival</td><td>Northwind</td></tr></table>";
    const chunk = makeChunk("t", text, { kind: "table", regions: [TITLE, TABLE], headingPath: ["Policy", "Return shipping costs"], table: tableInfo });
    const c = await buildCitation(toPassage([chunk]), "Who pays shipping for damaged items");
    expect(c.quote.text).toBe("<tr><td>Damaged on arrival</td><td>Northwind</td></tr>");
    expect(c.quote.regions.map((r) => r.elementId)).toEqual(["table"]);
    expect(c.quote.approximate).toBe(true);
    expect(c.regions.map((r) => r.elementId)).toEqual(["title", "table"]);
  });

  it("the same for a Markdown table (a line per row) with Chinese text", async () => {
    const text = "费用标准\n\n| 项目 | 标准 |\n| --- | --- |\n| 住宿（一线城市） | 每晚不超过600元 |\n| 餐饮补助 | 每天100元 |";
    const chunk = makeChunk("m", text, { kind: "table", regions: [TITLE, TABLE], headingPath: ["员工手册", "费用标准"], table: tableInfo });
    const c = await buildCitation(toPassage([chunk]), "餐饮补助的标准是多少？");
    expect(c.quote.text).toBe("| 餐饮补助 | 每天100元 |");
    expect(c.quote.regions.map((r) => r.elementId)).toEqual(["table"]);
  });

  it("a quote of the title boxes the title", async () => {
    const text = "Return shipping costs\n\n<table><tr><td>Changed your mind</td><td>Customer</td></tr></table>";
    const chunk = makeChunk("t2", text, { kind: "table", regions: [TITLE, TABLE], headingPath: ["Policy"], table: tableInfo });
    const c = await buildCitation(toPassage([chunk]), "return shipping costs");
    expect(c.quote.text).toBe("Return shipping costs");
    expect(c.quote.regions.map((r) => r.elementId)).toEqual(["title"]);
  });
});
