import { describe, expect, it } from "vitest";
import { findTables, type Segment } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const h = (at: number, from: number, to: number): Segment => ({ horizontal: true, at, from, to });
const v = (at: number, from: number, to: number): Segment => ({ horizontal: false, at, from, to });
const page = { x0: 0, y0: 0, x1: 600, y1: 800 };

describe("findTables", () => {
  it("turns a ruled grid into cells, a missing rule into a row span", () => {
    // 3 rows × 2 cols; no rule between rows 2 and 3 in column 1.
    const segments = [h(100, 50, 250), h(120, 50, 250), h(140, 150, 250), h(160, 50, 250), v(50, 100, 160), v(150, 100, 160), v(250, 100, 160)];
    const runs = [run("Name", 55, 105), run("Value", 155, 105), run("Merged", 55, 130), run("1", 155, 125), run("2", 155, 145), run("outside", 300, 300)];
    const { tables, used } = findTables(segments, runs, page);
    expect(tables).toHaveLength(1);
    const t = tables[0]!;
    expect([t.rows, t.cols]).toEqual([3, 2]);
    expect(t.cells.map((c) => [c.row, c.col, c.rowSpan, c.colSpan, c.text])).toEqual([
      [1, 1, 1, 1, "Name"],
      [1, 2, 1, 1, "Value"],
      [2, 1, 2, 1, "Merged"],
      [2, 2, 1, 1, "1"],
      [3, 2, 1, 1, "2"],
    ]);
    expect(used.size).toBe(5);
  });

  it("merges rules drawn in pieces and ignores a lone rule", () => {
    const segments = [h(100, 50, 150), h(100, 150, 250), h(130, 50, 250), v(50, 100, 130), v(150, 100, 130), v(250, 100, 130), h(400, 50, 500)];
    const { tables } = findTables(segments, [run("a", 60, 105), run("b", 160, 105)], page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[1, 2]]);
  });

  it("takes a grid with no word in it for drawing, not a table (a chart's plot area)", () => {
    // Gridlines and axes of a bar chart; its labels stand outside the plot area.
    const segments = [h(100, 50, 350), h(130, 50, 350), h(160, 50, 350), h(190, 50, 350), v(50, 100, 190), v(350, 100, 190), v(150, 130, 190), v(250, 110, 190)];
    const labels = [run("14", 30, 98), run("12", 30, 158), run("Q1", 95, 195), run("Q2", 195, 195)];
    const { tables, used } = findTables(segments, labels, page);
    expect(tables).toEqual([]);
    expect(used.size).toBe(0);
    // The same grid with a word in a cell is a table.
    expect(findTables(segments, [...labels, run("Total", 60, 112)], page).tables).toHaveLength(1);
  });

  it("splits a run merged across a column rule", () => {
    const segments = [h(100, 50, 250), h(120, 50, 250), v(50, 100, 120), v(150, 100, 120), v(250, 100, 120)];
    const merged = { ...run("Left Right", 55, 105), x1: 200 };
    const { tables } = findTables(segments, [merged], page);
    expect(tables[0]!.cells.map((c) => c.text)).toEqual(["Left", "Right"]);
  });

  it("keeps a slanted watermark's letters out of the cells they are drawn over; sideways heads stay", () => {
    const segments = [h(100, 50, 250), h(160, 50, 250), h(180, 50, 250), v(50, 100, 180), v(150, 100, 180), v(250, 100, 180)];
    const head = { ...run("Total", 195, 110, { angle: 90 }), x1: 205, y1: 150 };
    const letter = { ...run("R", 170, 150, { fontSize: 64, angle: 35 }), x1: 230, y1: 200 };
    const { tables } = findTables(segments, [run("Site", 55, 105), head, letter, run("Quay", 55, 165), run("9,210", 155, 165)], page);
    expect(tables[0]!.cells.map((c) => c.text)).toEqual(["Site", "Total", "Quay", "9,210"]);
  });

  it("joins a word hyphenated at a cell's line end, and keeps the hyphen for a writer that does not hyphenate", () => {
    const segments = [h(100, 50, 250), h(140, 50, 250), v(50, 100, 140), v(150, 100, 140), v(250, 100, 140)];
    const runs = [run("Alpha", 55, 105), run("a state-", 155, 105), run("funded scheme", 155, 118)];
    expect(findTables(segments, runs, page).tables[0]!.cells.map((c) => c.text)).toEqual(["Alpha", "a statefunded scheme"]);
    expect(findTables(segments, runs, page, { keepLineEndHyphens: true }).tables[0]!.cells.map((c) => c.text)).toEqual(["Alpha", "a state-funded scheme"]);
  });

  it("does not cut a word in a cell spanning a column edge (a multicolumn header)", () => {
    // Header row: one cell over columns 2-3 (its rule under it only), its word across x = 150.
    const segments = [h(100, 50, 250), h(120, 50, 250), h(140, 50, 250), v(50, 100, 140), v(100, 100, 140), v(150, 120, 140), v(250, 100, 140)];
    const word = { ...run("LongQA", 130, 105), x1: 170 };
    const { tables } = findTables(segments, [word, run("R@10", 105, 125), run("MRR", 155, 125), run("Model", 55, 125)], page);
    expect(tables[0]!.cells.map((c) => [c.row, c.col, c.colSpan, c.text])).toEqual([
      [1, 1, 1, ""],
      [1, 2, 2, "LongQA"],
      [2, 1, 1, "Model"],
      [2, 2, 1, "R@10"],
      [2, 3, 1, "MRR"],
    ]);
  });
});

describe("findTables: rows and columns nobody ruled", () => {
  // A LaTeX `|l|r|r|` tabular with `\\hline` above and below the header and at the end.
  const grid = [h(100, 50, 330), h(114, 50, 330), h(160, 50, 330), v(50, 100, 160), v(170, 100, 160), v(250, 100, 160), v(330, 100, 160)];

  it("gives each line of an unruled body its own row where the columns line up", () => {
    const runs = [run("Configuration", 55, 102), run("Recall", 200, 102), run("MRR", 290, 102)];
    ["Fixed windows", "Hierarchy-aware", "Hierarchy + tables"].forEach((name, k) => {
      runs.push(run(name, 55, 116 + 14 * k), run(`0.${61 + k}`, 225, 116 + 14 * k), run(`0.${48 + k}`, 305, 116 + 14 * k));
    });
    const [t] = findTables(grid, runs, page).tables;
    expect([t!.rows, t!.cols]).toEqual([4, 3]);
    expect(t!.cells.filter((c) => c.col === 1).map((c) => c.text)).toEqual(["Configuration", "Fixed windows", "Hierarchy-aware", "Hierarchy + tables"]);
    expect(t!.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(["Hierarchy-aware", "0.62", "0.49"]);
  });

  it("starts a row at each figure in a column of figures, a description wrapped onto lines between", () => {
    // A longtable `{|l|r|p{6cm}|}`: a parameter, its default, its meaning on two lines.
    const runs = [run("Parameter", 55, 102), run("Default", 200, 102), run("Meaning", 255, 102)];
    ["flush", "merge", "spill"].forEach((name, k) => {
      const top = 116 + 28 * k;
      runs.push(run(`param ${name}`, 55, top), run(String(37 * (k + 1)), 225, top), run("Controls how often the journal seg-", 255, top, { x1: 328 }), run("ment is written to disk.", 255, top + 13, { x1: 328 }));
    });
    const tall = [h(100, 50, 330), h(114, 50, 330), h(200, 50, 330), v(50, 100, 200), v(170, 100, 200), v(250, 100, 200), v(330, 100, 200)];
    const [t] = findTables(tall, runs, page).tables;
    expect([t!.rows, t!.cols]).toEqual([4, 3]);
    expect(t!.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(["param merge", "74", "Controls how often the journal segment is written to disk."]);
  });

  it("ends a table whose page break left no rule under its last row where its column rules end", () => {
    // A longtable's header between two rules, its body ruled by column only, to the page foot.
    const open = [h(100, 50, 330), h(114, 50, 330), v(50, 100, 160), v(170, 100, 160), v(250, 100, 160), v(330, 100, 160)];
    const runs = [run("Parameter", 55, 102), run("Default", 200, 102), run("Meaning", 255, 102)];
    ["alpha", "beta", "gamma"].forEach((name, k) => runs.push(run(name, 55, 117 + 14 * k), run(String(10 * (k + 1)), 225, 117 + 14 * k), run("flush interval", 255, 117 + 14 * k)));
    const { tables } = findTables(open, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
    expect(tables[0]!.cells.filter((c) => c.col === 1).map((c) => c.text)).toEqual(["Parameter", "alpha", "beta", "gamma"]);
  });

  it("leaves a form's head band, open at its top and divided by rules that stop at the grid, out of the grid", () => {
    // A tax form: `Form W-9` | its title | `Give form to the requester`, ruled under, over
    // boxes ruled all round; the band's dividers go on nowhere below.
    const head = [h(90, 36, 576), v(136, 36, 90), v(466, 36, 90)];
    const boxes = [h(116, 36, 576), h(142, 36, 576), h(186, 36, 576), v(36, 90, 186), v(576, 90, 186), v(446, 142, 186)];
    const band = [run("Form W-9X", 40, 45), run("Request for Taxpayer Identification", 160, 45, { fontSize: 13, bold: true }), run("Give form to the requester.", 470, 45, { fontSize: 7 })];
    const cells = [run("1 Name", 40, 94, { fontSize: 7 }), run("MARGARET HOLLOWAY", 42, 104), run("2 Business name", 40, 120, { fontSize: 7 }), run("3 Classification", 40, 146, { fontSize: 7 }), run("4 Exemptions", 450, 146, { fontSize: 7 })];
    const { tables, used } = findTables([...head, ...boxes], [...band, ...cells], page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[3, 2]]);
    expect(band.some((r) => used.has(r))).toBe(false);
    // Dividers that go on down the grid keep the band its first row.
    const { tables: kept } = findTables([...head, ...boxes, v(136, 90, 186), v(466, 90, 186)], [...band, ...cells], page);
    expect(kept[0]!.rows).toBe(4);
  });

  it("keeps a cell wrapped onto a second line whole", () => {
    const runs = [run("Part", 55, 102), run("Role", 200, 102), run("Owner", 290, 102)];
    // Two columns wrap at the same heights: prose reading on, no number beside it.
    runs.push(run("The parser reads", 55, 116), run("the pages", 175, 116), run("core", 290, 116));
    runs.push(run("every file", 55, 130), run("in order", 175, 130), run("team", 290, 130));
    const [t] = findTables(grid, runs, page).tables;
    expect(t!.rows).toBe(2);
    expect(t!.cells.find((c) => c.row === 2 && c.col === 1)?.text).toBe("The parser reads every file");
  });

  it("keeps cells wrapped at the same heights whole when no number shows the rows, in any script", () => {
    for (const [a, b, c, d] of [
      ["Der Parser liest", "Dateien nacheinander", "die Seiten", "Abschnitte"],
      ["構文解析器は全て", "のファイルを読む", "ページを順に", "読みます"],
    ]) {
      const runs = [run("Teil", 55, 102), run("Rolle", 200, 102), run("Wer", 290, 102)];
      runs.push(run(a!, 55, 116, { x1: 165 }), run(c!, 175, 116, { x1: 245 }), run("Kern", 290, 116));
      runs.push(run(b!, 55, 130, { x1: 165 }), run(d!, 175, 130, { x1: 245 }));
      const [t] = findTables(grid, runs, page).tables;
      expect(t!.rows).toBe(2);
    }
  });

  it("finds two booktabs tables of one width in a column, with prose and another rule between them", () => {
    const rules = [h(100, 50, 290), h(114, 50, 290), h(160, 50, 290), h(250, 310, 550), h(400, 50, 290), h(414, 50, 290), h(460, 50, 290)];
    const runs = [run("a paragraph of prose that runs across the whole column width here", 50, 300, { x1: 290 })];
    for (const top of [100, 400]) {
      runs.push(run("Model", 55, top + 2), run("Acc", 150, top + 2), run("F1", 230, top + 2));
      for (let r = 0; r < 3; r++) runs.push(run(`m${r}`, 55, top + 17 + 14 * r), run(`0.5${r}`, 150, top + 17 + 14 * r), run(`0.4${r}`, 230, top + 17 + 14 * r));
    }
    const { tables } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.y0, t.rows, t.cols])).toEqual([
      [100, 4, 3],
      [400, 4, 3],
    ]);
  });

  it("reads a table once when subtotal rules under its figure columns (`\\cline{2-3}`) are narrower than its own", () => {
    // `\\hline` over and under the header and at the foot; `\\cline{2-3}` over and under each subtotal.
    const rules = [h(100, 50, 290), h(114, 50, 290), h(158, 140, 290), h(172, 140, 290), h(200, 140, 290), h(214, 50, 290)];
    const rows: [string, string, string, number][] = [
      ["", "2023", "2022", 102],
      ["Cash", "4,812", "5,907", 116],
      ["Loans", "1,208", "986", 130],
      ["Customers", "38,442", "36,105", 144],
      ["Total assets", "44,462", "42,998", 160],
      ["Deposits", "(2,105)", "(1,876)", 174],
      ["Accounts", "(41,388)", "(40,012)", 186],
      ["Total liabilities", "(43,493)", "(41,888)", 202],
    ];
    const runs = rows.flatMap(([label, a, b, top]) => [...(label ? [run(label, 55, top)] : []), run(a, 230 - a.length * 5, top), run(b, 285 - b.length * 5, top)]);
    const { tables } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[8, 3]]);
  });

  it("takes a statement's row labels left of subtotal rules drawn under its figure columns only", () => {
    // An SEC filing's statement: `border-bottom` under the years, `border-top` over each
    // subtotal's amount cells, a double rule under the total; the labels' cells unruled.
    const rules = [h(96, 270, 404), h(123, 270, 404), h(164, 270, 404), h(191, 270, 404), h(205, 270, 404), h(206.5, 270, 404)];
    const rows: [string, string, string, number][] = [
      ["Net sales", "10,730.0", "10,030.1", 97],
      ["Cost of sales", "6,727.0", "6,408.2", 110],
      ["Gross margin", "4,003.0", "3,621.9", 124],
      ["Research and development", "612.8", "574.1", 137],
      ["Selling, general and administrative", "1,488.3", "1,402.7", 151],
      ["Operating income", "1,901.9", "1,645.1", 164.5],
      ["Interest expense, net", "(186.2)", "(141.9)", 178],
      ["Net income", "1,715.7", "1,503.2", 192],
    ];
    const runs = [run("2023", 294, 83, { fontSize: 9 }), run("2022", 361, 83, { fontSize: 9 })];
    for (const [label, a, b, top] of rows) runs.push(run(label, 63, top, { fontSize: 9 }), run(a, 334 - a.length * 4.5, top, { fontSize: 9 }), run(b, 401 - b.length * 4.5, top, { fontSize: 9 }));
    const [t, ...more] = findTables(rules, runs, page).tables;
    expect(more).toEqual([]);
    expect(t!.cells.filter((c) => c.col === 1 && c.text).map((c) => c.text)).toEqual(rows.map(([label]) => label));
    expect(t!.cells.filter((c) => c.text === "4,003.0" || c.text === "Gross margin").map((c) => c.row)).toEqual([4, 4]);
  });

  it("leaves a justified column of prose beside a table ruled under its own columns", () => {
    const rules = [h(96, 320, 550), h(110, 320, 550), h(180, 320, 550)];
    const runs = [run("Model", 325, 98), run("Acc", 430, 98), run("F1", 500, 98)];
    for (let r = 0; r < 5; r++) runs.push(run(`m${r}`, 325, 112 + 13 * r), run(`0.5${r}`, 430, 112 + 13 * r), run(`0.4${r}`, 500, 112 + 13 * r));
    for (let r = 0; r < 14; r++) runs.push(run("prose set in a column of its own, justified", 60, 60 + 13 * r, { x1: 290 }));
    const [t] = findTables(rules, runs, page).tables;
    expect(t!.x0).toBe(320);
  });

  it("keeps two columns apart under a head spanning them (`\\multicolumn{2}{c}{Group}` over two years)", () => {
    const rules = [h(100, 50, 330), h(128, 50, 330), h(186, 50, 330)];
    // Figures right-aligned at 200, 245, 290 and 325; `Group` and `Bank` centred over each pair.
    const right = [200, 245, 285, 325];
    const runs = [run("Group", 198, 102), run("Bank", 285, 102)];
    right.forEach((x, i) => runs.push(run(i % 2 ? "2022" : "2023", x - 20, 115)));
    const body = [
      ["Cash", "4,812", "5,907", "4,790", "5,881"],
      ["Loans", "1,208", "986", "1,144", "951"],
      ["Customers", "38,442", "36,105", "38,019", "35,774"],
      ["Total", "44,462", "42,998", "43,953", "42,606"],
    ];
    body.forEach(([label, ...figures], r) => {
      runs.push(run(label!, 55, 131 + 13 * r));
      figures.forEach((f, i) => runs.push(run(f, right[i]! - 5 * f.length, 131 + 13 * r)));
    });
    const [t] = findTables(rules, runs, page).tables;
    expect([t!.rows, t!.cols, t!.headerRows]).toEqual([6, 5, 2]);
    expect(t!.cells.filter((c) => c.row === 1 && c.text).map((c) => [c.text, c.col, c.colSpan])).toEqual([
      ["Group", 2, 2],
      ["Bank", 4, 2],
    ]);
    expect(t!.cells.filter((c) => c.row === 6).map((c) => c.text)).toEqual(body[3]);
  });

  it("reads a booktabs table whose cells stand 1.2 to 1.6 font sizes apart", () => {
    // Rules above, under the header and below; LaTeX's 6 pt column padding at 10 pt.
    const rules = [h(295, 244, 367), h(307.5, 244, 367), h(356, 244, 367)];
    const rows = [
      ["Region", "Q1", "Q2", "Q3"],
      ["North", "120", "135", "150"],
      ["South", "98", "101", "110"],
      ["East", "143", "150", "149"],
    ];
    const runs = rows.flatMap((cells, r) => {
      const top = 297 + 12 * r + (r > 0 ? 2 : 0);
      // Left column as wide as its widest entry; numbers right-aligned at 307, 334 and 361.
      return [run(cells[0]!, 250, top), ...cells.slice(1).map((text, c) => run(text, [307, 334, 361][c]! - text.length * 5, top))];
    });
    const [t] = findTables(rules, runs, page).tables;
    expect([t?.rows, t?.cols]).toEqual([4, 4]);
    expect(t!.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(["South", "98", "101", "110"]);
  });
});

describe("findAlignedTables", () => {
  it("keeps a long rule-less table whose middle and last columns hold sentences", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const runs = [];
    for (let r = 0; r < 13; r++) {
      const top = 100 + 14 * r;
      runs.push(run(`R-${r + 1}`, 50, top), run("The parser reads every page in order", 110, top, { x1: 300 }), run("Checked by the nightly job run", 330, top, { x1: 500 }));
    }
    const { tables } = findAlignedTables(buildLines(runs));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[13, 3]]);
  });

  it("finds a table with no rules from column alignment, and leaves prose alone", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const cells = [
      ["City", "Population", "Area"],
      ["Lyon", "522000", "47.9"],
      ["Nice", "342000", "71.9"],
      ["Lille", "236000", "34.8"],
    ];
    const runs = cells.flatMap((row, r) => row.map((text, c) => run(text, 50 + c * 120, 100 + r * 14)));
    const prose = [run("a paragraph line above the table that is long", 50, 60), run("two columns of prose", 50, 300), run("side by side here", 300, 300), run("more prose on the left", 50, 314), run("more on the right", 300, 314)];
    const { tables, used } = findAlignedTables(buildLines([...runs, ...prose]));
    expect(tables).toHaveLength(1);
    const t = tables[0]!;
    expect([t.rows, t.cols]).toEqual([4, 3]);
    expect(t.cells.map((c) => c.text)).toEqual(cells.flat());
    expect(used.size).toBe(12);
  });

  it("leaves a letterhead's large name and title out of the rows under them", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    // An invoice: the company name (20 pt) and `INVOICE` (16 pt), then address lines
    // beside the invoice's number and dates.
    const head = [run("ACME Supplies Ltd", 57, 70, { fontSize: 20, bold: true }), run("INVOICE", 470, 72, { fontSize: 16, bold: true })];
    const rows = [
      ["12 Harbour Road", "Invoice no.", "INV-2026-0147"],
      ["Bristol BS1 4QA", "Date", "14 November 2026"],
      ["United Kingdom", "Due date", "14 December 2026"],
    ].flatMap((cells, r) => cells.map((text, c) => run(text, [57, 370, 470][c]!, 96 + 11 * r, { fontSize: 9 })));
    const { tables } = findAlignedTables(buildLines([...head, ...rows]));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[3, 3]]);
    expect(tables[0]!.cells.some((c) => c.text.includes("ACME"))).toBe(false);
    // An 11 pt bold header over 8 pt rows is the table's own.
    const small = [
      ["Country", "Population", "Area"],
      ["France", "68.0", "551"],
      ["Spain", "48.6", "506"],
      ["Italy", "58.9", "301"],
    ].flatMap((cells, r) => cells.map((text, c) => run(text, 57 + 120 * c, 100 + 13 * r, r === 0 ? { fontSize: 11, bold: true } : { fontSize: 8 })));
    expect(findAlignedTables(buildLines(small)).tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
  });

  it("takes in a header whose last cell stands out past a column of short figures", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    // `Staff` (bold, one line with the other header cells) over `40`, `35`, `12`.
    const head = [run("Region", 93, 110, { x1: 137, bold: true, fontSize: 11 }), run("Office", 158, 110, { x1: 195, bold: true, fontSize: 11 }), run("Staff", 225, 110, { x1: 257, bold: true, fontSize: 11 })];
    const body = [
      ["North", "Leeds", "40"],
      ["South", "Bristol", "35"],
      ["East", "Norwich", "12"],
    ].flatMap((cells, r) => cells.map((text, c) => run(text, [93, 158, 225][c]!, 130 + 20 * r, { fontSize: 11 })));
    expect(buildLines(head).map((l) => l.text)).toEqual(["Region Office Staff"]);
    const { tables } = findAlignedTables(buildLines([...head, ...body]));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
    expect(tables[0]!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Region", "Office", "Staff"]);
  });
});

describe("findAlignedTables: beside prose, headers, bars", () => {
  // A two-column page: prose on the left on the same baselines as a table on the right.
  const proseLine = (top: number) => run("each page is read as a stream of glyphs with positions", 50, top, { x1: 290 });
  const tableRows = [
    ["Configuration", "Recall", "MRR"],
    ["Fixed windows", "0.61", "0.48"],
    ["Hierarchy-aware", "0.74", "0.59"],
    ["Hierarchy + tables", "0.79", "0.63"],
  ];
  const tableRuns = (header = true) =>
    tableRows.slice(header ? 0 : 1).flatMap((cells, r) => cells.map((text, c) => run(text, [320, 430, 490][c]!, 200 + 12 * (r + (header ? 0 : 1)))));

  it("leaves a column of prose beside a rule-less table out of it", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const prose = [164, 176, 188, 200, 212, 224, 236, 248, 260].map(proseLine);
    const { tables, used } = findAlignedTables(buildLines([...prose, ...tableRuns()]));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
    expect(tables[0]!.cells.filter((c) => c.col === 1).map((c) => c.text)).toEqual(tableRows.map((r) => r[0]));
    expect([...used].some((l) => l.text.startsWith("each page"))).toBe(false);
  });

  it("keeps a table across a two-column page whole; a caption or heading above is no header row", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const prose = "retrieval quality improves when chunks follow";
    const runs = [run("Table 1: Time per stage for 4,000 pages.", 180, 80)];
    const cells = [
      ["Stage", "Seconds", "Share", "Pages/s"],
      ["Parse", "41.2", "61%", "97"],
      ["Chunk", "3.1", "5%", "1290"],
      ["Embed", "22.9", "34%", "175"],
    ];
    cells.forEach((row, k) => row.forEach((t, c) => runs.push(run(t, [60, 180, 320, 440][c]!, 100 + k * 12))));
    for (let k = 0; k < 10; k++) runs.push(run(prose, 50, 175 + k * 12, { x1: 280 }), run(prose, 310, 175 + k * 12, { x1: 540 }));
    const { tables } = findAlignedTables(buildLines(runs));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[4, 4]]);
    // Its second column describing each row in a few words, over the left column's area.
    const described = runs.filter((r) => !["Seconds", "41.2", "3.1", "22.9"].includes(r.text));
    ["What it does", "reads every page into lines", "splits the tree of elements", "turns each chunk into vectors"].forEach((t, k) => described.push(run(t, 120, 100 + k * 12)));
    const wide = findAlignedTables(buildLines(described)).tables;
    expect(wide.map((t) => [t.rows, t.cols])).toEqual([[4, 4]]);
    expect(wide[0]!.cells.filter((c) => c.col === 2).map((c) => c.text)).toEqual(["What it does", "reads every page into lines", "splits the tree of elements", "turns each chunk into vectors"]);
    for (const above of [run("Table 2", 60, 86, { bold: true }), run("3.2 Operating costs", 60, 86, { fontSize: 12, bold: true })]) {
      const t = findAlignedTables(buildLines([above, ...cells.slice(1).flatMap((row, k) => row.map((x, c) => run(x, [60, 180, 320, 440][c]!, 100 + k * 12)))])).tables[0]!;
      expect([t.rows, t.cells[0]!.text]).toEqual([3, "Parse"]);
    }
  });

  it("keeps a table's own column of notes, which ends with the table", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const runs = [0, 1, 2, 3].flatMap((r) => [run(`R-${r}`, 50, 100 + 12 * r), run(`${r * 7}`, 110, 100 + 12 * r), run("checked by the nightly job every day", 160, 100 + 12 * r, { x1: 360 })]);
    const paragraph = run("a paragraph under the table, as wide as the page is", 50, 160, { x1: 360 });
    const { tables } = findAlignedTables(buildLines([...runs, paragraph]));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
  });

  it("takes in a header row that reads as one line, and not a caption above", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    // Word boxes of an OCR layer over a booktabs table (9 pt): the header's gaps, each
    // under two em, leave it one line; the body's right-aligned numbers stand apart.
    const at = (text: string, x0: number, x1: number, top: number) => run(text, x0, top, { x1, fontSize: 9, y1: top + 9 });
    const header = [at("Region", 250.6, 280.1, 295.5), at("Q1", 295, 306.2, 295.5), at("Q2", 321.8, 333.6, 295.5), at("Q3", 348.7, 360.5, 295.5)];
    const body = [
      ["North", "120", "135", "150"],
      ["South", "98", "101", "110"],
      ["East", "143", "150", "149"],
      ["West", "87", "92", "99"],
    ].flatMap((cells, r) => [at(cells[0]!, 250.6, 250.6 + 5 * cells[0]!.length, 307.8 + 12 * r), ...cells.slice(1).map((text, c) => at(text, [306.7, 333.6, 360.5][c]! - 4.5 * text.length, [306.7, 333.6, 360.5][c]!, 307.8 + 12 * r))]);
    expect(buildLines(header)).toHaveLength(1);
    const headed = findAlignedTables(buildLines([...header, ...body]));
    expect(headed.tables.map((t) => [t.rows, t.cols])).toEqual([[5, 4]]);
    expect(headed.tables[0]!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Region", "Q1", "Q2", "Q3"]);
    const captioned = findAlignedTables(buildLines([at("Table 2: Revenue by region", 250.6, 360, 295.5), ...body]));
    expect(captioned.tables.map((t) => [t.rows, t.cols])).toEqual([[4, 4]]);
    expect([...captioned.used].some((l) => l.text.startsWith("Table 2"))).toBe(false);
  });

  it("reads a borderless table whose description cells wrap onto more lines, under a header with a wrapped cell", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    // An HTML table (12 px, cells padded 6 px): Endpoint | Method | Description | Rate limit.
    const at = (text: string, x0: number, x1: number, top: number, bold = false) => run(text, x0, top, { x1, fontSize: 12, y1: top + 12, bold });
    const rows: [string, string, string[], string][] = [
      ["/v1/users", "GET", ["Returns a paginated list of users in the", "organisation, sorted by creation date."], "100/min"],
      ["/v1/users/{id}", "DELETE", ["Removes the user and revokes every", "access token issued to them."], "10/min"],
      ["/v1/projects", "POST", ["Creates a project."], "20/min"],
      ["/v1/teams", "PUT", ["Replaces the member list of the project", "with the list given in the request body,", "sending an invitation to every new member."], "20/min"],
    ];
    const runs = [at("Endpoint", 40, 92, 107, true), at("Method", 150, 192, 107, true), at("Description", 215, 285, 107, true), at("Rate", 480, 508, 100, true), at("limit", 480, 508, 114, true)];
    let top = 134;
    for (const [endpoint, method, description, limit] of rows) {
      runs.push(at(endpoint, 40, 40 + 6.5 * endpoint.length, top), at(method, 150, 150 + 7 * method.length, top), at(limit, 480, 480 + 6.5 * limit.length, top));
      description.forEach((line, k) => runs.push(at(line, 215, 215 + 5.8 * line.length, top + 14 * k)));
      top += 14 * description.length + 12;
    }
    const { tables } = findAlignedTables(buildLines(runs));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[5, 4]]);
    const t = tables[0]!;
    expect(t.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Endpoint", "Method", "Description", "Rate limit"]);
    expect(t.cells.filter((c) => c.row === 5).map((c) => c.text)).toEqual(["/v1/teams", "PUT", "Replaces the member list of the project with the list given in the request body, sending an invitation to every new member.", "20/min"]);
  });

  it("reads a row of cards, each column in a drawn box of its own, as no table", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const cards = [
      ["Starter", "$9/month", "1 user", "10 projects"],
      ["Pro", "$29/month", "10 users", "Unlimited projects"],
      ["Enterprise", "$99/month", "Unlimited users", "SSO and audit logs"],
    ];
    const runs = cards.flatMap((card, c) => card.map((text, r) => run(text, 60 + 170 * c, 100 + 16 * r)));
    const panels = cards.map((_, c) => ({ x0: 50 + 170 * c, y0: 90, x1: 210 + 170 * c, y1: 170 }));
    expect(findAlignedTables(buildLines(runs)).tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
    expect(findAlignedTables(buildLines(runs), { panels }).tables).toEqual([]);
    // One panel behind the whole table (a shaded table) keeps it a table.
    expect(findAlignedTables(buildLines(runs), { panels: [{ x0: 40, y0: 90, x1: 560, y1: 170 }, { x0: 0, y0: 0, x1: 10, y1: 10 }] }).tables).toHaveLength(1);
  });

  it("keeps a last row's cell wrapped onto a line starting with a capital, under a column other than the first", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const rows = [["No.", "Work", "Cost"], ["1", "Replacement of the boiler", "4,200"], ["2", "Repair of the flat roof", "1,850"], ["3", "Replacement of roof tiles on", "2,300"]];
    // An HTML table: cells padded, rows 20 pt apart, a cell's lines 12 pt apart.
    const runs = rows.flatMap((r, k) => r.map((c, j) => run(c, 50 + [0, 40, 220][j]!, 100 + 20 * k)));
    runs.push(run("Block C and the garages", 90, 172));
    const { tables } = findAlignedTables(buildLines(runs));
    expect(tables[0]?.cells.find((c) => c.row === 4 && c.col === 2)?.text).toBe("Replacement of roof tiles on Block C and the garages");
  });

  it("leaves a note under a borderless table out of it", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const rows = [["Region", "Office", "Sales"], ["North", "Leeds", "1,240"], ["South", "Brighton", "980"], ["East", "Norwich", "1,105"]];
    const runs = rows.flatMap((r, k) => r.map((c, j) => run(c, 50 + 90 * j, 100 + 14 * k)));
    runs.push(run("* Estimated.", 50, 156));
    const { tables, used } = findAlignedTables(buildLines(runs));
    expect(tables.map((t) => t.rows)).toEqual([4]);
    expect([...used].some((l) => l.text === "* Estimated.")).toBe(false);
    // A source line in smaller type set tight under it is no row either.
    const source = [...runs.slice(0, -1), run("Source: ONS", 50, 153, { fontSize: 8, y1: 161 })];
    const small = findAlignedTables(buildLines(source));
    expect(small.tables.map((t) => t.rows)).toEqual([4]);
    expect([...small.used].some((l) => l.text.startsWith("Source"))).toBe(false);
  });

  it("reads a bar an OCR engine read between cells as a rule; a text layer's bar is text", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    // An OCR layer reads a drawn rule as "|", 0.6 em from the words either side.
    const runs = tableRuns().filter((r) => r.text !== "MRR");
    runs.push(run("|", 473, 200, { ocr: true }), run("MRR", 484, 200));
    const { tables } = findAlignedTables(buildLines(runs));
    expect(tables[0]!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Configuration", "Recall", "MRR"]);
    // A table of shell operators: the bars are its content.
    const ops = [
      ["|", "pipe output", "ls | wc"],
      ["||", "run if it failed", "a || b"],
      ["&&", "run if it worked", "a && b"],
    ].flatMap((cells, r) => cells.map((text, c) => run(text, [50, 120, 260][c]!, 100 + 12 * r)));
    const [t] = findAlignedTables(buildLines(ops)).tables;
    expect(t!.cells.filter((c) => c.col === 1).map((c) => c.text)).toEqual(["|", "||", "&&"]);
  });
});

describe("findTables: right-to-left tables", () => {
  // A Hebrew word as drawn (letters right to left).
  const drawn = (logical: string, x: number, top: number) => run([...logical].reverse().join(""), x, top);
  // 2 rows × 3 cols at x 50 | 150 | 250 | 350.
  const segments = [h(100, 50, 350), h(120, 50, 350), h(140, 50, 350), v(50, 100, 140), v(150, 100, 140), v(250, 100, 140), v(350, 100, 140)];

  it("numbers columns from the right when the cells read right to left", () => {
    const runs = [drawn("גיל", 260, 105), drawn("עיר", 160, 105), drawn("שם", 60, 105), run("34", 260, 125), drawn("ירושלים", 160, 125), drawn("דוד", 60, 125)];
    const { tables } = findTables(segments, runs, page);
    const t = tables[0]!;
    expect(t.cells.map((c) => [c.row, c.col, c.text])).toEqual([
      [1, 1, "גיל"],
      [1, 2, "עיר"],
      [1, 3, "שם"],
      [2, 1, "34"],
      [2, 2, "ירושלים"],
      [2, 3, "דוד"],
    ]);
    // Column 1 is the rightmost cell.
    expect(t.cells[0]!.x0).toBe(250);
  });

  it("mirrors a column span with its cell", () => {
    // Row 1: one cell over columns 1-2 (left, as drawn) and one in column 3.
    const spanned = [h(100, 50, 350), h(120, 50, 350), h(140, 50, 350), v(50, 100, 140), v(150, 120, 140), v(250, 100, 140), v(350, 100, 140)];
    const runs = [drawn("כותרת", 100, 105), drawn("סך", 260, 105), drawn("אחד", 60, 125), drawn("שניים", 160, 125), drawn("שלושה", 260, 125)];
    const t = findTables(spanned, runs, page).tables[0]!;
    expect(t.cells.map((c) => [c.row, c.col, c.colSpan, c.text])).toEqual([
      [1, 1, 1, "סך"],
      [1, 2, 2, "כותרת"],
      [2, 1, 1, "שלושה"],
      [2, 2, 1, "שניים"],
      [2, 3, 1, "אחד"],
    ]);
  });

  it("does not cut right-to-left text where a spanned cell has no rule", () => {
    // Row 2: one cell over the two left columns, no rule at x 150 there.
    const spanned = [h(100, 50, 350), h(120, 50, 350), h(140, 50, 350), v(50, 100, 140), v(150, 100, 120), v(250, 100, 140), v(350, 100, 140)];
    // "بيروت ٣٠": the number, drawn left to right as a run of its own, straddles x 150.
    const number = { ...run("٣٠", 140, 125), x1: 170 };
    const runs = [drawn("أ", 60, 105), drawn("ب", 160, 105), drawn("ج", 260, 105), drawn("ليلى", 260, 125), number, drawn("بيروت", 175, 125)];
    const t = findTables(spanned, runs, page).tables[0]!;
    expect(t.cells.filter((c) => c.row === 2).map((c) => [c.col, c.colSpan, c.text])).toEqual([
      [1, 1, "ليلى"],
      [2, 2, "بيروت ٣٠"],
    ]);
  });

  it("keeps left-to-right numbering for a table that is mostly English", () => {
    const runs = [run("Name", 60, 105), run("City", 160, 105), run("Age", 260, 105), run("David", 60, 125), drawn("ירושלים", 160, 125), run("34", 260, 125)];
    const t = findTables(segments, runs, page).tables[0]!;
    expect(t.cells.filter((c) => c.row === 1).map((c) => [c.col, c.text])).toEqual([
      [1, "Name"],
      [2, "City"],
      [3, "Age"],
    ]);
  });
});
