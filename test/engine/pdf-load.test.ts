import { describe, expect, it } from "vitest";
import { MemoryAssetStore } from "../../src/engine/assets.js";
import { loadPdfjs, openPdf, pageRotation } from "../../src/engine/formats/pdf-load.js";
import { LocalParser } from "../../src/engine/local-parser.js";
import { buildPdf, rawPdf } from "../support/pdf-fixtures.js";
import { expectConsistentResult } from "./check-result.js";

const native = (f: unknown): boolean => typeof f === "function" && Function.prototype.toString.call(f).includes("[native code]");

describe("loadPdfjs", () => {
  it("leaves Array.prototype.push and JSON native after importing pdfjs' legacy build", async () => {
    await loadPdfjs();
    expect(native(Array.prototype.push)).toBe(true);
    expect(native(JSON.parse)).toBe(true);
    expect(native(JSON.stringify)).toBe(true);
  });

  it("opens documents side by side on the shared in-thread worker, with and without glyph outlines", async () => {
    const bytes = await buildPdf([{ texts: [{ text: "Hello port", x: 72, y: 72 }] }, { texts: [{ text: "Second page", x: 72, y: 72 }] }]);
    for (const glyphPaths of [false, true]) {
      const [a, b] = await Promise.all([openPdf(bytes, { glyphPaths }), openPdf(bytes, { glyphPaths })]);
      try {
        const page = await a.getPage(2);
        const ops = await page.getOperatorList();
        expect(ops.fnArray.length).toBeGreaterThan(0);
        const text = await (await b.getPage(1)).getTextContent();
        expect(text.items.map((i) => ("str" in i ? i.str : "")).join("")).toContain("Hello port");
      } finally {
        await Promise.all([a.destroy(), b.destroy()]);
      }
    }
  });
});

describe("pageRotation", () => {
  it("is 0, 90, 180 or 270 whatever /Rotate holds", () => {
    const cases: [unknown, number][] = [[0, 0], [90, 90], [-90, 270], [450, 90], [[90], 90], [45, 0], [1e9, 0], [Number.NaN, 0], ["x", 0], [-1e308, 0], [null, 0]];
    for (const [rotate, want] of cases) expect(pageRotation({ rotate: rotate as number }), String(rotate)).toBe(want);
  });

  it("gives a page whose /Rotate is the array [90] a number angle (it came out as the array, failing the wire schema)", async () => {
    const bytes = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      { dict: "", data: "BT /F1 12 Tf 72 700 Td (Turned by an array) Tj ET" },
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate [90] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
    ]);
    const result = await new LocalParser({ assets: new MemoryAssetStore() }).parse(bytes, { filename: "a.pdf", config: { capabilities: { pages: true } } });
    expect(result.pages?.[0]?.angle).toBe(90);
    expectConsistentResult(result);
  });
});
