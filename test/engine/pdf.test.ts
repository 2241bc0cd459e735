import { describe, expect, it } from "vitest";
import { buildPdf, column, popplerPageCount, popplerWords, prose, type PageSpec, type TextSpec } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { boxContains, ofType, parsePdf } from "./pdf-helpers.js";

const H = 792;

/** A page with a full-width title and two columns of paragraphs; returns the paragraph texts per column. */
function twoColumnPage(): { spec: PageSpec; left: string[]; right: string[] } {
  const left = [prose(1, 55), prose(2, 45), prose(3, 60)];
  const right = [prose(4, 50), prose(5, 65)];
  // Same paragraph spacing in both columns, so paragraph gaps line up across the gutter.
  const l = column(left, 50, 130, { chars: 42 });
  const r = column(right, 320, 130, { chars: 42 });
  return {
    spec: { texts: [{ text: "Two Column Study", x: 50, y: 70, size: 22, font: "bold" }, ...l.texts, ...r.texts] },
    left,
    right,
  };
}

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

describe("pdf: pages", () => {
  it.skipIf(missing("pdfinfo"))("reports every page with its size at 144 dpi and its rotation", async () => {
    const bytes = await buildPdf([
      { texts: [{ text: "Portrait page", x: 72, y: 72 }] },
      { size: [842, 595], texts: [{ text: "Landscape page", x: 72, y: 72 }] },
      { rotation: 90, texts: [{ text: "Rotated page", x: 72, y: 72 }] },
    ]);
    const doc = await parsePdf(bytes);
    expect(doc.pageCount).toBe(await popplerPageCount(bytes));
    expect(doc.filetype).toBe("application/pdf");
    expect(doc.pages.map((p) => [p.number, p.width, p.height, p.dpi, p.angle])).toEqual([
      [1, 1224, 1584, 144, 0],
      [2, 1684, 1190, 144, 0],
      [3, 1584, 1224, 144, 90],
    ]);
    expect(doc.elements.map((e) => e.text)).toEqual(["Portrait page", "Landscape page", "Rotated page"]);
  });

  it.skipIf(missing("pdftotext"))("covers every word poppler finds with an element box, rotated pages included", async () => {
    const page = twoColumnPage();
    const bytes = await buildPdf([
      page.spec,
      { rotation: 90, texts: [{ text: "Sideways heading", x: 72, y: 72, size: 16, font: "bold" }, ...column([prose(9, 40)], 72, 110).texts] },
      { size: [842, 595], texts: column([prose(7, 80), prose(8, 30)], 60, 60, { chars: 110 }).texts },
    ]);
    const doc = await parsePdf(bytes);
    const oracle = await popplerWords(bytes);
    expect(oracle.words.length).toBeGreaterThan(100);
    const missed: string[] = [];
    for (const w of oracle.words) {
      // pdftotext reports the MediaBox size but rotated coordinates: turn the size to match.
      const raw = oracle.pages[w.page - 1]!;
      const page = doc.pages[w.page - 1]!;
      const size = raw.width > raw.height === page.width > page.height ? raw : { width: raw.height, height: raw.width };
      const box = { x0: w.x0 / size.width, y0: w.y0 / size.height, x1: w.x1 / size.width, y1: w.y1 / size.height };
      const covered = doc.elements.some((e) => e.page === w.page && e.box && boxContains(e.box, box) && e.text.includes(w.text));
      if (!covered) missed.push(`${w.page}:${w.text}`);
    }
    expect(missed).toEqual([]);
  });
});

describe("pdf: sideways text", () => {
  it.skipIf(missing("pdftotext"))("reads text printed at 90° on an upright page in its own frame", async () => {
    // Lines run bottom to top; successive lines move right (a landscape table printed on portrait).
    const lines = ["Sideways report title", "first line of sideways text", "second line of sideways text"];
    const texts: TextSpec[] = lines.map((text, i) => ({ text, x: [100, 124, 138][i]!, y: 700, size: i === 0 ? 16 : 11, rotate: 90, ...(i === 0 ? { font: "bold" as const } : {}) }));
    const bytes = await buildPdf([{ texts }]);
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Sideways report title"],
      ["NarrativeText", "first line of sideways text second line of sideways text"],
    ]);
    expect(doc.pages[0]).toMatchObject({ width: 1224, height: 1584, angle: 0 });
    const oracle = await popplerWords(bytes);
    for (const w of oracle.words) {
      const box = { x0: w.x0 / 612, y0: w.y0 / H, x1: w.x1 / 612, y1: w.y1 / H };
      expect(doc.elements.some((e) => boxContains(e.box!, box) && e.text.includes(w.text)), w.text).toBe(true);
    }
  });
});

describe("pdf: annotations", () => {
  it.skipIf(missing("pdftotext"))("places form field values where their appearance draws them", async () => {
    const { PDFDocument, StandardFonts } = await import("pdf-lib");
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText("Name of applicant:", { x: 72, y: 700, size: 12, font });
    const form = doc.getForm();
    const field = form.createTextField("name");
    field.setText("Ada Lovelace");
    field.addToPage(page, { x: 200, y: 690, width: 200, height: 24, font });
    form.updateFieldAppearances(font);
    const bytes = await doc.save();
    const parsed = await parsePdf(bytes);
    const value = parsed.elements.find((e) => e.text.includes("Ada Lovelace"));
    expect(value).toBeDefined();
    for (const w of (await popplerWords(bytes)).words.filter((w) => w.text === "Ada" || w.text === "Lovelace")) {
      expect(boxContains(value!.box!, { x0: w.x0 / 612, y0: w.y0 / H, x1: w.x1 / 612, y1: w.y1 / H })).toBe(true);
    }
  });
});

describe("pdf: reading order", () => {
  it.skipIf(missing("pdftotext"))("reads a two-column page column by column, title first", async () => {
    const page = twoColumnPage();
    const bytes = await buildPdf([page.spec]);
    const doc = await parsePdf(bytes);
    const texts = doc.elements.map((e) => norm(e.text));
    expect(texts[0]).toBe("Two Column Study");
    expect(texts.slice(1)).toEqual([...page.left, ...page.right].map(norm));
    // The oracle agrees on the words.
    const words = (await popplerWords(bytes)).words.map((w) => w.text).join(" ");
    expect(norm(texts.join(" ")).split(" ").sort()).toEqual(words.split(" ").sort());
  });
});

describe("pdf: headings", () => {
  it("takes levels from font size and weight", async () => {
    const bytes = await buildPdf([
      {
        texts: [
          { text: "Annual Report", x: 72, y: 60, size: 24, font: "bold" },
          { text: "Overview", x: 72, y: 110, size: 16, font: "bold" },
          ...column([prose(1, 60)], 72, 140).texts,
          { text: "Scope of work", x: 72, y: 230, size: 11, font: "bold" },
          ...column([prose(2, 60)], 72, 250).texts,
          { text: "Results", x: 72, y: 340, size: 16, font: "bold" },
          ...column([prose(3, 40)], 72, 370).texts,
        ],
      },
    ]);
    const doc = await parsePdf(bytes);
    const titles = ofType(doc, "Title").map((e) => [e.text, e.headingLevel]);
    expect(titles).toEqual([
      ["Annual Report", 1],
      ["Overview", 2],
      ["Scope of work", 3],
      ["Results", 2],
    ]);
    expect(ofType(doc, "NarrativeText")).toHaveLength(3);
  });

  it("lets the outline decide heading levels", async () => {
    // Same size for both headings: only the outline tells their levels apart.
    const bytes = await buildPdf(
      [
        {
          texts: [
            { text: "Chapter One", x: 72, y: 60, size: 14, font: "bold" },
            ...column([prose(1, 40)], 72, 90).texts,
            { text: "A Detail", x: 72, y: 170, size: 14, font: "bold" },
            ...column([prose(2, 40)], 72, 200).texts,
          ],
        },
        { texts: [{ text: "Chapter Two", x: 72, y: 60, size: 14, font: "bold" }, ...column([prose(3, 40)], 72, 90).texts] },
      ],
      {
        outline: [
          { title: "Chapter One", depth: 0, page: 0 },
          { title: "A Detail", depth: 1, page: 0 },
          { title: "Chapter Two", depth: 0, page: 1 },
        ],
      },
    );
    const doc = await parsePdf(bytes);
    expect(ofType(doc, "Title").map((e) => [e.text, e.headingLevel, e.page])).toEqual([
      ["Chapter One", 1, 1],
      ["A Detail", 2, 1],
      ["Chapter Two", 1, 2],
    ]);
  });
});

describe("pdf: outline and a table of contents", () => {
  it("matches outline entries only on their destination page, not in the contents list", async () => {
    const bytes = await buildPdf(
      [
        { texts: [{ text: "Contents", x: 72, y: 60 }, { text: "Chapter One", x: 72, y: 90 }, { text: "Chapter Two", x: 72, y: 110 }] },
        { texts: [{ text: "Chapter One", x: 72, y: 60, size: 16, font: "bold" }, ...column([prose(1, 60)], 72, 90).texts] },
        { texts: [{ text: "Chapter Two", x: 72, y: 60, size: 16, font: "bold" }, ...column([prose(2, 60)], 72, 90).texts] },
      ],
      { outline: [{ title: "Chapter One", depth: 0, page: 1 }, { title: "Chapter Two", depth: 0, page: 2 }] },
    );
    const doc = await parsePdf(bytes);
    expect(ofType(doc, "Title").map((e) => [e.text, e.page, e.headingLevel])).toEqual([
      ["Chapter One", 2, 1],
      ["Chapter Two", 3, 1],
    ]);
  });
});

describe("pdf: running text", () => {
  it("marks repeated margin text as Header/Footer and page numbers as PageNumber", async () => {
    const pages: PageSpec[] = [1, 2, 3, 4].map((n) => ({
      texts: [
        { text: "ACME Corp Quarterly Review", x: 72, y: 30, size: 9 },
        ...column([prose(n, 80)], 72, 100).texts,
        { text: `Confidential - printed copy ${n}`, x: 72, y: 750, size: 8 },
        { text: `Page ${n} of 4`, x: 480, y: 750, size: 8 },
      ],
    }));
    const doc = await parsePdf(await buildPdf(pages));
    for (let n = 1; n <= 4; n++) {
      const on = doc.elements.filter((e) => e.page === n);
      expect(on.map((e) => e.type)).toEqual(["Header", "NarrativeText", "Footer", "PageNumber"]);
      expect(on[3]!.text).toBe(`Page ${n} of 4`);
    }
  });
});

describe("pdf: continuations", () => {
  it("links a paragraph cut by a page break and by a column break", async () => {
    const first = prose(1, 40);
    const bytes = await buildPdf([
      {
        texts: [
          ...column([prose(2, 30)], 50, 72, { chars: 42 }).texts,
          // Ends mid-sentence at the bottom of the left column...
          { text: "the paper continues its argument about", x: 50, y: 700 },
          // ...and goes on at the top of the right column.
          { text: "tables and figures in the next column.", x: 320, y: 72 },
          { text: "the last line of the page runs on and", x: 320, y: 700 },
        ],
      },
      { texts: [{ text: "onto the following page of the document.", x: 72, y: 72 }, ...column([first], 72, 100).texts] },
    ]);
    const doc = await parsePdf(bytes);
    const find = (prefix: string): number => doc.elements.findIndex((e) => e.text.startsWith(prefix));
    expect(doc.elements[find("tables and figures")]!.continuationOf).toBe(find("the paper continues"));
    expect(doc.elements[find("onto the following")]!.continuationOf).toBe(find("the last line of the page"));
    expect(doc.elements[find(first.slice(0, 20))]!.continuationOf).toBeUndefined();
  });

  it("repairs hyphenation at line ends", async () => {
    const bytes = await buildPdf([{ texts: [{ text: "The engine reads docu-", x: 72, y: 72 }, { text: "ments quickly and well-", x: 72, y: 86 }, { text: "Known words stay.", x: 72, y: 100 }] }]);
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => e.text)).toEqual(["The engine reads documents quickly and well- Known words stay."]);
  });
});

function ruledTable(x: number, y: number, widths: number[], rows: (string | null)[][], rowH = 20): Pick<PageSpec, "texts" | "lines"> {
  const texts: TextSpec[] = [];
  const lines: NonNullable<PageSpec["lines"]> = [];
  const xs = [x];
  for (const w of widths) xs.push(xs[xs.length - 1]! + w);
  const right = xs[xs.length - 1]!;
  for (let r = 0; r <= rows.length; r++) lines.push({ x0: x, y0: y + r * rowH, x1: right, y1: y + r * rowH });
  rows.forEach((row, r) => {
    row.forEach((cell, c) => {
      // null: the cell to the left spans over this one (no rule between them).
      if (cell !== null) texts.push({ text: cell, x: xs[c]! + 4, y: y + r * rowH + 5, size: 10 });
      const nextIsSpan = row[c + 1] === null;
      if (c === 0) lines.push({ x0: xs[0]!, y0: y + r * rowH, x1: xs[0]!, y1: y + (r + 1) * rowH });
      if (!nextIsSpan) lines.push({ x0: xs[c + 1]!, y0: y + r * rowH, x1: xs[c + 1]!, y1: y + (r + 1) * rowH });
    });
  });
  return { texts, lines };
}

describe("pdf: tables", () => {
  it("builds rows, columns, spans and cell text from ruling lines", async () => {
    const t = ruledTable(72, 200, [120, 80, 80], [
      ["Region", "Sales", null],
      ["North", "120", "130"],
      ["South", "95", "101"],
    ]);
    const bytes = await buildPdf([{ texts: [{ text: "Intro paragraph above the table.", x: 72, y: 150 }, ...t.texts!], lines: t.lines! }]);
    const doc = await parsePdf(bytes);
    const [table] = ofType(doc, "Table");
    expect(table).toBeDefined();
    expect(table!.table!.rows).toBe(3);
    expect(table!.table!.cols).toBe(3);
    expect(table!.table!.cells.map((c) => [c.row, c.col, c.rowSpan, c.colSpan, c.text])).toEqual([
      [1, 1, 1, 1, "Region"],
      [1, 2, 1, 2, "Sales"],
      [2, 1, 1, 1, "North"],
      [2, 2, 1, 1, "120"],
      [2, 3, 1, 1, "130"],
      [3, 1, 1, 1, "South"],
      [3, 2, 1, 1, "95"],
      [3, 3, 1, 1, "101"],
    ]);
    expect(table!.text).toBe("Region Sales\nNorth 120 130\nSouth 95 101");
    // The table's words are not repeated as paragraphs.
    expect(doc.elements.map((e) => e.type)).toEqual(["NarrativeText", "Table"]);
    const b = table!.box!;
    expect(b.x0).toBeCloseTo(72 / 612, 2);
    expect(b.y0).toBeCloseTo(200 / H, 2);
    expect(b.x1).toBeCloseTo(352 / 612, 2);
  });

  it("links a table continued on the next page and its caption", async () => {
    const a = ruledTable(72, 600, [100, 100], [
      ["Item", "Cost"],
      ["Paper", "12"],
      ["Ink", "30"],
    ]);
    const b = ruledTable(72, 72, [100, 100], [
      ["Toner", "55"],
      ["Staples", "3"],
    ]);
    const bytes = await buildPdf([
      { texts: [...column([prose(1, 30)], 72, 72).texts, { text: "Table 1: Office costs", x: 72, y: 580, size: 9 }, ...a.texts!], lines: a.lines! },
      { texts: [...b.texts!, ...column([prose(2, 30)], 72, 140).texts], lines: b.lines! },
    ]);
    const doc = await parsePdf(bytes);
    const tables = ofType(doc, "Table");
    expect(tables).toHaveLength(2);
    const i1 = doc.elements.indexOf(tables[0]!);
    const i2 = doc.elements.indexOf(tables[1]!);
    expect(tables[1]!.continuationOf).toBe(i1);
    expect(i2).toBeGreaterThan(i1);
    const caption = ofType(doc, "TableCaption")[0]!;
    expect(caption.text).toBe("Table 1: Office costs");
    expect(tables[0]!.refIndex).toBe(doc.elements.indexOf(caption));
    expect(caption.refIndex).toBe(i1);
  });

  it("finds columns by alignment between horizontal rules (booktabs)", async () => {
    const rows = [
      ["Model", "Params", "Score"],
      ["small", "10M", "71.2"],
      ["large", "300M", "80.9"],
    ];
    const texts: TextSpec[] = [];
    rows.forEach((row, r) => row.forEach((cell, c) => texts.push({ text: cell, x: 80 + c * 110, y: 306 + r * 18, size: 10 })));
    const bytes = await buildPdf([
      {
        texts: [...column([prose(3, 30)], 72, 100).texts, ...texts],
        lines: [
          { x0: 72, y0: 300, x1: 400, y1: 300 },
          { x0: 72, y0: 321, x1: 400, y1: 321 },
          { x0: 72, y0: 360, x1: 400, y1: 360 },
        ],
      },
    ]);
    const doc = await parsePdf(bytes);
    const [table] = ofType(doc, "Table");
    expect(table?.table?.cols).toBe(3);
    expect(table?.table?.rows).toBe(3);
    expect(table!.text).toBe("Model Params Score\nsmall 10M 71.2\nlarge 300M 80.9");
  });
});

describe("pdf: tables without rules", () => {
  it("builds a table from column alignment alone", async () => {
    const rows = [
      ["Quarter", "Revenue", "Margin", "Staff"],
      ["Q1", "1.2M", "12%", "40"],
      ["Q2", "1.5M", "14%", "42"],
      ["Q3", "1.9M", "15%", "47"],
    ];
    const texts: TextSpec[] = rows.flatMap((row, r) => row.map((text, c) => ({ text, x: 72 + c * 110, y: 200 + r * 15, size: 10 })));
    const bytes = await buildPdf([{ texts: [...column([prose(4, 40)], 72, 100).texts, ...texts, ...column([prose(5, 40)], 72, 280).texts] }]);
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => e.type)).toEqual(["NarrativeText", "Table", "NarrativeText"]);
    const table = ofType(doc, "Table")[0]!;
    expect([table.table!.rows, table.table!.cols]).toEqual([4, 4]);
    expect(table.text).toBe(rows.map((r) => r.join(" ")).join("\n"));
  });
});

describe("pdf: element types", () => {
  it("finds list items with levels, code blocks and captions", async () => {
    const bytes = await buildPdf([
      {
        texts: [
          { text: "Steps to follow:", x: 72, y: 60 },
          { text: "\u2022 Install the package", x: 72, y: 80 },
          { text: "\u2022 Configure the store", x: 72, y: 96 },
          { text: "- pick a directory", x: 90, y: 112 },
          { text: "\u2022 Run the ingest job", x: 72, y: 128 },
          { text: "const parser = new LocalParser();", x: 72, y: 170, font: "mono", size: 10 },
          { text: "  await parser.parse(bytes);", x: 72, y: 183, font: "mono", size: 10 },
          { text: "Figure 2: Pipeline overview", x: 72, y: 400, size: 9 },
        ],
        images: [{ x: 72, y: 220, width: 200, height: 170 }],
      },
    ]);
    const doc = await parsePdf(bytes);
    expect(ofType(doc, "ListItem").map((e) => [e.text, e.listLevel])).toEqual([
      ["\u2022 Install the package", 0],
      ["\u2022 Configure the store", 0],
      ["- pick a directory", 1],
      ["\u2022 Run the ingest job", 0],
    ]);
    const [code] = ofType(doc, "CodeSnippet");
    expect(code!.text).toBe("const parser = new LocalParser();\n  await parser.parse(bytes);");
    const [image] = ofType(doc, "Image");
    const [caption] = ofType(doc, "FigureCaption");
    expect(image!.refIndex).toBe(doc.elements.indexOf(caption!));
    expect(image!.image).toMatchObject({ width: 64, height: 48, mimeType: "image/png" });
    expect(image!.image!.bytes).toBeUndefined();
    expect(image!.box!.x0).toBeCloseTo(72 / 612, 2);
    expect(image!.box!.y1).toBeCloseTo(390 / H, 2);
  });

  it("returns PNG bytes for images when asked and drops degenerate strips", async () => {
    const bytes = await buildPdf([
      {
        texts: [{ text: "Images below", x: 72, y: 60 }],
        images: [
          { x: 72, y: 100, width: 150, height: 100, pixels: { width: 30, height: 20 } },
          { x: 72, y: 300, width: 400, height: 2, pixels: { width: 200, height: 1 } },
        ],
      },
    ]);
    const doc = await parsePdf(bytes, { capabilities: { include_image_data: true } });
    const images = ofType(doc, "Image");
    expect(images).toHaveLength(1);
    const png = images[0]!.image!.bytes!;
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    const view = new DataView(png.buffer, png.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([30, 20]);
  });

  it("does not report a page-sized background image under text as an Image", async () => {
    const bytes = await buildPdf([{ images: [{ x: 0, y: 0, width: 612, height: 792 }], texts: [{ text: "Text over a background", x: 72, y: 72 }] }]);
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => e.type)).toEqual(["NarrativeText"]);
  });

  it("removes watermarks only when asked", async () => {
    const spec: PageSpec = {
      texts: [
        ...column([prose(1, 50)], 72, 72).texts,
        { text: "DRAFT", x: 150, y: 400, size: 80, rotate: 45, grey: 0.8 },
        { text: "CONFIDENTIAL", x: 100, y: 600, size: 40, opacity: 0.3 },
      ],
    };
    const bytes = await buildPdf([spec]);
    const kept = await parsePdf(bytes);
    expect(kept.elements.some((e) => e.text.includes("DRAFT"))).toBe(true);
    expect(kept.elements.some((e) => e.text.includes("CONFIDENTIAL"))).toBe(true);
    const removed = await parsePdf(bytes, { capabilities: { remove_watermark: true } });
    expect(removed.elements.map((e) => e.text)).toEqual([norm(prose(1, 50))]);
  });
});

describe("pdf: char_details", () => {
  it("gives per-character boxes inside the element, only when asked", async () => {
    const bytes = await buildPdf([{ texts: [{ text: "Hello world", x: 72, y: 72, size: 12 }, { text: "second line", x: 72, y: 88, size: 12 }] }]);
    const off = await parsePdf(bytes);
    expect(off.elements[0]!.chars).toBeUndefined();
    const on = await parsePdf(bytes, { capabilities: { include_char_details: true } });
    const el = on.elements[0]!;
    expect(el.text).toBe("Hello world second line");
    expect(el.chars!.map((c) => c.text).join("")).toBe(el.text);
    for (const c of el.chars!) {
      expect(c.confidence).toBe(1);
      expect(c.box.x1).toBeGreaterThanOrEqual(c.box.x0);
      expect(boxContains(el.box!, c.box, 0.002)).toBe(true);
    }
    // Left to right within the first line.
    const xs = el.chars!.slice(0, 11).map((c) => c.box.x0);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  });
});

describe.skipIf(missing("pdftotext"))("pdf: char_details against poppler", () => {
  it("puts each word's characters where poppler puts the word (within 1 pt)", async () => {
    const texts: TextSpec[] = [
      { text: "Kerning, widths and WAVE type", x: 72, y: 72, size: 14 },
      { text: "Times Roman in a serif line", x: 72, y: 100, size: 12, font: "serif" },
      { text: "monospace code(42)", x: 72, y: 130, size: 10, font: "mono" },
    ];
    const bytes = await buildPdf([{ texts }]);
    const doc = await parsePdf(bytes, { capabilities: { include_char_details: true } });
    const oracle = await popplerWords(bytes);
    let checked = 0;
    const cursor = new Map<object, number>();
    for (const w of oracle.words) {
      const box = { x0: w.x0 / 612, y0: w.y0 / H, x1: w.x1 / 612, y1: w.y1 / H };
      const el = doc.elements.find((e) => boxContains(e.box!, box) && e.text.includes(w.text))!;
      // Words come in reading order: search on from the previous word of the element.
      const at = el.text.indexOf(w.text, cursor.get(el) ?? 0);
      cursor.set(el, at + w.text.length);
      const first = el.chars![at]!;
      const last = el.chars![at + w.text.length - 1]!;
      expect(first.text + last.text).toBe(w.text[0]! + w.text.at(-1)!);
      expect(Math.abs(first.box.x0 * 612 - w.x0)).toBeLessThan(1);
      expect(Math.abs(last.box.x1 * 612 - w.x1)).toBeLessThan(1);
      checked++;
    }
    expect(checked).toBe(13);
  });
});
