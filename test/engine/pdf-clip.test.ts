import { describe, expect, it } from "vitest";
import { fontInfo, walkOperators, type Matrix } from "../../src/engine/formats/pdf-ops.js";
import { calcPdf, popplerWords, rawPdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { parsePdf } from "./pdf-helpers.js";

// pdfjs OPS codes used below, and its path buffer ops (`DrawOPS`).
const OPS = { save: 10, restore: 11, transform: 12, clip: 29, eoClip: 30, beginText: 31, setFont: 37, setTextMatrix: 42, showText: 44, paintFormXObjectBegin: 74, paintFormXObjectEnd: 75, beginGroup: 76, beginAnnotation: 80, endAnnotation: 81, constructPath: 91, endPath: 28, fill: 22 };
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const CLOSE = 4;
const glyph = (unicode: string, width = 500) => ({ unicode, width, isSpace: unicode === " ", fontChar: unicode, originalCharCode: 0 });
const glyphs = (text: string) => [...text].map((c) => glyph(c));
// Display space of a US Letter page at scale 1 (what page.getViewport gives).
const base: Matrix = [1, 0, 0, -1, 0, 792];
const helvetica = fontInfo({ name: "Helvetica", bold: false, ascent: 0.75, descent: -0.25 });

/** `x y w h re` as pdfjs hands it over: the path buffer and its bounds, in user space. */
const rect = (x: number, y: number, w: number, h: number, paint = OPS.endPath): [number, number[][], number[]] => [
  paint,
  [[MOVE, x, y, LINE, x + w, y, LINE, x + w, y + h, LINE, x, y + h, CLOSE]],
  [x, y, x + w, y + h],
];

type Op = [number, unknown];
const text = (s: string, x = 100, y = 700): Op[] => [
  [OPS.beginText, null],
  [OPS.setFont, ["f1", 10]],
  [OPS.setTextMatrix, [[1, 0, 0, 1, x, y]]],
  [OPS.showText, [glyphs(s)]],
];
const clipRect = (x: number, y: number, w: number, h: number, op = OPS.clip): Op[] => [
  [op, null],
  [OPS.constructPath, rect(x, y, w, h)],
];

function walk(ops: Op[], page?: { x0: number; y0: number; x1: number; y1: number }) {
  const options = { chars: true, removeWatermark: false, maxSegments: 100, font: () => helvetica, ...(page ? { page } : {}) };
  return walkOperators(
    ops.map((o) => o[0]),
    ops.map((o) => o[1]),
    base,
    options,
  ).runs;
}

// 10 pt glyphs 5 pt wide from x = 100: glyph i is centred at 102.5 + 5i.
describe("walkOperators: the clip region", () => {
  it("reads only the glyphs whose centre lies inside a `re W n` clip, and the run's box is theirs", () => {
    const runs = walk([...clipRect(100, 690, 22, 30), ...text("ABCDEF")]);
    expect(runs.map((r) => r.text)).toEqual(["ABCD"]);
    expect([runs[0]!.x0, runs[0]!.x1]).toEqual([100, 120]);
    expect(runs[0]!.chars!.map((c) => c.text)).toEqual(["A", "B", "C", "D"]);
    // Cut on the left: the run starts at the first glyph shown.
    const left = walk([...clipRect(111, 690, 100, 30, OPS.eoClip), ...text("ABCDEF")]);
    expect(left.map((r) => [r.text, r.x0])).toEqual([["CDEF", 110]]);
  });

  it("drops a string wholly outside the clip, above or below it too", () => {
    expect(walk([...clipRect(0, 600, 612, 50), ...text("Above"), ...text("Inside", 100, 620)]).map((r) => r.text)).toEqual(["Inside"]);
  });

  it("intersects nested clips, and `Q` restores the clip `q` saved", () => {
    const runs = walk([
      [OPS.save, null],
      ...clipRect(100, 690, 22, 30),
      ...clipRect(106, 690, 100, 30),
      ...text("ABCDEF"),
      [OPS.restore, null],
      ...text("ABCDEF", 100, 650),
    ]);
    expect(runs.map((r) => r.text)).toEqual(["BCD", "ABCDEF"]);
  });

  it("maps the clip path through the CTM, and takes a curved path's box", () => {
    const scaled = walk([[OPS.transform, [2, 0, 0, 2, 0, 0]], ...clipRect(50, 345, 11, 15), [OPS.transform, [0.5, 0, 0, 0.5, 0, 0]], ...text("ABCDEF")]);
    expect(scaled.map((r) => r.text)).toEqual(["ABCD"]);
    // A rounded box: the curve's bounds are what pdfjs gives as the path's minMax.
    const curved = walk([
      [OPS.clip, null],
      [OPS.constructPath, [OPS.endPath, [[MOVE, 100, 690, LINE, 112, 690, CURVE, 117, 690, 117, 720, 112, 720, LINE, 100, 720, CLOSE]], [100, 690, 116, 720]]],
      ...text("ABCDEF"),
    ]);
    expect(curved.map((r) => r.text)).toEqual(["ABC"]);
  });

  it("applies the clip to the path painted after `W`, `re W f` as well as `re W n`, and ignores `W n` with no path", () => {
    expect(walk([[OPS.clip, null], [OPS.constructPath, rect(100, 690, 22, 30, OPS.fill)], ...text("ABCDEF")]).map((r) => r.text)).toEqual(["ABCD"]);
    expect(walk([[OPS.clip, null], [OPS.constructPath, [OPS.endPath, [null], null]], ...text("ABCDEF")]).map((r) => r.text)).toEqual(["ABCDEF"]);
    // A path painted with no `W` before it clips nothing.
    expect(walk([[OPS.constructPath, rect(100, 690, 22, 30, OPS.fill)], ...text("ABCDEF")]).map((r) => r.text)).toEqual(["ABCDEF"]);
  });

  it("tests rotated text at each glyph's centre", () => {
    // Text running up the page from (300, 100); its glyphs' centres are at y = 102.5 + 5i.
    const runs = walk([...clipRect(250, 100, 100, 22), [OPS.beginText, null], [OPS.setFont, ["f1", 10]], [OPS.setTextMatrix, [[0, 1, -1, 0, 300, 100]]], [OPS.showText, [glyphs("ABCDEF")]]]);
    expect(runs.map((r) => r.text)).toEqual(["ABCD"]);
  });

  it("clips a form XObject to its BBox (a transparency group's, given before it) until it ends", () => {
    const runs = walk([
      [OPS.paintFormXObjectBegin, [[1, 0, 0, 1, 100, 690], [0, 0, 22, 30]]],
      ...text("ABCDEF", 0, 10),
      [OPS.paintFormXObjectEnd, null],
      [OPS.beginGroup, [{ bbox: [0, 0, 12, 30], matrix: null }]],
      [OPS.paintFormXObjectBegin, [[1, 0, 0, 1, 100, 640], null]],
      ...text("ABCDEF", 0, 10),
      [OPS.paintFormXObjectEnd, null],
      ...text("ABCDEF", 100, 600),
    ]);
    expect(runs.map((r) => r.text)).toEqual(["ABCD", "AB", "ABCDEF"]);
  });

  it("drops glyphs wholly outside the page's crop box, and an annotation starts with no clip but the page's", () => {
    const page = { x0: 0, y0: 0, x1: 612, y1: 792 };
    const runs = walk(
      [
        // C spans x -8..-3, off the page; D spans -3..2: its centre is off the page, not all of it.
        ...text("ABCDEF", -18),
        ...text("Off the page", 700),
        ...text("Below the page", 100, -40),
        // A clip never restored (no `Q`) does not reach the annotations drawn after the page.
        [OPS.save, null],
        ...clipRect(0, 0, 10, 10),
        [OPS.beginAnnotation, ["a1", [100, 500, 200, 520], [1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0], false]],
        ...text("Field value", 0, 0),
        [OPS.endAnnotation, null],
      ],
      page,
    );
    expect(runs.map((r) => r.text)).toEqual(["DEF", "Field value"]);
  });

  it("reads every glyph when nothing clips, wherever it is", () => {
    expect(walk(text("ABCDEF", -1000)).map((r) => r.text)).toEqual(["ABCDEF"]);
  });
});

// Courier 10 pt: every glyph 6 pt wide, so what a clip shows is known exactly.
const courierPage = (content: string): Uint8Array =>
  rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    { dict: "", data: content },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
  ]);

describe("pdf: clipped text", () => {
  it("reads a line cut by a clip rectangle as far as it shows, and the lines the clip leaves alone whole", async () => {
    // Glyph i of the first line is centred at 75 + 6i: the clip ends at 158, after 14 glyphs.
    const bytes = courierPage(
      [
        "q 60 690 98 30 re W n BT /F1 10 Tf 72 700 Td (Alpha Bravo Charlie Delta) Tj ET Q",
        "q 0 0 612 792 re W* n BT /F1 10 Tf 72 600 Td (Echo Foxtrot Golf Hotel) Tj ET Q",
      ].join("\n"),
    );
    const doc = await parsePdf(bytes, { capabilities: { char_details: true } });
    expect(doc.elements.map((e) => e.text)).toEqual(["Alpha Bravo Ch", "Echo Foxtrot Golf Hotel"]);
    // The citation box ends at the last glyph shown, not at the end of the string.
    const box = doc.elements[0]!.box!;
    expect(box.x1 * 612).toBeCloseTo(72 + 14 * 6, 0);
  });

  it("reads text that render mode 7 adds to the clip, and clips nothing with it", async () => {
    // Mode 7 makes the glyphs the clip (text as a stencil): the walk reads them and does not
    // clip with them, so what follows is read whole.
    const bytes = courierPage(
      ["q BT /F1 10 Tf 7 Tr 72 700 Td (Stencil words) Tj ET", "BT /F1 10 Tf 0 Tr 300 600 Td (Drawn after the stencil) Tj ET Q"].join("\n"),
    );
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => e.text)).toEqual(["Stencil words", "Drawn after the stencil"]);
  });

  it("drops text outside the page's crop box as poppler does", async () => {
    // "Hidden words " sits wholly left of the page; "Seen" starts at x = 0.
    const bytes = courierPage(
      [
        "BT /F1 10 Tf -78 700 Td (Hidden words Seen at the edge) Tj ET",
        "BT /F1 10 Tf 700 650 Td (Right of the page) Tj ET",
        "BT /F1 10 Tf 72 -40 Td (Under the page) Tj ET",
        "BT /F1 10 Tf 72 600 Td (On the page) Tj ET",
      ].join("\n"),
    );
    const doc = await parsePdf(bytes);
    const ours = doc.elements.flatMap((e) => e.text.split(/\s+/));
    const poppler = (await popplerWords(bytes)).words.map((w) => w.text);
    expect(ours).toEqual(poppler);
    expect(ours).toEqual(["Seen", "at", "the", "edge", "On", "the", "page"]);
  });
});

describe.skipIf(missing("soffice"))("pdf: a wide Calc sheet printed across pages", () => {
  it("reads a cell's text running over the page edge once: each page as far as it shows it", async () => {
    const title = "Monthly headcount by department and location, all regions and all business units, compared with the plan approved in March";
    const figures = Array.from({ length: 8 }, (_, i) => `<table:table-cell office:value-type="float" office:value="${i + 1}"><text:p>${i + 1}</text:p></table:table-cell>`).join("");
    const bytes = await calcPdf(
      '<table:table-column table:style-name="co1" table:number-columns-repeated="8"/>',
      `<table:table-row><table:table-cell office:value-type="string"><text:p>${title}</text:p></table:table-cell></table:table-row><table:table-row table:number-rows-repeated="2"><table:table-cell/></table:table-row><table:table-row>${figures}</table:table-row>`,
      '<style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="1.1in"/></style:style>',
    );
    const doc = await parsePdf(bytes);
    const titleOn = (page: number): string => doc.elements.find((e) => e.page === page && /\p{L}{4}/u.test(e.text) && !/Sheet1|Page/.test(e.text))?.text ?? "";
    const [first, second] = [titleOn(1), titleOn(2)];
    // Before the clip was read, both pages held the whole title, its box off the page.
    expect(first.length).toBeGreaterThan(20);
    expect(second.length).toBeGreaterThan(10);
    expect(first + second).toBe(title);
    for (const e of doc.elements) {
      expect(e.box!.x0).toBeGreaterThanOrEqual(0);
      expect(e.box!.x1).toBeLessThanOrEqual(1);
    }
  }, 60_000);
});
