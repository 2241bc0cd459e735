import { describe, expect, it } from "vitest";
import { layoutPage, readingOrder, type Rect } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const box = (id: string, x0: number, y0: number, x1: number, y1: number): Rect & { id: string } => ({ id, x0, y0, x1, y1 });

describe("readingOrder", () => {
  it("reads two columns column by column under a full-width title", () => {
    const items = [
      box("R1", 310, 100, 560, 200),
      box("L2", 50, 210, 300, 300),
      box("T", 50, 40, 560, 80),
      box("L1", 50, 100, 300, 200),
      box("R2", 310, 210, 560, 320),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["T", "L1", "L2", "R1", "R2"]);
  });

  it("reads a slide's bullets whole before the picture beside them, the short ones under it too", () => {
    // Boxes from a 16:9 slide (0..1000 × 0..562): five one-line items, a picture at the right.
    const item = (id: string, y0: number, x1: number) => ({ ...box(id, 57, y0, x1, y0 + 41), kind: "list" });
    const items = [box("T", 36, 34, 304, 87), item("I1", 107, 387), item("I2", 158, 304), item("I3", 210, 411), item("I4", 262, 421), box("P", 518, 114, 964, 239), item("I5", 314, 451)];
    const footers = [box("F1", 36, 524, 149, 542), box("F2", 401, 524, 599, 542), box("F3", 955, 524, 964, 542)];
    expect(readingOrder([...items, ...footers]).map((b) => b.id)).toEqual(["T", "I1", "I2", "I3", "I4", "I5", "P", "F1", "F2", "F3"]);
  });

  it("reads a slide's text column whole beside a table, though its paragraphs fall between the table's rows", () => {
    // A title box reaching over the table; body paragraphs whose rows never line up
    // with the cells' (no band of its own has a gutter).
    const items = [
      box("T", 43, 28, 557, 79),
      box("B1", 43, 134, 263, 155),
      box("C1", 511, 133, 573, 154),
      box("B2", 60, 156, 307, 177),
      box("B3", 43, 178, 366, 220),
      box("C2", 511, 181, 562, 202),
      box("C3", 511, 229, 564, 250),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["T", "B1", "B2", "B3", "C1", "C2", "C3"]);
  });

  it("reads a line under a two-column head after the head, when no column follows it", () => {
    // A letter: address left, date right; the salutation and the body come after both.
    const letter = [box("Addr", 50, 50, 200, 100), box("Date", 450, 50, 560, 62), box("Dear", 50, 130, 120, 142), box("Body", 50, 160, 560, 400)];
    expect(readingOrder(letter).map((b) => b.id)).toEqual(["Addr", "Date", "Dear", "Body"]);
    const heading = [box("L", 50, 100, 300, 300), box("R", 310, 100, 560, 300), box("H", 50, 320, 180, 334), box("F", 50, 345, 560, 500)];
    expect(readingOrder(heading).map((b) => b.id)).toEqual(["L", "R", "H", "F"]);
  });

  it("reads a column's tail under a shorter neighbour with its column, and what follows after", () => {
    // The left column runs on below the right one (its last paragraphs, a heading among
    // them), then a page number in the gutter and a full-width footnote.
    const items = [
      box("L1", 60, 60, 280, 140),
      box("R1", 315, 60, 535, 95),
      box("L2", 60, 150, 280, 230),
      box("H", 60, 240, 140, 252),
      box("L3", 60, 260, 280, 540),
      box("N", 285, 560, 310, 570),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L1", "L2", "H", "L3", "R1", "N"]);
    // The same with a full-width block under the tail: the columns are read, then the block.
    const wide = [...items.slice(0, 5), box("F", 60, 560, 535, 600)];
    expect(readingOrder(wide).map((b) => b.id)).toEqual(["L1", "L2", "H", "L3", "R1", "F"]);
    // A narrower paragraph on one side is no column's tail: it is read after both.
    const narrow = [box("L", 50, 100, 300, 300), box("R", 310, 100, 560, 300), box("P", 50, 320, 200, 360), box("F", 50, 380, 560, 500)];
    expect(readingOrder(narrow).map((b) => b.id)).toEqual(["L", "R", "P", "F"]);
    // A salutation as wide as a narrow address column is one line, not the column's tail.
    const letter = [box("Addr", 50, 50, 160, 110), box("To", 400, 50, 560, 120), box("Dear", 50, 140, 150, 152), box("Body", 50, 170, 560, 400)];
    expect(readingOrder(letter).map((b) => b.id)).toEqual(["Addr", "To", "Dear", "Body"]);
  });

  it("still reads two columns as columns when a page number sits in the gutter under them", () => {
    const items = [box("L1", 74, 100, 309, 200), box("R1", 319, 100, 554, 200), box("L2", 74, 210, 309, 300), box("R2", 319, 210, 554, 320), box("N", 312, 654, 317, 663)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L1", "L2", "R1", "R2", "N"]);
  });

  it("returns to full width after a two-column band", () => {
    const items = [box("L", 50, 100, 300, 200), box("R", 310, 100, 560, 200), box("F", 50, 220, 560, 260), box("L3", 50, 280, 300, 300), box("R3", 310, 280, 560, 300)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L", "R", "F", "L3", "R3"]);
  });

  it("reads boxes that only alternate down either side of a gutter top to bottom, not as columns", () => {
    // Code blocks on the left, each followed by a note set off to the right (the
    // shared-mime-info spec's layout; pdftotext reads it in this order).
    const items = [box("code1", 50, 100, 300, 160), box("note1", 330, 163, 450, 175), box("code2", 50, 180, 300, 240), box("note2", 330, 250, 450, 265)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["code1", "note1", "code2", "note2"]);
    // A right-to-left list nesting a left-to-right one: items at the right, nested ones at the left.
    const list = [
      { ...box("he1", 400, 100, 560, 112), text: "פריט ראשון" },
      { ...box("en1", 60, 118, 200, 130), text: "English nested one" },
      { ...box("en2", 60, 136, 200, 148), text: "English nested two" },
      { ...box("he2", 400, 154, 560, 166), text: "פריט שני" },
    ];
    expect(readingOrder(list).map((b) => b.id)).toEqual(["he1", "en1", "en2", "he2"]);
  });

  it("reads alternating boxes top to bottom also when they touch exactly (zero overlap, zero gap)", () => {
    const items = [box("code1", 50, 100, 300, 160), box("note1", 330, 160, 450, 175), box("code2", 50, 180, 300, 240), box("note2", 330, 240, 450, 255)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["code1", "note1", "code2", "note2"]);
  });

  it("keeps two real columns when a third side (a margin tab) only sits in a gap of its neighbour", () => {
    // Paragraph breaks that do not line up, and a thumb-index tab at the right page edge
    // level with the right column's break: the tab never shares a row with the right
    // column, the columns share many. Each gutter is judged on its own.
    const items = [box("L1", 50, 100, 250, 300), box("L2", 50, 310, 250, 700), box("R1", 280, 100, 480, 395), box("R2", 280, 425, 480, 700), box("tab", 510, 400, 540, 420)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L1", "L2", "R1", "tab", "R2"]);
  });

  it("still reads columns whose boxes share a row anywhere", () => {
    const items = [box("L1", 50, 100, 300, 150), box("R1", 330, 140, 560, 190), box("L2", 50, 200, 300, 250), box("R2", 330, 260, 560, 300)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L1", "L2", "R1", "R2"]);
  });

  it("reads a single column top to bottom", () => {
    const items = [box("c", 50, 300, 500, 320), box("a", 50, 100, 500, 120), box("b", 60, 200, 480, 220)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["a", "b", "c"]);
  });
});

describe("readingOrder: one row reaching past the rest of the page", () => {
  // A block's lines; reading order only counts them.
  const lines = (n: number) => Array.from({ length: n }, () => ({}));
  const block = (id: string, x0: number, y0: number, x1: number, y1: number, n = 1) => ({ ...box(id, x0, y0, x1, y1), lines: lines(n) });

  it("reads a form row's last options, past every other line, within their row", () => {
    // ReportLab form: the Business type row's options run on far to the right of the rest.
    const items = [
      block("T", 50, 36, 247, 52),
      block("name", 50, 82, 263, 93),
      block("type", 50, 166, 224, 177),
      block("options", 284, 166, 466, 177),
      block("currency", 50, 194, 185, 205),
      block("notes", 50, 222, 234, 233),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["T", "name", "type", "options", "currency", "notes"]);
  });

  it("still reads a one-line box beside a paragraph, or a paragraph beside another, as a column", () => {
    // A sidebar paragraph level with the left column's first: a column, whatever its height.
    const para = [block("L1", 50, 100, 300, 200, 8), block("R1", 330, 100, 560, 190, 7), block("L2", 50, 210, 300, 300, 7)];
    expect(readingOrder(para).map((b) => b.id)).toEqual(["L1", "L2", "R1"]);
    // A one-line note set beside a paragraph: the paragraph is no row of it.
    const note = [block("L1", 50, 100, 300, 112, 1), block("L2", 50, 120, 300, 200, 7), block("N", 330, 120, 450, 132, 1), block("L3", 50, 210, 300, 300, 7)];
    expect(readingOrder(note).map((b) => b.id)).toEqual(["L1", "L2", "L3", "N"]);
  });

  it("reads a row of boxes that is the whole region left to right", () => {
    const items = [block("a", 50, 100, 150, 111), block("b", 200, 101, 300, 112), block("c", 350, 100, 450, 111)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["a", "b", "c"]);
  });
});

describe("readingOrder: a label column", () => {
  // Blocks as reading order sees them: text, type size, lines with their tops.
  const block = (id: string, x0: number, y0: number, x1: number, lines: string[], size = 10) => ({
    ...box(id, x0, y0, x1, y0 + lines.length * 1.2 * size),
    text: lines.join(" "),
    fontSize: size,
    lines: lines.map((text, i) => ({ y0: y0 + i * 1.2 * size, text })),
  });

  it("reads a CV's dates each before its entry, and a heading set in the dates' column in its place", () => {
    // A Chromium CV: a 24 mm dates box beside each entry (bold title, employer, bullets).
    const items = [
      block("H", 43, 190, 135, ["WORK HISTORY"], 12),
      block("d1", 43, 212, 90, ["2021 – now"], 9),
      block("t1", 122, 211, 235, ["Lead Product Designer"]),
      block("e1", 122, 225, 243, ["Quantia Analytics · Lisbon"]),
      block("b1", 121, 241, 362, ["• Delivered the dashboard work stream 1, working", "with product managers and operations staff to", "ship it."]),
      block("d2", 43, 414, 93, ["2018 – 2021"], 9),
      block("t2", 122, 413, 218, ["Senior UX Designer"]),
      block("b2", 121, 442, 376, ["• Delivered the checkout work stream 1, working", "with product managers."]),
      block("H2", 43, 480, 113, ["EDUCATION"], 12),
      block("d3", 43, 502, 93, ["2008 – 2012"], 9),
      block("t3", 122, 501, 255, ["BA Communication Design"]),
      block("e3", 122, 515, 231, ["Universidade de Lisboa"]),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["H", "d1", "t1", "e1", "b1", "d2", "t2", "b2", "H2", "d3", "t3", "e3"]);
  });

  it("reads keys set one under the other in one block before the lines they name", () => {
    // A moderncv-like LaTeX CV: a right-aligned p{0.22\textwidth} column of keys.
    const items = [
      block("k1", 143, 357, 163, ["2016"]),
      block("v1", 177, 357, 494, ["Visiting Student, Los Alamos National Laboratory", "Three-month visit working on solvers."]),
      block("S", 177, 397, 210, ["Skills"], 14.5),
      block("k2", 113, 419, 163, ["Languages", "Tools", "Spoken"]),
      block("v2", 177, 419, 379, ["C++, Fortran, Python, Julia, CUDA", "Git, CMake, Spack, Slurm, Docker", "Polish (native), English (fluent)"]),
    ];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["k1", "v1", "S", "k2", "v2"]);
  });

  it("still reads a sidebar, a short column's paragraph or a column as wide as the other by columns", () => {
    // A sidebar at the left: its headings level with the main column's paragraphs, its
    // details under them beside the main column's lines.
    const sidebar = [
      block("s1", 43, 100, 150, ["Contact"]),
      block("s2", 43, 114, 150, ["tomas@example.pt", "+351 912 345 678"]),
      block("s3", 43, 200, 150, ["Tools"]),
      block("m1", 180, 100, 520, ["Product designer focused on complex B2B tools.", "I run research and ship it."]),
      block("m2", 180, 200, 520, ["Lead designer at Quantia since 2021, in charge", "of the dashboards."]),
    ];
    expect(readingOrder(sidebar).map((b) => b.id)).toEqual(["s1", "s2", "s3", "m1", "m2"]);
    // Two columns of short lines, as wide as each other (names in two columns).
    const names = [block("a1", 50, 100, 250, ["Ana Silva"]), block("a2", 50, 200, 250, ["Bruno Costa"]), block("b1", 300, 100, 500, ["Carla Dias"]), block("b2", 300, 200, 500, ["Duarte Reis"])];
    expect(readingOrder(names).map((b) => b.id)).toEqual(["a1", "a2", "b1", "b2"]);
    // A narrow column whose second box is a paragraph of long lines is no label column.
    const prose = [
      block("n1", 43, 100, 120, ["2021 – now"]),
      block("n2", 43, 200, 120, ["Worked on three products at once for the"]),
      block("e1", 140, 100, 500, ["Lead Product Designer"]),
      block("e2", 140, 200, 500, ["Senior UX Designer"]),
    ];
    expect(readingOrder(prose).map((b) => b.id)).toEqual(["n1", "n2", "e1", "e2"]);
    // One label only: its column is read as one.
    const one = [block("d1", 43, 100, 90, ["2021 – now"]), block("t1", 122, 100, 400, ["Lead Product Designer"]), block("b1", 122, 114, 400, ["Shipped dashboards.", "Ran the research."])];
    expect(readingOrder(one).map((b) => b.id)).toEqual(["d1", "t1", "b1"]);
  });
});

describe("options.frames", () => {
  it("reads a boxed summary whole, beside a boxed sidebar, under a letterhead", () => {
    // A Chromium bill (A4): logo and account block, the address, a framed summary and a
    // framed help box floated right, then a heading and a full-width paragraph.
    const items = [
      box("logo", 49, 48, 245, 76),
      box("account", 406, 49, 547, 74),
      box("address", 49, 85, 137, 126),
      box("summary", 60, 144, 151, 157),
      box("para1", 60, 159, 351, 186),
      box("para2", 60, 187, 189, 201),
      box("help", 378, 142, 428, 154),
      box("call", 378, 155, 457, 179),
      box("heading", 49, 222, 176, 238),
      box("usage", 49, 250, 520, 278),
    ];
    const frames = [box("", 49, 137, 368, 209), box("", 373, 137, 547, 185)];
    expect(readingOrder(items, { frames }).map((b) => b.id)).toEqual(["logo", "account", "address", "summary", "para1", "para2", "help", "call", "heading", "usage"]);
  });

  it("reads a row of cards left to right before what is set under only some of them", () => {
    const card = (n: number, x0: number) => [box(`title${n}`, x0 + 8, 100, x0 + 80, 112), box(`text${n}`, x0 + 8, 120, x0 + 120, 150)];
    const items = [box("T", 50, 50, 340, 70), ...card(1, 50), ...card(2, 225), ...card(3, 400), box("H", 50, 200, 160, 215), box("P", 50, 225, 370, 240)];
    const frames = [box("", 50, 90, 210, 160), box("", 225, 90, 385, 160), box("", 400, 90, 560, 160)];
    expect(readingOrder(items, { frames }).map((b) => b.id)).toEqual(["T", "title1", "text1", "title2", "text2", "title3", "text3", "H", "P"]);
  });

  it("orders a frame's boxes on their own, frames nested in it too, and ignores a frame around everything", () => {
    const items = [box("a", 60, 60, 200, 70), box("b", 60, 80, 200, 90), box("side", 300, 60, 400, 200), box("c", 70, 110, 190, 120), box("d", 70, 125, 190, 135)];
    const frames = [box("", 0, 0, 600, 800), box("", 50, 50, 210, 150), box("", 65, 105, 195, 140)];
    expect(readingOrder(items, { frames }).map((b) => b.id)).toEqual(["a", "b", "c", "d", "side"]);
  });
});

describe("layoutPage: reading order", () => {
  it("reads a form row whose last option reaches past the rest of the page within its row", () => {
    const runs = [run("Vendor Registration Form", 50, 36, { fontSize: 16, bold: true })];
    let top = 82;
    for (const [label, value] of [["Company name:", "Northwind Traders Ltd"], ["VAT number:", "GB 123 4567 89"]] as const) {
      runs.push(run(label, 50, top), run(value, 164, top));
      top += 28;
    }
    runs.push(run("Business type:", 50, top), run("[ ] Sole trader", 164, top), run("[X] Limited company", 284, top), run("[ ] Partnership", 404, top));
    runs.push(run("Preferred currency:", 50, top + 28), run("EUR", 164, top + 28));
    const blocks = layoutPage({ width: 612, height: 792, runs });
    const at = (words: string) => blocks.findIndex((b) => b.text.includes(words));
    expect(at("Partnership")).toBeGreaterThan(-1);
    expect(at("Partnership")).toBeLessThan(at("Preferred currency"));
  });


  it("passes the page's drawn boxes to reading order: a framed box is read whole beside its neighbour", () => {
    const runs = [
      run("Brightwater Energy", 50, 40, { fontSize: 20, bold: true }),
      run("Account number: 8830 1192 4471", 400, 42, { fontSize: 9 }),
      run("Bill date: 02 April 2024", 400, 53, { fontSize: 9 }),
      run("Mr Daniel Osei", 50, 90),
      run("Norwich NR2 3LP", 50, 102),
      run("Your bill summary", 60, 150, { bold: true }),
      run("Your total is higher than last month.", 60, 165),
      run("Please pay by 20 April 2024.", 60, 180),
      run("Need help?", 380, 150, { bold: true }),
      run("Call 0330 123 4567", 380, 163),
      run("Your electricity usage", 50, 240, { fontSize: 12, bold: true }),
      run("You used 282 kWh of electricity between 1 March and 31 March, 12% more than last year.", 50, 262),
    ];
    const drawings = [
      { x0: 50, y0: 140, x1: 360, y1: 200 },
      { x0: 370, y0: 140, x1: 550, y1: 185 },
    ];
    const first = (blocks: { text: string }[], words: string) => blocks.findIndex((b) => b.text.includes(words));
    const blocks = layoutPage({ width: 595, height: 842, runs, drawings });
    const order = ["Brightwater", "Account number", "Daniel", "bill summary", "Please pay", "Need help", "Call", "electricity usage", "You used"].map((w) => first(blocks, w));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((i) => i >= 0)).toBe(true);
  });
});

describe("readingOrder: right-to-left pages", () => {
  const item = (id: string, text: string, x0: number, y0: number, x1: number, y1: number) => ({ ...box(id, x0, y0, x1, y1), text });
  const twoColumns = (left: string, right: string) => [
    item("T", "כותרת", 50, 40, 560, 80),
    item("L1", left, 50, 100, 300, 200),
    item("R1", right, 310, 100, 560, 200),
    item("L2", left, 50, 210, 300, 300),
    item("R2", right, 310, 210, 560, 320),
  ];

  it("reads the right column first when the text is mostly right to left", () => {
    expect(readingOrder(twoColumns("טור שמאל", "טור ימין")).map((b) => b.id)).toEqual(["T", "R1", "R2", "L1", "L2"]);
  });

  it("reads the left column first on an English page (and when told to)", () => {
    expect(readingOrder(twoColumns("left column", "right column")).map((b) => b.id)).toEqual(["T", "L1", "L2", "R1", "R2"]);
    expect(readingOrder(twoColumns("טור שמאל", "טור ימין"), { direction: "ltr" }).map((b) => b.id)).toEqual(["T", "L1", "L2", "R1", "R2"]);
  });

  it("reads right to left when told to, for boxes without text", () => {
    const items = [box("L", 50, 100, 300, 200), box("R", 310, 100, 560, 200)];
    expect(readingOrder(items, { direction: "rtl" }).map((b) => b.id)).toEqual(["R", "L"]);
    expect(readingOrder(items).map((b) => b.id)).toEqual(["L", "R"]);
  });

  it("reads boxes on one row from the right", () => {
    const items = [item("a", "שמאל", 50, 100, 200, 120), item("b", "ימין", 150, 100, 400, 130)];
    expect(readingOrder(items).map((b) => b.id)).toEqual(["b", "a"]);
  });
});
