import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";
import { Worker } from "node:worker_threads";
import { PDFArray, PDFDocument, PDFName, PDFRawStream, StandardFonts } from "pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DocParseError } from "../../src/errors.js";
import { pdfFormat } from "../../src/engine/formats/pdf.js";
import type { TextPageOptions, TextPageResult } from "../../src/engine/formats/pdf-page.js";
import { openPdf } from "../../src/engine/formats/pdf-load.js";
import { ThreadedPdf, parserThreadStats } from "../../src/engine/formats/pdf-thread.js";
import { buildPdf, sofficePdf } from "../support/pdf-fixtures.js";
import { missing, tempDir } from "../support/system.js";
import { parsePdf } from "./pdf-helpers.js";

const OPTIONS: TextPageOptions = { chars: false, removeWatermark: false, imageData: false, maxImagePixels: 1e8, detectScans: true };

const text = (r: TextPageResult | DocParseError): string => {
  if (DocParseError.isInstance(r)) throw r;
  if (r.scanned) throw new Error(`page ${r.number} read as a scan`);
  return r.layout.blocks.map((b) => b.text).join(" | ");
};

function pages(n: number): Promise<Uint8Array> {
  return buildPdf(Array.from({ length: n }, (_, i) => ({ texts: [{ text: `Review page ${i + 1}`, x: 72, y: 100 }] })));
}

/**
 * One page whose content stream first draws `megabytes` MB of line operators, then a
 * line of text: pdfjs loads the page's font only after the lines, a few hundred ms in.
 */
async function linesThenText(megabytes: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([600, 800]);
  page.drawText("Text after the lines", { x: 72, y: 700, size: 12, font });
  const lines = doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: "FlateDecode" }), deflateSync(Buffer.alloc(megabytes * 1024 * 1024, "0 0 m 1 1 l S\n"))));
  const contents = page.node.get(PDFName.of("Contents"));
  const all = doc.context.obj([lines]) as PDFArray;
  if (contents instanceof PDFArray) for (let i = 0; i < contents.size(); i++) all.push(contents.get(i));
  else if (contents) all.push(contents);
  page.node.set(PDFName.of("Contents"), all);
  return doc.save();
}

/** Waits (without timers, which may be faked) until `done()` or `ms` passed. */
async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setImmediate(r));
}

// The real setTimeout, also while a test fakes timers.
const realSetTimeout = setTimeout;
const sleep = (ms: number): Promise<void> => new Promise((r) => realSetTimeout(r, ms));

interface Tapped {
  worker: Worker;
  op: string;
  doc: number;
  page?: number;
}

/**
 * Records the requests posted to parser threads (and lets a test act on one), by
 * wrapping node's `Worker.prototype.postMessage`; restored after each test. With
 * `before`, the test acts before the request is posted: a thread terminated there never
 * reads it (after posting, a busy machine may let the thread answer first).
 */
function tapThreads(onPost?: (message: Tapped) => void, { before = false } = {}): Tapped[] {
  const log: Tapped[] = [];
  const post = Worker.prototype.postMessage;
  vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (this: Worker, value: unknown, transfer?: Parameters<Worker["postMessage"]>[1]) {
    const m = value as { op?: string; doc?: number; page?: number };
    const entry: Tapped | undefined = m?.op ? { worker: this, op: m.op, doc: m.doc!, page: m.page } : undefined;
    if (entry && before) onPost?.(entry);
    post.call(this, value, transfer);
    if (!entry) return;
    log.push(entry);
    if (!before) onPost?.(entry);
  });
  return log;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

// First in this file, while the pool is empty: every thread here is started (and its idle
// timer set) under fake timers.
describe("parser threads: idle exit", () => {
  it("a document arriving as an idle thread is being stopped opens on another thread", async () => {
    const bytes = await pages(1);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    expect(parserThreadStats().threads, "the pool starts empty").toBe(0);
    const first = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 1 });
    try {
      expect(text((await first.readPages([1], OPTIONS))[0]!)).toBe("Review page 1");
    } finally {
      first.close();
    }
    // 10 min without work (the last thread stays that long): the thread is told to exit,
    // its exit event still to come.
    vi.advanceTimersByTime(600_000);
    const next = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 1 });
    try {
      expect((await next.opened).numPages).toBe(1);
      expect(text((await next.readPages([1], OPTIONS))[0]!)).toBe("Review page 1");
    } finally {
      next.close();
    }
    vi.advanceTimersByTime(600_000);
    expect(parserThreadStats().threads).toBe(0);
  });

  it("stops threads that were started for the pool but never given work", async () => {
    const bytes = await pages(1);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    expect(parserThreadStats().threads, "the pool starts empty").toBe(0);
    // A one-page document opens on one thread; the pool is filled up to 2 at once.
    const pdf = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 2 });
    try {
      expect(text((await pdf.readPages([1], OPTIONS))[0]!)).toBe("Review page 1");
    } finally {
      pdf.close();
    }
    expect(parserThreadStats().threads).toBe(2);
    vi.advanceTimersByTime(30_000);
    // One exits after 30 s; the last one stays warm for the next document...
    await until(() => parserThreadStats().threads === 1);
    expect(parserThreadStats().threads).toBe(1);
    // ...for 10 minutes.
    vi.advanceTimersByTime(570_000);
    await until(() => parserThreadStats().threads === 0);
    expect(parserThreadStats().threads).toBe(0);
  });
});

describe("ThreadedPdf.close()", () => {
  it("before the document reached a thread: it is never opened there", async () => {
    const pdf = new ThreadedPdf(await pages(3), { maxImagePixels: 1e8 });
    pdf.close();
    await expect(pdf.opened).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
  });

  it("while pages are being handed out: every thread the document was opened on gets a close after the open", async () => {
    const bytes = await pages(24);
    const log = tapThreads();
    const pdf = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 2 });
    await pdf.opened;
    // readPages picks its threads (opening the document on the second one) after close().
    const reading = pdf.readPages(Array.from({ length: 24 }, (_, i) => i + 1), OPTIONS);
    pdf.close();
    expect(await reading).toHaveLength(24);
    await sleep(100);
    const mine = log.filter((m) => m.op === "open" || m.op === "close");
    for (const open of mine.filter((m) => m.op === "open")) {
      const after = mine.slice(mine.indexOf(open) + 1);
      expect(after.some((m) => m.op === "close" && m.worker === open.worker && m.doc === open.doc), `doc ${open.doc} left open on a thread`).toBe(true);
    }
  });

  it("with a page in flight: the page is read to its end, then the document freed, and the thread kept", async () => {
    const bytes = await linesThenText(0.5);
    const pdf = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 1 });
    await pdf.opened;
    const threads = parserThreadStats().threads;
    let posted!: () => void;
    const pagePosted = new Promise<void>((r) => (posted = r));
    tapThreads((m) => m.op === "page" && posted());
    // The grace timer stays still until told, so a slow machine cannot stop the thread first.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const reading = pdf.readPages([1], OPTIONS);
    let page: TextPageResult | DocParseError | undefined;
    void reading.then(([r]) => (page = r));
    await pagePosted;
    // The thread is inside the page's lines when close() reaches it; its font comes after.
    await sleep(60);
    pdf.close();
    await until(() => page !== undefined, 10_000);
    expect(page && text(page)).toBe("Text after the lines");
    vi.advanceTimersByTime(1_000);
    expect(parserThreadStats().threads).toBe(threads);
  }, 20_000);
});

describe("ThreadedPdf.close(): a given-up document's thread", () => {
  it("takes new documents as soon as the pages it was reading are answered, not 1 s later", async () => {
    const bytes = await pages(4);
    const pdf = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 1 });
    await pdf.opened;
    let posted!: () => void;
    const pagePosted = new Promise<void>((r) => (posted = r));
    tapThreads((m) => m.op === "page" && posted());
    const reading = pdf.readPages([1, 2, 3, 4], OPTIONS);
    await pagePosted;
    pdf.close();
    const closedAt = Date.now();
    await reading;
    // As many threads as the pool holds: one kept from new work would make it start another.
    const size = parserThreadStats().threads;
    const within = Date.now() - closedAt < 1_000;
    const next = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: size });
    try {
      await next.opened;
      // (Past 1 s the grace timer has let the thread go either way: nothing to tell.)
      if (within) expect(parserThreadStats().threads).toBe(size);
    } finally {
      next.close();
    }
  });
});

describe("pdfjs: why a parser thread finishes a page before destroying its document", () => {
  it("never settles an operator list that destroy() cut short", async () => {
    const doc = await openPdf(await pages(1), { glyphPaths: false });
    const page = await doc.getPage(1);
    let settled = false;
    page.getOperatorList().then(
      () => (settled = true),
      () => (settled = true),
    );
    await doc.destroy();
    await sleep(500);
    // If a pdfjs update settles it, the wait in pdf-thread-worker.ts's close can go.
    expect(settled).toBe(false);
  });
});

describe("a parser thread dying mid-document", () => {
  it("reads the pages it lost once more on a fresh thread: the document comes out whole", async () => {
    const bytes = await pages(6);
    let killed = 0;
    tapThreads((m) => {
      if (killed === 0 && m.op === "page" && m.page === 3) {
        killed++;
        void m.worker.terminate();
      }
    });
    const pdf = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 1 });
    try {
      const read = await pdf.readPages([1, 2, 3, 4, 5, 6], OPTIONS);
      expect(killed).toBe(1);
      expect(read.map(text)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Review page ${n}`));
    } finally {
      pdf.close();
    }
  });

  it("opens the document once more on another thread when the first stops while opening it", async () => {
    const bytes = await pages(3);
    const killedOn = new Set<Worker>();
    tapThreads(
      (m) => {
        if (m.op === "open" && killedOn.size === 0) {
          killedOn.add(m.worker);
          void m.worker.terminate();
        }
      },
      { before: true },
    );
    const doc = await parsePdf(bytes, { limits: { pdfThreads: 1 } });
    expect(killedOn.size).toBe(1);
    expect(doc.elements.map((e) => e.text)).toEqual(["Review page 1", "Review page 2", "Review page 3"]);
  });

  it("a document whose opening stops two threads fails with 500 (retryable)", async () => {
    const bytes = await pages(3);
    const killedOn = new Set<Worker>();
    tapThreads(
      (m) => {
        if (m.op === "open" && !killedOn.has(m.worker)) {
          killedOn.add(m.worker);
          void m.worker.terminate();
        }
      },
      { before: true },
    );
    await expect(parsePdf(bytes, { limits: { pdfThreads: 1 } })).rejects.toMatchObject({ code: 500, isRetryable: true });
    expect(killedOn.size).toBe(2);
  });

  it("a page that stops a thread again fails with 500, and so does the parse (retryable), not a partial document", async () => {
    const bytes = await pages(6);
    const killedOn = new Set<Worker>();
    tapThreads(
      (m) => {
        if (m.op === "page" && m.page === 3 && !killedOn.has(m.worker)) {
          killedOn.add(m.worker);
          void m.worker.terminate();
        }
      },
      { before: true },
    );
    const pdf = new ThreadedPdf(bytes, { maxImagePixels: 1e8, threads: 1 });
    try {
      const read = await pdf.readPages([1, 2, 3, 4, 5, 6], OPTIONS);
      // Page 3 took down two threads; the pages after it were not read either.
      expect(killedOn.size).toBe(2);
      expect(read[2]).toMatchObject({ code: 500 });
      for (const r of read.slice(4)) expect(r).toMatchObject({ code: 500 });
      for (const r of read) if (DocParseError.isInstance(r)) expect(r.code).toBe(500);
    } finally {
      pdf.close();
    }
    const parsed = parsePdf(bytes, { limits: { pdfThreads: 1 } });
    await expect(parsed).rejects.toMatchObject({ code: 500, isRetryable: true });
    expect(killedOn.size).toBe(4);
  });
});

describe("pdf: abort before the document reached a thread", () => {
  it("leaves no document open on a thread", async () => {
    const bytes = await pages(2);
    const log = tapThreads();
    const controller = new AbortController();
    // One thread more than the pool has: the open waits for the pool to grow, the abort does not.
    const parsing = parsePdf(bytes, { signal: controller.signal, limits: { pdfThreads: parserThreadStats().threads + 1 } });
    controller.abort();
    await expect(parsing).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    await sleep(100);
    for (const open of log.filter((m) => m.op === "open")) {
      const after = log.slice(log.indexOf(open) + 1);
      expect(after.some((m) => m.op === "close" && m.worker === open.worker && m.doc === open.doc), `doc ${open.doc} left open on a thread`).toBe(true);
    }
  });
});

describe("pdf: a Node Buffer as input", () => {
  it("is neither detached by the copy sent to a thread nor refused by pdfjs in this thread", async () => {
    // Over 4 KB, so Buffer.from gives it its own ArrayBuffer (smaller ones share Node's pool).
    const bytes = Buffer.from(await pages(40));
    expect(bytes.byteLength).toBeGreaterThan(4096);
    const size = bytes.byteLength;
    expect((await parsePdf(bytes, { pageRange: "1" })).elements.map((e) => e.text)).toEqual(["Review page 1"]);
    expect(bytes.byteLength).toBe(size);
    expect((await parsePdf(bytes, { pageRange: "2" })).elements.map((e) => e.text)).toEqual(["Review page 2"]);
    const scanned = await parsePdf(Buffer.from(await buildPdf([{ texts: [{ text: "Buffer scan", x: 72, y: 80, size: 28 }] }])), { parseMode: "scan" });
    expect(scanned.elements.map((e) => e.text)).toEqual(["Buffer scan"]);
  }, 60_000);
});

describe.skipIf(missing("soffice"))("pdf: a password-protected document on two threads", () => {
  it("answers 40423 without or with a wrong password, and every thread opens it with the right one", async () => {
    const body = Array.from({ length: 10 }, (_, i) => `<p style="page-break-after: always">Locked page ${i + 1}</p>`).join("");
    const locked = await sofficePdf(`<html><body>${body}</body></html>`, { password: "s3cret" });
    const log = tapThreads();
    await expect(parsePdf(locked, { limits: { pdfThreads: 2 } })).rejects.toMatchObject({ code: 40423 });
    await expect(parsePdf(locked, { password: "wrong", limits: { pdfThreads: 2 } })).rejects.toMatchObject({ code: 40423 });
    const doc = await parsePdf(locked, { password: "s3cret", limits: { pdfThreads: 2 } });
    expect(doc.failedPages).toBeUndefined();
    expect(doc.elements.map((e) => e.text)).toEqual(Array.from({ length: 10 }, (_, i) => `Locked page ${i + 1}`));
    // Ten pages on two threads: the document was opened on both.
    const opens = log.filter((m) => m.op === "open" && m.doc === log.at(-1)!.doc);
    expect(new Set(opens.map((m) => m.worker)).size).toBe(2);
  }, 120_000);
});

describe("pdf: a text page with an image beside a scanned page", () => {
  it("reads the text page on a thread (its PNG crosses over) and OCRs the scan in this thread", async () => {
    const source = await buildPdf([{ texts: [{ text: "Scanned Invoice", x: 72, y: 80, size: 28, font: "bold" }] }]);
    const scan = await pdfFormat.renderPage!(source, 1, { dpi: 150 });
    const doc = await PDFDocument.load(
      await buildPdf([{ texts: [{ text: "A figure below", x: 72, y: 60 }], images: [{ x: 72, y: 100, width: 150, height: 100, pixels: { width: 30, height: 20 } }] }]),
    );
    doc.addPage([612, 792]).drawImage(await doc.embedPng(scan), { x: 0, y: 0, width: 612, height: 792 });
    const parsed = await parsePdf(await doc.save(), { capabilities: { include_image_data: true } });
    expect(parsed.pages.map((p) => p.number)).toEqual([1, 2]);
    expect(parsed.failedPages).toBeUndefined();
    expect(parsed.elements.filter((e) => e.page === 1 && e.type !== "Image").map((e) => e.text)).toEqual(["A figure below"]);
    expect(parsed.elements.filter((e) => e.page === 2).map((e) => e.text).join(" ")).toContain("Scanned Invoice");
    const images = parsed.elements.filter((e) => e.type === "Image");
    expect(images.map((e) => e.page)).toEqual([1]);
    const png = images[0]!.image!.bytes!;
    const view = new DataView(png.buffer, png.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([30, 20]);
  }, 120_000);
});

describe("pdf: abort mid-document", () => {
  it("rejects at once with DOCPARSE_ABORTED and leaves no thread busy", async () => {
    const bytes = await linesThenText(20);
    const controller = new AbortController();
    const t0 = Date.now();
    setTimeout(() => controller.abort(), 200);
    await expect(parsePdf(bytes, { signal: controller.signal, limits: { pdfThreads: 1 } })).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect(Date.now() - t0).toBeLessThan(2_000);
    await until(() => parserThreadStats().busy === 0);
    expect(parserThreadStats().busy).toBe(0);
    const after = await parsePdf(await pages(1), { limits: { pdfThreads: 1 } });
    expect(after.elements.map((e) => e.text)).toEqual(["Review page 1"]);
  }, 20_000);
});

describe("pdf: the process exits on its own after a parse", () => {
  const root = resolve(import.meta.dirname, "../..");
  const url = (path: string): string => pathToFileURL(join(root, path)).href;

  async function runScript(body: string): Promise<{ code: number | null; ms: number; out: string }> {
    const dir = tempDir();
    try {
      const file = join(dir.path, "parse.mts");
      writeFileSync(
        file,
        `import { buildPdf, operatorBombPdf } from ${JSON.stringify(url("test/support/pdf-fixtures.ts"))};\n` +
          `import { parsePdf } from ${JSON.stringify(url("test/engine/pdf-helpers.ts"))};\n${body}\n`,
      );
      const t0 = Date.now();
      const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      // A safety net only (the assertion is how soon the process exits after "done"): a
      // tsx start, an OCR worker and a timed-out thread take ~20 s on a loaded 2-core machine.
      const killer = setTimeout(() => child.kill("SIGKILL"), 50_000);
      const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
      clearTimeout(killer);
      return { code, ms: Date.now() - t0, out };
    } finally {
      dir.cleanup();
    }
  }

  it("after a text document, a corrupt one, a timed-out hostile one and an OCRed one", async () => {
    const run = await runScript(`
      const doc = await parsePdf(await buildPdf([{ texts: [{ text: "Exit text", x: 72, y: 72 }] }]));
      console.log(doc.elements.map((e) => e.text).join("|"));
      await parsePdf(new TextEncoder().encode("%PDF-1.7 nope")).catch((e) => console.log(e.code));
      await parsePdf(await operatorBombPdf(30), { limits: { timeoutMs: 300, pdfThreads: 1 } }).catch((e) => console.log(e.code));
      const scan = await parsePdf(await buildPdf([{ texts: [{ text: "Exit scan", x: 72, y: 72, size: 28 }] }]), { parseMode: "scan" });
      console.log(scan.elements.map((e) => e.text).join("|"));
      console.log("done", Date.now());
    `);
    expect(run.out).toContain("Exit text\n40422\nDOCPARSE_TIMEOUT\nExit scan\ndone");
    expect(run.code).toBe(0);
    const done = Number(/done (\d+)/.exec(run.out)?.[1]);
    // Nothing holds the process: parser threads and the OCR worker are unref'd when idle.
    expect(Date.now() - done).toBeLessThan(5_000);
  }, 60_000);

  it("after a one-page document on a pool of two threads, one of which never got work", async () => {
    const run = await runScript(`
      const doc = await parsePdf(await buildPdf([{ texts: [{ text: "Two threads", x: 72, y: 72 }] }]), { limits: { pdfThreads: 2 } });
      console.log(doc.elements.map((e) => e.text).join("|"));
      console.log("done", Date.now());
    `);
    expect(run.out).toContain("Two threads\ndone");
    expect(run.code).toBe(0);
    // The idle thread held it for 30 s (its idle exit) when it was unref'd before its
    // listeners were added.
    expect(Date.now() - Number(/done (\d+)/.exec(run.out)?.[1])).toBeLessThan(5_000);
  }, 60_000);
});
