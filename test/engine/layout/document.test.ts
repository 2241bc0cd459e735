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

  it("finds running heads and page numbers set further in than the margins, and keeps chapter titles", () => {
    // LaTeX's report class: a chapter opens with a large title and its number at the
    // foot (7/8 down); other pages carry the chapter's name and the number an eighth down.
    const body = (n: number): TextRun[] => [run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300)];
    const pages = [1, 2, 3, 4, 5].map((n) =>
      page(
        n,
        n === 1 || n === 4
          ? [run(`Chapter ${n === 1 ? 1 : 2}`, 80, 150, { fontSize: 20, bold: true }), ...body(n), run(String(n), 295, 700)]
          : [run(`CHAPTER ${n < 4 ? 1 : 2}. OVERVIEW`, 80, 100, { italic: true }), run(String(n), 510, 100), ...body(n)],
      ),
    );
    const laid = finishDocument(pages);
    const kinds = (n: number) => laid.filter((l) => l.page === n).map((l) => l.block.kind);
    expect(kinds(1)).toEqual(["title", "text", "page-number"]);
    expect(kinds(2)).toEqual(["header", "page-number", "text"]);
    expect(kinds(3)).toEqual(["header", "page-number", "text"]);
    expect(kinds(4)).toEqual(["title", "text", "page-number"]);
    expect(kinds(5)).toEqual(["header", "page-number", "text"]);
  });

  it("does not take a table of contents' entries for headings", () => {
    const leader = " . . . . . . . . . . . . . . . .";
    const p = page(1, [
      run("Contents", 80, 100, { fontSize: 20, bold: true }),
      run("1 Introduction", 80, 150, { bold: true }),
      run("1", 500, 150),
      run(`1.1 Scope${leader}`, 95, 166),
      run("1", 500, 166),
      run(`1.2 Terms${leader}`, 95, 180),
      run("2", 500, 180),
      run("Some body text after the contents that sets the body size of the page.", 80, 400),
    ]);
    const titles = finishDocument([p]).filter((l) => l.block.kind === "title").map((l) => l.block.text);
    expect(titles).toEqual(["Contents"]);
  });

  it("keeps body-size chapter headings, side-by-side labels and a slide's first paragraph out of running text", () => {
    const para = (n: number, y: number): TextRun[] => [
      run(`Body text of page ${n} runs on here, long enough to set the body size and more.`, 80, y),
      run(`and it keeps going with another line of ordinary prose on the page ${n}.`, 80, y + 12),
    ];
    const chapters = finishDocument([1, 2, 3, 4].map((n) => page(n, [run(`Chapter ${n}`, 80, 120, { bold: true }), ...para(n, 150), ...para(n, 400)])));
    expect(chapters.filter((l) => l.block.text.startsWith("Chapter")).map((l) => l.block.kind)).toEqual(["title", "title", "title", "title"]);
    const labels = finishDocument([page(1, [run("Option 1", 80, 120, { bold: true }), run("Option 2", 330, 120, { bold: true }), ...para(1, 150)])]);
    expect(labels.filter((l) => l.block.text.startsWith("Option")).map((l) => l.block.kind)).toEqual(["title", "title"]);
    // Beamer overlays: the frame title repeats in the margin; the paragraph under it is content.
    const slide = (n: number): PageLayout => {
      const runs = [run("Motivation", 20, 10, { fontSize: 14.4, bold: true }), run("We want to parse PDFs quickly and keep their structure.", 20, 50, { fontSize: 11 })];
      for (let i = 1; i < n; i++) runs.push(run(`Point number ${i} that appears on this overlay.`, 20, 50 + 30 * i, { fontSize: 11 }));
      return { ...page(n, runs), width: 363, height: 272 };
    };
    const overlays = finishDocument([slide(1), slide(2), slide(3)]);
    expect(overlays.filter((l) => l.block.text.startsWith("We want")).map((l) => l.block.kind)).toEqual(["text", "text", "text"]);
  });
});
