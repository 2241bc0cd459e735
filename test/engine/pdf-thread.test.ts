import { describe, expect, it } from "vitest";
import { openPdf } from "../../src/engine/formats/pdf-load.js";
import { holdPdfThread } from "../../src/engine/formats/pdf-thread.js";
import { buildPdf } from "../support/pdf-fixtures.js";

describe("holdPdfThread", () => {
  it("shares one parser thread between holders", async () => {
    const [a, b] = await Promise.all([holdPdfThread(), holdPdfThread()]);
    try {
      expect(a.port).toBe(b.port);
    } finally {
      a.release();
      b.release();
      a.release(); // a second release is a no-op, not a negative count
    }
    const c = await holdPdfThread();
    expect(c.port).toBe(a.port);
    c.release();
  });

  it("parses text documents on the thread and leaves this thread's DecompressionStream alone", async () => {
    const bytes = await buildPdf([{ texts: [{ text: "On the thread", x: 72, y: 72 }] }, { texts: [{ text: "Page two", x: 72, y: 72 }] }]);
    const docs = await Promise.all([openPdf(bytes, { glyphPaths: false }), openPdf(bytes, { glyphPaths: false })]);
    try {
      for (const [i, doc] of docs.entries()) {
        const text = await (await doc.getPage(i + 1)).getTextContent();
        expect(text.items.map((t) => ("str" in t ? t.str : "")).join("")).toBe(i === 0 ? "On the thread" : "Page two");
      }
    } finally {
      await Promise.all(docs.map((d) => d.destroy()));
    }
    expect(typeof (globalThis as { DecompressionStream?: unknown }).DecompressionStream).toBe("function");
  });

  it("maps a corrupt file to 40422 and releases the thread", async () => {
    await expect(openPdf(new TextEncoder().encode("%PDF-1.7\nnot a pdf"), { glyphPaths: false })).rejects.toMatchObject({ code: 40422 });
    const held = await holdPdfThread();
    held.release();
  });
});
