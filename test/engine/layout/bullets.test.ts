import { describe, expect, it } from "vitest";
import { bulletRuns, layoutPage, type BulletShape, type TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

// Synthetic runs (10 pt, box top..top+10) and shapes: a 3.5 pt marker centred on the
// line, as Chromium draws a CSS disc (0.31 em, ~0.75 em before the text).
const shape = (x1: number, top: number, opts: Partial<BulletShape> = {}): BulletShape => {
  const size = 3.5;
  const cy = top + 5;
  return { kind: "disc", x0: x1 - size, x1, y0: cy - size / 2, y1: cy + size / 2, ...opts };
};

const texts = (runs: TextRun[]) => runs.map((r) => r.text);

describe("bulletRuns", () => {
  it("turns a shape just before a line's first run into a marker run reaching the run, the marker char on the shape", () => {
    const item = run("Apples arrive", 60, 100, { bold: true });
    const out = bulletRuns([shape(52.5, 100)], [item]);
    expect(out).toEqual([
      {
        text: "\u2022 ",
        x0: 49,
        x1: 60,
        y0: 103.25,
        y1: 106.75,
        fontSize: 10,
        bold: true,
        italic: false,
        mono: false,
        math: false,
        angle: 0,
        chars: [
          { text: "\u2022", x0: 49, x1: 52.5 },
          { text: " ", x0: 52.5, x1: 60 },
        ],
      },
    ]);
  });

  it("writes a disc as •, a circle as ◦ and a square as ▪", () => {
    const runs = [run("one", 60, 100), run("two", 60, 120), run("three", 60, 140)];
    const out = bulletRuns([shape(52.5, 100), shape(52.5, 120, { kind: "circle" }), shape(52.5, 140, { kind: "square" })], runs);
    expect(texts(out)).toEqual(["\u2022 ", "\u25e6 ", "\u25aa "]);
  });

  it("wants a gap of 0.2 to 2.5 em before the text", () => {
    const item = run("text", 60, 100);
    expect(bulletRuns([shape(59, 100)], [item])).toEqual([]); // 0.1 em: touching the text
    expect(bulletRuns([shape(58, 100)], [item])).toHaveLength(1); // 0.2 em
    expect(bulletRuns([shape(35, 100)], [item])).toHaveLength(1); // 2.5 em
    expect(bulletRuns([shape(30, 100)], [item])).toEqual([]); // 3 em: something else
  });

  it("wants a size of 0.15 to 0.7 em", () => {
    const item = run("text", 60, 100);
    const sized = (size: number): BulletShape => ({ kind: "disc", x0: 52 - size, x1: 52, y0: 105 - size / 2, y1: 105 + size / 2 });
    expect(bulletRuns([sized(1)], [item])).toEqual([]);
    expect(bulletRuns([sized(2)], [item])).toHaveLength(1);
    expect(bulletRuns([sized(6.5)], [item])).toHaveLength(1);
    expect(bulletRuns([sized(8)], [item])).toEqual([]);
  });

  it("wants the shape vertically centred on the line", () => {
    const item = run("text", 60, 100);
    expect(bulletRuns([shape(52.5, 102)], [item])).toHaveLength(1); // 0.2 of the height off
    expect(bulletRuns([shape(52.5, 104)], [item])).toEqual([]); // at the baseline's end of the box
    expect(bulletRuns([shape(52.5, 96)], [item])).toEqual([]);
  });

  it("ignores a shape inside a line (text close on its other side) or over text", () => {
    const before = run("Home", 20, 100);
    const after = run("About", 60, 100);
    // "Home • About": 1 em or less from the previous word.
    expect(bulletRuns([shape(52.5, 100)], [{ ...before, x1: 44 }, after])).toEqual([]);
    // A column to the left, 3 em away, does not make it mid-line.
    expect(bulletRuns([shape(52.5, 100)], [{ ...before, x1: 19 }, after])).toHaveLength(1);
    // Over a word.
    expect(bulletRuns([shape(64, 100)], [after])).toEqual([]);
  });

  it("puts a right-to-left item's marker on its right", () => {
    const hebrew = run("פריט ראשון", 100, 100);
    const marker = { kind: "disc" as const, x0: 157.5, x1: 161, y0: 103.25, y1: 106.75 };
    // In drawing order (the bidi pass reads the line right to left): space, then marker.
    expect(bulletRuns([marker], [hebrew])).toMatchObject([
      {
        text: " \u2022",
        x0: 150,
        x1: 161,
        chars: [
          { text: " ", x0: 150, x1: 157.5 },
          { text: "\u2022", x0: 157.5, x1: 161 },
        ],
      },
    ]);
    // Left of a right-to-left run is where its line ends: no marker there.
    expect(bulletRuns([shape(92.5, 100)], [hebrew])).toEqual([]);
    // Right of a left-to-right run likewise.
    expect(bulletRuns([marker], [run("plain words", 100, 100)])).toEqual([]);
  });

  it("wants the item's colour when both are known", () => {
    const item = run("Revenue", 60, 100, { colour: "#000000" });
    expect(bulletRuns([shape(52.5, 100, { colour: "#dc3912" })], [item])).toEqual([]); // a legend swatch
    expect(bulletRuns([shape(52.5, 100, { colour: "#0a0a0a" })], [item])).toHaveLength(1);
    expect(bulletRuns([shape(52.5, 100, { colour: "#dc3912" })], [{ ...item, colour: "#dc3912" }])).toHaveLength(1);
    expect(bulletRuns([shape(52.5, 100, { colour: "#dc3912" })], [run("Revenue", 60, 100)])).toHaveLength(1);
  });

  it("gives an item one marker, and none to rotated text", () => {
    const item = run("text", 60, 100);
    expect(bulletRuns([shape(52.5, 100), shape(52, 100)], [item])).toHaveLength(1);
    expect(bulletRuns([shape(52.5, 100)], [{ ...item, angle: 90 }])).toEqual([]);
  });
});

describe("layoutPage: bullets", () => {
  // A list whose markers were drawn as shapes: without them, one paragraph.
  const runs = [
    run("First item of the list", 60, 100),
    run("Second item, long enough that it", 60, 112),
    run("wraps onto a second line", 60, 124),
    run("Nested item", 90, 136),
    run("Third item", 60, 148),
  ];
  const bullets = [shape(52.5, 100), shape(52.5, 112), shape(82.5, 136, { kind: "circle" }), shape(52.5, 148), shape(300, 400)];

  it("finds no list, and merges the first items, without the shapes", () => {
    const blocks = layoutPage({ width: 400, height: 500, runs });
    expect(blocks.some((b) => b.kind === "list")).toBe(false);
    expect(blocks[0]!.text).toBe("First item of the list Second item, long enough that it wraps onto a second line");
  });

  it("makes each marked line a list item, levelled by indentation, with the marker first in char boxes", () => {
    const blocks = layoutPage({ width: 400, height: 500, runs, bullets }, { chars: true });
    expect(blocks.map((b) => [b.kind, b.text, b.listLevel])).toEqual([
      ["list", "\u2022 First item of the list", 0],
      ["list", "\u2022 Second item, long enough that it wraps onto a second line", 0],
      ["list", "\u25e6 Nested item", 1],
      ["list", "\u2022 Third item", 0],
    ]);
    const second = blocks[1]!;
    expect(second.chars![0]).toMatchObject({ text: "\u2022", x0: 49, x1: 52.5, y0: 115.25, y1: 118.75 });
    expect(second.x0).toBe(49);
  });

  it("keeps a marker drawn over 1 em before its text on the text's line (inside markers, small type)", () => {
    const far = [run("Inside one", 70, 100), run("Inside two", 70, 112)];
    const blocks = layoutPage({ width: 400, height: 500, runs: far, bullets: [shape(58.5, 100), shape(58.5, 112)] });
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ["list", "\u2022 Inside one"],
      ["list", "\u2022 Inside two"],
    ]);
  });

  it("reads a right-to-left item's marker first", () => {
    // A PDF draws right-to-left words left to right: runs hold them in drawing order.
    const drawn = [..."פריט ראשון"].reverse().join("");
    const blocks = layoutPage({ width: 400, height: 500, runs: [run(drawn, 100, 100)], bullets: [{ kind: "disc", x0: 157.5, x1: 161, y0: 103.25, y1: 106.75 }] }, { chars: true });
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([["list", "\u2022 פריט ראשון"]]);
    expect(blocks[0]!.chars![0]).toMatchObject({ text: "\u2022", x0: 157.5, x1: 161 });
  });

  it("reads a flattened form's selected radio button as no bullet: a dot centred in a ring", () => {
    // Three options, each a 10 pt ring (its box a painted path) before its label; the
    // second selected, its dot a disc shape centred in the ring (and a path of its own).
    const options = ["Standard", "Student", "Senior"].map((t, i) => run(t, 72 + 100 * i, 100));
    const rings = [0, 1, 2].map((i) => ({ x0: 58 + 100 * i, y0: 100, x1: 68 + 100 * i, y1: 110 }));
    const dot = shape(164.75, 100);
    const drawings = [...rings, { x0: dot.x0, y0: dot.y0, x1: dot.x1, y1: dot.y1 }];
    const blocks = layoutPage({ width: 400, height: 500, runs: options, bullets: [dot], drawings });
    expect(blocks.some((b) => b.kind === "list" || b.text.includes("\u2022"))).toBe(false);
    // The same dot with only its own path around it is a list's bullet.
    const listed = layoutPage({ width: 400, height: 500, runs: options, bullets: [dot], drawings: drawings.slice(3) });
    expect(listed.map((b) => b.text)).toContain("\u2022 Student");
  });

  it("drops a shape that matches no line", () => {
    const without = layoutPage({ width: 400, height: 500, runs });
    const blocks = layoutPage({ width: 400, height: 500, runs, bullets: [shape(300, 400)] });
    expect(blocks).toEqual(without);
  });
});

describe("ocrBullets", () => {
  // Word runs of an OCR layer (10 pt): "e" where the scan shows a bullet, a tab stop (0.8 em)
  // before the item's text.
  const ocr = (text: string, x: number, top: number, opts: Partial<TextRun> = {}) => run(text, x, top, { ocr: true, ...opts });
  const textOf = (runs: readonly TextRun[]) => layoutPage({ width: 600, height: 800, runs: [...runs] }).map((b) => b.text);

  it("reads a misread bullet as one when the item's next line hangs at its text", async () => {
    const { ocrBullets } = await import("../../../src/engine/layout/bullets.js");
    const runs = [ocr("e", 60, 100), ocr("Section two describes the parser and its", 73, 100), ocr("output format.", 73, 112)];
    const out = ocrBullets(runs);
    expect(out[0]).toMatchObject({ text: "\u2022 ", x0: 60, x1: 73 });
    expect(textOf(runs)).toEqual(["\u2022 Section two describes the parser and its output format."]);
  });

  it("reads a misread bullet beside numbered items or under another, and keeps what OCR read as a candidate", async () => {
    const { ocrBullets } = await import("../../../src/engine/layout/bullets.js");
    const nested = [ocr("1.", 60, 100), ocr("First point", 75, 100), ocr("e¢", 90, 112, { ocrChars: [{ text: "e¢", box: { x0: 90, y0: 112, x1: 100, y1: 122 }, confidence: 0.4, candidates: [] }], confidence: 0.4 }), ocr("Nested point", 108, 112), ocr("2.", 60, 124), ocr("Second point", 75, 124)];
    const out = ocrBullets(nested);
    expect(out[2]!.text).toBe("\u2022 ");
    expect(out[2]!.ocrChars![0]).toEqual({ text: "\u2022", box: { x0: 90, y0: 112, x1: 100, y1: 122 }, confidence: 0.4, candidates: [{ text: "e¢", confidence: 0.4 }] });
    const oneLiners = [ocr("©", 60, 100), ocr("Apples", 73, 100), ocr("©", 60, 112), ocr("Pears", 73, 112)];
    expect(ocrBullets(oneLiners).map((r) => r.text)).toEqual(["\u2022 ", "Apples", "\u2022 ", "Pears"]);
  });

  it("leaves prose alone: a line starting with the word e, a lone letter with no list around it, text that no OCR read", async () => {
    const { ocrBullets } = await import("../../../src/engine/layout/bullets.js");
    // Italian: "e" opens the line, one word space (0.3 em) before the next word.
    const italian = [ocr("e", 60, 100), ocr("poi siamo andati al mare", 68, 100), ocr("con gli amici.", 60, 112)];
    expect(ocrBullets(italian)).toBe(italian);
    const lone = [ocr("e", 60, 100), ocr("stands alone here", 73, 100), ocr("A paragraph follows below it.", 60, 130)];
    expect(ocrBullets(lone)).toBe(lone);
    const born = [run("e", 60, 100), run("Section two describes the parser and its", 73, 100), run("output format.", 73, 112)];
    expect(ocrBullets(born)).toBe(born);
    // Justified Italian, OCR'd: word spaces stretch to 0.9 em, and two lines start with "e".
    const justified = [ocr("e", 60, 100), ocr("dei paragrafi permette di", 74, 100), ocr("e", 60, 112), ocr("non mescolano argomenti", 74, 112), ocr("diversi.", 74, 124)];
    expect(ocrBullets(justified)).toBe(justified);
  });

  it("turns every marker of a long OCR'd list into a bullet (16,000 words on one page)", async () => {
    const { ocrBullets } = await import("../../../src/engine/layout/bullets.js");
    const runs: TextRun[] = [];
    for (let r = 0; r < 2000; r++) {
      runs.push(ocr("©", 60, 10 + 12 * r), ocr("Item", 73, 10 + 12 * r));
      for (let w = 0; w < 6; w++) runs.push(ocr("word", 100 + 25 * w, 10 + 12 * r));
    }
    const out = ocrBullets(runs);
    expect(out.filter((r) => r.text === "\u2022 ")).toHaveLength(2000);
  });
});
