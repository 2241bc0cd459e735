import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { DocParseError } from "../../src/errors.js";
import { pdfFormat } from "../../src/engine/formats/pdf.js";
import { parserThreadStats } from "../../src/engine/formats/pdf-thread.js";
import { buildPdf, chromiumPdf, column, ghostscriptManPdf, latexPdf, operatorBombPdf, popplerWords, prose, randomProse, rawPdf, sofficePdf, tesseractPdf, TWO_COLUMN_PAPER } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { boxContains, expectInReadingOrder, ofType, PAPER_READING_ORDER, parsePdf, TEX_EXTENSION_LETTER, wordsNotHeld } from "./pdf-helpers.js";

async function codeOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    expect(DocParseError.isInstance(e), String(e)).toBe(true);
    return (e as DocParseError).code;
  }
  return "no error";
}

describe("pdf: bad input", () => {
  it("refuses corrupt and truncated files with 40422", async () => {
    const good = await buildPdf([{ texts: [{ text: "Hello", x: 72, y: 72 }] }]);
    expect(await codeOf(parsePdf(new TextEncoder().encode("%PDF-1.7\nthis is not a pdf at all")))).toBe(40422);
    expect(await codeOf(parsePdf(good.slice(0, Math.floor(good.length / 3))))).toBe(40422);
    expect(await codeOf(parsePdf(new Uint8Array(0)))).toBe(40422);
  });

  it("refuses a page_range beyond the document with 40424 and parses only the range asked", async () => {
    const bytes = await buildPdf([1, 2, 3, 4].map((n) => ({ texts: [{ text: `Text of page ${n}`, x: 72, y: 300 }] })));
    expect(await codeOf(parsePdf(bytes, { pageRange: "5-6" }))).toBe(40424);
    expect(await codeOf(parsePdf(bytes, { pageRange: "1,9" }))).toBe(40424);
    const part = await parsePdf(bytes, { pageRange: "2,4" });
    expect(part.pageCount).toBe(4);
    expect(part.pages.map((p) => p.number)).toEqual([2, 4]);
    expect(part.elements.map((e) => [e.page, e.text])).toEqual([
      [2, "Text of page 2"],
      [4, "Text of page 4"],
    ]);
  });

  it("bounds the page count and the time", async () => {
    const bytes = await buildPdf([1, 2, 3].map(() => ({ texts: [{ text: "x", x: 72, y: 72 }] })));
    expect(await codeOf(parsePdf(bytes, { limits: { maxPages: 2 } }))).toBe("DOCPARSE_LIMIT_EXCEEDED");
    const slow = await buildPdf(Array.from({ length: 30 }, (_, i) => ({ texts: column([prose(i, 200)], 72, 72).texts })));
    expect(await codeOf(parsePdf(slow, { limits: { timeoutMs: 1 } }))).toBe("DOCPARSE_TIMEOUT");
    const aborted = new AbortController();
    aborted.abort();
    expect(await codeOf(parsePdf(bytes, { signal: aborted.signal }))).toBe("DOCPARSE_ABORTED");
  });

  it("survives deep object nesting: a page dictionary or a content stream 200,000 arrays deep", async () => {
    const nested = "[".repeat(200_000) + "]".repeat(200_000);
    const twoPages = (pageExtra: string, firstContent: string): Uint8Array =>
      rawPdf([
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> /Contents 4 0 R ${pageExtra} >>`,
        { dict: "", data: firstContent },
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> /Contents 6 0 R >>",
        { dict: "", data: "BT /F1 18 Tf 72 700 Td (Second page) Tj ET" },
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      ]);
    const text = "BT /F1 18 Tf 72 700 Td (First page) Tj ET";
    const t0 = Date.now();
    // In the content stream: the operand is dropped, both pages read.
    const inContent = await parsePdf(twoPages("", `${text} ${nested} pop`));
    expect(inContent.elements.map((e) => e.text)).toEqual(["First page", "Second page"]);
    // In the page tree (pdfjs overflows its stack reading it): refused as corrupt, not a crash.
    expect(await codeOf(parsePdf(twoPages(`/Deep ${nested}`, text)))).toBe(40422);
    expect(Date.now() - t0).toBeLessThan(10_000);
    // The parser threads are still there for the next document.
    const after = await parsePdf(await buildPdf([{ texts: [{ text: "After the nesting", x: 72, y: 72 }] }]));
    expect(after.elements.map((e) => e.text)).toEqual(["After the nesting"]);
  }, 30_000);

  it("stops a parser thread stuck on a hostile page, so the next document does not wait for it", async () => {
    // ~20 s of pdfjs work on one page (a 60 MB content stream in a ~120 KB file).
    const bomb = await operatorBombPdf(60);
    const t0 = Date.now();
    expect(await codeOf(parsePdf(bomb, { limits: { timeoutMs: 300, pdfThreads: 1 } }))).toBe("DOCPARSE_TIMEOUT");
    expect(Date.now() - t0).toBeLessThan(5_000);
    const next = await buildPdf([{ texts: [{ text: "Right after", x: 72, y: 72 }] }]);
    const t1 = Date.now();
    const doc = await parsePdf(next, { limits: { pdfThreads: 1 } });
    expect(doc.elements.map((e) => e.text)).toEqual(["Right after"]);
    // A fresh thread answers; waiting for the hostile page instead would take ~20 s.
    expect(Date.now() - t1).toBeLessThan(10_000);
    // The stuck thread itself is stopped after a 1 s grace: no thread is left working.
    const deadline = Date.now() + 5_000;
    while (parserThreadStats().busy > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(parserThreadStats().busy).toBe(0);
  }, 30_000);

  it("does not detach the caller's bytes", async () => {
    const bytes = await buildPdf([{ texts: [{ text: "Twice", x: 72, y: 72 }] }]);
    await parsePdf(bytes);
    const again = await parsePdf(bytes);
    expect(again.elements[0]!.text).toBe("Twice");
  });
});

describe.skipIf(missing("soffice", "pdftotext"))("pdf: documents made by LibreOffice", () => {
  let plain: Uint8Array;
  let locked: Uint8Array;
  let handbook: Uint8Array;
  beforeAll(async () => {
    const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>Row ${i + 1}</td><td>${i * 3}</td><td>note ${i}</td></tr>`).join("");
    handbook = await sofficePdf(`<html><head><meta charset="utf-8"></head><body>
<h1>Engineering Handbook</h1><p>${prose(1, 120)}.</p>
<h2>1. Getting started</h2>
<ul><li>Install the tools</li><li>Clone the repository<ul><li>use ssh</li></ul></li><li>Run the tests</li></ul>
<pre>npm install
npm test</pre>
<h2>2. Data</h2><p>${prose(2, 200)}.</p>
<table border="1" cellspacing="0"><tr><th>Name</th><th>Value</th><th>Comment</th></tr>${rows}</table>
<p>Table 1: Values by row</p>
<h3>2.1 Details</h3><p>${prose(3, 300)}.</p></body></html>`);
    const html = `<html><head><meta charset="utf-8"></head><body>
<h1>年度报告 Annual Report</h1>
<p>本报告介绍了公司全年的经营情况和财务数据，供股东参考。</p>
<h2>第一章 经营概况</h2>
<p>公司今年的收入增长明显，主要来自新产品的销售。</p>
<h2>Second Chapter</h2>
<p>Revenue grew in every region during the year, led by the new product line.</p>
<table border="1" cellspacing="0" cellpadding="4"><tr><th>地区</th><th>收入</th></tr><tr><td>华东</td><td>120</td></tr><tr><td>华南</td><td>95</td></tr></table>
</body></html>`;
    plain = await sofficePdf(html);
    locked = await sofficePdf(html, { password: "s3cret" });
  }, 120_000);

  it("extracts Chinese text without inserted spaces and finds headings from the outline", async () => {
    const doc = await parsePdf(plain);
    const texts = doc.elements.map((e) => e.text);
    expect(texts).toContain("本报告介绍了公司全年的经营情况和财务数据，供股东参考。");
    expect(ofType(doc, "Title").map((e) => [e.text, e.headingLevel])).toEqual([
      ["年度报告 Annual Report", 1],
      ["第一章 经营概况", 2],
      ["Second Chapter", 2],
    ]);
    const [table] = ofType(doc, "Table");
    expect(table!.table!.cells.map((c) => c.text)).toEqual(["地区", "收入", "华东", "120", "华南", "95"]);
  });

  it("reads a multi-page handbook: hierarchy, lists, code, a table over a page break, continuations", async () => {
    const doc = await parsePdf(handbook);
    expect(doc.pageCount).toBeGreaterThanOrEqual(2);
    expect(ofType(doc, "Title").map((e) => [e.text, e.headingLevel])).toEqual([
      ["Engineering Handbook", 1],
      ["1. Getting started", 2],
      ["2. Data", 2],
      ["2.1 Details", 3],
    ]);
    expect(ofType(doc, "ListItem").map((e) => [e.text, e.listLevel])).toEqual([
      ["\u2022 Install the tools", 0],
      ["\u2022 Clone the repository", 0],
      ["\u2022 use ssh", 1],
      ["\u2022 Run the tests", 0],
    ]);
    expect(ofType(doc, "CodeSnippet").map((e) => e.text)).toEqual(["npm install\nnpm test"]);
    const tables = ofType(doc, "Table");
    expect(tables.length).toBe(2);
    expect(tables[1]!.continuationOf).toBe(doc.elements.indexOf(tables[0]!));
    const rowsSeen = tables.flatMap((t) => t.table!.cells.filter((c) => c.col === 1).map((c) => c.text));
    expect(rowsSeen).toEqual(["Name", ...Array.from({ length: 40 }, (_, i) => `Row ${i + 1}`)]);
    const caption = ofType(doc, "TableCaption")[0]!;
    expect(doc.elements[caption.refIndex!]!.type).toBe("Table");
    // The last paragraph runs over a page break.
    const last = doc.elements.at(-1)!;
    expect(last.type).toBe("NarrativeText");
    expect(doc.elements[last.continuationOf!]!.page).toBe(last.page - 1);
  });

  it("covers every poppler word", async () => {
    const doc = await parsePdf(plain);
    const oracle = await popplerWords(plain);
    for (const w of oracle.words) {
      const size = oracle.pages[w.page - 1]!;
      const box = { x0: w.x0 / size.width, y0: w.y0 / size.height, x1: w.x1 / size.width, y1: w.y1 / size.height };
      const hit = doc.elements.some((e) => e.page === w.page && e.box && boxContains(e.box, box, 0.01) && e.text.replace(/\s/g, "").includes(w.text));
      expect(hit, `word ${w.text}`).toBe(true);
    }
  });

  it("answers 40423 without or with a wrong password, and parses with the right one", async () => {
    expect(await codeOf(parsePdf(locked))).toBe(40423);
    expect(await codeOf(parsePdf(locked, { password: "wrong" }))).toBe(40423);
    const doc = await parsePdf(locked, { password: "s3cret" });
    expect(doc.elements.some((e) => e.text === "Second Chapter")).toBe(true);
    expect(await codeOf(pdfFormat.renderPage!(locked, 1, { dpi: 72 }))).toBe(40423);
  });
});

describe("pdf: renderPage", () => {
  it("renders a page to PNG at the asked dpi, rotation applied", async () => {
    const bytes = await buildPdf([{ texts: [{ text: "Render me", x: 72, y: 72, size: 20 }] }, { rotation: 90, texts: [{ text: "Sideways", x: 72, y: 72 }] }]);
    const png = await pdfFormat.renderPage!(bytes, 1, { dpi: 72 });
    const view = new DataView(png.buffer, png.byteOffset);
    expect(view.getUint32(0)).toBe(0x89504e47);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([612, 792]);
    const rotated = await pdfFormat.renderPage!(bytes, 2, { dpi: 36 });
    const rv = new DataView(rotated.buffer, rotated.byteOffset);
    expect([rv.getUint32(16), rv.getUint32(20)]).toEqual([396, 306]);
    expect(await codeOf(pdfFormat.renderPage!(bytes, 3, { dpi: 72 }))).toBe(40424);
    // Pages of one file rendered at once share the open document.
    const both = await Promise.all([pdfFormat.renderPage!(bytes, 1, { dpi: 36 }), pdfFormat.renderPage!(bytes, 2, { dpi: 36 })]);
    expect(both.map((p) => new DataView(p.buffer, p.byteOffset).getUint32(16))).toEqual([306, 396]);
  });
});

describe("pdf: through LocalParser", () => {
  it("assembles the full element tree: ids, hierarchy, title tree, pages", async () => {
    const { LocalParser } = await import("../../src/engine/local-parser.js");
    const { MemoryAssetStore } = await import("../../src/engine/assets.js");
    const { expectConsistentResult } = await import("./check-result.js");
    const bytes = await buildPdf([
      {
        texts: [
          { text: "Field Guide", x: 72, y: 60, size: 24, font: "bold" },
          { text: "Birds", x: 72, y: 110, size: 16, font: "bold" },
          ...column([prose(1, 50)], 72, 140).texts,
          { text: "Trees", x: 72, y: 240, size: 16, font: "bold" },
          ...column([prose(2, 50)], 72, 270).texts,
        ],
      },
    ]);
    const parser = new LocalParser({ assets: new MemoryAssetStore() });
    const result = await parser.parse(bytes, { filename: "guide.pdf", config: { capabilities: { pages: true, title_tree: true } } });
    expectConsistentResult(result);
    expect(result.metadata?.filetype).toBe("application/pdf");
    expect(result.elements.map((e) => e.type)).toEqual(["Title", "Title", "NarrativeText", "Title", "NarrativeText"]);
    const [top, birds, p1] = result.elements;
    expect(birds!.metadata?.parent_id).toBe(top!.element_id);
    expect(p1!.metadata?.parent_id).toBe(birds!.element_id);
    expect(result.title_tree?.[0]?.children?.map((c) => c.title)).toEqual(["Birds", "Trees"]);
    expect(result.pages?.[0]).toMatchObject({ page_number: 1, page_width: 1224, page_height: 1584, dpi: 144, status: "Success" });
    const image = await parser.pageImage(result.file_id, 1);
    expect(image?.mimeType).toBe("image/png");
  });

  it("inlines element images as base64 PNG when asked", async () => {
    const { LocalParser } = await import("../../src/engine/local-parser.js");
    const { MemoryAssetStore } = await import("../../src/engine/assets.js");
    const bytes = await buildPdf([{ texts: [{ text: "A figure", x: 72, y: 60 }], images: [{ x: 72, y: 100, width: 200, height: 150, pixels: { width: 40, height: 30 } }] }]);
    const parser = new LocalParser({ assets: new MemoryAssetStore() });
    const result = await parser.parse(bytes, {
      filename: "fig.pdf",
      config: { capabilities: { include_image_data: true }, config: { engine_params: { image_output_type: "base64" } } },
    });
    const image = result.elements.find((e) => e.type === "Image")!;
    expect(image.image_data?.mime_type).toBe("image/png");
    const png = Buffer.from((image.image_data as { base64?: string }).base64!, "base64");
    expect(png.readUInt32BE(16)).toBe(40);
    expect(png.readUInt32BE(20)).toBe(30);
  });
});

describe("pdf: hostile content", () => {
  it("does not decode an image larger than maxImagePixels and still reads the page", async () => {
    const { PDFDocument, PDFName, StandardFonts, pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } = await import("pdf-lib");
    const { deflateSync } = await import("node:zlib");
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawText("Text beside a giant image", { x: 72, y: 700, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    // 30000 × 30000 RGB declared (2.7 GB decoded), a few bytes of data.
    const stream = doc.context.flateStream(deflateSync(Buffer.alloc(64)), {
      Type: "XObject",
      Subtype: "Image",
      Width: 30000,
      Height: 30000,
      BitsPerComponent: 8,
      ColorSpace: "DeviceRGB",
    });
    page.node.setXObject(PDFName.of("Giant"), doc.context.register(stream));
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(300, 0, 0, 300, 72, 200), drawObject("Giant"), popGraphicsState());
    const bytes = await doc.save({ useObjectStreams: false });
    const started = Date.now();
    const parsed = await parsePdf(bytes, { capabilities: { include_image_data: true }, limits: { maxImagePixels: 10_000_000 } });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(parsed.elements.map((e) => e.text)).toContain("Text beside a giant image");
    for (const img of ofType(parsed, "Image")) expect(img.image?.bytes).toBeUndefined();
  });
});

// A real pdfTeX document (hyperref outline, Type 1 fonts) from Debian's shared-mime-info
// package; machines without it skip, since the file is not ours to ship.
const TEX_PDF = "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf";

describe.skipIf(!existsSync(TEX_PDF) || missing("pdftotext"))("pdf: a real LaTeX document", () => {
  it("finds outline headings, running headers, page numbers and lists, and covers poppler's words", async () => {
    const bytes = new Uint8Array(readFileSync(TEX_PDF));
    const doc = await parsePdf(bytes, { pageRange: "1-6" });
    const titles = ofType(doc, "Title").map((e) => [e.text, e.headingLevel]);
    expect(titles).toContainEqual(["1. Introduction", 1]);
    expect(titles).toContainEqual(["1.1. Version", 2]);
    expect(titles).toContainEqual(["2. Unified system", 1]);
    for (let n = 2; n <= 6; n++) {
      const on = doc.elements.filter((e) => e.page === n);
      expect(on.find((e) => e.type === "Header")?.text).toBe("Shared MIME-info Database");
      expect(on.find((e) => e.type === "PageNumber")?.text).toBe(String(n));
    }
    expect(ofType(doc, "ListItem").length).toBeGreaterThan(10);
    // Bullets drawn in a TeX math font are not inline formulas.
    expect(doc.elements.some((e) => e.objects?.some((o) => o.text === "\u2022"))).toBe(false);
    const oracle = await popplerWords(bytes);
    const missed = oracle.words
      .filter((w) => w.page <= 6)
      .filter((w) => {
        const size = oracle.pages[w.page - 1]!;
        const box = { x0: w.x0 / size.width, y0: w.y0 / size.height, x1: w.x1 / size.width, y1: w.y1 / size.height };
        return !doc.elements.some((e) => e.page === w.page && e.box && boxContains(e.box, box, 0.01) && e.text.includes(w.text));
      });
    expect(missed.map((w) => w.text)).toEqual([]);
  });
});

// TWO_COLUMN_PAPER: a two-column paper as arXiv has thousands of: LaTeX's 1 em column
// gutter, a display formula in pieces beside body lines, a ruled table whose body rows
// have no rules, a booktabs-style table, page numbers a sixth of the page up from the bottom.
describe.skipIf(missing("pdflatex", "pdftotext"))("pdf: a two-column LaTeX paper", () => {
  it("reads each column whole and in order, the formula as one element, both tables row by row, captions apart from prose", async () => {
    const bytes = await latexPdf(TWO_COLUMN_PAPER);
    const doc = await parsePdf(bytes);
    const texts = doc.elements.map((e) => e.text.replace(/\s+/g, " "));
    const at = (start: string): number => texts.findIndex((t) => t.startsWith(start));
    // Body lines beside the formula and the 1 em gutter stay apart: whole sentences.
    expect(texts).toContain(
      "We study how layout-aware parsing changes retrieval quality. Documents are split into elements with coordinates, and chunks keep the pages and boxes of their sources so that every answer can be traced back to the page.",
    );
    expect(texts.some((t) => t.startsWith("Chunks are built along the title tree. A chunk never crosses a section boundary"))).toBe(true);
    expect(ofType(doc, "ListItem").map((e) => e.text)).toEqual(["• Section 2 describes the parser and its output format.", "• Section 3 evaluates retrieval with and without hierarchy."]);
    // Reading order: the left column, then the right one.
    const titles = ["1 Introduction", "2 Method", "2.1 Parsing", "2.2 Chunking", "3 Results", "4 Conclusion"];
    expect(ofType(doc, "Title").map((e) => e.text).filter((t) => titles.includes(t))).toEqual(titles);
    expect(at("Most documents people ingest")).toBeLessThan(at("Chunks are built along"));
    // One display formula, not its pieces.
    const formulas = ofType(doc, "Formula");
    expect(formulas).toHaveLength(1);
    expect(formulas[0]!.text).toContain("i=1");
    expect(formulas[0]!.text).toContain("(1)");
    // Its sum sign from TeX's math extension font, not the glyph code's letter `X`.
    expect(formulas[0]!.text).toMatch(/^∑/);
    // The ruled table's body rows and the booktabs table, cell by cell.
    const [ruled, booktabs] = ofType(doc, "Table").map((e) => e.table!);
    expect(ruled!.cells.filter((c) => c.col === 1).map((c) => c.text)).toEqual(["Configuration", "Fixed windows", "Hierarchy-aware", "Hierarchy + tables"]);
    expect(ruled!.cells.filter((c) => c.row === 4).map((c) => c.text)).toEqual(["Hierarchy + tables", "0.79", "0.63"]);
    expect([booktabs!.rows, booktabs!.cols]).toEqual([4, 4]);
    expect(booktabs!.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(["Chunk", "3.1", "5%", "1290"]);
    // A sentence that starts with "Table 1" is prose; the captions are captions, linked.
    expect(doc.elements[at("Table 1 lists recall")]!.type).toBe("NarrativeText");
    const captions = ofType(doc, "TableCaption");
    expect(captions.map((e) => e.text)).toEqual(["Table 1: Retrieval quality on the benchmark.", "Table 2: Time per stage for 4,000 pages."]);
    expect(captions.every((c) => c.refIndex !== undefined && doc.elements[c.refIndex]!.type === "Table")).toBe(true);
    expect(ofType(doc, "PageNumber").map((e) => [e.page, e.text])).toEqual([
      [1, "1"],
      [2, "2"],
    ]);
    // Every word poppler finds lies in an element holding it (words hyphenated at a line
    // end are joined by the engine, accents drawn over a letter have no text of their own,
    // TeX's big operators are read as their symbols, not poppler's letters).
    expect(wordsNotHeld(doc, await popplerWords(bytes), (text) => text.endsWith("-") || /^\u00af+$/.test(text) || TEX_EXTENSION_LETTER.test(text))).toEqual([]);
  }, 120_000);
});

describe.skipIf(missing("pdflatex", "pdftoppm", "pdftotext", "tesseract"))("pdf: a scanned two-column page under Tesseract's invisible text layer", () => {
  it("reads the OCR layer column by column, the tables apart from the prose beside them, lists, word boxes on the scanned words", async () => {
    const born = await latexPdf(TWO_COLUMN_PAPER);
    const doc = await parsePdf(await tesseractPdf(born, 1));
    const texts = doc.elements.map((e) => e.text.replace(/\s+/g, " "));
    const at = (needle: string): number => texts.findIndex((t) => t.includes(needle));
    // Reading order: the left column whole, then the right one.
    expectInReadingOrder(doc, PAPER_READING_ORDER);
    // Both tables, rule-less now (Tesseract draws no rules; it reads a vertical one as
    // "|"), beside the left column's prose and its display formula, whose lines fall on
    // and between the tables' baselines.
    const [ruled, booktabs, ...more] = ofType(doc, "Table").map((e) => e.table!);
    expect(more).toEqual([]);
    expect([ruled!.rows, ruled!.cols]).toEqual([4, 3]);
    expect(ruled!.cells.filter((c) => c.col === 1).map((c) => c.text)).toEqual(["Configuration", "Fixed windows", "Hierarchy-aware", "Hierarchy + tables"]);
    expect(ruled!.cells.filter((c) => c.row === 1).map((c) => c.text)).toEqual(["Configuration", "Recall@5", "MRR"]);
    expect([booktabs!.rows, booktabs!.cols]).toEqual([4, 4]);
    expect(booktabs!.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(["Chunk", "3.1", "5%", "1290"]);
    expect(doc.elements[at("Each page is read as a stream")]!.type).toBe("NarrativeText");
    // Tesseract reads the bullets as "e": the items' hanging lines show them for bullets.
    expect(ofType(doc, "ListItem").map((e) => e.text)).toEqual(["• Section 2 describes the parser and its output format.", "• Section 3 evaluates retrieval with and without hierarchy."]);
    // Boxes: each paragraph's box spans the words the born-digital page has there, to a
    // point or two: a glyphless OCR word's box runs to the end of its trailing space.
    const oracle = await popplerWords(born);
    const size = oracle.pages[0]!;
    let checked = 0;
    for (const e of doc.elements.filter((x) => x.type === "NarrativeText" && x.box && x.text.length > 150)) {
      const box = e.box!;
      const inside = oracle.words.filter((w) => w.page === 1 && boxContains(box, { x0: (w.x0 + w.x1) / 2 / size.width, x1: (w.x0 + w.x1) / 2 / size.width, y0: (w.y0 + w.y1) / 2 / size.height, y1: (w.y0 + w.y1) / 2 / size.height }, 0));
      const x0 = Math.min(...inside.map((w) => w.x0)) / size.width;
      const x1 = Math.max(...inside.map((w) => w.x1)) / size.width;
      expect([e.text.slice(0, 30), Math.abs(box.x0 - x0) < 0.003, Math.abs(box.x1 - x1) < 0.003]).toEqual([e.text.slice(0, 30), true, true]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  }, 120_000);
});

describe.skipIf(missing("pdflatex"))("pdf: a two-column page OCR'd by the engine (parse_mode scan)", () => {
  it("segments the page before reading lines: columns in order, both tables, the bullets", async () => {
    const doc = await parsePdf(await latexPdf(TWO_COLUMN_PAPER), { parseMode: "scan", pageRange: "1" });
    // Tesseract's library default (one block of text) ran every line across both columns.
    expectInReadingOrder(doc, PAPER_READING_ORDER);
    const [first, second, ...more] = ofType(doc, "Table").map((e) => e.table!);
    expect(more).toEqual([]);
    expect(first!.cells.filter((c) => c.col === 1).map((c) => c.text)).toEqual(["Configuration", "Fixed windows", "Hierarchy-aware", "Hierarchy + tables"]);
    expect([second!.rows, second!.cols]).toEqual([4, 4]);
    expect(ofType(doc, "ListItem").map((e) => e.text)).toEqual(["• Section 2 describes the parser and its output format.", "• Section 3 evaluates retrieval with and without hierarchy."]);
  }, 120_000);
});

describe.skipIf(missing("groff", "ps2pdf", "pdftotext"))("pdf: a manual page distilled by Ghostscript", () => {
  it("reads every word poppler reads as a word of its own (spaces Ghostscript spells as character spacing)", async () => {
    const body = Array.from({ length: 12 }, (_, i) => `.TP\n.B \\-\\-option${i}\n${randomProse(i + 3, 40)}. A new archive is written as a login shell would.`).join("\n");
    const bytes = await ghostscriptManPdf(`.TH TOOL 1 "July 2026" "Tool 1.0" "Tool Manual"\n.SH NAME\ntool \\- does things\n.SH OPTIONS\n${body}\n`);
    const doc = await parsePdf(bytes);
    const oracle = await popplerWords(bytes);
    const tokens = new Set(doc.elements.flatMap((e) => e.text.split(/\s+/).map((t) => `${e.page}|${t}`)));
    // Words hyphenated at a line end are joined by the engine; their halves are no tokens.
    const missed = oracle.words.filter((w) => !w.text.endsWith("-") && !tokens.has(`${w.page}|${w.text}`) && !oracle.words.some((v) => v.page === w.page && v.text.endsWith("-") && v.y0 < w.y0 && tokens.has(`${w.page}|${v.text.slice(0, -1)}${w.text}`)));
    expect(oracle.words.length).toBeGreaterThan(500);
    expect(missed.map((w) => w.text)).toEqual([]);
    expect(doc.elements.some((e) => e.text.includes("A new archive is written as a login shell would."))).toBe(true);
  }, 120_000);
});

describe.skipIf(missing("chromium"))("pdf: a three-column newsletter printed by Chromium", () => {
  it("reads every paragraph whole, column by column, and takes the columns for no table", async () => {
    const paragraphs = Array.from({ length: 9 }, (_, i) => `N${i} ${randomProse(i + 11, 45)}.`);
    const ps = paragraphs.map((p) => `<p>${p}</p>`).join("");
    // CSS columns are 1 em apart by default; justified text leaves wide word spaces.
    const bytes = await chromiumPdf(`<html><head><meta charset="utf-8"><style>
@page { size: A4; margin: 15mm; } body { font-family: 'DejaVu Serif', serif; font-size: 9pt; }
.cols { column-count: 3; text-align: justify; } h3 { font-size: 12pt; margin: 4px 0; }
</style></head><body><h1>The Newsletter</h1><div class="cols"><h3>Local news</h3>${ps}<h3>Sports</h3>${ps}</div></body></html>`);
    const doc = await parsePdf(bytes);
    expect(ofType(doc, "Table")).toEqual([]);
    const prose = doc.elements.filter((e) => e.type === "NarrativeText").map((e) => e.text.replace(/\s+/g, " "));
    // Paragraphs cut by a column or page break come in two pieces: join linked pieces.
    const whole: string[] = [];
    for (const e of doc.elements.filter((e) => e.type === "NarrativeText")) {
      const text = e.text.replace(/\s+/g, " ");
      if (e.continuationOf !== undefined && whole.length) whole[whole.length - 1] += ` ${text}`;
      else whole.push(text);
    }
    expect(prose.length).toBeGreaterThanOrEqual(18);
    expect(whole).toEqual([...paragraphs, ...paragraphs]);
  }, 120_000);
});

describe.skipIf(missing("chromium", "pdftotext"))("pdf: a page printed by Chromium", () => {
  it("reads CSS columns in order, mixed-script headings, CJK without compatibility glyphs, and a table", async () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => `P${i} ${randomProse(i + 1, 60)}.`);
    const bytes = await chromiumPdf(`<html><head><meta charset="utf-8"><style>
@page { size: A4; margin: 20mm; }
body { font-family: 'DejaVu Serif', serif; font-size: 10pt; }
.cols { column-count: 2; column-gap: 10mm; text-align: justify; }
h1 { font-size: 20pt; } h2 { font-size: 14pt; }
table { border-collapse: collapse; } td, th { border: 1px solid #000; padding: 3px 6px; }
</style></head><body>
<h1>Chromium Two Column Report</h1>
<h2>Findings</h2>
<div class="cols">${paragraphs.map((p) => `<p>${p}</p>`).join("")}</div>
<h2>结果 Results</h2>
<p>中文段落用于测试阅读顺序和字符框。这里还有更多的文字内容。</p>
<table><tr><th>Metric</th><th>Value</th><th>Unit</th></tr><tr><td>Speed</td><td>42</td><td>pages/s</td></tr></table>
</body></html>`);
    const doc = await parsePdf(bytes);
    expect(ofType(doc, "Title").map((e) => [e.text, e.headingLevel])).toEqual([
      ["Chromium Two Column Report", 1],
      ["Findings", 2],
      ["结果 Results", 2],
    ]);
    const prosePs = ofType(doc, "NarrativeText").filter((e) => /^P\d/.test(e.text));
    expect(prosePs.map((e) => e.text.replace(/\s+/g, " "))).toEqual(paragraphs);
    expect(doc.elements.map((e) => e.text)).toContain("中文段落用于测试阅读顺序和字符框。这里还有更多的文字内容。");
    expect(ofType(doc, "Table")[0]?.table?.cells.map((c) => c.text)).toEqual(["Metric", "Value", "Unit", "Speed", "42", "pages/s"]);
    // Poppler sizes Type 3 glyphs (Chromium's CJK) by the font's generous bbox.
    expect(wordsNotHeld(doc, await popplerWords(bytes))).toEqual([]);
  }, 120_000);
});
