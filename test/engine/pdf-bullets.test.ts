import { beforeAll, describe, expect, it } from "vitest";
import { fontInfo, MAX_MARKERS, walkOperators, type Matrix } from "../../src/engine/formats/pdf-ops.js";
import type { Element, ParseResult } from "../../src/wire/index.js";
import { chromiumPdf, popplerWords, type PopplerWord } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";

// List bullets drawn as shapes, not glyphs (Chromium's "Save as PDF" and other Skia
// producers): the walker finds them, the layout makes them list markers.

// pdfjs OPS codes used below.
const OPS = { constructPath: 91, fill: 22, stroke: 20, eoFill: 23, setFillRGBColor: 59, setStrokeRGBColor: 58, beginAnnotation: 80, endAnnotation: 81 };
// pdfjs path buffer ops.
const [MOVE, LINE, CURVE, CLOSE] = [0, 1, 2, 4];
// Display space of a US Letter page at scale 1.
const base: Matrix = [1, 0, 0, -1, 0, 792];

/** A circle as four Béziers (user space, y up). */
function circle(cx: number, cy: number, r: number): number[] {
  const k = 0.5523 * r;
  return [
    ...[MOVE, cx + r, cy],
    ...[CURVE, cx + r, cy + k, cx + k, cy + r, cx, cy + r],
    ...[CURVE, cx - k, cy + r, cx - r, cy + k, cx - r, cy],
    ...[CURVE, cx - r, cy - k, cx - k, cy - r, cx, cy - r],
    ...[CURVE, cx + k, cy - r, cx + r, cy - k, cx + r, cy],
    CLOSE,
  ];
}
const rect = (x: number, y: number, w: number, h: number): number[] => [MOVE, x, y, LINE, x + w, y, LINE, x + w, y + h, LINE, x, y + h, CLOSE];

/** Walks constructPath ops (paint op, path) with pdfjs' argument layout (no bounds, like some callers). */
function walkPaths(paths: [number, number[]][], before: { fn: number; args: unknown }[] = []) {
  const fn = [...before.map((b) => b.fn), ...paths.map(() => OPS.constructPath)];
  const args = [...before.map((b) => b.args), ...paths.map(([paint, data]) => [paint, [Float32Array.from(data)], null])];
  return walkOperators(fn, args, base, { chars: false, removeWatermark: false, maxSegments: 100, font: () => fontInfo({}) });
}

describe("walkOperators: bullet shapes", () => {
  it("finds filled discs, stroked circles, rings and filled squares, with display boxes and colours", () => {
    const ring = [...circle(100, 600, 2), ...circle(100, 600, 1.2)];
    const w = walkPaths(
      [
        [OPS.fill, circle(100, 700, 2)],
        [OPS.stroke, circle(100, 680, 2)],
        [OPS.fill, rect(98, 658, 4, 4)],
        [OPS.eoFill, ring],
      ],
      [
        { fn: OPS.setFillRGBColor, args: ["#112233"] },
        { fn: OPS.setStrokeRGBColor, args: ["#445566"] },
      ],
    );
    expect(w.markers.map((m) => m.kind)).toEqual(["disc", "circle", "square", "circle"]);
    const disc = w.markers[0]!;
    expect([disc.x0, disc.y0, disc.x1, disc.y1].map((v) => Math.round(v * 100) / 100)).toEqual([98, 90, 102, 94]);
    expect(w.markers.map((m) => m.colour)).toEqual(["#112233", "#445566", "#112233", "#112233"]);
  });

  it("ignores checkbox outlines, rules, big or tiny shapes, open paths, light fills and form widgets", () => {
    const w = walkPaths(
      [
        [OPS.stroke, rect(98, 700, 6, 6)], // a checkbox: stroked square
        [OPS.fill, rect(50, 680, 300, 1)], // a table rule
        [OPS.fill, rect(98, 660, 5, 2)], // too oblong
        [OPS.fill, circle(100, 640, 6)], // 12 pt: an icon
        [OPS.fill, circle(100, 620, 0.5)], // 1 pt: a dot
        [OPS.stroke, circle(100, 600, 2).slice(0, -1 - 7)], // an open arc
        [OPS.fill, [MOVE, 98, 580, LINE, 102, 580, LINE, 100, 584, CLOSE]], // a triangle
      ],
    );
    expect(w.markers).toEqual([]);
    const light = walkPaths([[OPS.fill, circle(100, 700, 2)]], [{ fn: OPS.setFillRGBColor, args: ["#f0f0f0"] }]);
    expect(light.markers).toEqual([]);
    const widget = walkPaths([[OPS.fill, circle(100, 700, 2)]], [{ fn: OPS.beginAnnotation, args: ["a1", [0, 0, 10, 10], [1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0], false] }]);
    expect(widget.markers).toEqual([]);
  });

  it("drops them all on a page with more than MAX_MARKERS (a scatter plot)", () => {
    const some = walkPaths(Array.from({ length: MAX_MARKERS }, (_, i) => [OPS.fill, circle(50 + (i % 50) * 10, 100 + Math.floor(i / 50) * 10, 2)]));
    expect(some.markers).toHaveLength(MAX_MARKERS);
    const many = walkPaths(Array.from({ length: MAX_MARKERS + 1 }, (_, i) => [OPS.fill, circle(50 + (i % 50) * 10, 100 + Math.floor(i / 50) * 10, 2)]));
    expect(many.markers).toEqual([]);
  });

  it("still reads ruling segments from the same paths", () => {
    const w = walkPaths([[OPS.stroke, rect(98, 700, 6, 6)]]);
    expect(w.segments).toHaveLength(4);
  });
});

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

async function parse(bytes: Uint8Array): Promise<ParseResult> {
  const { LocalParser } = await import("../../src/engine/local-parser.js");
  const { MemoryAssetStore } = await import("../../src/engine/assets.js");
  return new LocalParser({ assets: new MemoryAssetStore() }).parse(bytes, { filename: "bullets.pdf", config: { capabilities: { include_char_details: true } } });
}

/** A box from 8 normalised coordinates, in page points. */
function box(coords: readonly number[] | null | undefined, page: { width: number; height: number }) {
  const c = coords as number[];
  return { x0: c[0]! * page.width, y0: c[1]! * page.height, x1: c[4]! * page.width, y1: c[5]! * page.height };
}

/** Indent (spaces) of the markdown line holding an element's text. */
const indentOf = (result: ParseResult, e: Element): number | undefined =>
  (result.markdown ?? "")
    .split("\n")
    .find((l) => norm(l) === norm(e.text))
    ?.match(/^ */)?.[0].length;

const PARA = "Shipping notes for the spring catalogue, written before the lists below.";
const DISCS = ["Apples arrive on Monday", "Pears come from the northern orchard, packed in crates of twelve, and they need a cool room as soon as they are unloaded from the truck", "Plums are late this year"];
const NESTED = ["Keep the crates off the floor", "Check the labels twice"];
const SQUARES = ["Crates go to aisle four", "Boxes go to aisle five"];
const CIRCLES = ["Lemons need a dry shelf", "Limes share it"];
// Inside markers sit over 1 em before their text, where a line could be cut.
const INSIDE = ["Figs sit inside", "Dates too"];
const NUMBERED = ["Unload the truck", "Count the crates"];
const CLOSING = "That is all for this week.";
const FONT_SIZE = 12;

describe.skipIf(missing("chromium", "pdftotext"))("pdf: list bullets drawn as shapes (Chromium)", () => {
  let bytes: Uint8Array;
  let result: ParseResult;
  let words: PopplerWord[];
  let page: { width: number; height: number };
  beforeAll(async () => {
    const li = (items: string[]) => items.map((t) => `<li>${t}</li>`).join("");
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { font-family: 'DejaVu Sans'; font-size: ${FONT_SIZE}pt; width: 420pt; } ul, ol { margin: 6pt 0; }</style></head><body>
<p>${PARA}</p>
<ul><li>${DISCS[0]}</li><li>${DISCS[1]}<ul>${li(NESTED)}</ul></li><li>${DISCS[2]}</li></ul>
<ul style="list-style: square">${li(SQUARES)}</ul>
<ul style="list-style: circle">${li(CIRCLES)}</ul>
<ul style="list-style-position: inside">${li(INSIDE)}</ul>
<ol>${li(NUMBERED)}</ol>
<p>${CLOSING}</p>
</body></html>`;
    bytes = await chromiumPdf(html);
    result = await parse(bytes);
    const poppler = await popplerWords(bytes);
    words = poppler.words;
    page = poppler.pages[0]!;
  }, 120_000);

  it("makes each item its own ListItem starting with its marker, the paragraphs NarrativeText", () => {
    expect(result.elements.map((e) => [e.type, norm(e.text)])).toEqual([
      ["NarrativeText", PARA],
      ["ListItem", `• ${DISCS[0]}`],
      ["ListItem", `• ${DISCS[1]}`],
      ["ListItem", `◦ ${NESTED[0]}`],
      ["ListItem", `◦ ${NESTED[1]}`],
      ["ListItem", `• ${DISCS[2]}`],
      ...SQUARES.map((t) => ["ListItem", `▪ ${t}`]),
      ...CIRCLES.map((t) => ["ListItem", `◦ ${t}`]),
      ...INSIDE.map((t) => ["ListItem", `• ${t}`]),
      ...NUMBERED.map((t, i) => ["ListItem", `${i + 1}. ${t}`]),
      ["NarrativeText", CLOSING],
    ]);
    // The long item really wraps (poppler: its first and last words on different lines).
    const first = words.find((w) => w.text === "Pears")!;
    const last = words.find((w) => w.text === "truck")!;
    expect(last.y0).toBeGreaterThan(first.y1 - 1);
  });

  it("nests the inner list one level deeper, the others at one level", () => {
    const items = result.elements.filter((e) => e.type === "ListItem");
    const indents = new Map(items.map((e) => [norm(e.text), indentOf(result, e)]));
    expect([...indents.values()]).not.toContain(undefined);
    const top = indents.get(`• ${DISCS[0]}`)!;
    for (const t of [...DISCS.map((d) => `• ${d}`), ...SQUARES.map((s) => `▪ ${s}`), ...CIRCLES.map((c) => `◦ ${c}`)]) expect(indents.get(t)).toBe(top);
    for (const t of NESTED) expect(indents.get(`◦ ${t}`)).toBeGreaterThan(top);
  });

  it("puts the marker first in char_details, at the shape: before the item's first word, centred on it, inside the item", () => {
    const items = result.elements.filter((e) => e.type === "ListItem" && !/^\d/.test(e.text));
    expect(items).toHaveLength(11);
    for (const e of items) {
      const chars = e.char_details ?? [];
      expect(chars.map((c) => c.text).join("")).toBe(e.text);
      expect(chars[0]!.text).toBe(e.text[0]);
      const mark = box(chars[0]!.coordinates, page);
      const item = box(e.coordinates, page);
      expect(mark.x0).toBeGreaterThanOrEqual(item.x0 - 0.01);
      expect(mark.y0).toBeGreaterThanOrEqual(item.y0 - 0.01);
      expect(mark.y1).toBeLessThanOrEqual(item.y1 + 0.01);
      // CSS draws a marker 5 px (3.75 pt) wide at this size.
      expect(mark.x1 - mark.x0).toBeCloseTo(3.75, 0);
      // The oracle: poppler's box of the item's first word.
      const firstWord = norm(e.text).split(" ")[1]!;
      const word = words.find((w) => w.text === firstWord)!;
      const gap = word.x0 - mark.x1;
      expect(gap).toBeGreaterThan(0.2 * FONT_SIZE);
      expect(gap).toBeLessThan(2.5 * FONT_SIZE);
      const cy = (mark.y0 + mark.y1) / 2;
      expect(cy).toBeGreaterThan(word.y0);
      expect(cy).toBeLessThan(word.y1);
    }
  });

  it("finds the same items on the page turned by /Rotate (shapes go into the reading frame)", async () => {
    const { PDFDocument, degrees } = await import("pdf-lib");
    const doc = await PDFDocument.load(bytes);
    doc.getPage(0).setRotation(degrees(90));
    const turned = await parse(await doc.save());
    expect(turned.elements.map((e) => [e.type, norm(e.text)])).toEqual(result.elements.map((e) => [e.type, norm(e.text)]));
  }, 60_000);

  it("leaves numbered items as their text has them", () => {
    const numbered = result.elements.filter((e) => /^\d\./.test(e.text));
    expect(numbered.map((e) => e.char_details![0]!.text)).toEqual(["1", "2"]);
    expect(result.elements.filter((e) => e.type === "NarrativeText").every((e) => !/^[•◦▪]/.test(e.text))).toBe(true);
  });
});

const HE_PARA = "רשימת הקניות לשבוע הבא נמצאת כאן למטה.";
const HE_ITEMS = ["תפוחים מהשוק", "לחם טרי מהמאפייה", "חלב ושתי גבינות"];

describe.skipIf(missing("chromium", "pdftotext"))("pdf: a right-to-left list with bullets drawn as shapes (Chromium)", () => {
  it("makes each Hebrew item a ListItem, its marker on the right of its first word", async () => {
    const html = `<!DOCTYPE html><html dir="rtl" lang="he"><head><meta charset="utf-8"><style>body { font-family: 'DejaVu Sans'; font-size: ${FONT_SIZE}pt; }</style></head><body>
<p>${HE_PARA}</p>
<ul dir="rtl">${HE_ITEMS.map((t) => `<li>${t}</li>`).join("")}</ul>
</body></html>`;
    const bytes = await chromiumPdf(html);
    const result = await parse(bytes);
    const { words, pages } = await popplerWords(bytes);
    expect(result.elements.map((e) => [e.type, norm(e.text)])).toEqual([["NarrativeText", HE_PARA], ...HE_ITEMS.map((t) => ["ListItem", `• ${t}`])]);
    const indents = result.elements.slice(1).map((e) => indentOf(result, e));
    expect(indents).not.toContain(undefined);
    expect(new Set(indents).size).toBe(1);
    for (const e of result.elements.slice(1)) {
      const chars = e.char_details ?? [];
      expect(chars.map((c) => c.text).join("")).toBe(e.text);
      const mark = box(chars[0]!.coordinates, pages[0]!);
      const item = box(e.coordinates, pages[0]!);
      expect(mark.x1).toBeLessThanOrEqual(item.x1 + 0.01);
      // The item's first word in reading order is its rightmost (poppler spells it mirrored).
      const first = norm(e.text).split(" ")[1]!;
      const word = words.find((w) => w.text === first || w.text === [...first].reverse().join(""))!;
      const gap = mark.x0 - word.x1;
      expect(gap).toBeGreaterThan(0.2 * FONT_SIZE);
      expect(gap).toBeLessThan(2.5 * FONT_SIZE);
    }
  }, 60_000);
});

describe.skipIf(missing("chromium", "pdftotext"))("pdf: shapes that are not bullets (Chromium)", () => {
  it("adds no marker for form controls, table borders, chart legends and scattered dots", async () => {
    const dots = Array.from({ length: 40 }, (_, i) => `<circle cx="${20 + ((i * 37) % 260)}" cy="${10 + ((i * 53) % 70)}" r="3" fill="#3366cc"/>`).join("");
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { font-family: 'DejaVu Sans'; font-size: 12pt; } td { border: 1px solid black; padding: 3px; }</style></head><body>
<p><input type="checkbox" checked> Send me the newsletter</p>
<p><input type="checkbox"> Call me back</p>
<p><input type="radio" name="a" checked> Morning delivery</p>
<p><input type="radio" name="a"> Evening delivery</p>
<table style="border-collapse: collapse"><tr><td>Region</td><td>Sales</td></tr><tr><td>North</td><td>12</td></tr></table>
<svg width="300" height="150" font-family="DejaVu Sans" font-size="12">${dots}
<rect x="150" y="110" width="8" height="8" fill="#dc3912"/><text x="162" y="118">Revenue</text>
<rect x="150" y="130" width="8" height="8" fill="#3366cc"/><text x="162" y="138">Costs</text>
</svg>
<p>Home · About · Contact</p>
</body></html>`;
    const result = await parse(await chromiumPdf(html));
    const texts = result.elements.map((e) => norm(e.text));
    for (const t of ["Send me the newsletter", "Call me back", "Morning delivery", "Evening delivery", "Home · About · Contact"]) expect(texts).toContain(t);
    expect(texts.join("\n")).not.toMatch(/[•◦▪]/);
    expect(result.elements.some((e) => e.type === "ListItem")).toBe(false);
  }, 60_000);
});
