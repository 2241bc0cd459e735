import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { DiskAssetStore } from "../../src/engine/disk-asset-store.js";
import { LocalParser } from "../../src/engine/local-parser.js";
import { chunkDocument } from "../../src/chunk/chunk-document.js";
import { ingest } from "../../src/ingest/ingest.js";
import type { ChunkerContext } from "../../src/ingest/ingest-options.js";
import { withCitationGeometry } from "../../src/chunk/citation-geometry.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { startViewer, type Viewer } from "../../src/viewer/start-viewer.js";
import { launchChromium } from "../support/browser.js";
import { missing, tempDir } from "../support/system.js";
import { makePolicyPdf, makeRotatedPdf, type PlacedLine } from "./make-policy-pdf.js";

type Rgba = { width: number; height: number; data: Uint8ClampedArray };

async function decodePng(png: Buffer): Promise<Rgba> {
  const { createCanvas, loadImage } = await import("@napi-rs/canvas");
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const { data } = ctx.getImageData(0, 0, img.width, img.height);
  return { width: img.width, height: img.height, data };
}

/** Share of pixels in the rectangle tinted by the quote highlight, and share of dark (ink) pixels. */
function sample(img: Rgba, x0: number, y0: number, x1: number, y1: number): { tinted: number; ink: number } {
  let n = 0;
  let tinted = 0;
  let ink = 0;
  for (let y = Math.ceil(y0); y < Math.floor(y1); y++) {
    for (let x = Math.ceil(x0); x < Math.floor(x1); x++) {
      const i = (y * img.width + x) * 4;
      const r = img.data[i]!;
      const g = img.data[i + 1]!;
      const b = img.data[i + 2]!;
      n++;
      // rgba(255, 0, 200, 0.35) over white is (255, 166, 236); over black ink (89, 0, 70):
      // red and blue always well above green. Black text, white paper and the blue region
      // outline never are.
      if (r - g > 60 && b - g > 40) tinted++;
      if (g < 100) ink++;
    }
  }
  return { tinted: tinted / n, ink: ink / n };
}

describe.skipIf(missing("chromium"))("viewer end to end (headless Chromium)", () => {
  let viewer: Viewer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let lines: PlacedLine[];
  let rotatedLine: PlacedLine;
  const dir = tempDir("docparse-viewer-e2e-");

  beforeAll(async () => {
    // The real pipeline: a PDF we made, parsed by the local engine (page renders cached
    // in a temp asset directory), chunked, embedded and stored by ingest().
    const pdf = await makePolicyPdf();
    lines = pdf.lines;
    const docs = join(dir.path, "docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "policy.pdf"), pdf.bytes);
    const rotated = await makeRotatedPdf();
    rotatedLine = rotated.line;
    writeFileSync(join(docs, "parts.pdf"), rotated.bytes);
    writeFileSync(join(docs, "notes.txt"), "Refunds for services have no page image at all.\n\nMarkup stays text: <b>bold</b> <img src=x onerror=alert(1)>\n");
    const parser = new LocalParser({ assets: new DiskAssetStore({ directory: join(dir.path, "assets") }) });
    const store = new MemoryStore();
    const embeddings = new HashEmbeddings();
    const report = await ingest({
      sources: [docs],
      store,
      parser,
      embeddings,
      parseConfig: { capabilities: { pages: true, include_char_details: true } },
      // The default chunker plus measured text spans from char_details (tight quote boxes).
      chunker: withCitationGeometry((result, ctx: ChunkerContext) => chunkDocument(result, { ...ctx.options, sourceId: ctx.sourceId })),
    });
    expect(report.failed).toEqual([]);
    viewer = await startViewer({ store, embeddings, parser });
    browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
    page = await browser.context.newPage();
    // Parsing the PDF (pdfjs) and starting Chromium take a while on a busy 2-core machine.
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
    dir.cleanup();
  });

  async function search(q: string): Promise<void> {
    await page.goto(viewer.url);
    await page.fill("#q", q);
    await page.press("#q", "Enter");
    await page.waitForSelector("#results li");
  }

  it("highlights the quoted words at their known position on the rendered page", async () => {
    await search("refunds accepted within thirty days");
    await expect(page.locator("#result-0 .r-file").textContent()).resolves.toBe("[1] policy.pdf");
    await expect(page.locator("#result-0 .r-meta").textContent()).resolves.toBe("pp. 1–2 · Refund Policy");
    await page.click("#result-0");
    await page.waitForSelector('#source[data-state="ready"]');
    // The chunk runs over two pages: both rendered pages are shown, in order.
    await expect(page.locator(".page").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.page))).resolves.toEqual(["1", "2"]);
    const widths = await page.locator(".page img").evaluateAll((els) => els.map((e) => (e as HTMLImageElement).naturalWidth));
    expect(widths.every((w) => w > 0)).toBe(true);
    const imgBox = (await page.locator('.page[data-page="1"] img').boundingBox())!;
    const png = await page.screenshot();
    // Set VIEWER_SCREENSHOT=/tmp/x.png to look at what the test saw.
    if (process.env.VIEWER_SCREENSHOT) writeFileSync(process.env.VIEWER_SCREENSHOT, png);
    const shot = await decodePng(png);

    const toScreen = (l: PlacedLine) => ({
      x0: imgBox.x + l.rect[0] * imgBox.width,
      y0: imgBox.y + l.rect[1] * imgBox.height,
      x1: imgBox.x + l.rect[2] * imgBox.width,
      y1: imgBox.y + l.rect[3] * imgBox.height,
    });
    const quoted = toScreen(lines[2]!);
    // The quoted line is on screen after the click (scrolled to its box).
    expect(quoted.y0).toBeGreaterThanOrEqual(0);
    expect(quoted.y1).toBeLessThanOrEqual(shot.height);
    // Inset by 2 px so anti-aliased box edges do not count.
    const hit = sample(shot, quoted.x0 + 2, quoted.y0 + 2, quoted.x1 - 2, quoted.y1 - 2);
    expect(hit.tinted).toBeGreaterThan(0.9);
    // The page image really has the words there (ink under the highlight).
    expect(hit.ink).toBeGreaterThan(0.03);

    // The other paragraphs of the same chunk are cited but not quoted: no quote colour.
    for (const other of [lines[1]!, lines[3]!]) {
      const o = toScreen(other);
      if (o.y1 < 0 || o.y0 > shot.height) continue;
      expect(sample(shot, o.x0 + 2, Math.max(o.y0, 0) + 2, o.x1 - 2, Math.min(o.y1, shot.height) - 2).tinted).toBeLessThan(0.05);
    }
  });

  it("scrolls to a quote on the second page of a multi-page citation", async () => {
    await search("warranty claims handled by the manufacturer");
    await page.click("#result-0");
    await page.waitForSelector('#source[data-state="ready"]');
    const imgBox = (await page.locator('.page[data-page="2"] img').boundingBox())!;
    const png = await page.screenshot();
    const shot = await decodePng(png);
    const l = lines[4]!;
    expect(l.page).toBe(2);
    const x0 = imgBox.x + l.rect[0] * imgBox.width;
    const y0 = imgBox.y + l.rect[1] * imgBox.height;
    const x1 = imgBox.x + l.rect[2] * imgBox.width;
    const y1 = imgBox.y + l.rect[3] * imgBox.height;
    // Page 2 starts below the first screenful: it is visible only because of the scroll.
    expect(y0).toBeGreaterThan(0);
    expect(y1).toBeLessThan(shot.height);
    const hit = sample(shot, x0 + 2, y0 + 2, x1 - 2, y1 - 2);
    expect(hit.tinted).toBeGreaterThan(0.9);
    expect(hit.ink).toBeGreaterThan(0.03);
  });

  it("highlights only the quoted sentence of a line holding two (boxes from char_details)", async () => {
    await search("original receipt for returns");
    await page.click("#result-0");
    await page.waitForSelector('#source[data-state="ready"]');
    const imgBox = (await page.locator('.page[data-page="1"] img').boundingBox())!;
    const shot = await decodePng(await page.screenshot());
    const line = lines[5]!;
    const toScreen = ([x0, y0, x1, y1]: [number, number, number, number]) => [
      imgBox.x + x0 * imgBox.width,
      imgBox.y + y0 * imgBox.height,
      imgBox.x + x1 * imgBox.width,
      imgBox.y + y1 * imgBox.height,
    ] as const;
    const [qx0, qy0, qx1, qy1] = toScreen(line.parts!["Returns need the original receipt."]!);
    const [ox0, oy0, ox1, oy1] = toScreen(line.parts!["Opening hours are nine to six."]!);
    expect(qy0).toBeGreaterThan(0);
    expect(qy1).toBeLessThan(shot.height);
    const quoted = sample(shot, qx0 + 2, qy0 + 2, qx1 - 2, qy1 - 2);
    expect(quoted.tinted).toBeGreaterThan(0.9);
    expect(quoted.ink).toBeGreaterThan(0.03);
    // The first sentence of the same line is not quoted, up to the space before "Returns".
    expect(sample(shot, ox0 + 2, oy0 + 2, ox1 - 2, oy1 - 2).tinted).toBeLessThan(0.05);
    expect(sample(shot, ox1, qy0 + 2, qx0 - 1, qy1 - 2).tinted).toBeLessThan(0.05);
    // The boxes are measured (char_details), not estimated: no dashed "approximate" outline.
    expect(await page.locator(".hl-quote").count()).toBeGreaterThan(0);
    expect(await page.locator(".hl-quote.hl-approx").count()).toBe(0);
  });

  it("highlights the quote where it shows on a page turned by /Rotate 90", async () => {
    await search("spare parts catalogue number");
    const files = await page.locator("#results li .r-file").allTextContents();
    const i = files.findIndex((t) => t.includes("parts.pdf"));
    expect(i).toBeGreaterThanOrEqual(0);
    await page.click(`#result-${i}`);
    await page.waitForSelector('#source[data-state="ready"]');
    const img = page.locator('.page[data-page="1"] img');
    // The page image is rendered turned, as the page is shown: landscape.
    const [w, h] = await img.evaluate((e) => [(e as HTMLImageElement).naturalWidth, (e as HTMLImageElement).naturalHeight]);
    expect(w).toBeGreaterThan(h!);
    const imgBox = (await img.boundingBox())!;
    const shot = await decodePng(await page.screenshot());
    const [x0, y0, x1, y1] = rotatedLine.rect;
    const sx0 = imgBox.x + x0 * imgBox.width;
    const sy0 = imgBox.y + y0 * imgBox.height;
    const sx1 = imgBox.x + x1 * imgBox.width;
    const sy1 = imgBox.y + y1 * imgBox.height;
    expect(sy0).toBeGreaterThan(0);
    expect(sy1).toBeLessThan(shot.height);
    const hit = sample(shot, sx0 + 2, sy0 + 2, sx1 - 2, sy1 - 2);
    expect(hit.tinted).toBeGreaterThan(0.9);
    expect(hit.ink).toBeGreaterThan(0.03);
    // Nothing tinted a line's height below it (a box in the unturned frame would be elsewhere).
    const below = sample(shot, sx0 + 2, sy1 + (sy1 - sy0), sx1 - 2, sy1 + 2 * (sy1 - sy0));
    expect(below.tinted).toBeLessThan(0.05);
  });

  it("moves through results with the keyboard and opens one with Enter", async () => {
    await search("refunds");
    const count = await page.locator("#results li").count();
    expect(count).toBeGreaterThan(1);
    await page.press("#q", "ArrowDown");
    await expect(page.locator("#result-1").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.locator("#result-0").getAttribute("aria-selected")).resolves.toBe("false");
    await page.focus("#results");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await expect(page.locator("#result-0").getAttribute("aria-selected")).resolves.toBe("true");
  });

  it("says so when there is no page image and highlights the quote in the text", async () => {
    await search("refunds for services");
    const index = await page.locator("#results li .r-file").allTextContents();
    const i = index.findIndex((t) => t.includes("notes.txt"));
    expect(i).toBeGreaterThanOrEqual(0);
    await page.click(`#result-${i}`);
    await page.waitForSelector('#source[data-state="ready"]');
    await expect(page.locator("#source .note").first().textContent()).resolves.toMatch(/No page image for page 1 of notes\.txt/);
    await expect(page.locator("#source mark.hl-quote").textContent()).resolves.toBe("Refunds for services have no page image at all.");
  });

  it("shows document text as text, never as markup", async () => {
    await search("markup stays text bold");
    const i = (await page.locator("#results li .r-file").allTextContents()).findIndex((t) => t.includes("notes.txt"));
    expect(i).toBeGreaterThanOrEqual(0);
    await expect(page.locator(`#result-${i} .r-quote`).textContent()).resolves.toContain("<b>bold</b> <img src=x onerror=alert(1)>");
    await page.click(`#result-${i}`);
    await page.waitForSelector('#source[data-state="ready"]');
    await expect(page.locator("#source .text-fallback").textContent()).resolves.toContain("<img src=x onerror=alert(1)>");
    expect(await page.locator("#results img, #results b, #source .text-fallback img, #source .text-fallback b").count()).toBe(0);
  });
});
