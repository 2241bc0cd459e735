import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildLines, type TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

describe("buildLines", () => {
  it("joins runs on one baseline left to right, with spaces at word gaps only", () => {
    const lines = buildLines([run("world", 45, 100), run("Hello", 10, 100.5), run("!", 70, 100)]);
    expect(lines.map((l) => l.text)).toEqual(["Hello world!"]);
  });

  it("cuts a line at a gap wider than one em (two columns on one baseline)", () => {
    const lines = buildLines([run("left column", 10, 100), run("right column", 200, 100)]);
    expect(lines.map((l) => l.text)).toEqual(["left column", "right column"]);
  });

  it("puts no space between CJK characters of adjacent runs", () => {
    const lines = buildLines([run("中文", 10, 100, { x1: 30 }), run("内容", 31, 100, { x1: 51 })]);
    expect(lines[0]!.text).toBe("中文内容");
  });

  it("drops text drawn twice at the same spot (fake bold)", () => {
    const lines = buildLines([run("Bold", 10, 100), run("Bold", 10.3, 100)]);
    expect(lines[0]!.text).toBe("Bold");
  });

  it("orders lines top to bottom and reports style", () => {
    const lines = buildLines([run("second", 10, 120), run("first", 10, 100, { bold: true, fontSize: 14 })]);
    expect(lines.map((l) => [l.text, l.bold, l.fontSize])).toEqual([
      ["first", true, 14],
      ["second", false, 10],
    ]);
  });
});

describe("buildLines: rotated text", () => {
  /** A run turned `angle` degrees, its box given as drawn (geometry taken from the repro PDFs). */
  const turned = (text: string, angle: number, [x0, y0, x1, y1]: number[], fontSize = 9): TextRun => ({ ...run(text, x0!, y0!, { fontSize, angle }), x0: x0!, y0: y0!, x1: x1!, y1: y1! });

  it("joins a sideways head drawn in pieces, read in its own direction (Chromium's kerning cuts, upwards and downwards)", () => {
    const down = [turned("otal", 270, [100.4, 164.3, 110.9, 184]), turned("Y", 270, [100.4, 105.7, 110.9, 112.3]), turned("ear 2022 T", 270, [100.4, 111.4, 110.9, 165.5])];
    const up = [turned("Y", 90, [148.7, 177.5, 159.2, 184]), turned("ear 2023 T", 90, [148.7, 124.2, 159.2, 178.3]), turned("otal", 90, [148.7, 105.8, 159.2, 125.4])];
    const other = turned("verage tenure", 90, [173.3, 105.4, 183.8, 177.3]);
    expect(buildLines([...down, ...up, other]).map((l) => l.text).sort()).toEqual(["Year 2022 Total", "Year 2023 Total", "verage tenure"]);
  });

  it("spaces a head drawn one glyph a run only at its word gap (LibreOffice bottom-to-top cell text)", () => {
    const glyphs: [string, number, number][] = [["R", 168.1, 174.4], ["o", 163.7, 168.4], ["o", 159, 163.7], ["f", 155.7, 158.9], ["r", 150.2, 153.4], ["e", 146.1, 150.3], ["n", 141.4, 146.1]];
    const lines = buildLines(glyphs.map(([t, y0, y1]) => turned(t, 90, [196.7, y0, 206.2, y1], 9.5)));
    expect(lines.map((l) => l.text)).toEqual(["Roof ren"]);
  });

  it("joins words a quad apart, as a level line does (pdflatex's section mark `3\\quad SIDEWAYS` down a turned page's edge), not words two em apart", () => {
    // 10.91 pt type; the quad between the number and the title is a hair over an em as drawn.
    const mark = [turned("3", 270, [687.5, 410.8, 697.2, 416.26], 10.91), turned("SIDEWAYS", 270, [687.5, 427.21, 697.2, 484.5], 10.91)];
    expect(buildLines(mark).map((l) => l.text)).toEqual(["3 SIDEWAYS"]);
    const apart = [turned("3", 270, [687.5, 410.8, 697.2, 416.26], 10.91), turned("SIDEWAYS", 270, [687.5, 438.1, 697.2, 495.4], 10.91)];
    expect(buildLines(apart).map((l) => l.text).sort()).toEqual(["3", "SIDEWAYS"]);
  });

  it("joins a 45° label cut at a kern, and keeps labels on other baselines apart (an SVG chart's axis)", () => {
    const labels = [turned("Mar", 45, [127.5, 269.1, 145.3, 286.9], 8.2), turned("ch", 45, [138.4, 262.3, 152.1, 276], 8.2), turned("F", 45, [91, 284.8, 101.1, 295], 8.2), turned("ebruary", 45, [94, 262.3, 123.6, 291.9], 8.2), turned("January", 45, [66.2, 262.3, 95.1, 291.2], 8.2)];
    expect(buildLines(labels).map((l) => l.text).sort()).toEqual(["February", "January", "March"]);
  });
});

describe("buildLines: rows beside taller text and narrow column gutters", () => {
  const texts = (runs: Parameters<typeof buildLines>[0]) => buildLines(runs).map((l) => l.text);

  it("keeps a word drawn a glyph a run on its row beside a column of larger type, its baselines offset (a Chromium poster)", () => {
    // Runs of a poster's page (text, x0, x1, y0, y1, size): body columns in 24 pt, references in 16 pt.
    const rows = JSON.parse(readFileSync(new URL("./fixtures/poster-rows.json", import.meta.url), "utf8")) as [string, number, number, number, number, number][];
    const lines = texts(rows.map(([text, x0, x1, y0, y1, fontSize]) => ({ ...run(text, x0, y0, { fontSize }), x1, y1 })));
    expect(lines).toContain("3. Liu, L. and Corma, A. Metal catalysts for");
  });

  it("keeps two body lines apart beside a taller heading in the other column", () => {
    const lines = texts([
      run("alpha beta gamma", 50, 100),
      run("delta epsilon", 140, 100),
      run("zeta eta theta", 50, 112),
      run("iota kappa", 130, 112),
      run("Results", 320, 103, { fontSize: 18, bold: true }),
    ]);
    expect(lines).toEqual(["alpha beta gamma delta epsilon", "Results", "zeta eta theta iota kappa"]);
  });

  it("keeps the lines of a paragraph apart beside its drop cap", () => {
    const lines = texts([
      run("L", 50, 100, { fontSize: 30, x1: 70 }),
      run("orem ipsum dolor", 74, 100),
      run("sit amet consectetur", 74, 112),
      run("adipiscing elit", 74, 124),
    ]);
    expect(lines).toContain("sit amet consectetur");
    expect(lines).toContain("adipiscing elit");
    expect(lines.some((l) => l.includes("orem ipsum dolor") && !l.includes("sit"))).toBe(true);
  });

  it("keeps the space after a drop cap that is a word alone (`I read`), and joins one that opens a word (`It`, `Ingrid`)", () => {
    const capped = (rest: string) =>
      texts([run("I", 50, 100, { fontSize: 30, x1: 60 }), run(rest, 63, 103), run("sitting on the stairs of the", 63, 115), run("tower where the heat came", 63, 127)])[0];
    expect(capped("read them in order,")).toBe("I read them in order,");
    expect(capped("t was late in the year,")).toBe("It was late in the year,");
    expect(capped("ngrid read them in order,")).toBe("Ingrid read them in order,");
  });

  it("cuts a gutter only one font size wide where it runs down the page (LaTeX two-column)", () => {
    const runs = [];
    for (let k = 0; k < 6; k++) {
      const top = 100 + 12 * k;
      // Left column flush to x = 280, right column from 290: a 1 em gutter.
      runs.push(run("left column words set here", 150, top, { x1: 280 }), run("right column words set here", 290, top, { x1: 420 }));
    }
    const lines = texts(runs);
    expect(lines).toHaveLength(12);
    expect(lines.every((l) => l === "left column words set here" || l === "right column words set here")).toBe(true);
  });

  it("keeps a sentence space whole though a word on a nearby row starts under it", () => {
    const lines = texts([
      run("Chunks are built along the title tree.", 50, 100, { x1: 240 }),
      run("A chunk", 252.5, 100, { x1: 290 }),
      run("never crosses a section boundary unless", 50, 112, { x1: 290 }),
      run("is shorter than the minimum chunk size,", 50, 124, { x1: 245 }),
      run("in which", 251, 124, { x1: 290 }),
    ]);
    expect(lines[0]).toBe("Chunks are built along the title tree. A chunk");
  });

  it("leaves list markers on their items though the gaps after them line up", () => {
    const runs = [];
    for (let k = 0; k < 5; k++) runs.push(run(`${k + 1}.`, 50, 100 + 14 * k, { x1: 60 }), run(`item number ${k + 1} of the list`, 68, 100 + 14 * k));
    expect(texts(runs)).toEqual([1, 2, 3, 4, 5].map((n) => `${n}. item number ${n} of the list`));
  });

  it("keeps a marker a tab (1.4 em) before its item on the item's line; a column of figures after it still cuts", () => {
    // ReportLab's ListFlowable: the bullet drawn larger, its text 1.4 em on.
    const items = [];
    for (let k = 0; k < 4; k++) items.push(run("\u2022", 62, 100 + 18 * k, { x1: 66, fontSize: 12 }), run(`Item ${k + 1} of the list`, 80, 101 + 18 * k));
    expect(texts(items)).toEqual([1, 2, 3, 4].map((n) => `\u2022 Item ${n} of the list`));
    // A rule-less table's rank column `1.`, `2.`… before its figures.
    const rows = [];
    for (let k = 0; k < 4; k++) rows.push(run(`${k + 1}.`, 50, 100 + 14 * k, { x1: 60 }), run(`${k + 2}.31`, 80, 100 + 14 * k));
    expect(texts(rows)).toEqual([1, 2, 3, 4].flatMap((n) => [`${n}.`, `${n + 1}.31`]));
  });

  it("keeps a marker drawn a glyph a run on its item's line when the item's text wraps under its words", () => {
    // Chromium draws `(c)` as three runs; an exam's part, its text a flex column 1.2 em on.
    const glyphs = (text: string, x: number, top: number) => [...text].map((ch, i) => run(ch, x + 4 * i, top, { x1: x + 4 * (i + 1) }));
    const runs = [...glyphs("(c)", 50, 100), run("Find the cumulative distribution function of X", 74, 100), run("and hence compute the probability.", 74, 114)];
    expect(texts(runs)).toEqual(["(c) Find the cumulative distribution function of X", "and hence compute the probability."]);
  });
});

describe("buildLines: table rows", () => {
  it("cuts a row whose cells all stand 1.5 to 3 em apart where they line up with the rows above", () => {
    // A booktabs table's body, rules lost (an OCR layer, a scan): right-aligned numbers.
    const row = (cells: string[], top: number) => [run(cells[0]!, 346, top, { x1: 346 + 6 * cells[0]!.length }), ...cells.slice(1).map((t, c) => run(t, [422, 459, 504][c]! - 5 * t.length, top, { x1: [422, 459, 504][c]! }))];
    const runs = [...row(["Parse", "41.2", "61%", "97"], 100), ...row(["Chunk", "3.1", "5%", "1290"], 112), ...row(["Embed", "22.9", "34%", "175"], 124)];
    expect(buildLines(runs).filter((l) => l.y0 === 124).map((l) => l.text)).toEqual(["Embed", "22.9", "34%", "175"]);
  });

  it("keeps a loose line of justified prose whole though its wide spaces line up with edges nearby", () => {
    // A narrow justified column: three words stretched 2.2 and 2.4 em apart, between rows
    // whose words happen to end and start at its gaps; the same row of figures is cut.
    const loose = (words: string[], top: number) => words.map((w, i) => run(w, [100, 154, 208][i]!, top, { x1: [130, 184, 240][i]! }));
    const prose = [...loose(["the", "market", "went"], 100), ...loose(["margin", "revenue", "growth"], 112), ...loose(["and", "the", "end"], 124)];
    expect(buildLines(prose).filter((l) => l.y0 === 112).map((l) => l.text)).toEqual(["margin revenue growth"]);
    const figures = [...loose(["the", "market", "went"], 100), ...loose(["margin", "412", "61%"], 112), ...loose(["and", "the", "end"], 124)];
    expect(buildLines(figures).filter((l) => l.y0 === 112).map((l) => l.text)).toEqual(["margin", "412", "61%"]);
  });

  it("cuts a row of words and a figure, each cell 2.6 em apart, its words kerned into pieces (Chromium)", () => {
    // An HTML table without borders: `North  Leeds  40`, `Leeds` set as `L` + `eeds`.
    const cells = (a: string, b: string[], n: string, top: number) => [run(a, 93, top, { fontSize: 12 }), ...b.map((piece, i) => run(piece, i === 0 ? 158 : 165, top, { fontSize: 12 })), run(n, 215, top, { fontSize: 12 })];
    const runs = [...cells("North", ["L", "eeds"], "40", 130), ...cells("South", ["Bristol"], "35", 150), ...cells("East", ["Norwich"], "12", 170)];
    expect(buildLines(runs).filter((l) => l.y0 === 130).map((l) => l.text)).toEqual(["North", "Leeds", "40"]);
    // A loose justified line of six words ending in a figure is cut only beside the figure.
    const words = (w: string[], top: number) => w.map((t, i) => run(t, 100 + 40 * i, top, { x1: 100 + 40 * i + 26 }));
    const prose = [...words(["each", "year", "the", "mill", "bought", "wool"], 100), ...words(["since", "then", "the", "mill", "has", "1998"], 112), ...words(["cloth", "from", "the", "same", "bales", "of"], 124)];
    expect(buildLines(prose).filter((l) => l.y0 === 112).map((l) => l.text)).toEqual(["since then the mill has", "1998"]);
  });
});

describe("buildLines: notes and items numbered in a stack", () => {
  it("keeps a footnote's number on its line, the text a tab in; a column of figures beside short cells is still cut", () => {
    const notes = [run("1", 50, 700, { x1: 55 }), run("Information assets include paper records and files.", 78, 700), run("2", 50, 713, { x1: 55 }), run("See also the Data Protection Policy, section 4.", 78, 713)];
    expect(buildLines(notes).map((l) => l.text)).toEqual(["1 Information assets include paper records and files.", "2 See also the Data Protection Policy, section 4."]);
    const cells = [run("1", 50, 100, { x1: 55 }), run("Widget", 78, 100), run("2", 50, 113, { x1: 55 }), run("Bracket", 78, 113), run("3", 50, 126, { x1: 55 }), run("Hinge", 78, 126)];
    expect(buildLines(cells).map((l) => l.text)).toEqual(["1", "Widget", "2", "Bracket", "3", "Hinge"]);
  });

  it("keeps a raised note mark apart from a citation opening with a number, a section sign or a quotation mark (a law review)", () => {
    const mark = (n: string, top: number) => run(n, 50, top - 1, { fontSize: 6, x1: 53.5, y1: top + 4 });
    const notes = [mark("4", 700), run("133 N.W.2d 267 (Wis. 1965).", 53.5, 700, { fontSize: 8 }), mark("5", 712), run("§ 90(1) (Am. L. Inst. 1981).", 53.5, 712, { fontSize: 8 })];
    expect(buildLines(notes).map((l) => l.text)).toEqual(["4 133 N.W.2d 267 (Wis. 1965).", "5 § 90(1) (Am. L. Inst. 1981)."]);
    // Set on the baseline and as large as the text, a figure goes on the number.
    expect(buildLines([run("4", 50, 700, { fontSize: 8, x1: 54 }), run("133 N.W.2d", 54, 700, { fontSize: 8 })]).map((l) => l.text)).toEqual(["4133 N.W.2d"]);
  });
});

describe("buildLines: what numbered notes and form rows are not", () => {
  it("cuts numbered lines (a listing's, a pleading's) and a table's row numbers from their text", () => {
    const small = [1, 2, 3, 4, 5, 6].flatMap((n) => [run(String(n), 40, 100 + 12 * n, { x1: 44, fontSize: 7, y1: 107 + 12 * n }), run(`line ${n} of the pleading that goes on here`, 70, 100 + 12 * n)]);
    expect(buildLines(small).map((l) => l.text).filter((t) => /^\d /.test(t))).toEqual([]);
    const numbered = [1, 2, 3, 4, 5].flatMap((n) => [run(String(n), 40, 100 + 12 * n, { x1: 45 }), run(`plaintiff alleges the defendant entered line ${n}`, 70, 100 + 12 * n)]);
    expect(buildLines(numbered).map((l) => l.text).filter((t) => /^\d /.test(t))).toEqual([]);
    const table = [1, 2].flatMap((n) => [run(String(n), 40, 100 + 14 * n, { x1: 45 }), run("Replace the pump in the basement", 70, 100 + 14 * n), run("400.00", 300, 100 + 14 * n)]);
    expect(buildLines(table).map((l) => l.text)).toEqual(["1", "Replace the pump in the basement", "400.00", "2", "Replace the pump in the basement", "400.00"]);
  });

  it("keeps a listing's spacing: as many spaces as the gap between monospace runs holds; its line numbers on their rows", () => {
    const mono = { mono: true };
    // 0.5 em a character at 10 pt: 5 pt each; `# retry` stands 10 characters on.
    expect(buildLines([run("retries: 5", 10, 100, mono), run("# retry", 110, 100, mono)]).map((l) => l.text)).toEqual(["retries: 5          # retry"]);
    expect(buildLines([run("retries:", 10, 100), run("5", 60, 100)]).map((l) => l.text)).toEqual(["retries: 5"]);
    // A numbers column beside deeply indented code (MkDocs' table): the code stays on its number's row.
    const deep = [6, 7, 8].flatMap((n, i) => [run(String(n), 10, 100 + 12 * i, mono), run(`step(${n})`, n === 7 ? 110 : 50, 100 + 12 * i, mono)]);
    expect(buildLines(deep).map((l) => l.text)).toEqual(["6       step(6)", "7                   step(7)", "8       step(8)"]);
  });

  it("keeps seven footnotes' numbers, each note a sentence from a capital; keeps an invoice's labels with values a table's column shares the place of", () => {
    const notes = [1, 2, 3, 4, 5, 6, 7].flatMap((n) => [run(String(n), 50, 600 + 12 * n, { x1: 55 }), run(`Note number ${n} explains one of the terms above.`, 78, 600 + 12 * n)]);
    expect(buildLines(notes).map((l) => l.text)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `${n} Note number ${n} explains one of the terms above.`));
    const invoice = [
      ...[["Invoice number:", "INV-2024-0113"], ["Invoice date:", "12 March 2024"], ["Customer:", "Blue Harbour Logistics Ltd"]].flatMap(([label, value], k) => [run(label!, 50, 100 + 14 * k, { bold: true }), run(value!, 180, 100 + 14 * k)]),
      ...[["Pump replacement", "1", "400.00"], ["Pipe fittings", "12", "42.00"], ["Labour", "6", "330.00"]].flatMap((r, k) => [run(r[0]!, 50, 160 + 14 * k), run(r[1]!, 180, 160 + 14 * k), run(r[2]!, 300, 160 + 14 * k)]),
    ];
    expect(buildLines(invoice).map((l) => l.text).slice(0, 3)).toEqual(["Invoice number: INV-2024-0113", "Invoice date: 12 March 2024", "Customer: Blue Harbour Logistics Ltd"]);
  });

  it("keeps two columns of prose apart when lines of the left one end in colons", () => {
    const runs: TextRun[] = [];
    const left = ["We model arrivals at each server as a", "Poisson process, its rate estimated", "as follows:", "first we count the requests in each hour", "of the previous week and divide by its", "length, which gives the rate we show in the", "result below:", "the mean grows without bound as the load"];
    left.forEach((t, k) => runs.push(run(t, 50, 100 + 12 * k, { x1: 50 + 4.6 * t.length }), run(`second column line ${k} with words that run on`, 300, 100 + 12 * k)));
    const lines = buildLines(runs).map((l) => l.text);
    expect(lines.filter((t) => t.includes("second column") && !t.startsWith("second column"))).toEqual([]);
  });
});

describe("buildLines: a text box beside a column", () => {
  it("cuts at a narrow gutter that body rows and the box's rows, at another pitch, share only in part", () => {
    // LibreOffice: a frame 0.85 em right of justified body text; three rows share a
    // baseline, then the box's lines fall between the body's.
    const body = (t: string, top: number) => run(t, 56.8, top, { x1: 373.5, fontSize: 11, y1: top + 11 });
    const box = (t: string, top: number) => run(t, 382.7, top, { x1: 382.7 + 5 * t.length, fontSize: 11, y1: top + 11 });
    const runs = [
      body("Access to customer records is granted on the principle of least privilege", 80),
      box("Report an incident", 80),
      body("and is reviewed every quarter by the data owner together with the", 93.3),
      box("Call the Service Desk on 0800 123", 93.3),
      body("information security team. Managers must confirm that each member of", 106.6),
      box("456 or email", 106.6),
      box("security@example.com at any", 119.9),
      body("staff still needs the access they hold, and any access that is no longer", 125.9),
      box("time, day or night.", 133.2),
      body("required must be removed within five working days. Exceptions to this", 141.1),
    ];
    const lines = buildLines(runs).map((l) => l.text);
    expect(lines.filter((t) => t.includes("Report") || t.includes("Call") || t.includes("456"))).toEqual(["Report an incident", "Call the Service Desk on 0800 123", "456 or email"]);
  });
});

describe("buildLines: tables of contents", () => {
  it("keeps each entry's page number on its line, with dot leaders or without", () => {
    const runs = [run("1 Getting started", 50, 100, { bold: true }), run("2", 395, 100, { x1: 400 })];
    ["1.1 Install", "1.2 Configure", "1.3 Run"].forEach((entry, k) => {
      const top = 114 + 14 * k;
      runs.push(run(entry, 60, top));
      for (let x = 130; x < 380; x += 12) runs.push(run(".", x, top, { x1: x + 2 }));
      runs.push(run(String(3 + k), 395, top, { x1: 400 }));
    });
    const lines = buildLines(runs).map((l) => l.text.replace(/(?: \.)+/g, " …"));
    expect(lines).toEqual(["1 Getting started 2", "1.1 Install … 3", "1.2 Configure … 4", "1.3 Run … 5"]);
  });

  it("keeps chapter numbers on their entries, set 1.2 em apart, where leaders run nearby; cuts a number column elsewhere", () => {
    // Word boxes of an OCR'd table of contents: the ink of "1" ends 1.2 em before its title.
    const chapter = (n: number, top: number) => [run(String(n), 126.7, top, { x1: 131 }), run("Chapter", 142.8, top, { x1: 186.7 }), run(`number ${n} overview`, 191.8, top, { x1: 295.4 })];
    const runs = [];
    for (const n of [1, 2, 3]) {
      const top = 100 + 50 * (n - 1);
      runs.push(...chapter(n, top), run(`${n}.1 Section details`, 143, top + 14, { x1: 253 }), run(".........", 265, top + 14, { x1: 450 }), run("4", 455, top + 14, { x1: 461 }));
    }
    expect(buildLines(runs).map((l) => l.text).filter((t) => t.includes("Chapter"))).toEqual(["1 Chapter number 1 overview", "2 Chapter number 2 overview", "3 Chapter number 3 overview"]);
    // The same rows with no leaders anywhere: a column of numbers beside a column of text
    // (numbers that do not count on one by one, as notes and items do).
    const plain = [10, 20, 30, 40].flatMap((n) => chapter(n, 100 + 14 * (n / 10)));
    expect(buildLines(plain).map((l) => l.text)).toEqual(["10", "Chapter number 10 overview", "20", "Chapter number 20 overview", "30", "Chapter number 30 overview", "40", "Chapter number 40 overview"]);
  });

  it("keeps section numbers on their entries when each leader dot is a run of its own (TeX)", () => {
    const runs: TextRun[] = [];
    ["1.1", "1.2", "1.3"].forEach((no, k) => {
      const top = 100 + 14 * k;
      runs.push(run(no, 60, top, { x1: 75 }), run(`Overview part ${k + 1}`, 90, top, { x1: 160 }));
      for (let x = 170; x < 380; x += 8) runs.push(run(".", x, top, { x1: x + 2 }));
      runs.push(run("2", 395, top, { x1: 400 }));
    });
    const lines = buildLines(runs).map((l) => l.text.replace(/(?: \.)+/g, " …"));
    expect(lines).toEqual(["1.1 Overview part 1 … 2", "1.2 Overview part 2 … 2", "1.3 Overview part 3 … 2"]);
  });

  it("still cuts a column gutter after a line ending in an ellipsis", () => {
    const runs = [];
    const left = ["the quick brown fox jumps over the lazy dog and", "then some more words of prose to fill this line", "again we continue with the left column text so", "it goes on and on, and so on and so forth..."];
    const right = ["right column text starts here with words that", "fill the line and keep on going across the col", "umn until the next line begins with a pronoun", "I think this should be a separate line from left"];
    left.forEach((t, k) => runs.push(run(t, 50, 100 + 12 * k, { x1: 290 })));
    right.slice(0, 3).forEach((t, k) => runs.push(run(t, 300, 100 + 12 * k, { x1: 540 })));
    // The last right line drawn word by word: its first word could be a roman page number.
    runs.push(run("I", 300, 136, { x1: 304 }), run("think this should be a separate line from left", 307, 136, { x1: 540 }));
    expect(buildLines(runs).map((l) => l.text)).toEqual(left.flatMap((t, k) => [t, right[k]!]));
  });
});

describe("buildLines: margin notes", () => {
  const texts = (runs: TextRun[]) => buildLines(runs).map((l) => l.text);
  // A justified column from x = 50 to x = 300, word by word: its lines end exactly at its edge.
  const justified = (words: string[], top: number): TextRun[] => {
    const step = 250 / words.length;
    return words.map((w, i) => run(w, 50 + i * step, top, { x1: 50 + (i + 1) * step - 4 }));
  };
  const body = (top: number) => justified(["the", "water", "passes", "through", "the", "sand", "filters", "daily"], top);

  it("cuts a note set under one em beside a justified column off its lines (LaTeX's \\marginpar)", () => {
    const runs = [...body(100), ...body(112), ...body(124), ...body(136), ...body(148), ...body(160)];
    // The last word of two lines ends at 296 (its box 4 pt short of the step); the note starts 7 pt on.
    runs.push(run("Check the valve", 303, 124), run("log first.", 303, 136));
    const lines = texts(runs);
    expect(lines).toContain("Check the valve");
    expect(lines).toContain("log first.");
    expect(lines.filter((l) => l.startsWith("the water")).every((l) => l.endsWith("daily"))).toBe(true);
    // The note's lines say so (read after the text beside them); the column's do not.
    expect(buildLines(runs).filter((l) => l.note).map((l) => l.text)).toEqual(["Check the valve", "log first."]);
  });

  it("keeps a manual page's term with its description: the page's headings run across the strip", () => {
    const runs: TextRun[] = [run("Shell Variables and their meaning", 20, 88)];
    for (const top of [100, 112, 124, 136, 148]) runs.push(...body(top));
    runs.push(run("{ list; }", 20, 112, { x1: 43 }));
    const lines = texts(runs);
    expect(lines.some((l) => l.startsWith("{ list; } the water"))).toBe(true);
  });
});

describe("buildLines: clause numbers and version tables", () => {
  it("cuts a table's version numbers off their cells, the rows having more cells further on", () => {
    const rows = ["1.1|First public release|2023-01-04", "1.2|Tables keep their headers|2023-06-12", "1.3|Reading order fixed|2024-02-01"].flatMap((r, i) => {
      const [a, b, c] = r.split("|");
      return [run(a!, 50, 100 + 14 * i, { x1: 65 }), run(b!, 90, 100 + 14 * i), run(c!, 300, 100 + 14 * i)];
    });
    const lines = buildLines(rows).map((l) => l.text);
    expect(lines.filter((t) => /^1\.\d$/.test(t))).toEqual(["1.1", "1.2", "1.3"]);
  });
});

describe("buildLines: keys and their values", () => {
  const texts = (runs: TextRun[]) => buildLines(runs).map((l) => [l.text, l.valueX]);

  it("reads an invoice's totals as a line each, key then amount, the amounts set flush right", () => {
    const row = (key: string, value: string, top: number) => [run(key, 350, top), run(value, 540 - value.length * 5, top)];
    const lines = texts([...row("Subtotal", "€17,732.40", 100), ...row("Discount (5%)", "−€886.62", 114), ...row("VAT 19%", "€3,200.70", 128), ...row("Total due", "€20,046.48", 142)]);
    expect(lines).toEqual([
      ["Subtotal €17,732.40", 540],
      ["Discount (5%) −€886.62", 540],
      ["VAT 19% €3,200.70", 540],
      ["Total due €20,046.48", 540],
    ]);
  });

  it("reads an invoice's number and dates as a line each beside the letterhead's lines on their rows, and leaves a table's last two cells apart", () => {
    const rows = [
      [run("Invoice no.", 400, 70), run("INV-2024-0193", 460, 70)],
      [run("VAT No. GB 123 4567 89", 50, 85), run("Date", 400, 85), run("12 March 2024", 460, 85)],
      [run("accounts@blueharbour.example", 50, 99), run("Due date", 400, 99), run("11 April 2024", 460, 99)],
    ].flat();
    expect(texts(rows).map(([t]) => t)).toEqual(["Invoice no. INV-2024-0193", "VAT No. GB 123 4567 89", "Date 12 March 2024", "accounts@blueharbour.example", "Due date 11 April 2024"]);
    // A table's rows: the cells before the last two stand as near as the last two do.
    const table = ["Ada Lovelace|Engineering|85,000", "Alan Turing|Research|92,000", "Grace Hopper|Operations|78,000", "Total||255,000"].flatMap((r, i) => {
      const [a, b, c] = r.split("|");
      return [run(a!, 50, 100 + 14 * i), ...(b ? [run(b, 200, 100 + 14 * i)] : []), run(c!, 330, 100 + 14 * i)];
    });
    expect(texts(table).filter(([t]) => /^(?:Engineering|Research|Operations)$/.test(t as string))).toHaveLength(3);
  });

  it("reads every row of a block of keys and values alike, a value with words in it too", () => {
    const row = (key: string, value: string, top: number) => [run(key, 50, top), run(value, 200, top)];
    const lines = texts([...row("pH", "7.2", 100), ...row("Turbidity", "0.5 NTU", 114), ...row("Free chlorine", "0.8 mg/l", 128), ...row("Nitrate", "12.4 mg/l", 142), ...row("Iron", "0.05 mg/l", 156)]);
    expect(lines.map(([t]) => t)).toEqual(["pH 7.2", "Turbidity 0.5 NTU", "Free chlorine 0.8 mg/l", "Nitrate 12.4 mg/l", "Iron 0.05 mg/l"]);
  });

  it("reads a bill's and a receipt's items as a line each with their amounts, names ending in figures too, a quantity at its price alone", () => {
    const row = (key: string, value: string, top: number, x = 60) => [run(key, x, top), run(value, 535 - value.length * 5, top)];
    const bill = texts([...row("Line rental March 2024", "18.99", 100), ...row("Broadband Fibre 500", "32.00", 116), ...row("Calls to 0800 numbers", "0.00", 132), ...row("Mobile add-on 5G", "10.00", 148), ...row("Paid by card ****7781", "-61.00", 164)]);
    expect(bill.map(([t]) => t)).toEqual(["Line rental March 2024 18.99", "Broadband Fibre 500 32.00", "Calls to 0800 numbers 0.00", "Mobile add-on 5G 10.00", "Paid by card ****7781 -61.00"]);
    // A receipt's quantity line under its item, the only one of its kind near: the product checks.
    const receipt = texts([run("Flat white", 11, 100), ...row("2 x 3.40", "6.80", 110, 20), run("Almond croissant", 11, 120), run("Sourdough loaf", 11, 130)]);
    expect(receipt.map(([t]) => t)).toEqual(["Flat white", "2 x 3.40 6.80", "Almond croissant", "Sourdough loaf"]);
    expect(texts(row("2 x 3.40", "7.80", 110, 20)).map(([t]) => t)).toEqual(["2 x 3.40", "7.80"]);
  });

  it("leaves an index's entries ending in page numbers apart from a column of pages: no cents", () => {
    const row = (key: string, value: string, top: number) => [run(key, 60, top), run(value, 300, top)];
    const index = texts([...row("Pumps, type 2", "12", 100), ...row("Valves, class 3", "14", 112), ...row("Filters, grade 5", "19", 124), ...row("Tanks, size 4", "21", 136)]);
    expect(index.map(([t]) => t)).toEqual(["Pumps, type 2", "12", "Valves, class 3", "14", "Filters, grade 5", "19", "Tanks, size 4", "21"]);
  });

  it("leaves two columns of addresses or names apart: their right side is not mostly figures", () => {
    const row = (left: string, right: string, top: number) => [run(left, 50, top), run(right, 300, top)];
    const lines = texts([...row("Attn: Accounts Payable", "Warehouse 3, Gate B", 100), ...row("Unit 4, Dock Road", "Block 7, Quay Side", 114), ...row("Floor 2, East Wing", "Gate 9, North Yard", 128)]);
    expect(lines.map(([t]) => t)).toEqual(["Attn: Accounts Payable", "Warehouse 3, Gate B", "Unit 4, Dock Road", "Block 7, Quay Side", "Floor 2, East Wing", "Gate 9, North Yard"]);
  });
});

describe("buildLines: word spaces by script", () => {
  /** One glyph a run, as Chromium sets CJK: each 1 em wide, `gaps[i]` em after glyph i. */
  const glyphs = (text: string, gaps: Record<number, number> = {}) => {
    let x = 10;
    return [...text].map((ch, i) => {
      const r = run(ch, x, 100, { x1: x + 10 });
      x += 10 + 10 * (gaps[i] ?? 0);
      return r;
    });
  };

  it("spaces Korean words a quarter em apart, as Latin", () => {
    expect(buildLines(glyphs("2023년지역사회", { 4: 0.28, 6: 0.28 }))[0]!.text).toBe("2023년 지역 사회");
  });

  it("reads a space between two Japanese characters set glyph by glyph, not the even spacing of a tracked line", () => {
    expect(buildLines(glyphs("年度研究開発", { 1: 0.225 }))[0]!.text).toBe("年度 研究開発");
    expect(buildLines(glyphs("年度研究開発", { 0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25, 4: 0.25 }))[0]!.text).toBe("年度研究開発");
    // One gap alone on the line is no evidence either way: no space, as before.
    expect(buildLines([run("年度", 10, 100, { x1: 30 }), run("研究", 32.5, 100, { x1: 52.5 })])[0]!.text).toBe("年度研究");
  });

  it("reads the one gap between two Chinese runs as a space when the line's spaces beside its digits are as wide (a footer's 第 1 页 共 5 页)", () => {
    // A glyph a run, Chinese 1 em and digits 0.47 em wide, every gap `gap` em.
    const footer = (gap: number, between: number) => {
      let x = 10;
      return [..."第1页共5页"].map((ch, i) => {
        const w = /\d/.test(ch) ? 4.7 : 10;
        const r = run(ch, x, 100, { x1: x + w });
        x += w + 10 * (i === 2 ? between : gap);
        return r;
      });
    };
    expect(buildLines(footer(0.256, 0.256))[0]!.text).toBe("第 1 页 共 5 页");
    // Spaced beside the digits only (the writer's own CJK–Latin spacing): 页共 touch.
    expect(buildLines(footer(0.25, 0))[0]!.text).toBe("第 1 页共 5 页");
    expect(buildLines(footer(0.25, 0.1))[0]!.text).toBe("第 1 页共 5 页");
  });

  it("reads a letter-spaced line set a glyph a run as words: only a space's width more than the tracking parts them (Chromium, LibreOffice)", () => {
    // letter-spacing: 0.15 em; a word space is a space (0.32 em) and the tracking twice.
    expect(buildLines(glyphs("THREECHAPTER", { 0: 0.15, 1: 0.15, 2: 0.15, 3: 0.15, 4: 0.62, 5: 0.15, 6: 0.15, 7: 0.15, 8: 0.15, 9: 0.15, 10: 0.15 }))[0]!.text).toBe("THREE CHAPTER");
    // One word tracked 0.3 em (a heading).
    expect(buildLines(glyphs("CONTENTS", { 0: 0.3, 1: 0.3, 2: 0.3, 3: 0.3, 4: 0.3, 5: 0.3, 6: 0.3 }))[0]!.text).toBe("CONTENTS");
    // Small caps: capitals in 11 pt, the rest in 7.5 pt, 2.75 pt apart; words 9 pt apart.
    let x = 10;
    const caps = [..."TheHouse"].map((ch, i) => {
      const size = ch === ch.toUpperCase() ? 11 : 7.5;
      const r = run(ch, x, size === 11 ? 100 : 103.3, { fontSize: size, x1: x + 0.6 * size });
      x += 0.6 * size + (i === 2 ? 9 : 2.75);
      return r;
    });
    expect(buildLines(caps)[0]!.text).toBe("The House");
  });

  it("keeps word spaces between glyphs set touching, and between single letters far apart", () => {
    expect(buildLines(glyphs("Therain", { 2: 0.32 }))[0]!.text).toBe("The rain");
    // groff cuts a justified line's strings anywhere: single letters a word space apart.
    let x = 108;
    const pieces = ["A", "s", "hell function is called lik", "e", "a", "s", "imple command"].map((t, i) => {
      const r = run(t, x, 100, { x1: x + 4.4 * t.length });
      x += 4.4 * t.length + ([0, 3, 4].includes(i) ? 2.7 : 0);
      return r;
    });
    expect(buildLines(pieces)[0]!.text).toBe("A shell function is called like a simple command");
    expect(buildLines(glyphs("ABCD", { 0: 0.8, 1: 0.8, 2: 0.8 }))[0]!.text).toBe("A B C D");
  });

  it("counts Greek words as prose and a Greek letter standing alone as math", () => {
    const [greek] = buildLines([run("Ετήσια έκθεση του Δήμου", 10, 100)]);
    expect(greek!.mathShare).toBe(0);
    const [variable] = buildLines([run("α = β", 10, 100)]);
    expect(variable!.mathShare).toBeCloseTo(3 / 5);
  });
});

describe("buildLines: a footnote's number hanging before its text", () => {
  const body = [
    run("The number of registered readers grew by twelve percent over the previous year.", 56.8, 90, { fontSize: 12, x1: 552 }),
    run("Special attention was paid to work with children and older people, for whom free", 56.8, 130, { fontSize: 12, x1: 552 }),
  ];
  // The text a tab (1.06 em) after the number, its second line under the text.
  const note = (size: number, at = 63.2 + 1.06 * size) => [
    run("1", 56.8, 790, { fontSize: size, x1: 63.2 }),
    run("Figures as of 31 December 2023; website visits are counted without repeat visits, and loans of e-", at, 790, { fontSize: size, x1: 566 }),
    run("books are included with loans of printed books from all branches.", at, 790 + 1.16 * size, { fontSize: size, x1: 406.8 }),
  ];

  it("keeps the one note of two lines at a page's foot, in type smaller than the body, with its number (LibreOffice)", () => {
    const texts = buildLines([...body, ...note(10)]).map((l) => l.text);
    expect(texts).toContain("1 Figures as of 31 December 2023; website visits are counted without repeat visits, and loans of e-");
  });

  it("leaves a number a tab before text in the body's type apart", () => {
    const texts = buildLines([...body, ...note(12)]).map((l) => l.text);
    expect(texts).toContain("1");
  });
});

describe("buildLines: right-to-left items (the marker a tab right of its words)", () => {
  const texts = (runs: TextRun[]) => buildLines(runs).map((l) => l.text);
  /** Hebrew or Arabic words as a PDF draws them (letters reversed), ending at `right`. */
  const drawn = (logical: string, right: number, top: number) => run([...logical].reverse().join(""), right - logical.length * 5, top);

  it("keeps a clause's number on its line, first in reading order, the numbers lining up down the page", () => {
    const runs = ["1.1", "1.2", "1.3"].flatMap((n, k) => [drawn("הספק יספק את השירותים ברמה גבוהה", 400, 100 + 14 * k), run(n, 415, 100 + 14 * k)]);
    expect(texts(runs)).toEqual(["1.1 הספק יספק את השירותים ברמה גבוהה", "1.2 הספק יספק את השירותים ברמה גבוהה", "1.3 הספק יספק את השירותים ברמה גבוהה"]);
  });

  it("keeps LibreOffice's `1.` (drawn as its full stop, then its figure) and a bullet on their items", () => {
    const numbered = [1, 2, 3].flatMap((n, k) => [drawn("دفعة مقدمة بنسبة من قيمة العقد", 400, 100 + 14 * k), run(".", 418, 100 + 14 * k, { x1: 421 }), run(String(n), 421, 100 + 14 * k)]);
    expect(texts(numbered)).toEqual([1, 2, 3].map((n) => `${n}. دفعة مقدمة بنسبة من قيمة العقد`));
    const bullets = [0, 1, 2].flatMap((k) => [drawn("توريد وتركيب أجهزة الخوادم", 400, 200 + 14 * k), run("•", 418, 200 + 14 * k)]);
    expect(texts(bullets)).toEqual(["• توريد وتركيب أجهزة الخوادم", "• توريد وتركيب أجهزة الخوادم", "• توريد وتركيب أجهزة الخوادم"]);
  });
});
