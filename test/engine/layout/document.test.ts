import { describe, expect, it } from "vitest";
import { buildBlocks, buildLines, classifyBlocks, finishDocument, toFrame, type Block, type GridCell, type GridTable, type PageLayout, type TextRun } from "../../../src/engine/layout/index.js";
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

  it("ranks a bold label the outline does not list under the outline's headings styled above it", () => {
    const p = page(1, [
      run("1 Supplier Registration", 50, 50, { fontSize: 16, bold: true }),
      run("1.1 Company details", 50, 90, { fontSize: 13, bold: true }),
      run("some body text that is long enough to be the body size of the page", 50, 120),
      run("Please note", 50, 150, { bold: true }),
      run("more body text that is long enough to count for the statistics", 50, 170),
      run("1.2 Contact", 50, 200, { fontSize: 13, bold: true }),
    ]);
    const laid = finishDocument([p], [{ title: "1 Supplier Registration", depth: 0 }, { title: "1.1 Company details", depth: 1 }, { title: "1.2 Contact", depth: 1 }]);
    expect(laid.filter((l) => l.block.kind === "title").map((l) => [l.block.text, l.block.headingLevel])).toEqual([
      ["1 Supplier Registration", 1],
      ["1.1 Company details", 2],
      ["Please note", 3],
      ["1.2 Contact", 2],
    ]);
  });

  it("joins a chapter's label to the title under it, one heading at the title's level", () => {
    const p = page(1, [
      run("Chapter 1", 50, 100, { fontSize: 20, bold: true }),
      run("Architecture Overview", 50, 140, { fontSize: 24, bold: true }),
      run("1.1 Design goals", 50, 200, { fontSize: 14, bold: true }),
      run("Body text of the section, long enough to set the body size of the page.", 50, 230),
    ]);
    const laid = finishDocument([p]);
    expect(laid.filter((l) => l.block.kind === "title").map((l) => [l.block.text, l.block.headingLevel])).toEqual([
      ["Chapter 1 Architecture Overview", 1],
      ["1.1 Design goals", 2],
    ]);
    expect(laid[0]!.block.y0).toBe(100 - 0);
    // An appendix's label over its first numbered section, smaller: two headings.
    const appendix = page(1, [
      run("Appendix A", 50, 100, { fontSize: 16, bold: true }),
      run("A.1 Raw data", 50, 130, { fontSize: 13, bold: true }),
      run("Body text of the section, long enough to set the body size of the page.", 50, 160),
    ]);
    expect(finishDocument([appendix]).filter((l) => l.block.kind === "title").map((l) => l.block.text)).toEqual(["Appendix A", "A.1 Raw data"]);
  });

  it("does not take a pull quote set large for a heading", () => {
    const p = page(1, [
      run("The vote", 50, 50, { fontSize: 16, bold: true }),
      run("The council voted seven to two on Tuesday night to approve the park.", 50, 90),
      run("“This is the biggest investment in public space in forty years.”", 50, 120, { fontSize: 16 }),
      run("Supporters said the park would give residents a place to walk and play.", 50, 160),
    ]);
    const laid = finishDocument([p]);
    expect(laid.map((l) => l.block.kind)).toEqual(["title", "text", "text", "text"]);
  });

  it("links no address to the page's last block: a contact line in lower case starts afresh", () => {
    const across = (head: string) => finishDocument([page(1, [run("Ul. Dluga 12, 00-238 Warszawa, Poland +48 601 234 567", 50, 700)]), page(2, [run(head, 50, 60)])]).map((l) => l.continuationOf);
    expect(across("anna.kowalska@example.org github.com/akowalska")).toEqual([undefined, undefined]);
    expect(across("github.com/akowalska")).toEqual([undefined, undefined]);
    expect(across("and the office in Krakow")).toEqual([undefined, 0]);
  });

  it("links a paragraph cut by a column break past the column's footnote", () => {
    const body = "Each page is read as a stream of glyphs with positions and sizes, grouped into lines and";
    // In reading order: the left column, its footnote, the right column.
    const blocks = buildBlocks(
      buildLines([
        ...Array.from({ length: 4 }, (_, i) => run(`${body} ${i}`, 50, 400 + 12 * i, { x1: 290 })),
        run("blocks by the", 50, 448, { x1: 120 }),
        run("1 See the appendix for the full list of manuals.", 50, 700, { fontSize: 8 }),
        run("items, tables and formulas. The score of a block is its weighted sum.", 320, 100, { x1: 560 }),
      ]),
    );
    classifyBlocks(blocks);
    blocks.sort((a, b) => a.x0 - b.x0 || a.y0 - b.y0);
    const laid = finishDocument([{ number: 1, width: 600, height: 800, blocks }]);
    const goesOn = laid.findIndex((l) => l.block.text.startsWith("items, tables"));
    expect(laid[goesOn]!.continuationOf).toBe(laid.findIndex((l) => l.block.text.startsWith("Each page")));
  });

  it("measures a law review's body past its footnotes, which outweigh it: short paragraphs are no headings", () => {
    const note = "See generally Grant Gilmore, The Death of Contract 64-72 (1974) (describing the rise of reliance as a competitor to bargain).";
    const notes = (first: number) => Array.from({ length: 6 }, (_, i) => run(`${first + i} ${note}`, 50, 480 + 40 * i, { fontSize: 10, x1: 550 }));
    const p1 = page(1, [
      run("The doctrine of promissory estoppel occupies an uneasy place in contract.1", 50, 100, { fontSize: 12 }),
      run("Part I traces the emergence of the reliance measure after Hoffman.2", 50, 140, { fontSize: 12 }),
      run("The remainder of this Introduction explains why the gap matters as much for", 50, 180, { fontSize: 12 }),
      ...notes(1),
    ]);
    const p2 = page(2, [run("litigation.7", 50, 60, { fontSize: 12 }), run("Two features of the case law deserve emphasis.8", 50, 100, { fontSize: 12 }), ...notes(7)]);
    const laid = finishDocument([p1, p2]);
    expect(laid.filter((l) => l.block.kind === "title")).toEqual([]);
    const tail = laid.find((l) => l.block.text === "litigation.7")!;
    expect(laid[tail.continuationOf!]!.block.text).toMatch(/^The remainder/);
  });

  it("links a sentence cut by a page break, not a finished one", () => {
    const laid = finishDocument([page(1, [run("this sentence goes on", 50, 700)]), page(2, [run("and ends here.", 50, 60), run("New sentence.", 50, 100)]), page(3, [run("Fresh start.", 50, 60)])]);
    expect(laid.map((l) => l.continuationOf)).toEqual([undefined, 0, undefined, undefined]);
  });

  it("takes no lone number beside the first line of a note of two lines or more for a page number", () => {
    const p = page(1, [
      run("The library continued to modernise its collections and digital services during the year.", 56.8, 100),
      run("1", 56.8, 760, { x1: 63.2 }),
      run("Figures as of 31 December 2023; website visits are counted without repeat visits, and loans of", 73.8, 760, { x1: 560 }),
      run("e-books are included with loans of printed books from all branches.", 73.8, 772, { x1: 420 }),
    ]);
    const laid = finishDocument([p]);
    expect(laid.map((l) => l.block.kind)).not.toContain("page-number");
  });

  it("links a sentence cut by a page break in caseless scripts (Hindi, Thai), not one ended by a danda", () => {
    const across = (foot: string, head: string) => finishDocument([page(1, [run(foot, 50, 700)]), page(2, [run(head, 50, 60)])]).map((l) => l.continuationOf);
    expect(across("राज्य सरकार ने", "विशेष प्रोत्साहन भत्ते की घोषणा की है।")).toEqual([undefined, 0]);
    expect(across("राज्य सरकार ने घोषणा की है।", "विशेष प्रोत्साहन भत्ते")).toEqual([undefined, undefined]);
    expect(across("ชาวนาขายผลผลิตราคาถูกมากใน", "ตลาดชุมชนทางภาคกลาง")).toEqual([undefined, 0]);
  });

  it("links text across a page break past footnotes, a float at the next page's head, and a sidebar read after the main column", () => {
    const prose = "The body of the page runs on here with a long line of text to set the body size of the document";
    const image = (top: number): Block => ({ x0: 50, y0: top, x1: 550, y1: top + 200, lines: [], text: "", fontSize: 0, bold: false, mono: false, kind: "image" });
    const p1 = page(1, [run(prose + ".", 50, 100), run("the sentence at the foot of the page goes on into the", 50, 690), run("1 A footnote in smaller type at the very foot of the page.", 50, 740, { fontSize: 8 })]);
    const p2 = page(2, [run("Figure 1: Architecture of the system.", 50, 270), run("next page, after the figure set at its head.", 50, 300)]);
    p2.blocks.unshift(image(60));
    const laid = finishDocument([p1, p2]);
    const goesOn = laid.find((l) => l.block.text.startsWith("next page"))!;
    expect(laid[goesOn.continuationOf!]!.block.text).toMatch(/^the sentence at the foot/);
    // A sidebar read after the main column, ending higher up, is not what goes on.
    const main = page(1, [run(prose + ".", 50, 100), run("the main column ends its page in the middle of the", 50, 700, { x1: 380 }), run("Newsletter: sign up for our weekly digest.", 420, 100, { x1: 560 })]);
    const next = page(2, [run("sentence, on the next page.", 50, 60)]);
    const withSidebar = finishDocument([main, next]);
    expect(withSidebar.at(-1)!.continuationOf).toBe(withSidebar.findIndex((l) => l.block.text.startsWith("the main column")));
  });

  it("links a table across a page break past a Continued-on-next-page note, and a listing cut at the page foot", () => {
    const mono = { mono: true };
    const code = finishDocument([
      page(1, [run("The module starts like this, and goes on overleaf:", 50, 600), run("export function load(path) {", 50, 700, mono), run("  const bytes = read(path);", 50, 712, mono)]),
      page(2, [run("  return parse(bytes);", 50, 60, mono), run("}", 50, 72, mono)]),
    ]);
    expect(code.map((l) => [l.block.kind, l.continuationOf])).toEqual([
      ["text", undefined],
      ["code", undefined],
      ["code", 1],
    ]);
    // Cut inside a function: the rest stands indented, and keeps that indentation.
    const cut = finishDocument([
      page(1, [run("def pipeline(rows):", 50, 700, mono), run("first = step(rows[0])", 70, 712, mono)]),
      page(2, [run("second = step(rows[1])", 70, 60, mono), run("return second", 70, 72, mono)]),
    ]);
    expect(cut.map((l) => [l.block.text, l.continuationOf])).toEqual([
      ["def pipeline(rows):\n    first = step(rows[0])", undefined],
      ["    second = step(rows[1])\n    return second", 0],
    ]);
    const cell = (row: number, col: number, text: string): GridCell => ({ row, col, rowSpan: 1, colSpan: 1, text, x0: 50 + 100 * (col - 1), x1: 150 + 100 * (col - 1), y0: 0, y1: 0 });
    const table = (top: number, rows: string[][]): Block => {
      const t: GridTable = { x0: 50, y0: top, x1: 250, y1: top + 20 * rows.length, rows: rows.length, cols: 2, cells: rows.flatMap((r, i) => r.map((c, j) => cell(i + 1, j + 1, c))) };
      return { x0: 50, y0: top, x1: 250, y1: t.y1, lines: [], text: "", fontSize: 0, bold: false, mono: false, kind: "table", table: t };
    };
    const first = page(1, [run("Continued on next page", 180, 730, { fontSize: 9 })]);
    first.blocks.unshift(table(500, [["Parameter", "Default"], ["alpha", "1"]]));
    const second = page(2, []);
    second.blocks.push(table(60, [["Parameter", "Default"], ["beta", "2"]]));
    const laid = finishDocument([first, second]);
    expect(laid.at(-1)!.continuationOf).toBe(0);
  });

  it("decides the same on pages compacted to cross threads (lines dropped, their count kept)", () => {
    const pages = (): PageLayout[] => [
      page(1, [
        // (Below the page's top third, where short blocks keep their lines: a table's last rows.)
        run("Short bold heading", 50, 350, { fontSize: 14, bold: true }),
        // Four bold lines: too long for a heading, whose test counts lines.
        ...[0, 1, 2, 3].map((i) => run(`Bold paragraph line ${i + 1}`, 50, 400 + i * 16, { fontSize: 14, bold: true })),
        run("some body text that is long enough to be the body size of the page", 50, 500),
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

  it("makes no heading of text drawn aside: a slanted watermark, a sideways margin stamp (on pages read upright), even compacted", () => {
    const body = [run("1 Introduction", 100, 60, { fontSize: 14, bold: true }), run("some body text that is long enough to be the body size of the page", 100, 100)];
    const stamp = (angle: number): TextRun => ({ ...run("arXiv:2403.01234v2 [cs.IR] 14 Mar 2024", 35, 83, { fontSize: 20, angle }), x1: 53, y1: 425 });
    const watermark = { ...run("CONFIDENTIAL", 150, 300, { fontSize: 60, angle: 45 }), x1: 450, y1: 600 };
    const titles = (p: PageLayout): string[] => finishDocument([compactLayout({ ...p, rotate: 0 })]).filter((l) => l.block.kind === "title").map((l) => l.block.text);
    expect(titles(page(1, [...body, stamp(90), watermark]))).toEqual(["1 Introduction"]);
    // In a turned frame (a vertically set page) the level text of the page is sideways.
    expect(titles({ ...page(1, [...body, stamp(90)]), frame: { angle: 270, width: 800, height: 600 } })).toEqual(["1 Introduction", "arXiv:2403.01234v2 [cs.IR] 14 Mar 2024"]);
  });

  it("finds running text where a page's shape or frame moved it: a landscape page among portrait ones, a sideways table's page", () => {
    const footer = (n: number, h: number): TextRun => run(`Riverside Housing Co-operative · Board minutes · Page ${n}`, 60, h - 64, { fontSize: 8 });
    const body = (n: number): TextRun => run(`The board agreed item ${n} of the agenda, as the minutes of the last meeting record.`, 60, 300);
    const portrait = (n: number): PageLayout => ({ ...page(n, [body(n), footer(n, 842)]), width: 595, height: 842 });
    // Page 2 is landscape (842 × 595): its footer, 64 pt up, is 11 % of its height.
    const landscape: PageLayout = { ...page(2, [body(2), footer(2, 595)]), width: 842, height: 595 };
    expect(finishDocument([portrait(1), landscape, portrait(3)]).map((l) => [l.page, l.block.kind])).toEqual([1, 2, 3].flatMap((n) => [[n, "text"], [n, "footer"]]));
    // A sideways table's page, laid out in its turned frame (90°), keeps its number upright
    // at the foot as shown, as far up as the other pages' (LaTeX: an eighth of the page).
    const frame = { angle: 90, width: 612, height: 792 } as const;
    const number = (n: number): TextRun => run(String(n), 303, 696);
    const upright = (n: number): PageLayout => ({ ...page(n, [run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300), number(n)]), width: 612, height: 792 });
    const turned: PageLayout = { ...page(2, [run("Parser Upright text Sideways table Rotated heads Landscape page", 150, 200), { ...number(2), ...toFrame(number(2), frame), angle: 90 }]), width: 792, height: 612, frame };
    expect(finishDocument([upright(1), turned, upright(3)]).map((l) => [l.page, l.block.kind])).toEqual([1, 2, 3].flatMap((n) => [[n, "text"], [n, "page-number"]]));
  });

  it("finds running text set level on the sheet of a page turned by /Rotate 90 to show its body upright (pdflscape)", () => {
    // Portrait sheets of 612 × 792, the head at the top, the number a sixth of the page up.
    const head = (): TextRun => run("Technical Report Running Head", 126, 90);
    const number = (n: number): TextRun => run(String(n), 303, 696);
    const body = (n: number): TextRun => run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300);
    const sheet = (n: number): PageLayout => ({ ...page(n, [head(), body(n), number(n)]), width: 612, height: 792, rotate: 0 });
    // Page 2's sheet turned a quarter clockwise to show it landscape (792 × 612): its body is
    // set upright as shown, its head and number stay where the sheet has them, so as shown
    // the head runs down the right edge and the number stands sideways at the left.
    const turn = (r: TextRun): TextRun => ({ ...r, x0: 792 - r.y1, x1: 792 - r.y0, y0: r.x0, y1: r.x1, angle: 270 });
    const turned: PageLayout = { ...page(2, [run("Landscape body text of page 2 runs on here, long enough to set the body size.", 80, 200), turn(head()), turn(number(2))]), width: 792, height: 612, frame: { angle: 0, width: 792, height: 612 }, rotate: 90 };
    const kinds = finishDocument([sheet(1), turned, sheet(3)]).filter((l) => !l.block.text.includes("body")).map((l) => [l.page, l.block.text, l.block.kind]);
    expect(kinds).toEqual([1, 2, 3].flatMap((n) => [[n, "Technical Report Running Head", "header"], [n, String(n), "page-number"]]));
  });

  it("takes a sideways strip repeated in a side margin for a footer (a publisher's Downloaded from), not a one-page stamp", () => {
    const strip = { ...run("Downloaded from https://example-journal.org/article/12/3/45 by guest on 2 April 2024", 580, 200, { angle: 90 }), x1: 590, y1: 620 };
    const stamp = { ...run("arXiv:2403.01234v2 [cs.IR] 14 Mar 2024", 35, 300, { angle: 90, fontSize: 20 }), x1: 53, y1: 640 };
    const body = (n: number): TextRun => run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300);
    const pages = [1, 2, 3].map((n) => page(n, n === 1 ? [body(n), strip, stamp] : [body(n), strip]));
    const laid = finishDocument(pages);
    expect(laid.filter((l) => l.block.text.startsWith("Downloaded")).map((l) => l.block.kind)).toEqual(["footer", "footer", "footer"]);
    expect(laid.find((l) => l.block.text.startsWith("arXiv"))?.block.kind).toBe("text");
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

  it("takes a lone number at the foot of a one-page document for its page number when it is that page's number", () => {
    // LaTeX's article class: the number a sixth of the page up, under the footnotes.
    const body = [run("Body text of the only page runs on here, long enough to set the body size.", 80, 300)];
    const kinds = (n: string) => finishDocument([page(1, [...body, run(n, 295, 700)])]).map((l) => l.block.kind);
    expect(kinds("1")).toEqual(["text", "page-number"]);
    // Another figure there is content: nothing counts it as the page's number.
    expect(kinds("7")).toEqual(["text", "text"]);
  });

  it("takes a front matter's roman page numbers, set further in, for page numbers", () => {
    const body = (n: number): TextRun[] => [run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300)];
    const roman = ["i", "ii", "iii", "iv"];
    const pages = [1, 2, 3, 4].map((n) => page(n, [...body(n), run(roman[n - 1]!, 295, 650)]));
    expect(finishDocument(pages).filter((l) => roman.includes(l.block.text)).map((l) => l.block.kind)).toEqual(["page-number", "page-number", "page-number", "page-number"]);
  });

  it("takes the number at the foot of a book's only chapter opening for its page number, the others confirmed at the heads", () => {
    const body = (n: number): TextRun[] => [run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300)];
    const pages = [1, 2, 3].map((n) => page(n, n === 1 ? [run("Chapter 1", 80, 150, { fontSize: 20, bold: true }), ...body(n), run("1", 295, 650)] : [run(String(n), 80, 95), ...body(n)]));
    expect(finishDocument(pages).filter((l) => /^\d$/.test(l.block.text)).map((l) => l.block.kind)).toEqual(["page-number", "page-number", "page-number"]);
  });

  it("takes a numbered section's running head, read as an item, for a header in the slot of the heads confirmed on others", () => {
    // LaTeX's book class: the chapter on even pages, the numbered section on odd ones.
    const body = (n: number): TextRun[] => [run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300)];
    const head = (n: number) => (n % 2 === 0 ? "CHAPTER 1. PUMPS" : `1.${n}. STORAGE TANKS ${n}`);
    const pages = [2, 3, 4, 5, 6, 7, 8].map((n) => page(n, [run(head(n), 80, 100, { italic: true }), run(String(n), 510, 100), ...body(n)]));
    const laid = finishDocument(pages);
    expect(laid.filter((l) => /^1\.\d\./.test(l.block.text)).map((l) => l.block.kind)).toEqual(["header", "header", "header"]);
  });

  it("finds a running head whose wording changes with every chapter and side: one line in one slot on most pages", () => {
    const heads = ["Network Operations · Controlled copy", "Introduction — Revision 4", "Operator Manual — Introduction", "Starting the Pumps — Revision 4", "Operator Manual — Starting the Pumps"];
    const body = (n: number): TextRun[] => [run(`Body text of page ${n} runs on here, long enough to set the body size of it.`, 80, 100), run("and a second line of the same paragraph under it.", 80, 112)];
    const laid = finishDocument(heads.map((h, i) => page(i + 1, [run(h, 250, 40, { fontSize: 9 }), ...body(i + 1)])));
    expect(laid.filter((l) => heads.includes(l.block.text)).map((l) => l.block.kind)).toEqual(["header", "header", "header", "header", "header"]);
    // A paragraph opening every page at the top margin is the pages' content.
    expect(laid.filter((l) => l.block.text.startsWith("Body")).map((l) => l.block.kind)).toEqual(["text", "text", "text", "text", "text"]);
    // So is a transcript's first line on every page: it stands no further from the next
    // line than the lines do from each other.
    const topics = ["the budget", "the pumps", "the valves", "the meters", "the staff", "the reservoir", "the filters", "the alarms"];
    const transcript = [1, 2, 3, 4, 5].map((n) => page(n, Array.from({ length: 8 }, (_, i) => run(`09:0${i} Speaker ${"ABCDE"[(n + i) % 5]}: we review ${topics[(n * 3 + i) % 8]}.`, 50, 40 + 20 * i))));
    expect(finishDocument(transcript).map((l) => l.block.kind).filter((k) => k !== "text")).toEqual([]);
  });

  it("keeps a letterhead set large and the same on every page running text, not a title", () => {
    const pages = [1, 2, 3, 4].map((n) => page(n, [run("Northern Water Authority", 50, 20, { fontSize: 16, bold: true }), run("12 Quay Street, Hull HU1 2AB", 50, 40, { fontSize: 8 }), run(`Body text of page ${n} runs on here, long enough to set the body size.`, 50, 200)]));
    expect(finishDocument(pages).filter((l) => l.block.text.startsWith("Northern")).map((l) => l.block.kind)).toEqual(["header", "header", "header", "header"]);
  });

  it("finds a short chapter's running head, on one page only, in the slot of the heads confirmed on others", () => {
    const body = (n: number): TextRun[] => [run(`Body text of page ${n} runs on here, long enough to set the body size.`, 80, 300)];
    const head = (n: number) => (n < 3 ? "CHAPTER 1. ARCHITECTURE" : n < 8 ? "CHAPTER 2. THE WRITE PATH" : "CHAPTER 3. COMPACTION");
    const pages = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) =>
      page(n, n === 1 || n === 3 || n === 8 ? [run(`Chapter ${n}`, 80, 150, { fontSize: 20, bold: true }), ...body(n)] : [run(head(n), 80, 100, { italic: true }), run(String(n), 510, 100), ...body(n)]),
    );
    const laid = finishDocument(pages);
    const heads = laid.filter((l) => l.block.text.startsWith("CHAPTER")).map((l) => [l.page, l.block.kind]);
    expect(heads).toEqual([2, 4, 5, 6, 7, 9].map((n) => [n, "header"]));
    // Body text lower on the page, in the body size, stays text however often it repeats.
    expect(laid.filter((l) => l.block.text.startsWith("Body")).every((l) => l.block.kind === "text")).toBe(true);
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

describe("finishDocument: a table's first rows left at the foot of a page", () => {
  const prose = run("Body text of the page, long enough to read as a paragraph of prose.", 50, 100);
  // The table going on at the top of the next page: columns at 50–150, 250–320, 400–460.
  const tableBlock = (rows: string[][]): Block => {
    const cells: GridCell[] = rows.flatMap((row, r) =>
      row.map((text, c) => ({ row: r + 1, col: c + 1, rowSpan: 1, colSpan: 1, text, x0: [50, 250, 400][c]!, x1: [150, 320, 460][c]!, y0: 60 + 14 * r, y1: 72 + 14 * r })),
    );
    const table: GridTable = { x0: 50, y0: 60, x1: 460, y1: 60 + 14 * rows.length, rows: rows.length, cols: 3, cells };
    return { ...table, lines: [], text: rows.map((r) => r.join(" ")).join("\n"), fontSize: 0, bold: false, mono: false, kind: "table", table };
  };
  const next = (rows: string[][]): PageLayout => ({ number: 2, width: 600, height: 800, blocks: [tableBlock(rows)] });
  const rest = [
    ["Line B", "1137", "8%"],
    ["Line C", "1274", "11%"],
    ["Line D", "1411", "14%"],
  ];

  it("makes them a table that the next page's table continues, its header not repeated there", () => {
    const head = [run("Product", 50, 700, { bold: true }), run("Units", 290, 700, { bold: true }), run("Share", 430, 700, { bold: true }), run("Line A", 50, 714), run("1000", 300, 714), run("5%", 450, 714)];
    const laid = finishDocument([page(1, [prose, ...head]), next(rest)]);
    expect(laid.map((l) => [l.page, l.block.kind])).toEqual([
      [1, "text"],
      [1, "table"],
      [2, "table"],
    ]);
    const t = laid[1]!.block.table!;
    expect([t.rows, t.cols]).toEqual([2, 3]);
    expect(t.cells.map((c) => [c.row, c.col, c.text])).toEqual([
      [1, 1, "Product"],
      [1, 2, "Units"],
      [1, 3, "Share"],
      [2, 1, "Line A"],
      [2, 2, "1000"],
      [2, 3, "5%"],
    ]);
    expect(laid[2]!.continuationOf).toBe(1);
    expect(laid[2]!.block.table!.headerRows).toBe(0);
  });

  it("keeps the header count of a table whose header the next page repeats", () => {
    const head = [run("Product", 50, 700, { bold: true }), run("Units", 290, 700, { bold: true }), run("Share", 430, 700, { bold: true }), run("Line A", 50, 714), run("1000", 300, 714), run("5%", 450, 714)];
    const laid = finishDocument([page(1, [prose, ...head]), next([["Product", "Units", "Share"], ...rest])]);
    expect(laid[2]!.continuationOf).toBe(1);
    expect(laid[2]!.block.table!.headerRows).toBeUndefined();
  });

  it("leaves a row of details at a page foot, or rows unlike the table's, out of the next page's table", () => {
    // One row: an invoice's number and date above the next page's item table.
    const details = [run("Invoice no: 118", 50, 700), run("Date: 4 March", 250, 700)];
    const laid = finishDocument([page(1, [prose, ...details]), next(rest)]);
    expect(laid.filter((l) => l.page === 1).map((l) => l.block.kind)).toEqual(["text", "text", "text"]);
    expect(laid.at(-1)!.continuationOf).toBeUndefined();
    // Two rows of words where the table has figures.
    const words = [run("Prepared by", 50, 700), run("Checked by", 250, 700), run("Jane Doe", 50, 714), run("John Roe", 250, 714)];
    expect(finishDocument([page(1, [prose, ...words]), next(rest)]).filter((l) => l.page === 1).map((l) => l.block.kind)).not.toContain("table");
  });

  it("does not continue a table ending high up its page (another sheet's), and keeps the header repeated under a title in the grid", () => {
    const high: PageLayout = { number: 1, width: 600, height: 800, blocks: [{ ...tableBlock(rest), y0: 60, y1: 160 }] };
    expect(finishDocument([high, next(rest)])[1]!.continuationOf).toBeUndefined();
    const titled = tableBlock([["Ledger 2024", "", ""], ["Product", "Units", "Share"], ...rest]);
    const first: PageLayout = { number: 1, width: 600, height: 800, blocks: [{ ...titled, y0: 600, y1: 700 }] };
    const laid = finishDocument([first, next([["Product", "Units", "Share"], ...rest])]);
    expect(laid[1]!.continuationOf).toBe(0);
    expect(laid[1]!.block.table!.headerRows).toBeUndefined();
  });

  it("continues a paragraph past a margin note opening the next page, and a broken word into lower case only", () => {
    const first = page(1, [run("The water passes through the sand filters and the clarifier before it is pum-", 80, 700)]);
    const second = page(2, [run("Check the log.", 0, 60), run("ped to the storage tanks on the ridge above the town.", 80, 90)]);
    second.blocks[0]!.note = true;
    const laid = finishDocument([first, second]);
    expect(laid.map((l) => [l.block.text.slice(0, 5), l.continuationOf])).toEqual([
      ["The w", undefined],
      ["Check", undefined],
      ["ped t", 0],
    ]);
    const capital = finishDocument([first, page(2, [run("CHAPTER 1. PUMPS", 80, 40)])]);
    expect(capital[1]!.continuationOf).toBeUndefined();
    const name = finishDocument([page(1, [run("The rules apply to every worker who is a non-", 80, 700)]), page(2, [run("EU citizen employed in the district.", 80, 60)])]);
    expect(name[1]!.continuationOf).toBe(0);
  });

  it("continues an article past its jump lines (Continued on page 2, Bridge, continued from page 1), neither a heading", () => {
    const first = page(1, [run("The council said the accounts would be published when the", 50, 600), run("Continued on page 2", 300, 700, { bold: true, fontSize: 8 })]);
    const second = page(2, [run("Bridge, continued from page 1", 50, 40, { bold: true, fontSize: 8 }), run("accounts are closed in the spring and checked.", 50, 60)]);
    const laid = finishDocument([first, second]);
    expect(laid.map((l) => [l.block.kind, l.continuationOf])).toEqual([
      ["text", undefined],
      ["text", undefined],
      ["text", undefined],
      ["text", 0],
    ]);
  });

  it("does not continue the last page's open sentence into endnotes numbered in lower-case roman", () => {
    const laid = finishDocument([page(1, [run("The operator records every check in the station log before the", 50, 700)]), page(2, [run("iv See the station log book, section scope.", 50, 60)])]);
    expect(laid.at(-1)!.continuationOf).toBeUndefined();
  });

  it("leaves a docs page's permalink sign out of its heading's text", () => {
    const laid = finishDocument([page(1, [run("Configuration ¶", 50, 60, { fontSize: 18, bold: true }), run("Options are read from the file named in the environment.", 50, 90)])]);
    expect(laid.map((l) => [l.block.kind, l.block.text])[0]).toEqual(["title", "Configuration"]);
  });

  it("reads an invoice's total in bold, a key and its amount, as text, not a heading", () => {
    const row = (key: string, value: string, top: number, bold = false) => [run(key, 350, top, { bold }), run(value, 540 - value.length * 5, top, { bold })];
    const laid = finishDocument([page(1, [run("Thank you for your business. The amounts below are in euros.", 50, 60), ...row("Subtotal", "€17,732.40", 100), ...row("VAT 19%", "€3,200.70", 114), ...row("Total due", "€20,046.48", 128, true)])]);
    expect(laid.map((l) => [l.block.kind, l.block.text])).toEqual([
      ["text", "Thank you for your business. The amounts below are in euros."],
      ["text", "Subtotal €17,732.40"],
      ["text", "VAT 19% €3,200.70"],
      ["text", "Total due €20,046.48"],
    ]);
  });

  it("reads a form field's value as text, never a heading or code, however large or monospaced; nor two sentences set large", () => {
    const typed = { annotation: true };
    const laid = finishDocument([
      page(1, [
        run("Membership Application Form", 50, 40, { fontSize: 18, bold: true }),
        run("Please complete all fields in block capitals.", 50, 70),
        run("Comments:", 50, 100),
        run("Please send the pack to my work address.", 50, 114, { ...typed, fontSize: 17 }),
        run("Surname", 50, 150),
        run("Okonkwo", 50, 164, { ...typed, mono: true }),
        run("Notes", 50, 200),
        run("Deliveries are made on weekdays. Saturdays cost extra.", 50, 214, { fontSize: 17 }),
      ]),
    ]);
    expect(laid.map((l) => [l.block.kind, l.block.text])).toEqual([
      ["title", "Membership Application Form"],
      ["text", "Please complete all fields in block capitals."],
      ["text", "Comments:"],
      ["text", "Please send the pack to my work address."],
      ["text", "Surname"],
      ["text", "Okonkwo"],
      ["text", "Notes"],
      ["text", "Deliveries are made on weekdays. Saturdays cost extra."],
    ]);
  });

  it("keeps a deck's slide titles, alike but for a number, titles over the table that is each slide's body", () => {
    const cell = (row: number, col: number, text: string): GridCell => ({ row, col, rowSpan: 1, colSpan: 1, text, x0: 50 + 200 * (col - 1), x1: 200 + 200 * (col - 1), y0: 0, y1: 0 });
    const rows = [["Region", "Lead", "Quota"], ["Americas", "Jorge Ortiz", "$24M"], ["EMEA", "Karin Novak", "$18M"]];
    const slide = (n: number): PageLayout => {
      const p = page(n, [run(`Territory Assignments ${3 * n + 1}`, 30, 40, { fontSize: 36 }), run("12 March 2024", 30, 520, { fontSize: 12 }), run("Acme Corp — Confidential", 400, 520, { fontSize: 12 })]);
      const t: GridTable = { x0: 50, y0: 120, x1: 650, y1: 300, rows: 3, cols: 3, cells: rows.flatMap((r, i) => r.map((c, j) => cell(i + 1, j + 1, c))) };
      p.blocks.push({ ...t, lines: [], text: rows.map((r) => r.join(" ")).join("\n"), fontSize: 0, cellSize: 18, bold: false, mono: false, kind: "table", table: t });
      return { ...p, height: 562 };
    };
    const laid = finishDocument([1, 2, 3].map(slide));
    expect(laid.filter((l) => l.block.text.startsWith("Territory")).map((l) => l.block.kind)).toEqual(["title", "title", "title"]);
  });

  it("makes no heading of a cover page's connectives and date, set large between the parties", () => {
    const cover = [run("MASTER SERVICES AGREEMENT", 200, 200, { fontSize: 20, bold: true }), run("between", 280, 240, { fontSize: 13 }), run("ACME SUPPLY LIMITED", 240, 265, { fontSize: 13, bold: true }), run("and", 290, 290, { fontSize: 13 }), run("Dated 12 March 2024", 250, 315, { fontSize: 13 })];
    const body = [run("This agreement is made between the parties named on its cover page.", 50, 500, { fontSize: 11 })];
    const laid = finishDocument([page(1, [...cover, ...body])]);
    expect(laid.map((l) => [l.block.text, l.block.kind])).toEqual([
      ["MASTER SERVICES AGREEMENT", "title"],
      ["between", "text"],
      ["ACME SUPPLY LIMITED", "title"],
      ["and", "text"],
      ["Dated 12 March 2024", "text"],
      ["This agreement is made between the parties named on its cover page.", "text"],
    ]);
  });

  it("takes a picture's unnumbered caption under it (Photo: …, or set smaller than the body) for its caption, linked to it", () => {
    const picture = (p: PageLayout, top: number): Block => {
      const img: Block = { x0: 50, y0: top, x1: 300, y1: top + 150, lines: [], text: "", fontSize: 0, bold: false, mono: false, kind: "image" };
      p.blocks.push(img);
      return img;
    };
    const body = run("The bridge reopened on Saturday after two years of repairs to its arches.", 50, 60, { fontSize: 10 });
    const one = page(1, [body, run("Photo: The restored bridge at dawn.", 50, 404, { fontSize: 10 }), run("Crowds gathered on both banks of the river for the opening.", 50, 450, { fontSize: 10 })]);
    const img = picture(one, 250);
    const laid = finishDocument([one]);
    const caption = laid.find((l) => l.block.text.startsWith("Photo:"))!;
    expect(caption.block.kind).toBe("figure-caption");
    expect(caption.block.ref).toBe(img);
    // Body text under a picture, the body's size, no label: text.
    expect(laid.find((l) => l.block.text.startsWith("Crowds"))!.block.kind).toBe("text");
    const two = page(1, [body, run("Volunteers at the Elm Street plot in May.", 50, 404, { fontSize: 8 })]);
    picture(two, 250);
    expect(finishDocument([two]).find((l) => l.block.text.startsWith("Volunteers"))!.block.kind).toBe("figure-caption");
  });

  it("keeps a month's heading on a report's first page a heading, and body text under a picture text", () => {
    const laid = finishDocument([page(1, [run("March 2024", 50, 60, { fontSize: 16, bold: true }), run("The month's figures came in above the forecast in every district we serve.", 50, 90, { fontSize: 10 })])]);
    expect(laid[0]!.block.kind).toBe("title");
    const p = page(1, [run("The settings page lists every option the parser reads, one a line.", 50, 60, { fontSize: 10 }), run("Right-click the file in the list and choose Open with to pick the program.", 50, 404, { fontSize: 10 })]);
    p.blocks.push({ x0: 50, y0: 250, x1: 550, y1: 400, lines: [], text: "", fontSize: 0, bold: false, mono: false, kind: "image" });
    expect(finishDocument([p]).find((l) => l.block.text.startsWith("Right-click"))!.block.kind).toBe("text");
  });

  it("reads a slide's one bulleted point set large as an item, not a heading", () => {
    const laid = finishDocument([page(1, [run("Appendix A", 50, 40, { fontSize: 32 }), run("● Background material for reference", 50, 120, { fontSize: 28 }), run("Body text of the deck at its usual size, long enough.", 50, 300)])]);
    expect(laid.map((l) => l.block.kind)).toEqual(["title", "list", "text"]);
  });

  it("continues a table ending the main column into the next page's, past a sidebar read after it", () => {
    // The page's table reaches its foot; an "On this page" list stands to its right, higher up, read last.
    const table = { ...tableBlock(rest), y0: 640, y1: 700 };
    const sidebar = buildBlocks(buildLines([run("On this page", 480, 100, { bold: true }), run("File format", 480, 116), run("Options", 480, 130)]));
    classifyBlocks(sidebar);
    const laid = finishDocument([{ number: 1, width: 600, height: 800, blocks: [table, ...sidebar] }, next(rest)]);
    const tables = laid.map((l, i) => [l.block.kind, i] as const).filter(([k]) => k === "table").map(([, i]) => i);
    expect(laid[tables[1]!]!.continuationOf).toBe(tables[0]);
  });

  it("does not continue a table into the next page's own captioned table", () => {
    const first: PageLayout = { number: 1, width: 600, height: 800, blocks: [{ ...tableBlock(rest), y0: 600, y1: 660 }] };
    const caption = buildBlocks(buildLines([run("Table 2: Prices of parts", 50, 40)]));
    classifyBlocks(caption);
    const second: PageLayout = { number: 2, width: 600, height: 800, blocks: [...caption, tableBlock(rest)] };
    const laid = finishDocument([first, second]);
    expect(laid.map((l) => l.block.kind)).toEqual(["table", "table-caption", "table"]);
    expect(laid[2]!.continuationOf).toBeUndefined();
    expect(laid[2]!.block.table!.headerRows).toBeUndefined();
  });

  it("does not continue a table into another opening the next page with a header of its own and its own columns", () => {
    const first: PageLayout = { number: 1, width: 600, height: 800, blocks: [{ ...tableBlock([["Product", "Units", "Share"], ...rest]), y0: 600, y1: 660 }] };
    // Another table: its own header over figures, its columns elsewhere (30 pt off).
    const other = tableBlock([["Supplier", "Orders", "Paid"], ...rest]);
    for (const c of other.table!.cells) if (c.col > 1) [c.x0, c.x1] = [c.x0 - 30, c.x1 - 30];
    expect(finishDocument([first, { number: 2, width: 600, height: 800, blocks: [other] }])[1]!.continuationOf).toBeUndefined();
    // The table's rest, its header repeated or not, in the same columns; or another header over the same columns.
    for (const rows of [rest, [["Product", "Units", "Share"], ...rest], [["Product", "Units sold", "Share"], ...rest]]) {
      expect(finishDocument([first, next(rows)])[1]!.continuationOf).toBe(0);
    }
  });

  it("goes on from the text above a captioned table set at the page foot (a bottom float)", () => {
    const open = run("Pressure in the mains falls as demand rises during the early", 50, 100);
    const float = buildBlocks(buildLines([run("Table 1: Design values", 50, 560)]));
    classifyBlocks(float);
    const first = page(1, [open]);
    first.blocks.push(...float, { ...tableBlock(rest), y0: 600, y1: 660 });
    const second = page(2, [run("morning hours, when most households wake.", 50, 100)]);
    const laid = finishDocument([first, second]);
    expect(laid.map((l) => l.block.kind)).toEqual(["text", "table-caption", "table", "text"]);
    expect(laid[3]!.continuationOf).toBe(0);
  });

  it("leaves blocks alone that stand outside the table's columns, share a row with prose, or stand alone", () => {
    // A signature line whose names straddle the columns.
    const names = [run("Jane Doe, Director", 120, 700), run("John Roe, Treasurer", 330, 700)];
    expect(finishDocument([page(1, [prose, ...names]), next(rest)]).map((l) => l.block.kind)).toEqual(["text", "text", "text", "table"]);
    // One short block in a column: nothing shows a row.
    expect(finishDocument([page(1, [prose, run("Total", 50, 700)]), next(rest)]).map((l) => l.block.kind)).toEqual(["text", "text", "table"]);
    // A table's cells in a row with a paragraph beside them.
    const beside = [run("Line A", 50, 700), run("1000", 300, 700), run("and a long sentence beside them", 480, 700)];
    expect(finishDocument([page(1, [prose, ...beside]), next(rest)]).filter((l) => l.page === 1).map((l) => l.block.kind)).not.toContain("table");
  });
});

describe("finishDocument: page numbers in other scripts' digits", () => {
  /** Arabic as a PDF draws it: the letters (and single digits) reversed, ending at `right`. */
  const drawn = (logical: string, right: number, top: number, fontSize = 10) => run([...logical].reverse().join(""), right - logical.length * fontSize * 0.5, top, { fontSize });
  const digits = ["١", "٢", "٣"];

  it("reads Arabic-Indic page numbers, alone or as `صفحة ١ من ٣`, as page numbers", () => {
    const body = (n: number) => drawn(`هذا نص الصفحة رقم ${digits[n - 1]} من التقرير السنوي للشركة.`, 550, 300);
    const alone = [1, 2, 3].map((n) => page(n, [body(n), run(digits[n - 1]!, 296, 770, { fontSize: 8 })]));
    expect(finishDocument(alone).map((l) => l.block.kind)).toEqual(["text", "page-number", "text", "page-number", "text", "page-number"]);
    const worded = [1, 2, 3].map((n) => page(n, [body(n), drawn(`صفحة ${digits[n - 1]} من ٣`, 320, 770, 8)]));
    expect(finishDocument(worded).map((l) => [l.block.kind, l.block.text])).toEqual([1, 2, 3].flatMap((n) => [["text", expect.any(String)], ["page-number", `صفحة ${digits[n - 1]} من ٣`]]));
  });
});
