import fc from "fast-check";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import type { FormatHandler } from "../../../src/engine/draft.js";
import { csvFormat } from "../../../src/engine/formats/csv.js";
import { docxFormat } from "../../../src/engine/formats/docx.js";
import { htmlFormat } from "../../../src/engine/formats/html.js";
import { imageFormat } from "../../../src/engine/formats/image.js";
import { pptxFormat } from "../../../src/engine/formats/pptx.js";
import { xlsxFormat } from "../../../src/engine/formats/xlsx.js";
import { terminateOcr } from "../../../src/engine/ocr.js";
import { DocParseError } from "../../../src/errors.js";
import { buildDocx, buildPptx, formatContext, renderTextImage } from "../../support/office-fixtures.js";

/**
 * Damaged files: whatever the bytes, a handler returns a document or throws a
 * DocParseError with a service code — never a TypeError from deep inside a library.
 */

afterAll(() => terminateOcr());

async function outcome(handler: FormatHandler, bytes: Uint8Array): Promise<string> {
  try {
    await handler.parse(bytes, formatContext());
    return "ok";
  } catch (e) {
    if (DocParseError.isInstance(e) && typeof e.code === "number") return String(e.code);
    throw e;
  }
}

/** Damage: truncate, flip bytes, or splice garbage into the middle. */
const damage = (seed: Uint8Array) =>
  fc.oneof(
    fc.integer({ min: 0, max: seed.length - 1 }).map((n) => seed.subarray(0, n)),
    fc.array(fc.tuple(fc.integer({ min: 0, max: seed.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 20 }).map((flips) => {
      const copy = new Uint8Array(seed);
      for (const [i, v] of flips) copy[i] = v;
      return copy;
    }),
    fc.tuple(fc.integer({ min: 0, max: seed.length }), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([at, junk]) => {
      const out = new Uint8Array(seed.length + junk.length);
      out.set(seed.subarray(0, at));
      out.set(junk, at);
      out.set(seed.subarray(at), at + junk.length);
      return out;
    }),
  );

describe("damaged input never escapes as a non-DocParseError", { timeout: 120_000 }, () => {
  it("DOCX", async () => {
    const seed = await buildDocx([{ kind: "heading", level: 1, text: "T" }, { kind: "para", text: "p" }, { kind: "table", rows: [[{ text: "a" }]] }]);
    await fc.assert(fc.asyncProperty(damage(seed), async (b) => ["ok", "40422", "40425"].includes(await outcome(docxFormat, b))), { numRuns: 60 });
  });

  it("XLSX", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("s").addRow(["a", 1, new Date(0)]);
    const seed = new Uint8Array(await wb.xlsx.writeBuffer());
    await fc.assert(fc.asyncProperty(damage(seed), async (b) => ["ok", "40422", "40425"].includes(await outcome(xlsxFormat, b))), { numRuns: 40 });
  });

  it("PPTX", async () => {
    const seed = await buildPptx([{ shapes: [{ kind: "title", text: "T", x: 0, y: 0, cx: 100, cy: 100 }] }]);
    await fc.assert(fc.asyncProperty(damage(seed), async (b) => ["ok", "40422", "40425"].includes(await outcome(pptxFormat, b))), { numRuns: 60 });
  });

  it("HTML and CSV take any bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (b) => {
        const h = await outcome(htmlFormat, b);
        const c = await outcome(csvFormat, b);
        return ["ok", "40422"].includes(h) && ["ok", "40422"].includes(c);
      }),
      { numRuns: 100 },
    );
  });

  it("images", async () => {
    const seed = await renderTextImage(["ok"]);
    await fc.assert(
      fc.asyncProperty(damage(seed), async (b) => ["ok", "40301", "40304", "40422"].includes(await outcome(imageFormat, b))),
      { numRuns: 6 },
    );
  });
});
