import { describe, expect, it } from "vitest";
import { buildBlocks, buildLines, classifyBlocks, finishDocument, type PageLayout, type TextRun } from "../../../src/engine/layout/index.js";
import { compactLayout } from "../../../src/engine/formats/pdf-page.js";
import { run } from "./support.js";

function page(number: number, runs: TextRun[]): PageLayout {
  const blocks = buildBlocks(buildLines(runs));
  classifyBlocks(blocks);
  blocks.sort((a, b) => a.y0 - b.y0);
  return { number, width: 600, height: 800, blocks };
}

describe("finishDocument", () => {
  it("finds running headers, footers and page numbers, and keeps single-page text", () => {
    const pages = [1, 2, 3].map((n) => page(n, [run("Company handbook", 50, 20, { fontSize: 8 }), run(`body of page ${n}.`, 50, 300), run(`- ${n} -`, 290, 770, { fontSize: 8 })]));
    const laid = finishDocument(pages);
    expect(laid.map((l) => [l.page, l.block.kind])).toEqual([
      [1, "header"],
      [1, "text"],
      [1, "page-number"],
      [2, "header"],
      [2, "text"],
      [2, "page-number"],
      [3, "header"],
      [3, "text"],
      [3, "page-number"],
    ]);
  });

  it("ranks heading styles and lets the outline override", () => {
    const p = page(1, [
      run("Big Title", 50, 50, { fontSize: 20, bold: true }),
      run("Sub heading", 50, 100, { fontSize: 14, bold: true }),
      run("some body text that is long enough to be the body size of the page", 50, 130),
      run("Listed In Outline", 50, 200, { fontSize: 10, bold: true }),
      run("more body text that is long enough to count for the statistics", 50, 230),
    ]);
    const laid = finishDocument([p], [{ title: "Listed in outline", depth: 0 }]);
    expect(laid.filter((l) => l.block.kind === "title").map((l) => [l.block.text, l.block.headingLevel])).toEqual([
      ["Big Title", 1],
      ["Sub heading", 2],
      ["Listed In Outline", 1],
    ]);
  });

  it("links a sentence cut by a page break, not a finished one", () => {
    const laid = finishDocument([page(1, [run("this sentence goes on", 50, 700)]), page(2, [run("and ends here.", 50, 60), run("New sentence.", 50, 100)]), page(3, [run("Fresh start.", 50, 60)])]);
    expect(laid.map((l) => l.continuationOf)).toEqual([undefined, 0, undefined, undefined]);
  });

  it("decides the same on pages compacted to cross threads (lines dropped, their count kept)", () => {
    const pages = (): PageLayout[] => [
      page(1, [
        run("Short bold heading", 50, 50, { fontSize: 14, bold: true }),
        // Four bold lines: too long for a heading, whose test counts lines.
        ...[0, 1, 2, 3].map((i) => run(`Bold paragraph line ${i + 1}`, 50, 100 + i * 16, { fontSize: 14, bold: true })),
        run("some body text that is long enough to be the body size of the page", 50, 200),
      ]),
    ];
    const compacted = pages().map((p) => compactLayout({ ...p, rotate: 0 }));
    expect(compacted[0]!.blocks.every((b) => b.lines.length === 0)).toBe(true);
    expect(compacted[0]!.blocks.map((b) => b.lineCount)).toEqual([1, 4, 1]);
    const decide = (laid: ReturnType<typeof finishDocument>): [string, string][] => laid.map((l) => [l.block.kind, l.block.text]);
    const full = decide(finishDocument(pages()));
    expect(full.map(([kind]) => kind)).toEqual(["title", "text", "text"]);
    expect(decide(finishDocument(compacted))).toEqual(full);
  });
});
