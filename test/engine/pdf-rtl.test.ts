import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fontInfo, walkOperators, type Matrix } from "../../src/engine/formats/pdf-ops.js";
import { buildLines } from "../../src/engine/layout/index.js";
import type { Element, ParseResult } from "../../src/wire/index.js";
import { chromiumPdf, popplerWords, sofficePdf, type PopplerWord } from "../support/pdf-fixtures.js";
import { missing, tempDir } from "../support/system.js";

// What each paragraph says, in reading (logical) order: the ground truth.
const ENGLISH = "The quick brown fox jumps over the lazy dog, then reads the report twice.";
const HEBREW = "שלום עולם, זהו מסמך לבדיקה של טקסט בעברית הנכתב מימין לשמאל.";
// "لاختبار", "أقلام" and "لا" are drawn with lam-alef ligature glyphs.
const ARABIC = "مرحبا بالعالم، هذا مستند لاختبار النص العربي من اليمين إلى اليسار.";
const MIXED_HEBREW = "המחיר של Apple הוא 250 שקלים (כולל מע\"מ) בשנת 2024.";
const ARABIC_DIGITS = "لدينا 42 كتابا و 7 أقلام في المكتب، ولا شيء غير ذلك.";
const PARAGRAPHS = [ENGLISH, HEBREW, ARABIC, MIXED_HEBREW, ARABIC_DIGITS];

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();
const RTL_LETTER = /[\u0590-\u08ff]/;
// Explicit direction marks pdftotext writes around runs (LRE, RLE, PDF, LRO, RLO, ...).
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function html(): string {
  const p = (text: string, attrs = "") => `<p${attrs}>${text.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</p>`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>p { font-family: 'DejaVu Sans'; font-size: 12pt; }</style></head><body>
${p(ENGLISH)}
${p(HEBREW, ' dir="rtl" lang="he"')}
${p(ARABIC, ' dir="rtl" lang="ar"')}
${p(MIXED_HEBREW, ' dir="rtl" lang="he"')}
${p(ARABIC_DIGITS, ' dir="rtl" lang="ar"')}
</body></html>`;
}

/** pdftotext's plain output (logical order); its direction marks stand where spaces were. */
function popplerText(bytes: Uint8Array): string {
  const dir = tempDir("pdf-rtl-");
  try {
    const file = join(dir.path, "in.pdf");
    writeFileSync(file, bytes);
    return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(BIDI_CONTROLS, " ");
  } finally {
    dir.cleanup();
  }
}

/**
 * Poppler reads a lam-alef ligature glyph backwards ("الختبار" for "لاختبار"; pdf.js
 * does the same). A poppler word counts as found when it is in our text as it is, or
 * with one of its "ال" read as the "لا" that was written.
 */
function foundIn(text: string, word: string): boolean {
  if (text.includes(word)) return true;
  for (let i = word.indexOf("ال"); i >= 0; i = word.indexOf("ال", i + 1)) {
    if (text.includes(`${word.slice(0, i)}لا${word.slice(i + 2)}`)) return true;
  }
  return false;
}

describe.skipIf(missing("soffice", "pdftotext"))("pdf: right-to-left text through LocalParser (LibreOffice, poppler as the oracle)", () => {
  let bytes: Uint8Array;
  let result: ParseResult;
  let plain: ParseResult;
  beforeAll(async () => {
    bytes = await sofficePdf(html(), { name: "rtl" });
    const { LocalParser } = await import("../../src/engine/local-parser.js");
    const { MemoryAssetStore } = await import("../../src/engine/assets.js");
    const parser = new LocalParser({ assets: new MemoryAssetStore() });
    result = await parser.parse(bytes, { filename: "rtl.pdf", config: { capabilities: { include_char_details: true } } });
    plain = await parser.parse(bytes, { filename: "rtl.pdf" });
  }, 120_000);

  it("gives each paragraph's text in reading order, English unchanged", () => {
    expect(result.elements.map((e) => norm(e.text))).toEqual(PARAGRAPHS);
    // Without char_details (the default) the text is the same.
    expect(plain.elements.map((e) => norm(e.text))).toEqual(PARAGRAPHS);
  });

  it("contains every word pdftotext reads", () => {
    const ours = result.elements.map((e) => e.text).join("\n");
    const words = popplerText(bytes).match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
    expect(words.length).toBeGreaterThan(50);
    expect(words.some((w) => RTL_LETTER.test(w))).toBe(true);
    expect(words.filter((w) => !foundIn(ours, w))).toEqual([]);
  });

  it("keeps char_details in text order, each on its own glyph (poppler's word boxes)", async () => {
    const oracle = await popplerWords(bytes);
    const page = oracle.pages[0]!;
    let checked = 0;
    let checkedRtl = 0;
    for (const el of result.elements) {
      const chars = el.char_details ?? [];
      expect(chars.map((c) => c.text).join("")).toBe(el.text);
      expect(chars.map((c) => c.index)).toEqual(chars.map((_, i) => i));
      for (const w of oracle.words) {
        // -bbox-layout spells words as drawn: right-to-left words come mirrored.
        const word = RTL_LETTER.test(w.text) ? [...w.text].reverse().join("") : w.text;
        if (!/^[\p{L}\p{N}]{2,}$/u.test(word)) continue;
        const at = wordAt(el, word, w, page);
        if (at < 0) continue;
        for (const c of chars.slice(at, at + word.length)) {
          const [x0, y0, , , x1, y1] = c.coordinates as number[];
          const cx = (((x0 ?? 0) + (x1 ?? 0)) / 2) * page.width;
          const cy = (((y0 ?? 0) + (y1 ?? 0)) / 2) * page.height;
          expect(cx, `${c.text} of ${word}`).toBeGreaterThanOrEqual(w.x0 - 0.5);
          expect(cx, `${c.text} of ${word}`).toBeLessThanOrEqual(w.x1 + 0.5);
          expect(cy, `${c.text} of ${word}`).toBeGreaterThanOrEqual(w.y0 - 1);
          expect(cy, `${c.text} of ${word}`).toBeLessThanOrEqual(w.y1 + 1);
        }
        checked++;
        if (RTL_LETTER.test(word)) checkedRtl++;
      }
    }
    // Hebrew, Arabic, English words and numbers all checked.
    expect(checked).toBeGreaterThanOrEqual(45);
    expect(checkedRtl).toBeGreaterThanOrEqual(30);
  });
});

describe.skipIf(missing("chromium", "pdftotext"))("pdf: right-to-left text printed by Chromium (presentation forms, brackets mapped as drawn)", () => {
  it("gives each paragraph's text in reading order and every word pdftotext reads", async () => {
    const bytes = await chromiumPdf(html());
    const { LocalParser } = await import("../../src/engine/local-parser.js");
    const { MemoryAssetStore } = await import("../../src/engine/assets.js");
    const result = await new LocalParser({ assets: new MemoryAssetStore() }).parse(bytes, { filename: "rtl.pdf", config: { capabilities: { include_char_details: true } } });
    expect(result.elements.map((e) => norm(e.text))).toEqual(PARAGRAPHS);
    for (const el of result.elements) expect((el.char_details ?? []).map((c) => c.text).join("")).toBe(el.text);
    const ours = result.elements.map((e) => e.text).join("\n");
    const words = popplerText(bytes).match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
    expect(words.length).toBeGreaterThan(50);
    expect(words.filter((w) => !foundIn(ours, w))).toEqual([]);
  }, 60_000);
});

/** Where a poppler word is in the element's text: the occurrence whose first character lies in the word's box (-1 if none). */
function wordAt(el: Element, word: string, w: PopplerWord, page: { width: number; height: number }): number {
  const chars = el.char_details ?? [];
  for (let i = el.text.indexOf(word); i >= 0; i = el.text.indexOf(word, i + 1)) {
    const c = chars[i]?.coordinates as number[] | undefined;
    if (!c) continue;
    const cx = (((c[0] ?? 0) + (c[4] ?? 0)) / 2) * page.width;
    const cy = (((c[1] ?? 0) + (c[5] ?? 0)) / 2) * page.height;
    if (cx >= w.x0 - 0.5 && cx <= w.x1 + 0.5 && cy >= w.y0 - 1 && cy <= w.y1 + 1) return i;
  }
  return -1;
}

describe("walkOperators → lines: presentation forms and ligature glyphs", () => {
  const base: Matrix = [1, 0, 0, -1, 0, 792];
  const font = fontInfo({ name: "DejaVuSans", ascent: 0.8, descent: -0.2 });
  const glyph = (unicode: string, width = 500) => ({ unicode, width, isSpace: false, fontChar: unicode, originalCharCode: 0 });
  // beginText, setFont, setTextMatrix, showText
  const lineOf = (glyphs: ReturnType<typeof glyph>[], chars = false) => {
    const walked = walkOperators([31, 37, 42, 44], [null, ["f1", 10], [[1, 0, 0, 1, 100, 700]], [glyphs]], base, { chars, removeWatermark: false, maxSegments: 10, font: () => font });
    return buildLines(walked.runs);
  };

  it("reads Arabic presentation forms as their base letters, lam-alef in order", () => {
    // "السلام" drawn left to right in contextual forms: meem, lam-alef (final), seen, lam, alef.
    const lines = lineOf(["\ufee1", "\ufefc", "\ufeb4", "\ufedf", "\ufe8d"].map((u) => glyph(u)));
    expect(lines.map((l) => l.text)).toEqual(["السلام"]);
  });

  it("keeps a ligature glyph mapped to two letters (ToUnicode lam-alef) in reading order, both on the glyph's box", () => {
    // "لا إله" drawn left to right: heh, lam, hamza-alef, space, lam-alef glyph.
    const lines = lineOf([glyph("ه"), glyph("ل"), glyph("إ"), { ...glyph(" ", 300), isSpace: true }, glyph("لا", 600)], true);
    expect(lines.map((l) => l.text)).toEqual(["لا إله"]);
    const chars = lines[0]!.runs.flatMap((r) => r.chars ?? []);
    expect(chars.map((c) => c.text).join("")).toBe("لا إله");
    // Both letters of the ligature share its glyph, the rightmost one.
    expect(chars[0]).toEqual({ text: "ل", x0: 118, x1: 124 });
    expect(chars[1]).toEqual({ text: "ا", x0: 118, x1: 124 });
  });

  it("keeps isolated vowel forms as their marks, without a space", () => {
    // Fathatan isolated (U+FE70) decomposes to a space and U+064B.
    const lines = lineOf([glyph("\ufe70"), glyph("\ufe8e")]);
    expect(lines[0]!.text).toBe("اً");
  });
});
