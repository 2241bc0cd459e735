import { describe, expect, it } from "vitest";
import { findTables, type Segment } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const h = (at: number, from: number, to: number): Segment => ({ horizontal: true, at, from, to });
const v = (at: number, from: number, to: number): Segment => ({ horizontal: false, at, from, to });
const page = { x0: 0, y0: 0, x1: 600, y1: 800 };

describe("findTables: a rule under every row", () => {
  // A bank statement printed from HTML (`td{border-bottom}`): a rule under every row.
  const statement = (rows: number, top = 60, pitch = 16.5) => {
    const rules = [h(top, 43, 553)];
    const runs = [];
    for (let r = 0; r < rows; r++) {
      const y = top + pitch * r + 4;
      runs.push(run(`${String(1 + (r % 28)).padStart(2, "0")} Apr 2024`, 47, y), run(`Card payment STORE ${r}`, 125, y), run(`${10 + r}.50`, 420, y), run(`${5000 + r},00`, 500, y));
      rules.push(h(top + pitch * (r + 1), 43, 553));
    }
    return { rules, runs };
  };

  it("reads rows ruled down most of the page as one table", () => {
    const { rules, runs } = statement(36);
    expect(rules.at(-1)!.at - rules[0]!.at).toBeGreaterThan(0.6 * page.y1);
    const { tables, used } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[36, 4]]);
    expect(used.size).toBe(runs.length);
  });

  it("takes in the header row standing over the first rule, ruled under only", () => {
    const { rules, runs } = statement(36);
    const header = [run("Date", 47, 47), run("Description", 125, 47), run("Paid out", 420, 47), run("Balance", 500, 47)];
    const { tables, used } = findTables(rules, [...header, ...runs], page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[37, 4]]);
    expect(tables[0]!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Date", "Description", "Paid out", "Balance"]);
    expect(used.size).toBe(runs.length + 4);
  });

  it("takes in a header on a coloured band and the first row over the first rule, a header cell wrapped", () => {
    // An invoice's items (`td{border-bottom}`, `th{background}`): `Unit price` wraps, the
    // other header cells are centred between its lines.
    const runs = [run("#", 55, 70), run("Description", 75, 70), run("Qty", 395, 70), run("Unit", 450, 65), run("price", 450, 75), run("Amount", 505, 70)];
    const rules: Segment[] = [];
    [
      ["1", "Data pipeline consulting", "12", "950.00", "11,400.00"],
      ["2", "Cloud storage, 10 TB tier", "1", "420.00", "420.00"],
      ["3", "Dashboard licences", "25", "84.00", "2,100.00"],
      ["4", "Travel expenses", "1", "612.40", "612.40"],
    ].forEach((cells, r) => {
      cells.forEach((text, c) => runs.push(run(text, [55, 75, 410 - 5 * text.length, 475 - 5 * text.length, 540 - 5 * text.length][c]!, 86 + 21 * r)));
      rules.push(h(101 + 21 * r, 50, 545));
    });
    const { tables } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[5, 5]]);
    expect(tables[0]!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["#", "Description", "Qty", "Unit price", "Amount"]);
    expect(tables[0]!.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(["1", "Data pipeline consulting", "12", "950.00", "11,400.00"]);
  });

  it("leaves a caption, a heading or a lead-in sentence over the first rule out", () => {
    const { rules, runs } = statement(12);
    for (const above of [[run("Table 3: Card payments", 47, 47)], [run("Transactions", 47, 47, { bold: true })], [run("Transactions for April 2024 are listed below.", 47, 47)]]) {
      const { tables, used } = findTables(rules, [...above, ...runs], page);
      expect(tables.map((t) => [t.rows, t.cols])).toEqual([[12, 4]]);
      expect(used.has(above[0]!)).toBe(false);
    }
  });
});

describe("findTables: a cell wrapped in a ruled row", () => {
  it("keeps a row whose figures stand in the middle of a cell wrapped onto two lines whole", () => {
    // HTML's default `vertical-align: middle`: the description's two lines, the number and
    // the amounts centred between them, rules under every row.
    const rows: [string, string[], string, string][] = [
      ["1", ["Data pipeline consulting"], "12", "11,400.00"],
      ["2", ["Training workshop, two days, up to", "12 participants, with materials"], "1", "3,200.00"],
      ["3", ["Travel expenses (at cost)"], "1", "612.40"],
      ["4", ["Cloud storage, March"], "1", "420.00"],
    ];
    const runs = [];
    const rules = [h(95, 50, 545)];
    let top = 95;
    for (const [n, lines, qty, amount] of rows) {
      const height = 12 * lines.length + 9;
      const middle = top + height / 2 - 5;
      runs.push(run(n, 55, middle), run(qty, 410 - 5 * qty.length, middle), run(amount, 540 - 5 * amount.length, middle));
      lines.forEach((text, k) => runs.push(run(text, 75, top + 4.5 + 12 * k)));
      top += height;
      rules.push(h(top, 50, 545));
    }
    const { tables } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[4, 4]]);
    expect(tables[0]!.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(["2", "Training workshop, two days, up to 12 participants, with materials", "1", "3,200.00"]);
  });
});

describe("findTables: a cell wrapped in a row ruled under every row", () => {
  // An HTML options table in a documentation theme (Material for MkDocs: `td{border-bottom}`,
  // `vertical-align: top`): the description wraps after a full stop, or before a word in
  // lower case set as inline code, a line's distance below, the cells beside it empty.
  const options = (rows: number) => {
    const runs = [run("Option", 160, 44), run("Type", 225, 44), run("Description", 290, 44)];
    const rules = [h(56, 156, 404)];
    let top = 56;
    for (let r = 0; r < rows; r++) {
      const lines = r % 2 ? [`Directory where progress ${r} is recorded.`, "When unset, the source is read again."] : [`Codec used for files ${r}: one of`, "none", "gzip"];
      runs.push(run(`option_${r}`, 160, top + 5), run("str", 225, top + 5));
      runs.push(run(lines[0]!, 290, top + 5));
      if (lines.length === 2) runs.push(run(lines[1]!, 290, top + 17));
      else runs.push(run(lines[1]!, 290, top + 17, { mono: true }), run(",", 312, top + 17), run(lines[2]!, 322, top + 17, { mono: true }));
      top += 34;
      rules.push(h(top, 156, 404));
    }
    return { runs, rules };
  };

  it("reads each band between two rules as one row, rules under six rows or three", () => {
    for (const n of [6, 3]) {
      const { runs, rules } = options(n);
      const { tables } = findTables(rules, runs, page);
      expect(tables.map((t) => [t.rows, t.cols])).toEqual([[n + 1, 3]]);
      expect(tables[0]!.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(["option_0", "str", "Codec used for files 0: one of none , gzip"]);
      expect(tables[0]!.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(["option_1", "str", "Directory where progress 1 is recorded. When unset, the source is read again."]);
    }
  });

  it("keeps rows ruled in groups, each line filling the cells, apart", () => {
    const runs = [];
    const rules = [h(56, 156, 404)];
    for (let g = 0; g < 5; g++) {
      for (let k = 0; k < 2; k++) runs.push(run(`key ${g}${k}`, 160, 60 + 30 * g + 12 * k), run("text", 225, 60 + 30 * g + 12 * k), run(`value ${g}${k}`, 290, 60 + 30 * g + 12 * k));
      rules.push(h(86 + 30 * g, 156, 404));
    }
    const { tables } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[10, 3]]);
  });
});

describe("findTables: two ruled tables one under the other", () => {
  // A utility bill printed from HTML: two tables, each `th` ruled under only and each
  // `td` ruled under, the second under an `<h3>` (or right under the first): all their
  // rules are of one width and one pitch.
  const bill = (heading: boolean) => {
    const runs = heading ? [run("Your gas usage", 49, 155, { fontSize: 11.5, bold: true })] : [];
    const rules: Segment[] = [];
    for (const top of [85, 185]) {
      const cols = [52, 165, 266, 360, 448, 499];
      ["Period", "Reading start", "Reading end", "Units", "Rate", "Cost"].forEach((t, c) => runs.push(run(t, cols[c]!, top, { bold: true })));
      rules.push(h(top + 17, 49, 548));
      [
        ["1 Mar – 31 Mar", "41 230", "41 512", "282", "24.50p", "£69.09"],
        ["Standing charge", "", "", "31 days", "55.09p", "£17.08"],
      ].forEach((cells, r) => {
        cells.forEach((t, c) => t && runs.push(run(t, cols[c]!, top + 20 + 20 * r)));
        rules.push(h(top + 37 + 20 * r, 49, 548));
      });
    }
    return { runs, rules };
  };

  it("cuts the rules at a heading set between the tables, larger than their cells", () => {
    const { runs, rules } = bill(true);
    const { tables, used } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([
      [3, 6],
      [3, 6],
    ]);
    expect(tables[1]!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Period", "Reading start", "Reading end", "Units", "Rate", "Cost"]);
    expect(used.has(runs[0]!)).toBe(false);
  });

  it("cuts the rules where the first table's header is repeated", () => {
    const { runs, rules } = bill(false);
    const { tables } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([
      [3, 6],
      [3, 6],
    ]);
  });
});

describe("findTables: boxes joined by connectors", () => {
  // A slide's process flow (LibreOffice Impress): five boxes, 102 pt wide and 57 pt tall,
  // 38 pt apart, each joined to the next by a line at mid-height. Their sides and the lines
  // make a grid of nine columns, its top and bottom rules broken between the boxes.
  const labels = ["Receive", "Put away", "Pick", "Pack", "Ship"];
  const flow = () => {
    const segments: Segment[] = [];
    const runs = labels.map((text, i) => run(text, 28 + 140 * i + 51 - 4.5 * text.length, 218, { fontSize: 18 }));
    labels.forEach((_, i) => {
      const x = 28 + 140 * i;
      segments.push(h(198, x, x + 102), h(255, x, x + 102), v(x, 198, 255), v(x + 102, 198, 255));
      if (i < 4) segments.push(h(227, x + 102, x + 140));
    });
    return { segments, runs };
  };

  it("reads five boxes joined by lines at mid-height as no table", () => {
    const { segments, runs } = flow();
    const { tables, used } = findTables(segments, runs, { x0: 0, y0: 0, x1: 720, y1: 540 });
    expect(tables).toEqual([]);
    expect(used.size).toBe(0);
  });

  it("reads boxes stacked and joined by vertical lines as no table", () => {
    // The same flow turned a quarter: boxes one under the other.
    const turned = flow().segments.map((s) => ({ ...s, horizontal: !s.horizontal }));
    const stacked = labels.map((text, i) => run(text, 205, 28 + 140 * i + 24, { fontSize: 18 }));
    const { tables } = findTables(turned, stacked, { x0: 0, y0: 0, x1: 540, y1: 720 });
    expect(tables).toEqual([]);
  });

  it("still reads a table whose empty columns leave gaps in its outer rules", () => {
    // A Word table: the stub head (top left) has no top rule, and an empty spacer column
    // between two groups has neither top nor bottom rule; the rows' rules run through it.
    const xs = [50, 150, 250, 350, 370, 470];
    const ys = [100, 120, 140, 160];
    const segments: Segment[] = [h(100, 150, 350), h(100, 370, 470), h(160, 50, 350), h(160, 370, 470), h(120, 50, 470), h(140, 50, 470)];
    for (const x of xs) segments.push(v(x, x === 50 ? 120 : 100, 160));
    const runs = [run("2023", 160, 104), run("2024", 260, 104), run("Change", 380, 104)];
    ["North", "South"].forEach((name, r) => runs.push(run(name, 55, ys[r + 1]! + 4), run("10", 160, ys[r + 1]! + 4), run("12", 260, ys[r + 1]! + 4), run("+2", 380, ys[r + 1]! + 4)));
    const { tables } = findTables(segments, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[3, 5]]);
    expect(tables[0]!.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(["North", "10", "12", "", "+2"]);
  });
});

describe("findAlignedTables: the header row", () => {
  // Chromium sets each glyph of a line apart: a line is many runs, cut anywhere.
  const glyphs = (text: string, x: number, top: number) => [...text].map((ch, k) => run(ch, x + 5 * k, top));
  const table = () => {
    const runs = [run("Date", 45, 76), run("Description", 130, 76), run("Debit", 355, 76), run("Credit", 420, 76), run("Balance", 505, 76)];
    [
      ["01 Apr 2024", "Card payment TESCO STORES", "78.92", "", "5,155.26"],
      ["01 Apr 2024", "Transfer from J SMITH", "", "1,127.85", "6,283.11"],
      ["02 Apr 2024", "Direct debit THAMES WATER", "7.32", "", "6,275.79"],
      ["03 Apr 2024", "Salary ACME CORP LTD", "", "2,400.00", "8,675.79"],
    ].forEach((cells, r) => cells.forEach((text, c) => text && runs.push(run(text, [45, 130, 380 - 5 * text.length, 450 - 5 * text.length, 545 - 5 * text.length][c]!, 92 + 14 * r))));
    return runs;
  };

  it("leaves a sentence leading into a borderless table out of its header", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const lead = glyphs("Transactions for April 2024 are listed below.", 43, 60);
    const { tables, used } = findAlignedTables(buildLines([...lead, ...table()]));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[5, 5]]);
    expect(tables[0]!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Date", "Description", "Debit", "Credit", "Balance"]);
    expect([...used].some((l) => l.text.startsWith("Transactions"))).toBe(false);
  });
});

describe("findAlignedTables: columns of prose", () => {
  it("reads three text boxes side by side, a heading over a sentence wrapped in each, as no table", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    // A slide (18 pt text, 24 pt headings): each box wraps its sentence at its own width.
    const boxes = [
      ["People", "We hire senior", "engineers and keep", "them with clear career paths."],
      ["Product", "We ship one major", "release every quarter", "and patch monthly."],
      ["Profit", "We reach break-even", "by the fourth quarter", "of next year."],
    ];
    const runs = boxes.flatMap((lines, c) => lines.map((text, k) => (k === 0 ? run(text, 40 + 300 * c, 150, { fontSize: 24, bold: true }) : run(text, 40 + 300 * c, 160 + 22 * k, { fontSize: 18, x1: 40 + 300 * c + 8.5 * text.length }))));
    const { tables } = findAlignedTables(buildLines(runs));
    expect(tables).toEqual([]);
    // Cells of a table under a header, short and in lower case, are no sentence going on.
    const config = [
      ["Key", "Type", "Default"],
      ["timeout", "number", "30"],
      ["retries", "number", "3"],
      ["mode", "string", "fast"],
    ].flatMap((cells, r) => cells.map((text, c) => run(text, 40 + 150 * c, 100 + 14 * r)));
    expect(findAlignedTables(buildLines(config)).tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
  });
});

describe("findAlignedTables: tall rows", () => {
  it("reads a slide's table without rules whose rows stand 0.7 inch apart at 18 pt", async () => {
    const { buildLines, findAlignedTables } = await import("../../../src/engine/layout/index.js");
    const cells = [
      ["Region", "Lead", "Quota"],
      ["Americas", "Jorge Ortiz", "$24M"],
      ["EMEA", "Karin Novak", "$18M"],
      ["APAC", "Sam Tan", "$11M"],
    ];
    const at = (pitch: number) => cells.flatMap((row, r) => row.map((text, c) => run(text, [43, 338, 634][c]!, 118 + pitch * r, { fontSize: 18 })));
    for (const pitch of [50, 72]) {
      const { tables } = findAlignedTables(buildLines(at(pitch)));
      expect(tables.map((t) => [t.rows, t.cols])).toEqual([[4, 3]]);
      expect(tables[0]!.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(cells[2]);
    }
    // Rows drifting apart are no table's.
    const uneven = cells.flatMap((row, r) => row.map((text, c) => run(text, [43, 338, 634][c]!, 118 + [0, 50, 120, 210][r]!, { fontSize: 18 })));
    expect(findAlignedTables(buildLines(uneven)).tables).toEqual([]);
  });
});

describe("findTables: a box of one column", () => {
  // A form's section: a bordered box, a title band ruled under, its contents below.
  const box = (contents: ReturnType<typeof run>[], bottom: number) => ({
    rules: [h(100, 40, 560), h(120, 40, 560), h(bottom, 40, 560), v(40, 100, bottom), v(560, 100, bottom)],
    runs: [run("Section 4: Declaration", 46, 104, { bold: true }), ...contents],
  });

  it("reads a box holding paragraphs or a table of its own as a frame, not a table", () => {
    const paragraphs = box([run("I declare that the information given in this application", 46, 126), run("is true and complete to the best of my knowledge and", 46, 138), run("belief, and that I am entitled to apply for this licence.", 46, 150)], 170);
    expect(findTables(paragraphs.rules, paragraphs.runs, page).tables).toEqual([]);
    const inner = box([run("Activity", 46, 126), run("Yes", 300, 126), run("Hours", 420, 126), run("Sale of alcohol", 46, 140), run("☒", 300, 140), run("10:00", 420, 140)], 160);
    expect(findTables(inner.rules, inner.runs, page).tables).toEqual([]);
  });

  it("keeps a one-column table of four rows a table though one of its cells wraps onto three lines", () => {
    const rules = [100, 116, 164, 180, 196].map((y) => h(y, 40, 300)).concat([v(40, 100, 196), v(300, 100, 196)]);
    const runs = [run("Requirement", 46, 104), run("The parser reads every page of", 46, 120), run("the document and keeps the layout", 46, 134), run("of each block on the page.", 46, 148), run("Tables keep their cells.", 46, 168), run("Captions link to figures.", 46, 184)];
    expect(findTables(rules, runs, page).tables.map((t) => [t.rows, t.cols])).toEqual([[4, 1]]);
  });

  it("keeps a one-column table of short rows a table", () => {
    const rules = [h(100, 40, 300), h(116, 40, 300), h(132, 40, 300), h(148, 40, 300), v(40, 100, 148), v(300, 100, 148)];
    const runs = [run("Apples", 46, 104), run("Pears", 46, 120), run("Plums", 46, 136)];
    expect(findTables(rules, runs, page).tables.map((t) => [t.rows, t.cols])).toEqual([[3, 1]]);
  });
});
