import { describe, expect, it } from "vitest";
import { loadPdfjs, openPdf } from "../../src/engine/formats/pdf-load.js";
import { buildPdf } from "../support/pdf-fixtures.js";

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
