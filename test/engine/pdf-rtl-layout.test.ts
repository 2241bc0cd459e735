import { beforeAll, describe, expect, it } from "vitest";
import type { Element, ParseResult } from "../../src/wire/index.js";
import { chromiumPdf, popplerWords, sofficePdf, type PopplerWord } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";

// Right-to-left layout end to end: paragraph and list-item boundaries, table columns and
// page columns, on PDFs LibreOffice and Chromium make from HTML with dir="rtl".

const P1 = "זוהי הפסקה הראשונה של המסמך. היא ארוכה מספיק כדי להתפרס על פני כמה שורות בעמוד, וכך אפשר לבדוק שהשורות שלה נשארות יחד בפסקה אחת ולא מתפצלות.";
const P2 = "זוהי הפסקה השנייה, והיא מתחילה בהזחה של השורה הראשונה. גם היא ארוכה מספיק כדי להתפרס על פני כמה שורות, כך שהשורה האחרונה שלה קצרה יותר.";
const P3 = "פסקה שלישית וקצרה.";
const L1 = "הפריט הראשון ברשימה ארוך מאוד ולכן הוא נמשך על פני יותר משורה אחת בעמוד, עם הזחה תלויה מתחת לתבליט.";
const L2 = "פריט שני קצר.";
const L3 = "הפריט השלישי גם הוא ארוך מספיק כדי לגלוש לשורה נוספת, וכך אפשר לבדוק את גבולות הפריטים ברשימה.";
const A1 = "هذه هي الفقرة العربية الأولى في المستند، وهي طويلة بما يكفي لتمتد على عدة أسطر في الصفحة حتى نتحقق من أنها تبقى فقرة واحدة.";
const A2 = "وهذه فقرة عربية ثانية تبدأ بمسافة بادئة في سطرها الأول، وتمتد هي أيضا على أكثر من سطر واحد في الصفحة.";
// A numbered list: LibreOffice draws "1." right against the item's text too.
const N1 = "العنصر الأول في القائمة المرقمة طويل بما يكفي ليمتد على أكثر من سطر واحد في الصفحة عند الطباعة.";
const N2 = "العنصر الثاني قصير.";
// The table as a reader reads it: header first, columns from the right.
const TABLE = [
  ["שם", "עיר", "גיל"],
  ["דוד", "ירושלים", "34"],
  ["שרה", "חיפה", "28"],
];

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();
const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** Paragraphs without space between them, told apart by a first-line indent only (at the right). */
function sofficeHtml(): string {
  const para = (text: string, lang = "he") => `<p dir="rtl" lang="${lang}" style="margin-top:0pt;margin-bottom:0pt;text-indent:24pt">${esc(text)}</p>`;
  const row = (cells: string[], tag: string) => `<tr>${cells.map((c) => `<${tag}>${esc(c)}</${tag}>`).join("")}</tr>`;
  return `<!DOCTYPE html><html dir="rtl" lang="he"><head><meta charset="utf-8"><style>body, p, li, td, th { font-family: 'DejaVu Sans'; font-size: 12pt; } p { margin-top: 0pt; margin-bottom: 0pt; text-align: right; } li { text-align: right; margin: 0; } ul { margin-right: 2em; }</style></head><body dir="rtl">
${para(P1)}${para(P2)}${para(P3)}
<ul>${[L1, L2, L3].map((l) => `<li>${esc(l)}</li>`).join("")}</ul>
${para(A1, "ar")}${para(A2, "ar")}
<ol dir="rtl" lang="ar">${[N1, N2].map((l) => `<li>${esc(l)}</li>`).join("")}</ol>
<table dir="rtl" border="1" cellpadding="4" style="border-collapse: collapse">${row(TABLE[0]!, "th")}${TABLE.slice(1)
    .map((r) => row(r, "td"))
    .join("")}</table>
</body></html>`;
}

async function parse(bytes: Uint8Array, capabilities: Record<string, unknown>): Promise<ParseResult> {
  const { LocalParser } = await import("../../src/engine/local-parser.js");
  const { MemoryAssetStore } = await import("../../src/engine/assets.js");
  return new LocalParser({ assets: new MemoryAssetStore() }).parse(bytes, { filename: "rtl.pdf", config: { capabilities } });
}

/** Centre x of a poppler word in page units. */
const cx = (w: PopplerWord): number => (w.x0 + w.x1) / 2;
/** -bbox-layout spells right-to-left words as drawn (mirrored). */
const popplerWord = (words: readonly PopplerWord[], logical: string): PopplerWord | undefined =>
  words.find((w) => w.text === logical || w.text === [...logical].reverse().join(""));

describe.skipIf(missing("soffice", "pdftotext"))("pdf: right-to-left paragraphs, lists and tables (LibreOffice)", () => {
  let bytes: Uint8Array;
  let result: ParseResult;
  let asMarkdown: ParseResult;
  beforeAll(async () => {
    bytes = await sofficePdf(sofficeHtml(), { name: "rtl-layout" });
    result = await parse(bytes, { include_char_details: true, include_table_structure: true });
    asMarkdown = await parse(bytes, { table_view: "markdown" });
  }, 120_000);

  const flow = (r: ParseResult): Element[] => r.elements.filter((e) => e.type !== "Table");

  it("splits indented paragraphs where they start and keeps each one whole", () => {
    const texts = flow(result).map((e) => [e.type, norm(e.text)]);
    expect(texts.slice(0, 3)).toEqual([
      ["NarrativeText", P1],
      ["NarrativeText", P2],
      ["NarrativeText", P3],
    ]);
    expect(texts.slice(6, 8)).toEqual([
      ["NarrativeText", A1],
      ["NarrativeText", A2],
    ]);
  });

  it("makes each bullet a list item, hanging lines included, with a space after the bullet", () => {
    const items = flow(result).slice(3, 6);
    expect(items.map((e) => [e.type, norm(e.text)])).toEqual([
      ["ListItem", `• ${L1}`],
      ["ListItem", `• ${L2}`],
      ["ListItem", `• ${L3}`],
    ]);
    for (const e of items) expect((e.char_details ?? []).map((c) => c.text).join("")).toBe(e.text);
    // A flat list: every item at the same level (indents measured from the right edge).
    const md = (result.markdown ?? "").split("\n");
    const indents = items.map((e) => md.find((l) => norm(l).includes(norm(e.text)))?.match(/^ */)?.[0].length);
    expect(indents).not.toContain(undefined);
    expect(new Set(indents).size).toBe(1);
  });

  it("reads a numbered right-to-left list as list items, a space after each number", () => {
    const items = flow(result).slice(8);
    expect(items.map((e) => [e.type, norm(e.text)])).toEqual([
      ["ListItem", `1. ${N1}`],
      ["ListItem", `2. ${N2}`],
    ]);
    for (const e of items) expect((e.char_details ?? []).map((c) => c.text).join("")).toBe(e.text);
  });

  it("numbers the table's columns from the right, header first, as poppler places the words", async () => {
    const table = result.elements.find((e) => e.type === "Table")!;
    const cells = table.table_structure!.cells;
    expect(cells.map((c) => [c.row, c.col, c.text])).toEqual(TABLE.flatMap((r, i) => r.map((text, j) => [i + 1, j + 1, text])));
    // Column 1 is the rightmost on the page: poppler's header words, right to left.
    const { words } = await popplerWords(bytes);
    const xs = TABLE[0]!.map((h) => cx(popplerWord(words, h)!));
    expect(xs).toEqual([...xs].sort((a, b) => b - a));
    const header = cells.filter((c) => c.row === 1);
    const left = (c: (typeof cells)[number]) => (c.coordinates as number[])[0]!;
    expect(header.map(left)).toEqual([...header.map(left)].sort((a, b) => b - a));
    expect(table.text).toBe(TABLE.map((r) => r.join(" ")).join("\n"));
  });

  it("writes the table's HTML and markdown in reading order", () => {
    expect(result.markdown).toContain(`<thead><tr>${TABLE[0]!.map((c) => `<th>${c}</th>`).join("")}</tr></thead>`);
    expect(result.markdown).toContain(`<tr>${TABLE[1]!.map((c) => `<td>${c}</td>`).join("")}</tr>`);
    expect(asMarkdown.markdown).toContain(
      TABLE.map((r) => `| ${r.join(" | ")} |`)
        .join("\n")
        .replace("|\n|", `|\n| --- | --- | --- |\n|`),
    );
  });
});

// Two columns of Hebrew: the right one is read first.
const RIGHT = "טור ימין: זהו הטקסט של הטור הימני בעמוד, והוא נקרא ראשון כי העמוד כתוב מימין לשמאל. המשפט הזה ממשיך עוד קצת כדי למלא כמה שורות בטור.";
const LEFT = "טור שמאל: זהו הטקסט של הטור השמאלי בעמוד, והוא נקרא שני. גם כאן יש מספיק מילים כדי למלא כמה שורות בטור השני של העמוד.";
const TITLE = "כותרת המסמך";

describe.skipIf(missing("chromium", "pdftotext"))("pdf: a two-column right-to-left page (Chromium, CSS columns)", () => {
  it("reads the right column before the left one", async () => {
    const html = `<!DOCTYPE html><html dir="rtl" lang="he"><head><meta charset="utf-8"><style>body { font-family: 'DejaVu Sans'; font-size: 12pt; margin: 1in; } .cols { column-count: 2; column-gap: 1in; } p { margin: 0 0 1em 0; } h1 { font-size: 18pt; }</style></head><body>
<h1>${TITLE}</h1>
<div class="cols"><p>${RIGHT}</p><p>${RIGHT}</p><p>${LEFT}</p><p>${LEFT}</p></div>
</body></html>`;
    const bytes = await chromiumPdf(html);
    // The oracle: Chromium put the first paragraphs in the right column.
    const { words } = await popplerWords(bytes);
    const right = popplerWord(words, "ימין:") ?? popplerWord(words, "ימין")!;
    const left = popplerWord(words, "שמאל:") ?? popplerWord(words, "שמאל")!;
    expect(cx(right)).toBeGreaterThan(cx(left));
    const result = await parse(bytes, {});
    expect(result.elements.map((e) => norm(e.text))).toEqual([TITLE, RIGHT, RIGHT, LEFT, LEFT]);
    expect(result.elements[0]!.type).toBe("Title");
  }, 60_000);

  it("links a paragraph cut by the column break to its start in the right column", async () => {
    // One sentence with no full stop, long enough to flow from the right column into the left.
    const words = Array.from({ length: 150 }, (_, i) => ["מילה", "ארוכה", "בתוך", "המשפט", "הזה"][i % 5]).join(" ");
    const html = `<!DOCTYPE html><html dir="rtl" lang="he"><head><meta charset="utf-8"><style>body { font-family: 'DejaVu Sans'; font-size: 12pt; margin: 1in; } .cols { column-count: 2; column-gap: 1in; column-fill: auto; height: 3in; } p { margin: 0; } h1 { font-size: 18pt; }</style></head><body>
<h1>${TITLE}</h1>
<div class="cols"><p>${words}</p></div>
</body></html>`;
    const bytes = await chromiumPdf(html);
    const result = await parse(bytes, {});
    const parts = result.elements.filter((e) => e.type === "NarrativeText");
    expect(parts).toHaveLength(2);
    // The oracle for which part is where: the first part sits in the right column.
    const box = (e: Element): number => (e.coordinates![0]! + e.coordinates![2]!) / 2;
    expect(box(parts[0]!)).toBeGreaterThan(box(parts[1]!));
    expect(norm(`${parts[0]!.text} ${parts[1]!.text}`)).toBe(words);
    expect(parts[1]!.metadata?.is_continuation).toBe(true);
    expect(parts[1]!.metadata?.continuation_of).toBe(parts[0]!.element_id);
  }, 60_000);

  it("numbers a bordered Arabic table from the right, a spanned cell and its Arabic-Indic number whole", async () => {
    // Header words without a lam-alef ligature, which poppler (the oracle) reads backwards.
    const rows = [
      ["الموظف", "المدينة", "العمر"],
      ["أحمد", "القاهرة", "41"],
    ];
    const html = `<!DOCTYPE html><html dir="rtl" lang="ar"><head><meta charset="utf-8"><style>body { font-family: 'DejaVu Sans'; font-size: 12pt; } td, th { border: 1px solid black; padding: 4px; } table { border-collapse: collapse; }</style></head><body>
<table>${rows.map((r, i) => `<tr>${r.map((c) => (i === 0 ? `<th>${c}</th>` : `<td>${c}</td>`)).join("")}</tr>`).join("")}<tr><td>ليلى</td><td colspan="2">بيروت ٣٠</td></tr></table>
</body></html>`;
    const bytes = await chromiumPdf(html);
    const { words } = await popplerWords(bytes);
    const xs = rows[0]!.map((h) => cx(popplerWord(words, h)!));
    expect(xs).toEqual([...xs].sort((a, b) => b - a));
    const result = await parse(bytes, { include_table_structure: true });
    const table = result.elements.find((e) => e.type === "Table")!;
    expect(table.table_structure!.cells.map((c) => [c.row, c.col, c.col_span, c.text])).toEqual([
      ...rows.flatMap((r, i) => r.map((text, j) => [i + 1, j + 1, 1, text])),
      [3, 1, 1, "ليلى"],
      [3, 2, 2, "بيروت ٣٠"],
    ]);
  }, 60_000);
});

describe.skipIf(missing("chromium"))("pdf: lists nesting a list of the other direction (Chromium)", () => {
  // An English list inside a Hebrew item sits at the left of the page, the Hebrew items at
  // the right, never side by side: read in document order, not as two columns.
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { font-family: 'DejaVu Sans'; font-size: 12pt; }</style></head><body>
<ul dir="rtl" lang="he">
<li>פריט ראשון ברשימה</li>
<li>פריט שני עם רשימה באנגלית<ul dir="ltr" lang="en"><li>English nested one</li><li>English nested two</li></ul></li>
<li>פריט שלישי</li>
</ul>
<ul dir="ltr"><li>Left item one<ul dir="rtl" lang="he"><li>פריט עברי מקונן</li><li>עוד פריט עברי</li></ul></li><li>Left item two</li></ul>
</body></html>`;

  it("reads each nested list right after the item that holds it, one level under it", async () => {
    const result = await parse(await chromiumPdf(html), {});
    // Levels show as Markdown indentation.
    expect((result.markdown ?? "").split("\n").filter((l) => l.trim())).toEqual([
      "• פריט ראשון ברשימה",
      "• פריט שני עם רשימה באנגלית",
      "  ◦ English nested one",
      "  ◦ English nested two",
      "• פריט שלישי",
      "• Left item one",
      "  ◦ פריט עברי מקונן",
      "  ◦ עוד פריט עברי",
      "• Left item two",
    ]);
    expect(result.elements.map((e) => [e.type, norm(e.text)])).toEqual([
      ["ListItem", "• פריט ראשון ברשימה"],
      ["ListItem", "• פריט שני עם רשימה באנגלית"],
      ["ListItem", "◦ English nested one"],
      ["ListItem", "◦ English nested two"],
      ["ListItem", "• פריט שלישי"],
      ["ListItem", "• Left item one"],
      ["ListItem", "◦ פריט עברי מקונן"],
      ["ListItem", "◦ עוד פריט עברי"],
      ["ListItem", "• Left item two"],
    ]);
  }, 60_000);
});
