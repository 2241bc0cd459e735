import { describe, expect, it } from "vitest";
import { chromiumPdf, rawPdf, sofficePdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { MAX_ACTUAL_TEXT, MAX_GLYPH_TEXT } from "../../src/engine/formats/pdf-ops.js";
import { parsePdf } from "./pdf-helpers.js";

// Scripts whose glyphs are not their characters one for one: Devanagari conjuncts and
// vowel signs drawn before their consonant, Thai SARA AM drawn as two glyphs, CJK
// characters whose glyphs the font also uses for radicals (长 车 民 as ⻓ ⻋ ⺠). Chromium
// and LibreOffice give each such cluster's text as a span's ActualText.
const HINDI = "वार्षिक प्रतिवेदन: प्राथमिक स्वास्थ्य केंद्रों में दवाइयों की उपलब्धता में सुधार हुआ।";
const THAI = "รายงานประจำปี สำนักงานสิ่งแวดล้อม ผลการดำเนินงานที่สำคัญ";
const CHINESE = "比上年增长，公交车辆，市民满意，长期规划。";
const TAMIL = "ஆண்டு அறிக்கை: மேற்பட்ட புதிய பள்ளிகள் திறக்கப்பட்டன.";

function html(paragraphs: [string, string, string][]): string {
  const p = ([lang, font, text]: [string, string, string]) => `<p lang="${lang}" style="font-family:'${font}'">${text}</p>`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{font-size:12pt}</style></head><body>
${paragraphs.map(p).join("\n")}
</body></html>`;
}

const PAGE = html([
  ["hi", "Noto Sans Devanagari", HINDI],
  ["th", "Noto Sans Thai", THAI],
  ["zh-CN", "Noto Sans CJK SC", CHINESE],
  ["ta", "Noto Sans Tamil", TAMIL],
]);

describe.skipIf(missing("chromium"))("pdf: ActualText spans printed by Chromium (Indic, Thai, CJK)", () => {
  it("reads every paragraph as written, char_details spelling it", async () => {
    const doc = await parsePdf(await chromiumPdf(PAGE), { capabilities: { include_char_details: true } });
    expect(doc.elements.map((e) => e.text.normalize("NFC"))).toEqual([HINDI, THAI, CHINESE, TAMIL]);
    for (const e of doc.elements) expect((e.chars ?? []).map((c) => c.text).join("")).toBe(e.text);
  }, 60_000);
});

describe.skipIf(missing("soffice"))("pdf: ActualText spans exported by LibreOffice (Indic, Thai, CJK)", () => {
  it("reads every paragraph as written", async () => {
    const doc = await parsePdf(await sofficePdf(PAGE, { name: "actualtext" }));
    expect(doc.elements.map((e) => e.text.normalize("NFC"))).toEqual([HINDI, THAI, CHINESE, TAMIL]);
  }, 120_000);
});

// Helvetica 10 pt; the content stream and the page's /Properties are the test's.
const helveticaPage = (content: string, properties = ""): Uint8Array =>
  rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> ${properties} >> /Contents 4 0 R >>`,
    { dict: "", data: content },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ]);

describe("pdf: ActualText as other writers give it", () => {
  it("decodes UTF-16 and PDFDocEncoding, looks up properties given by name, and hides glyphs under an empty one", async () => {
    const bytes = helveticaPage(
      [
        // Word and LaTeX's accsupp: a span around a glyph or a whole word.
        "BT /F1 10 Tf 72 700 Td (a ) Tj /Span <</ActualText <FEFF00660069>>> BDC (X) Tj EMC (ne day) Tj ET",
        "BT /F1 10 Tf 72 680 Td /Span <</ActualText (caf\\351)>> BDC (cafe) Tj EMC ( au lait) Tj ET",
        "BT /F1 10 Tf 72 660 Td /Span /P0 BDC (##) Tj EMC ( by name) Tj ET",
        // Line numbers of a code listing, hidden from copy and paste.
        "BT /F1 10 Tf 72 640 Td /Span <</ActualText ()>> BDC (12) Tj EMC ( return x) Tj ET",
      ].join("\n"),
      "/Properties << /P0 << /ActualText (Named) >> >>",
    );
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => e.text)).toEqual(["a fine day", "café au lait", "Named by name", "return x"]);
  });
});

describe("pdf: an ActualText megabytes long", () => {
  it("reads a 40,000-character ActualText with char details in linear time (counting its characters per step was quadratic: 50 s)", async () => {
    const actual = "Ab".repeat(20_000);
    const bytes = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      { dict: "", data: `/Span << /ActualText (${actual}) >> BDC BT /F1 12 Tf 72 300 Td (short) Tj ET EMC` },
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
    ]);
    const doc = await parsePdf(bytes, { capabilities: { include_char_details: true }, limits: { timeoutMs: 15_000 } });
    const el = doc.elements.find((e) => e.text.startsWith("AbAb"));
    expect(el?.text).toBe(actual);
    expect(el?.chars).toHaveLength(actual.length);
  }, 30_000);

  it("does not read an ActualText longer than MAX_ACTUAL_TEXT: its glyphs read as themselves, at once", async () => {
    const bytes = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      { dict: "", data: `/Span << /ActualText (${"A".repeat(MAX_ACTUAL_TEXT + 1)}) >> BDC BT /F1 12 Tf 72 300 Td (short) Tj ET EMC` },
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
    ]);
    const doc = await parsePdf(bytes, { capabilities: { include_char_details: true } });
    expect(doc.elements.map((e) => e.text)).toEqual(["short"]);
    expect(doc.elements[0]!.chars).toHaveLength(5);
  }, 30_000);

  it("cuts a glyph's ToUnicode text at MAX_GLYPH_TEXT characters", async () => {
    // One glyph (s) mapped to 5,000 characters: a ligature is a few.
    const long = Buffer.from("x".repeat(5_000), "utf16le").swap16().toString("hex").toUpperCase();
    const cmap = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Long def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <73> <${long}> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end`;
    const bytes = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
      { dict: "", data: "BT /F1 12 Tf 72 300 Td (s) Tj ET" },
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
      { dict: "", data: cmap },
    ]);
    const doc = await parsePdf(bytes, { capabilities: { include_char_details: true } });
    expect(doc.elements.map((e) => e.text)).toEqual(["x".repeat(MAX_GLYPH_TEXT)]);
  }, 30_000);
});
