import { describe, expect, it } from "vitest";
import { fontInfo, walkOperators, type Matrix } from "../../src/engine/formats/pdf-ops.js";

// pdfjs OPS codes used below.
const OPS = { beginMarkedContent: 69, beginMarkedContentProps: 70, endMarkedContent: 71, paintFormXObjectBegin: 74, paintFormXObjectEnd: 75, beginText: 31, setFont: 37, setTextMatrix: 42, moveText: 40, showText: 44, setHScale: 35, setCharSpacing: 33, constructPath: 91, stroke: 20, paintImageXObject: 85, save: 10, restore: 11, transform: 12 };
const glyph = (unicode: string, width = 500, isSpace = false) => ({ unicode, width, isSpace, fontChar: unicode, originalCharCode: 0 });
// Display space of a US Letter page at scale 1 (what page.getViewport gives).
const base: Matrix = [1, 0, 0, -1, 0, 792];
const helvetica = fontInfo({ name: "Helvetica", bold: false, ascent: 0.75, descent: -0.25 });

const at = (x: number) => [[1, 0, 0, 1, x, 700]];

function walk(fn: number[], args: unknown[], chars = false) {
  return walkOperators(fn, args, base, { chars, removeWatermark: false, maxSegments: 100, font: () => helvetica });
}

describe("walkOperators: text", () => {
  it("places runs from the text matrix and glyph advances", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.setTextMatrix, OPS.showText],
      [null, ["f1", 10], [[1, 0, 0, 1, 100, 700]], [[glyph("A"), glyph("B")]]],
      true,
    );
    expect(r.runs).toHaveLength(1);
    const run = r.runs[0]!;
    expect(run.text).toBe("AB");
    expect([run.x0, run.x1]).toEqual([100, 110]);
    expect(run.y0).toBeCloseTo(792 - 700 - 7.5);
    expect(run.y1).toBeCloseTo(792 - 700 + 2.5);
    expect(run.chars).toEqual([
      { text: "A", x0: 100, x1: 105 },
      { text: "B", x0: 105, x1: 110 },
    ]);
  });

  it("splits at wide TJ gaps and wide spaces, keeps ordinary spaces, and judges spaces by unicode", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.showText],
      [
        null,
        ["f1", 10],
        [
          [
            // A subset font mapping char code 32 to "S": isSpace, but a letter.
            glyph("S", 600, true),
            glyph("o"),
            glyph(" ", 250, true),
            glyph("w"),
            -500, // 0.5 em gap: a word break nobody spelt out
            glyph("x"),
            glyph(" ", 2000, true), // a 2 em space: alignment
            glyph("y"),
          ],
        ],
      ],
    );
    expect(r.runs.map((x) => x.text)).toEqual(["So w", "x", "y"]);
  });

  it("keeps every space of a monospace font's run (a listing's aligned columns), one of a proportional font's", () => {
    const courier = fontInfo({ name: "Courier", bold: false, ascent: 0.75, descent: -0.25 });
    const shown = [[glyph("a", 600), glyph(" ", 600, true), glyph(" ", 600, true), glyph(" ", 600, true), glyph("b", 600)]];
    const mono = walkOperators([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], shown], base, { chars: true, removeWatermark: false, maxSegments: 100, font: () => courier });
    expect(mono.runs.map((x) => x.text)).toEqual(["a   b"]);
    expect(mono.runs[0]!.chars!.map((c) => [c.text, c.x0, c.x1])).toEqual([
      ["a", 0, 6],
      [" ", 6, 12],
      [" ", 12, 18],
      [" ", 18, 24],
      ["b", 24, 30],
    ]);
    expect(walk([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], shown]).runs.map((x) => x.text)).toEqual(["a b"]);
  });

  it("reads glyphs that map to control characters (TeX's big delimiters, a bitmap font's bullet) as blank, never as text", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.showText],
      [null, ["f1", 10], [[glyph("\u0088"), glyph("a"), glyph("\u0000"), glyph("b"), glyph("\u0013"), glyph("\u0012", 1200), glyph("X")]]],
      true,
    );
    expect(r.runs.map((x) => x.text)).toEqual(["a b", "X"]);
    expect(r.runs.flatMap((x) => x.chars ?? []).map((c) => c.text)).toEqual(["a", " ", "b", "X"]);
  });

  it("reads TeX's math extension glyphs by their codes (∑ not X, √ not p) and drops the pieces of tall brackets", () => {
    const cmex = fontInfo({ name: "ABCDEF+CMEX10" });
    const code = (unicode: string, c: number) => ({ ...glyph(unicode), originalCharCode: c });
    const shown = [[code("X", 0x58), code("P", 0x50), code("p", 0x70), code("Q", 0x51), code("\uf8eb", 0x30), code("\u0012", 0x12)]];
    const r = walkOperators([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], shown], base, { chars: false, removeWatermark: false, maxSegments: 100, font: () => cmex });
    expect(r.runs.map((x) => x.text)).toEqual(["∑∑√∏"]);
    // A ToUnicode map of the PDF's own is kept.
    const mapped = walkOperators([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], [[code("∑", 0x58)]]], base, { chars: false, removeWatermark: false, maxSegments: 100, font: () => cmex });
    expect(mapped.runs.map((x) => x.text)).toEqual(["∑"]);
    // In any font, Adobe's private-use bracket pieces are no text.
    expect(walk([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], [[glyph("a"), glyph("\uf8eb"), glyph("\uf8f8"), glyph("b")]]]).runs.map((x) => x.text)).toEqual(["a b"]);
  });

  it("applies horizontal scaling and character spacing to positions, and the CTM", () => {
    const r = walk(
      [OPS.save, OPS.transform, OPS.beginText, OPS.setFont, OPS.setHScale, OPS.setCharSpacing, OPS.moveText, OPS.showText, OPS.restore],
      [null, [2, 0, 0, 2, 0, 0], null, ["f1", 10], [50], [1], [10, 300], [[glyph("a"), glyph("b")]]],
    );
    const run = r.runs[0]!;
    // x: CTM scale 2 × (10 + advances × 0.5); advance = 5 + 1 per glyph; the run ends at the last glyph's width.
    expect(run.x0).toBeCloseTo(20);
    expect(run.x1).toBeCloseTo(2 * (10 + (6 + 5) * 0.5));
    expect(run.fontSize).toBeCloseTo(20);
  });

  it("reads Ghostscript's word spaces spelt as character spacing, and keeps tracked text one word", () => {
    const show = (tc: number, glyphs: unknown[]) =>
      walk([OPS.beginText, OPS.setFont, OPS.setCharSpacing, OPS.showText], [null, ["f1", 10], [tc], [glyphs]]).runs.map((x) => x.text);
    // `2.5 Tc [(da) 250 (sal)] TJ`: a space after every glyph but the one pulled back.
    expect(show(2.5, [glyph("d"), glyph("a"), 250, glyph("s"), glyph("a"), glyph("l")])).toEqual(["d", "as", "a", "l"]);
    // `(ne) Tj 3.7 Tc (wa) Tj`: two glyphs a space apart, carrying on a word ("ne|w a|rchive").
    const carried = walk(
      [OPS.beginText, OPS.setFont, OPS.showText, OPS.setCharSpacing, OPS.showText],
      [null, ["f1", 10], [[glyph("n"), glyph("e")]], [3.7], [[glyph("w"), glyph("a")]]],
    ).runs.map((x) => x.text);
    // Runs of separate text operators meet without a gap (the line reads "new a").
    expect(carried).toEqual(["ne", "w", "a"]);
    // Tracked text: a heading at 0.3 em, a kerning pair that happens to pull back about
    // as much as Tc, a CJK label set apart: one word each.
    expect(show(3, [glyph("T"), glyph("I"), glyph("T"), glyph("L"), glyph("E")])).toEqual(["TITLE"]);
    expect(show(1.6, [glyph("A"), 120, glyph("V"), glyph("A"), glyph("I"), glyph("L")])).toEqual(["AVAIL"]);
    expect(show(10, [glyph("\u59d3"), glyph("\u540d")])).toEqual(["\u59d3\u540d"]);
    // Ordinary character spacing never splits.
    expect(show(0.5, [glyph("a"), glyph("b")])).toEqual(["ab"]);
  });

  it("boxes an OCR layer's glyphless words with their trailing space, letters spread over the word", () => {
    // Tesseract's text layer: one string per word, the word and its space stretched (Tz)
    // over the word's box on the scan; every glyph a blank 0.5 em.
    const glyphless = fontInfo({ name: "GlyphLessFont", ascent: 1, descent: -0.25 });
    const r = walkOperators(
      [OPS.beginText, OPS.setFont, OPS.setTextMatrix, OPS.setHScale, OPS.showText, OPS.moveText, OPS.showText],
      [null, ["f1", 10], [[1, 0, 0, 1, 100, 700]], [80], [[glyph("W"), glyph("e"), glyph(" ", 500, true)]], [16, 0], [[glyph("g"), glyph("o"), glyph(" ", 500, true)]]],
      base,
      { chars: true, removeWatermark: false, maxSegments: 100, font: () => glyphless },
    );
    expect(r.runs.map((x) => [x.text, x.x0, x.x1])).toEqual([
      ["We", 100, 112],
      ["go", 116, 128],
    ]);
    expect(r.runs[0]!.chars).toEqual([
      { text: "W", x0: 100, x1: 106 },
      { text: "e", x0: 106, x1: 112 },
    ]);
    // Any other font keeps a word's box to its glyphs.
    expect(walk([OPS.beginText, OPS.setFont, OPS.setTextMatrix, OPS.showText], [null, ["f1", 10], [[1, 0, 0, 1, 100, 700]], [[glyph("W"), glyph("e"), glyph(" ", 500, true)]]]).runs[0]!.x1).toBe(110);
  });

  it("reads a mark set back over its base by TJ as part of the word (LibreOffice), the word boxed to its base", () => {
    // `[(क) 229 (ं) -224 (द)] TJ`: the anusvara drawn back over its consonant, then on.
    const word = walk([OPS.beginText, OPS.setFont, OPS.setTextMatrix, OPS.showText], [null, ["f1", 10], at(100), [[glyph("a"), 300, glyph("\u0307", 0), -290, glyph("b")]]]);
    expect(word.runs.map((x) => [x.text, x.x0, x.x1])).toEqual([["a\u0307b", 100, 109.9]]);
    // Moving on further than the pull-back is still a word break.
    const apart = walk([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], [[glyph("a"), 300, glyph("\u0307", 0), -600, glyph("b")]]]);
    expect(apart.runs.map((x) => x.text)).toEqual(["a\u0307", "b"]);
  });

  it("joins a mark drawn alone to the run it sits on (LibreOffice raises a Thai tone mark with a text matrix of its own)", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.setTextMatrix, OPS.showText, OPS.setTextMatrix, OPS.showText, OPS.setTextMatrix, OPS.showText],
      [null, ["f1", 10], at(100), [[glyph("ส"), glyph("\u0e34", 0)]], [[1, 0, 0, 1, 105, 700.5]], [[glyph("\u0e48", 0)]], at(105), [[glyph("ง")]]],
      true,
    );
    expect(r.runs.map((x) => [x.text, x.x0, x.x1])).toEqual([
      ["สิ่", 100, 105],
      ["ง", 105, 110],
    ]);
    expect(r.runs[0]!.chars!.map((c) => c.text).join("")).toBe("สิ่");
    // A mark on another line, or away from any run, stays where it is.
    const away = walk([OPS.beginText, OPS.setFont, OPS.setTextMatrix, OPS.showText, OPS.setTextMatrix, OPS.showText], [null, ["f1", 10], at(100), [[glyph("a")]], at(200), [[glyph("\u0301", 0)]]]);
    expect(away.runs.map((x) => x.text)).toEqual(["a", "\u0301"]);
  });

  it("turns ligature glyphs into their letters", () => {
    const r = walk([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], [[glyph("\ufb01", 550), glyph("x")]]], true);
    expect(r.runs[0]!.text).toBe("fix");
    expect(r.runs[0]!.chars!.map((c) => c.text).join("")).toBe("fix");
  });
});

describe("walkOperators: ActualText spans", () => {
  // `/Span <</ActualText (...)>> BDC`, as our pdfjs patch passes it on: tag, MCID, text.
  const span = (text: string | null) => ["Span", null, text];

  it("reads a span's glyphs as its ActualText, boxed over all of them, characters spread over the span", () => {
    // LibreOffice: one string, the span inside it (Devanagari "र्षि" drawn as ि, ष, reph).
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.setTextMatrix, OPS.showText, OPS.beginMarkedContentProps, OPS.showText, OPS.endMarkedContent, OPS.showText],
      [null, ["f1", 10], at(100), [[glyph("व"), glyph("ा", 300)]], span("र्षि"), [[glyph("ि", 300), glyph("ष", 600), glyph("र्", 0)]], null, [[glyph("क")]]],
      true,
    );
    expect(r.runs.map((x) => [x.text, x.x0, x.x1])).toEqual([
      ["वा", 100, 108],
      ["र्षि", 108, 117],
      ["क", 117, 122],
    ]);
    // Four characters over the span's 9 pt.
    expect(r.runs[1]!.chars!.map((c) => [c.text, c.x0, c.x1])).toEqual([
      ["र", 108, 110.25],
      ["्", 110.25, 112.5],
      ["ष", 112.5, 114.75],
      ["ि", 114.75, 117],
    ]);
    expect(r.textChars).toBe(2 + 4 + 1);
  });

  it("widens the run holding the text with the span's glyphs shown by later operators (Chromium: one string per glyph)", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.beginMarkedContentProps, OPS.setTextMatrix, OPS.showText, OPS.setTextMatrix, OPS.showText, OPS.setTextMatrix, OPS.showText, OPS.endMarkedContent, OPS.setTextMatrix, OPS.showText],
      [null, ["f1", 10], span("สำ"), at(100), [[glyph("ส", 600)]], at(106), [[glyph("ํ", 0)]], at(106), [[glyph("า", 400)]], null, at(110), [[glyph("น")]]],
      true,
    );
    expect(r.runs.map((x) => [x.text, x.x0, x.x1])).toEqual([
      ["สำ", 100, 110],
      ["น", 110, 115],
    ]);
    expect(r.runs[0]!.chars!.map((c) => [c.text, c.x0, c.x1])).toEqual([
      ["ส", 100, 105],
      ["ำ", 105, 110],
    ]);
  });

  it("takes the outermost ActualText; marked content without one, nested or not, changes nothing", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.beginMarkedContentProps, OPS.beginMarkedContent, OPS.showText, OPS.endMarkedContent, OPS.beginMarkedContentProps, OPS.beginMarkedContentProps, OPS.showText, OPS.endMarkedContent, OPS.showText, OPS.endMarkedContent, OPS.showText, OPS.endMarkedContent, OPS.showText],
      [null, ["f1", 10], ["P", 0, null], ["Artifact"], [[glyph("a")]], null, span("XYZ"), span("inner"), [[glyph("x")]], null, [[glyph("y")]], null, [[glyph("b")]], null, [[glyph("c")]]],
    );
    expect(r.runs.map((x) => x.text)).toEqual(["a", "XYZ", "b", "c"]);
  });

  it("reads glyphs under an empty ActualText as no text (decoration): a wide one parts the words around it", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.showText, OPS.beginMarkedContentProps, OPS.showText, OPS.endMarkedContent, OPS.showText, OPS.beginMarkedContentProps, OPS.showText, OPS.endMarkedContent, OPS.showText],
      [null, ["f1", 10], [[glyph("a")]], span(""), [[glyph("•", 100)]], null, [[glyph("b")]], span(""), [[glyph("1", 500), glyph("2", 500)]], null, [[glyph("c")]]],
    );
    expect(r.runs.map((x) => x.text)).toEqual(["a", "b", "c"]);
    expect(r.textChars).toBe(3);
  });

  it("ends a span left open in a form XObject with the form, and never stretches a run to another line", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.paintFormXObjectBegin, OPS.beginMarkedContentProps, OPS.setTextMatrix, OPS.showText, OPS.setTextMatrix, OPS.showText, OPS.paintFormXObjectEnd, OPS.setTextMatrix, OPS.showText],
      [null, ["f1", 10], [null, null], span("word"), at(100), [[glyph("w")]], [[1, 0, 0, 1, 100, 680]], [[glyph("x")]], null, at(300), [[glyph("z")]]],
    );
    expect(r.runs.map((x) => [x.text, x.x0, x.x1, x.y0])).toEqual([
      ["word", 100, 105, 792 - 700 - 7.5],
      ["z", 300, 305, 792 - 700 - 7.5],
    ]);
  });
});

describe("walkOperators: rules and images", () => {
  it("collects stroked axis-aligned lines and image placements", () => {
    const path = Float32Array.from([0, 10, 20, 1, 210, 20, 0, 10, 20, 1, 10, 120, 0, 0, 0, 2, 5, 5, 9, 9, 20, 20]);
    const r = walk([OPS.constructPath, OPS.save, OPS.transform, OPS.paintImageXObject, OPS.restore], [[OPS.stroke, [path], null], null, [100, 0, 0, 50, 300, 400], ["img_1", 64, 32], null]);
    expect(r.segments).toEqual([
      { horizontal: true, at: 772, from: 10, to: 210 },
      { horizontal: false, at: 10, from: 672, to: 772 },
    ]);
    expect(r.images).toEqual([{ box: { x0: 300, y0: 342, x1: 400, y1: 392 }, ref: "img_1", width: 64, height: 32 }]);
  });
});
