import { describe, expect, it } from "vitest";
import { hasRtl, reorder } from "../../../src/engine/layout/bidi.js";
import { buildLines, layoutPage, makeLine, type TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

// Hebrew and Arabic letters (Arabic-Indic digits are drawn left to right, like 0-9).
const HEBREW_OR_ARABIC = /[\u05d0-\u05ea\u0621-\u064a]/;
const reversed = (s: string): string => [...s].reverse().join("");

/**
 * How a PDF draws a simple line of space-separated tokens, left to right: in a
 * right-to-left paragraph the tokens go right to left and each Hebrew or Arabic token is
 * drawn mirrored, while English words and numbers keep their own order. (Good for lines
 * without neutral punctuation between tokens of different directions.)
 */
function drawnRtl(logical: string): string {
  return logical
    .split(" ")
    .reverse()
    .map((t) => (HEBREW_OR_ARABIC.test(t) ? reversed(t) : t))
    .join(" ");
}

/** A run whose glyphs each take 5 units (0.5 em), with their boxes when `chars`. */
function glyphRun(text: string, x: number, opts: Omit<Partial<TextRun>, "chars"> & { chars?: boolean } = {}): TextRun {
  const { chars = false, ...rest } = opts;
  const r = run(text, x, 100, rest);
  r.x1 = x + [...text].length * 5;
  if (chars) r.chars = [...text].map((ch, i) => ({ text: ch, x0: x + 5 * i, x1: x + 5 * (i + 1) }));
  return r;
}

/** The line's characters in text order with their boxes, from its pieces. */
const charsOf = (runs: readonly TextRun[]) => runs.flatMap((r) => r.chars ?? []);

describe("makeLine: right-to-left text", () => {
  it("reads a Hebrew run right to left", () => {
    const line = makeLine([glyphRun(drawnRtl("שלום עולם"), 10)]);
    expect(line.text).toBe("שלום עולם");
    expect([line.x0, line.x1]).toEqual([10, 55]);
  });

  it("orders Hebrew words drawn as separate runs right to left, with the spaces between them", () => {
    const line = makeLine([glyphRun("םלוע", 10), glyphRun("םולש", 35)]);
    expect(line.text).toBe("שלום עולם");
    expect(line.runs.map((r) => r.text)).toEqual(["שלום", " ", "עולם"]);
    expect(line.runs[0]!.x0).toBe(35);
  });

  it("keeps an English word and a number inside a Hebrew line in their own order", () => {
    const logical = "המחיר של Apple הוא 250 שקלים";
    expect(makeLine([glyphRun(drawnRtl(logical), 10)]).text).toBe(logical);
    // The same line drawn as one run per word.
    let x = 10;
    const words = drawnRtl(logical)
      .split(" ")
      .map((w) => {
        const r = glyphRun(w, x);
        x = r.x1 + 4;
        return r;
      });
    expect(makeLine(words).text).toBe(logical);
  });

  it("reads Arabic with European and Arabic-Indic digits", () => {
    for (const logical of ["لدينا 42 كتابا و 7 أقلام", "الصفحة ١٢ من ٣٤", "سنة 2024"]) {
      expect(makeLine([glyphRun(drawnRtl(logical), 10)]).text).toBe(logical);
    }
  });

  it("puts neutral punctuation where the paragraph direction says (a full stop ends the Hebrew sentence)", () => {
    // Drawn: ".םלוע ,םולש" — the full stop is leftmost, the comma follows the first word.
    expect(makeLine([glyphRun(".םלוע ,םולש", 10)]).text).toBe("שלום, עולם.");
    // A number at the end of the sentence: "בשנת 2024." is drawn ".2024 תנשב".
    expect(makeLine([glyphRun(".2024 תנשב", 10)]).text).toBe("בשנת 2024.");
  });

  it("reads brackets as written whichever way the font maps the mirrored glyph", () => {
    // LibreOffice: the glyph drawn at the left end maps to ")", the bracket written there.
    expect(makeLine([glyphRun(")מ\"עמ ללוכ( םילקש", 10)]).text).toBe("שקלים (כולל מע\"מ)");
    // Chrome: it maps to "(", the shape drawn; mirroring balances the line.
    const chrome = makeLine([glyphRun("(מ\"עמ ללוכ) םילקש", 10, { chars: true })]);
    expect(chrome.text).toBe("שקלים (כולל מע\"מ)");
    expect(charsOf(chrome.runs).map((c) => c.text).join("")).toBe(chrome.text);
    // A bracket whose pair is on another line stays as drawn.
    expect(makeLine([glyphRun("ללוכ( םילקש", 10)]).text).toBe("שקלים (כולל");
    expect(makeLine([glyphRun("]2[ האר", 10)]).text).toBe("ראה [2]");
    expect(makeLine([glyphRun("[2] האר", 10)]).text).toBe("ראה [2]");
  });

  it("reads a Hebrew word inside an English line in place", () => {
    const line = makeLine([glyphRun("the word םולש means peace", 10)]);
    expect(line.text).toBe("the word שלום means peace");
  });

  it("leaves a line without right-to-left characters untouched (fast path)", () => {
    const runs = [glyphRun("Hello", 10), glyphRun("world", 40), glyphRun("中文", 70)];
    const line = makeLine(runs);
    expect(line.text).toBe("Hello world 中文");
    expect(line.runs).toBe(runs);
    expect(hasRtl("Hello world, 中文 ﬁ")).toBe(false);
    expect(hasRtl("x ש")).toBe(true);
    expect(hasRtl("ﻻ")).toBe(true);
  });
});

describe("makeLine: a bullet against a right-to-left item", () => {
  it("puts a space after the bullet, a zero-width gap at its inner edge", () => {
    // LibreOffice: the item's text, then the bullet right against it on the right.
    const text = glyphRun(drawnRtl("פריט שני"), 10, { chars: true });
    const bullet = glyphRun("•", text.x1, { chars: true });
    const line = makeLine([text, bullet]);
    expect(line.text).toBe("• פריט שני");
    const chars = charsOf(line.runs);
    expect(chars.map((c) => c.text).join("")).toBe(line.text);
    expect(chars[1]).toEqual({ text: " ", x0: text.x1, x1: text.x1 });
    // Without glyph positions too.
    expect(makeLine([glyphRun(drawnRtl("פריט שני"), 10), glyphRun("•", text.x1)]).text).toBe("• פריט שני");
  });

  it("puts a space after a number marker drawn against right-to-left text, not inside a number", () => {
    // LibreOffice: the item's text, then "1." on the right, drawn ".1" (the full stop, a
    // neutral, goes the paragraph's way).
    const text = glyphRun(drawnRtl("العنصر الأول"), 10);
    const line = makeLine([text, glyphRun(".1", text.x1)]);
    expect(line.text).toBe("1. العنصر الأول");
    const decimal = glyphRun(drawnRtl("שקלים"), 10);
    expect(makeLine([decimal, glyphRun("1.5", decimal.x1 + 4)]).text).toBe("1.5 שקלים");
  });

  it("leaves a bullet that already has a space, and English bullets, as drawn", () => {
    const text = glyphRun(drawnRtl("פריט"), 10);
    expect(makeLine([text, glyphRun("•", text.x1 + 4)]).text).toBe("• פריט");
    const item = glyphRun("•", 10);
    expect(makeLine([item, glyphRun("item", item.x1)]).text).toBe("•item");
  });
});

describe("makeLine: glyph boxes in text order", () => {
  it("gives every character of a Hebrew run the box of its own glyph", () => {
    const drawn = drawnRtl("שלום עולם");
    const line = makeLine([glyphRun(drawn, 10, { chars: true })]);
    const chars = charsOf(line.runs);
    expect(chars.map((c) => c.text).join("")).toBe(line.text);
    // Character i of the text is glyph n-1-i of the drawing.
    const n = chars.length;
    chars.forEach((c, i) => expect([c.text, c.x0]).toEqual([[...drawn][n - 1 - i], 10 + 5 * (n - 1 - i)]));
  });

  it("keeps glyph boxes through a mixed line, spaces between runs included", () => {
    const logical = "המחיר של Apple הוא 250 שקלים";
    let x = 10;
    const glyphs: { text: string; x0: number }[] = [];
    const words = drawnRtl(logical)
      .split(" ")
      .map((w) => {
        const r = glyphRun(w, x, { chars: true });
        glyphs.push(...r.chars!);
        x = r.x1 + 4;
        return r;
      });
    const line = makeLine(words);
    const chars = charsOf(line.runs);
    expect(line.text).toBe(logical);
    expect(chars.map((c) => c.text).join("")).toBe(logical);
    // Each letter sits on a glyph drawing that letter; "Apple" and "250" run left to right.
    for (const c of chars) if (c.text !== " ") expect(glyphs.some((g) => g.text === c.text && g.x0 === c.x0)).toBe(true);
    const apple = chars.slice(logical.indexOf("Apple"), logical.indexOf("Apple") + 5);
    expect(apple.map((c) => c.x0)).toEqual([...apple.map((c) => c.x0)].sort((a, b) => a - b));
    const hebrew = chars.slice(0, 5);
    expect(hebrew.map((c) => c.x0)).toEqual([...hebrew.map((c) => c.x0)].sort((a, b) => b - a));
    // The space between "של" and "Apple" is the gap between their glyphs.
    const gap = chars[logical.indexOf(" Apple")]!;
    expect(gap.text).toBe(" ");
    expect(gap.x1).toBe(apple.at(-1)!.x1 + 4);
  });

  it("shares out a run's extent between its pieces when there are no glyph positions", () => {
    const line = makeLine([glyphRun(drawnRtl("שלום Apple עולם"), 10)]);
    expect(line.text).toBe("שלום Apple עולם");
    expect(line.runs.map((r) => r.text)).toEqual(["שלום ", "Apple", " עולם"]);
    const [first, apple, last] = line.runs;
    // In reading order: rightmost Hebrew word, then Apple, then the leftmost.
    expect(first!.x0).toBeGreaterThanOrEqual(apple!.x1);
    expect(apple!.x0).toBeGreaterThanOrEqual(last!.x1);
    expect(apple!.x1 - apple!.x0).toBeGreaterThan(15);
    expect(last!.x0).toBe(10);
    expect(first!.x1).toBe(10 + 5 * 15);
  });

  it("reads pieces fed back into buildLines the same way (tables rebuild lines from lines' runs)", () => {
    const logical = "המחיר של Apple הוא 250 שקלים";
    const first = buildLines([glyphRun(drawnRtl(logical), 10, { chars: true })]);
    const again = buildLines(first.flatMap((l) => l.runs));
    expect(again.map((l) => l.text)).toEqual([logical]);
    expect(charsOf(again[0]!.runs).map((c) => c.text).join("")).toBe(logical);
  });

  it("gives a block's char_details in text order, one per character", () => {
    const top = glyphRun(drawnRtl("זוהי שורה ראשונה של פסקה"), 10, { chars: true });
    const next = { ...glyphRun(drawnRtl("ושורה שנייה עם 42 מילים"), 10, { chars: true }), y0: 112, y1: 122 };
    const blocks = layoutPage({ width: 300, height: 300, runs: [top, next] }, { chars: true });
    expect(blocks.map((b) => b.text)).toEqual(["זוהי שורה ראשונה של פסקה ושורה שנייה עם 42 מילים"]);
    const chars = blocks[0]!.chars!;
    expect(chars.map((c) => c.text).join("")).toBe(blocks[0]!.text);
    // The first character is the rightmost glyph of the first line.
    expect(chars[0]!.x1).toBe(top.x1);
    expect(chars[0]!.y0).toBe(100);
  });
});

describe("reorder (rule L2)", () => {
  it("reverses from the highest level down to the lowest odd level", () => {
    const units = [0, 1, 1, 2, 2, 1, 0].map((level, i) => ({ level, i }));
    expect(reorder(units).map((u) => u.i)).toEqual([0, 5, 3, 4, 2, 1, 6]);
  });

  it("leaves left-to-right text alone", () => {
    const units = [0, 0, 2, 2].map((level, i) => ({ level, i }));
    expect(reorder(units).map((u) => u.i)).toEqual([0, 1, 2, 3]);
  });
});
