import { describe, expect, it } from "vitest";
import { chromiumPdf, popplerWords } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";

// Vertical Japanese (writing-mode: vertical-rl) as a browser prints it: every upright
// character drawn on its own, columns read right to left.

const TITLE = "縦書きの見出し";
const P1 = "これは縦書きの段落です。日本語の文章は右から左へ、上から下へと読みます。二つ目の文がここにあります。";
const P2 = "次の段落はここから始まります。";

describe.skipIf(missing("chromium", "pdftotext"))("pdf: vertical CJK set glyph by glyph (Chromium)", () => {
  it("reads columns right to left, each top to bottom, with glyph boxes where poppler puts the glyphs", async () => {
    const html = `<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><style>body { font-family: 'Noto Sans CJK JP'; font-size: 14pt; writing-mode: vertical-rl; height: 8in; } p { margin: 0 0 0 1em; }</style></head><body><h1>${TITLE}</h1><p>${P1}</p><p>${P2}</p></body></html>`;
    const bytes = await chromiumPdf(html);
    const { LocalParser } = await import("../../src/engine/local-parser.js");
    const { MemoryAssetStore } = await import("../../src/engine/assets.js");
    const result = await new LocalParser({ assets: new MemoryAssetStore() }).parse(bytes, {
      filename: "tategaki.pdf",
      config: { capabilities: { include_char_details: true, pages: true } },
    });
    expect(result.elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", TITLE],
      ["NarrativeText", P1],
      ["NarrativeText", P2],
    ]);
    // The page keeps its upright size.
    const page = result.pages![0]!;
    expect(page.page_height).toBeGreaterThan(page.page_width);

    // The oracle: poppler's glyph boxes (each vertical character is its own "word").
    const { pages, words } = await popplerWords(bytes);
    const { width: W, height: H } = pages[0]!;
    const glyphs = words.filter((w) => /^\p{Script=Han}$|^\p{Script=Hiragana}$|^\p{Script=Katakana}$/u.test(w.text));
    expect(glyphs.length).toBeGreaterThan(40);
    const chars = result.elements.flatMap((e) => e.char_details ?? []);
    for (const g of glyphs) {
      const cx = (g.x0 + g.x1) / 2 / W;
      const cy = (g.y0 + g.y1) / 2 / H;
      // Our box for that character (same letter) contains poppler's glyph centre.
      const hit = chars.find((c) => {
        const [x0, y0, , , x1, y1] = c.coordinates;
        return c.text === g.text && cx >= x0! - 0.005 && cx <= x1! + 0.005 && cy >= y0! - 0.005 && cy <= y1! + 0.005;
      });
      expect(hit, `${g.text} at ${cx.toFixed(3)},${cy.toFixed(3)}`).toBeDefined();
    }
    // Reading order: the title's column is the rightmost; within P1, characters go down a column, then to the next column on the left.
    const box = (i: number): number[] => result.elements[i]!.coordinates;
    expect(box(0)[0]!).toBeGreaterThan(box(1)[0]!);
    const p1 = result.elements[1]!.char_details!;
    expect(p1[1]!.coordinates[1]!).toBeGreaterThan(p1[0]!.coordinates[1]!);
  }, 60_000);

  it("keeps a horizontal running head on a vertical page whole, and its glyphs out of the columns", async () => {
    const body = "これは縦書きの段落です。ABCという英字も入ります。";
    const html = `<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><style>body { font-family: 'Noto Sans CJK JP'; font-size: 14pt; margin: 0.5in; } header { font-size: 9pt; } .v { writing-mode: vertical-rl; height: 7in; }</style></head><body><header>社内報 第12号 Company Newsletter</header><div class="v"><h1>${TITLE}</h1><p>${body}</p><p>${P2}</p></div></body></html>`;
    const bytes = await chromiumPdf(html);
    const { LocalParser } = await import("../../src/engine/local-parser.js");
    const { MemoryAssetStore } = await import("../../src/engine/assets.js");
    const result = await new LocalParser({ assets: new MemoryAssetStore() }).parse(bytes, { filename: "mixed.pdf", config: { capabilities: { include_char_details: true } } });
    const texts = result.elements.map((e) => e.text);
    // The space between 報 and 第 is read: a space's width wider than the glyphs' own spacing.
    expect(texts).toContain("社内報 第12号 Company Newsletter");
    expect(texts).toContain(TITLE);
    expect(texts).toContain(body);
    expect(texts).toContain(P2);
    expect(texts).toHaveLength(4);
    for (const e of result.elements) expect((e.char_details ?? []).map((c) => c.text).join("")).toBe(e.text);
  }, 60_000);
});
