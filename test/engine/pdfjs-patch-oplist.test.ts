import { describe, expect, it, vi } from "vitest";
import { pageOperatorList } from "../../src/engine/formats/pdf-extract.js";
import { openPdf } from "../../src/engine/formats/pdf-load.js";
import { DirectPort } from "../../src/engine/formats/pdf-port.js";
import { pdfjsWorkerModule } from "../../src/engine/formats/pdfjs-patch.js";
import { rawPdf } from "../support/pdf-fixtures.js";

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";

/**
 * Page 1: 2,400 text operators (pdfjs sends them in three chunks of about 1,000) and a
 * square annotation with its own appearance stream (its operators come after the page's);
 * page 2: one line, an inline image and a drawn path (buffers pdfjs lists for transfer).
 */
function chunkedPdf(): Uint8Array {
  let body = "BT /F1 9 Tf\n";
  for (let i = 0; i < 600; i++) body += `1 0 0 1 ${40 + (i % 10) * 50} ${760 - Math.floor(i / 10) * 12} Tm (w${i}) Tj 0.${i % 9} g 0 Tc\n`;
  body += "ET";
  const image = "q 20 0 0 20 72 500 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\xff\xff\x00 EI Q";
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 7 0 R] /Count 2 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots [6 0 R] >>",
    { dict: "", data: body },
    FONT,
    "<< /Type /Annot /Subtype /Square /Rect [300 100 400 200] /AP << /N 9 0 R >> >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 8 0 R >>",
    { dict: "", data: `BT /F1 12 Tf 72 700 Td (Second page) Tj ET ${image} 72 400 m 300 400 l 300 300 l h S` },
    { dict: "/Type /XObject /Subtype /Form /BBox [0 0 100 100]", data: "1 0 0 RG 5 5 90 90 re S" },
  ]);
}

describe("pageOperatorList", () => {
  it("gives each page the operator list pdfjs streams, chunks and annotations included", async () => {
    expect(pdfjsWorkerModule().patched).toBe(true);
    const doc = await openPdf(chunkedPdf(), { glyphPaths: false });
    try {
      for (const n of [1, 2]) {
        // Whole first: pdfjs keeps a streamed list on its page proxy and would hand it back.
        const whole = await pageOperatorList(await doc.getPage(n));
        const streamed = await (await doc.getPage(n)).getOperatorList();
        expect(whole.fnArray.length).toBe(streamed.fnArray.length);
        expect(whole.fnArray).toEqual(streamed.fnArray);
        expect(whole.argsArray).toEqual(streamed.argsArray);
      }
      // More than one chunk (pdfjs flushes every ~1,000 operators) on page 1.
      expect((await pageOperatorList(await doc.getPage(1))).fnArray.length).toBeGreaterThan(2_000);
    } finally {
      await doc.destroy();
    }
  });

  it("asks for it in one answer: no operator-list stream crosses the port", async () => {
    const doc = await openPdf(chunkedPdf(), { glyphPaths: false });
    const post = vi.spyOn(DirectPort.prototype, "postMessage");
    try {
      const page = await doc.getPage(1);
      post.mockClear();
      const ops = await pageOperatorList(page);
      const messages = post.mock.calls.map(([m]) => m as { action?: string; stream?: number; data?: unknown });
      expect(messages.filter((m) => m.stream !== undefined)).toEqual([]);
      expect(messages.filter((m) => m.action === "GetOperatorListWhole")).toHaveLength(1);
      // The answer is the worker's own list, handed over without a copy.
      const answer = messages.find((m) => m.data === ops);
      expect(answer).toBeDefined();
    } finally {
      post.mockRestore();
      await doc.destroy();
    }
  });
});
