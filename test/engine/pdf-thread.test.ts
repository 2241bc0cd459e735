import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DocParseError } from "../../src/errors.js";
import { NativeDecompressionStream } from "../../src/engine/formats/pdf-inflate.js";
import type { TextPageOptions, TextPageResult } from "../../src/engine/formats/pdf-page.js";
import { ThreadedPdf } from "../../src/engine/formats/pdf-thread.js";
import { buildPdf } from "../support/pdf-fixtures.js";
import { tempDir } from "../support/system.js";

const OPTIONS: TextPageOptions = { chars: false, removeWatermark: false, imageData: false, maxImagePixels: 1e8, detectScans: true };

const text = (r: TextPageResult | DocParseError): string => {
  if (DocParseError.isInstance(r)) throw r;
  if (r.scanned) throw new Error(`page ${r.number} read as a scan`);
  return r.layout.blocks.map((b) => b.text).join(" | ");
};

async function pages(n: number): Promise<Uint8Array> {
  return buildPdf(Array.from({ length: n }, (_, i) => ({ texts: [{ text: `Page number ${i + 1} of the thread test`, x: 72, y: 100 }] })));
}

describe("ThreadedPdf", () => {
  it("reads a long document's pages on two threads, in the order asked, without touching this thread's globals", async () => {
    const bytes = await pages(40);
    const pdf = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 2 });
    try {
      const opened = await pdf.opened;
      expect(opened.numPages).toBe(40);
      const numbers = [40, ...Array.from({ length: 38 }, (_, i) => i + 2), 1];
      const read = await pdf.readPages(numbers, OPTIONS);
      expect(read.map(text)).toEqual(numbers.map((n) => `Page number ${n} of the thread test`));
      for (const [i, r] of read.entries()) expect(!DocParseError.isInstance(r) && !r.scanned && r.layout.number).toBe(numbers[i]);
    } finally {
      pdf.close();
    }
    // The caller's bytes stay usable (each thread got its own copy) and its realm keeps the web global.
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(typeof (globalThis as { DecompressionStream?: unknown }).DecompressionStream).toBe("function");
    expect((globalThis as { DecompressionStream?: unknown }).DecompressionStream).not.toBe(NativeDecompressionStream);
  });

  it("parses documents side by side on the shared threads", async () => {
    const [a, b] = [new ThreadedPdf(await pages(3), { maxImagePixels: 1e8 }), new ThreadedPdf(await pages(20), { maxImagePixels: 1e8 })];
    try {
      const [ra, rb] = await Promise.all([a.readPages([3, 1], OPTIONS), b.readPages([20], OPTIONS)]);
      expect(ra.map(text)).toEqual(["Page number 3 of the thread test", "Page number 1 of the thread test"]);
      expect(rb.map(text)).toEqual(["Page number 20 of the thread test"]);
    } finally {
      a.close();
      b.close();
    }
  });

  it("maps a corrupt file to 40422, and a page beyond the document fails alone", async () => {
    const bad = new ThreadedPdf(new TextEncoder().encode("%PDF-1.7\nnot a pdf"), { maxImagePixels: 1e8 });
    await expect(bad.opened).rejects.toMatchObject({ code: 40422 });
    bad.close();
    const pdf = new ThreadedPdf(await pages(2), { maxImagePixels: 1e8 });
    try {
      const [one, beyond] = await pdf.readPages([1, 7], OPTIONS);
      expect(text(one!)).toBe("Page number 1 of the thread test");
      expect(beyond).toMatchObject({ code: 40422 });
    } finally {
      pdf.close();
    }
  });

  it("ends the pages still being read with an error when the document is closed", async () => {
    const pdf = new ThreadedPdf(await pages(60), { maxImagePixels: 1e8, threads: 2 });
    await pdf.opened;
    const reading = pdf.readPages(Array.from({ length: 60 }, (_, i) => i + 1), OPTIONS);
    pdf.close();
    const read = await reading;
    expect(read).toHaveLength(60);
    // Nothing is started after close(): at most the requests already in flight were answered.
    expect(read.filter((r) => !DocParseError.isInstance(r)).length).toBeLessThanOrEqual(4);
  });

  it.skipIf(!existsSync("/proc/self/maps"))("reads pages without loading @napi-rs/canvas, which pages drawn on this thread still use", () => {
    // In a process of its own: whether the native module is mapped is a fact of the process.
    const dir = tempDir();
    try {
      const url = (path: string): string => JSON.stringify(pathToFileURL(join(process.cwd(), path)).href);
      const script = join(dir.path, "child.mts");
      writeFileSync(
        script,
        `import { readFileSync } from "node:fs";
        import { ThreadedPdf } from ${url("src/engine/formats/pdf-thread.ts")};
        import { renderPdfPage } from ${url("src/engine/formats/pdf-render.ts")};
        import { buildPdf } from ${url("test/support/pdf-fixtures.ts")};
        const canvasMapped = () => /skia[^/\\n]*\\.node/.test(readFileSync("/proc/self/maps", "utf8"));
        const bytes = await buildPdf([{ texts: [{ text: "Drawn and read", x: 72, y: 100 }] }]);
        const pdf = new ThreadedPdf(bytes.slice(), { maxImagePixels: 1e8, threads: 1 });
        const [page] = await pdf.readPages([1], ${JSON.stringify(OPTIONS)});
        pdf.close();
        const read = { text: page.layout.blocks.map((b) => b.text).join(" | "), canvas: canvasMapped() };
        const png = await renderPdfPage(bytes, 1, { dpi: 36 });
        console.log(JSON.stringify({ read, drawn: { png: Buffer.from(png.subarray(1, 4)).toString(), canvas: canvasMapped() } }));
        process.exit(0);`,
      );
      const child = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 60_000 });
      expect(child.status, child.stderr).toBe(0);
      const out = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { read: { text: string; canvas: boolean }; drawn: { png: string; canvas: boolean } };
      expect(out.read).toEqual({ text: "Drawn and read", canvas: false });
      expect(out.drawn).toEqual({ png: "PNG", canvas: true });
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});
