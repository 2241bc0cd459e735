import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chunk } from "../../src/chunk/chunk.js";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import type { PageImageSource } from "../../src/viewer/page-images.js";
import { startViewer, type Viewer } from "../../src/viewer/start-viewer.js";
import { makeChunk } from "../retrieve/make-chunks.js";
import { launchChromium } from "../support/browser.js";
import { missing, tempDir } from "../support/system.js";
import { makePolicyPdf, type PlacedLine } from "./make-policy-pdf.js";

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

describe.skipIf(missing("chromium", "pdftoppm"))("viewer end to end (headless Chromium)", () => {
  let viewer: Viewer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let lines: PlacedLine[];
  const dir = tempDir("docparse-viewer-e2e-");

  beforeAll(async () => {
    const pdf = await makePolicyPdf();
    lines = pdf.lines;
    const pdfPath = join(dir.path, "policy.pdf");
    writeFileSync(pdfPath, pdf.bytes);
    // Renders pages with poppler, a real renderer independent of ours.
    const renderer: PageImageSource = {
      async pageImage(fileId, n) {
        if (fileId !== "policy") throw new Error("unknown file");
        const out = join(dir.path, `page-${n}`);
        execFileSync("pdftoppm", ["-r", "96", "-png", "-f", String(n), "-l", String(n), "-singlefile", pdfPath, out]);
        return { bytes: readFileSync(`${out}.png`), mimeType: "image/png" };
      },
    };
    const [, p1, p2, p3, w] = lines;
    const region = (l: PlacedLine, id: string) => {
      const [x0, y0, x1, y1] = l.rect;
      return { page: l.page, elementId: id, coordinates: [x0, y0, x1, y0, x1, y1, x0, y1] };
    };
    const chunks: Chunk[] = [
      makeChunk("policy-0", [p1!.text, p2!.text, p3!.text].join("\n\n"), {
        sourceId: "policy.pdf",
        filename: "policy.pdf",
        fileId: "policy",
        headingPath: ["Refund Policy"],
        regions: [region(p1!, "e1"), region(p2!, "e2"), region(p3!, "e3")],
      }),
      makeChunk("policy-1", w!.text, { sourceId: "policy.pdf", filename: "policy.pdf", fileId: "policy", headingPath: ["Refund Policy"], regions: [region(w!, "e4")] }),
      makeChunk("nofile", "Refunds for services have no page image at all.", { sourceId: "notes.txt", filename: "notes.txt", headingPath: [] }),
    ];
    const store = new MemoryStore();
    const embeddings = new HashEmbeddings();
    const vectors = await embeddings.embedDocuments(chunks.map((c) => c.embedText));
    await store.upsert(chunks.map((c, i) => ({ ...c, vector: vectors[i]! })));
    viewer = await startViewer({ store, embeddings, parser: renderer });
    browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
    page = await browser.context.newPage();
  });

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
    await expect(page.locator("#result-0 .r-meta").textContent()).resolves.toBe("p. 1 · Refund Policy");
    await page.click("#result-0");
    await page.waitForSelector('#source[data-state="ready"]');
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
    await search("<img src=x onerror=alert(1)>");
    expect(await page.locator("#results img").count()).toBe(0);
  });
});
