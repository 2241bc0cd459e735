import { describe, expect, it } from "vitest";
import { fontInfo, walkOperators, type Matrix } from "../../src/engine/formats/pdf-ops.js";

// pdfjs OPS codes used below.
const OPS = { beginText: 31, setFont: 37, setTextMatrix: 42, moveText: 40, showText: 44, setHScale: 35, setCharSpacing: 33, constructPath: 91, stroke: 20, paintImageXObject: 85, save: 10, restore: 11, transform: 12 };
const glyph = (unicode: string, width = 500, isSpace = false) => ({ unicode, width, isSpace, fontChar: unicode, originalCharCode: 0 });
// Display space of a US Letter page at scale 1 (what page.getViewport gives).
const base: Matrix = [1, 0, 0, -1, 0, 792];
const helvetica = fontInfo({ name: "Helvetica", bold: false, ascent: 0.75, descent: -0.25 });

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

  it("reads glyphs that map to control characters (TeX's big delimiters, a bitmap font's bullet) as blank, never as text", () => {
    const r = walk(
      [OPS.beginText, OPS.setFont, OPS.showText],
      [null, ["f1", 10], [[glyph("\u0088"), glyph("a"), glyph("\u0000"), glyph("b"), glyph("\u0013"), glyph("\u0012", 1200), glyph("X")]]],
      true,
    );
    expect(r.runs.map((x) => x.text)).toEqual(["a b", "X"]);
    expect(r.runs.flatMap((x) => x.chars ?? []).map((c) => c.text)).toEqual(["a", " ", "b", "X"]);
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

  it("turns ligature glyphs into their letters", () => {
    const r = walk([OPS.beginText, OPS.setFont, OPS.showText], [null, ["f1", 10], [[glyph("\ufb01", 550), glyph("x")]]], true);
    expect(r.runs[0]!.text).toBe("fix");
    expect(r.runs[0]!.chars!.map((c) => c.text).join("")).toBe("fix");
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
