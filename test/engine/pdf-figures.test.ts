import { describe, expect, it } from "vitest";
import { imageSize } from "../../src/engine/formats/image-size.js";
import { chromiumPdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { ofType, parsePdf } from "./pdf-helpers.js";

const PROSE = "The pipeline reads each document once and writes its chunks with the pages and boxes they came from, so an answer can point at its source.";

// A page printed by Chromium: an SVG bar chart, a menu on a dark panel, a paragraph in a
// shaded, bordered box.
const PAGE = `<!doctype html><html><head><style>
body { font-family: "DejaVu Sans", sans-serif; font-size: 11pt; margin: 2cm }
.callout { background: #dde8f5; border: 1px solid #446; padding: 8px; border-radius: 6px }
.nav { background: #333; color: #fff; padding: 6px; width: 150px; float: right; margin-left: 10px }
.nav div { border-bottom: 1px solid #777; padding: 3px }
</style></head><body>
<h1>Documents per year</h1>
<div class="nav"><div>Home</div><div>Products</div><div>Pricing</div><div>Contact</div></div>
<p>${PROSE} ${PROSE}</p>
<div class="callout"><b>Note.</b> ${PROSE}</div>
<svg width="420" height="220" viewBox="0 0 420 220">
 <line x1="40" y1="10" x2="40" y2="190" stroke="#000"/><line x1="40" y1="190" x2="410" y2="190" stroke="#000"/>
 <rect x="60" y="90" width="50" height="100" fill="#4a7"/><rect x="140" y="60" width="50" height="130" fill="#4a7"/>
 <rect x="220" y="120" width="50" height="70" fill="#4a7"/><rect x="300" y="30" width="50" height="160" fill="#4a7"/>
 <text x="70" y="207" font-size="11">2023</text><text x="150" y="207" font-size="11">2024</text>
 <text x="230" y="207" font-size="11">2025</text><text x="310" y="207" font-size="11">2026</text>
 <text x="10" y="35" font-size="11">150</text><text x="22" y="190" font-size="11">0</text>
</svg>
<p><i>Figure 1: Documents per year, in thousands.</i></p>
<p>${PROSE}</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: figures drawn as vector graphics", () => {
  it("makes a chart one Image holding its labels, linked to its caption; boxes of text stay text", async () => {
    const bytes = await chromiumPdf(PAGE);
    const doc = await parsePdf(bytes);
    const images = ofType(doc, "Image");
    expect(images.map((e) => e.text)).toEqual(["150 0 2023 2024 2025 2026"]);
    const chart = images[0]!;
    // The chart's box: the SVG's 420 × 220 px (315 × 165 pt), its drawing and labels a little less.
    const points = (doc.pages[0]!.width * 72) / doc.pages[0]!.dpi;
    expect((chart.box!.x1 - chart.box!.x0) * points).toBeGreaterThan(290);
    expect((chart.box!.x1 - chart.box!.x0) * points).toBeLessThan(320);
    const caption = ofType(doc, "FigureCaption")[0]!;
    expect(doc.elements[caption.refIndex!]).toBe(chart);
    // No label is left over as text; the menu and the note are text.
    const texts = doc.elements.filter((e) => e.type !== "Image").map((e) => e.text);
    expect(texts.filter((t) => /^(?:150|0|202[3-6])$/.test(t))).toEqual([]);
    // The menu's items, each a box of its own, stand further apart than lines do.
    expect(texts.filter((t) => /^(?:Home|Products|Pricing|Contact)$/.test(t))).toEqual(["Home", "Products", "Pricing", "Contact"]);
    expect(texts.some((t) => t.startsWith("Note. The pipeline reads each document once"))).toBe(true);
  }, 60_000);

  it("finds a chart inside a bordered section (a poster's panel, a card) beside its heading and prose", async () => {
    const chart = `<svg width="300" height="200" viewBox="0 0 300 200"><rect x="20" y="5" width="270" height="180" fill="none" stroke="#333"/>${[60, 100, 140, 80, 160].map((h, i) => `<rect x="${35 + i * 50}" y="${185 - h}" width="30" height="${h}" fill="#4477aa"/>`).join("")}<text x="150" y="198" font-size="10" text-anchor="middle">Loading (wt %)</text></svg>`;
    const html = `<!doctype html><html><head><style>body { font-family: "DejaVu Sans", sans-serif; font-size: 10pt }</style></head><body>
<section style="border: 1.5px solid #003b6f; padding: 10px; width: 340px"><h2>Results</h2><p>${PROSE}</p>${chart}<p>Figure 1: Light-off temperature against loading.</p></section>
</body></html>`;
    const doc = await parsePdf(await chromiumPdf(html));
    expect(ofType(doc, "Image").map((e) => e.text)).toEqual(["Loading (wt %)"]);
    expect(doc.elements.some((e) => e.type !== "Image" && e.text.includes("Loading (wt %)"))).toBe(false);
    expect(doc.elements.some((e) => e.type === "NarrativeText" && e.text.startsWith("The pipeline reads"))).toBe(true);
  }, 60_000);

  it("reads HTML tables without borders, their cells shaded or their rows striped, as tables, not figures", async () => {
    const rows = [
      ["Region", "Office", "Staff"],
      ["North", "Leeds", "40"],
      ["South", "Bristol", "35"],
      ["East", "Norwich", "12"],
      ["West", "Exeter", "18"],
    ];
    const table = (cls: string) => `<table class="${cls}">${rows.map((r, i) => `<tr>${r.map((c) => (i ? `<td>${c}</td>` : `<th>${c}</th>`)).join("")}</tr>`).join("")}</table>`;
    const html = `<html><head><style>body { font: 11pt "DejaVu Sans"; margin: 2cm } table { border-collapse: collapse; margin: 12px 0 }
      td, th { padding: 4px 12px } .all td, .all th { background: #dfe6ee } .all th { background: #456; color: #fff }
      .zebra tr:nth-child(even) td { background: #e4e4e4 }</style></head>
      <body><p>All cells shaded:</p>${table("all")}<p>Striped rows:</p>${table("zebra")}<p>${PROSE}</p></body></html>`;
    const doc = await parsePdf(await chromiumPdf(html));
    expect(ofType(doc, "Image")).toEqual([]);
    const tables = ofType(doc, "Table");
    expect(tables.map((t) => t.text)).toEqual([0, 1].map(() => rows.map((r) => r.join(" ")).join("\n")));
  }, 60_000);

  it("turns the picture of a chart on a page set sideways (/Rotate 90) as the page shows it", async () => {
    const { PDFDocument, degrees } = await import("pdf-lib");
    const pdf = await PDFDocument.load(await chromiumPdf(PAGE));
    pdf.getPage(0).setRotation(degrees(90));
    const doc = await parsePdf(await pdf.save(), { capabilities: { include_image_data: true } });
    const chart = ofType(doc, "Image")[0]!;
    expect(chart.text).toBe("150 0 2023 2024 2025 2026");
    // The chart is wider than tall; on the turned page it stands taller than wide.
    const size = imageSize(chart.image!.bytes!)!;
    expect(size).toMatchObject({ width: chart.image!.width, height: chart.image!.height });
    expect(size.height).toBeGreaterThan(size.width);
  }, 60_000);

  it("renders the chart's picture over its box when image data is asked for, its labels' characters with char_details", async () => {
    const doc = await parsePdf(await chromiumPdf(PAGE), { capabilities: { include_image_data: true, include_char_details: true } });
    const chart = ofType(doc, "Image")[0]!;
    expect(chart.image?.mimeType).toBe("image/png");
    const size = imageSize(chart.image!.bytes!);
    expect(size).toMatchObject({ kind: "png", width: chart.image!.width, height: chart.image!.height });
    // 2 pixels per point of the box.
    const points = (doc.pages[0]!.width * 72) / doc.pages[0]!.dpi;
    expect(Math.abs(size!.width - (chart.box!.x1 - chart.box!.x0) * points * 2)).toBeLessThan(2);
    // Every label character, each inside the figure's box.
    expect(chart.chars!.map((c) => c.text).join("").replace(/\s/g, "")).toBe(chart.text.replace(/\s/g, ""));
    expect(chart.chars!.every((c) => c.box.x0 >= chart.box!.x0 - 0.001 && c.box.x1 <= chart.box!.x1 + 0.001 && c.box.y0 >= chart.box!.y0 - 0.001 && c.box.y1 <= chart.box!.y1 + 0.001)).toBe(true);
  }, 60_000);
});
