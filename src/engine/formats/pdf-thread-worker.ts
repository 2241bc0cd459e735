import { parentPort } from "node:worker_threads";
import { DocParseError, LocalErrorCode } from "../../errors.js";
import type { FontCache } from "./pdf-extract.js";
import { installNativeInflate } from "./pdf-inflate.js";
import { openPdf, pdfError, providePdfjs, type PdfDocument } from "./pdf-load.js";
import { readOutline } from "./pdf-outline.js";
import { writerHyphenates } from "./pdf-producer.js";
import { compactLayout, pngBuffers, readTextPage, type TextPageOptions, type TextPageResult } from "./pdf-page.js";
import type { ThreadReply, ThreadRequest } from "./pdf-thread.js";

/**
 * A PDF parser thread (started by pdf-thread.ts). It holds its own pdfjs, API and
 * "worker" both in this thread, and turns pages into laid-out blocks here, so what
 * crosses to the main thread is a page's blocks, not its operator list (every glyph an
 * object). Several threads read one document's pages side by side.
 */

// pdfjs inflates content streams through the web DecompressionStream; this thread's is
// Node's zlib in one synchronous call, which also serves the streams the patched pdfjs
// reads synchronously (pdf-inflate.ts). The main thread keeps Node's own.
installNativeInflate();
// This thread only extracts text: pdfjs (patched, pdfjs-patch.ts) then parses embedded
// Type 1 fonts for their encoding and widths without rebuilding them as OpenType.
(globalThis as Record<symbol, unknown>)[Symbol.for("docparse-rag.pdfjs.textOnly")] = true;

interface OpenDocument {
  doc: Promise<PdfDocument>;
  fonts: FontCache;
  /**
   * Work on the document still running. Closing waits for it: pdfjs never settles a
   * request (a page's fonts, its operator list) that its document's destroy() cut short,
   * and the calling thread stops a thread whose answers do not come.
   */
  busy: Set<Promise<unknown>>;
  /** The writer does not hyphenate: hyphens at line ends are the words' own. */
  keepHyphens?: boolean;
}

/** `work`, counted in `open.busy` until it settles. */
function working<T>(open: OpenDocument, work: Promise<T>): Promise<T> {
  open.busy.add(work);
  const done = (): void => void open.busy.delete(work);
  work.then(done, done);
  return work;
}

const docs = new Map<number, OpenDocument>();

/** Called by the thread's boot script with pdfjs and its worker module, imported natively. */
export function start(pdfjs: unknown, pdfjsWorker: unknown): void {
  const port = parentPort;
  if (!port) throw new Error("pdf-thread-worker runs in a worker thread");
  providePdfjs(pdfjs, pdfjsWorker);
  port.on("message", (request: ThreadRequest) => answer(port, request));
}

function answer(port: NonNullable<typeof parentPort>, request: ThreadRequest): void {
  const fail = (error: unknown): void => {
    if (request.op === "close") return;
    const e = pdfError(error, request.op === "page" ? request.page : undefined);
    const reply: ThreadReply = { id: request.id, ok: false, error: { code: e.code, message: e.message } };
    port.postMessage(reply);
  };
  void handle(request).then((answer) => {
    if (!answer) return;
    try {
      port.postMessage(answer.reply, answer.transfer);
    } catch (error) {
      // An answer that cannot be sent fails its request, not the thread.
      fail(error);
    }
  }, fail);
}

async function handle(request: ThreadRequest): Promise<{ reply: ThreadReply; transfer?: ArrayBuffer[] } | undefined> {
  switch (request.op) {
    case "open": {
      // The bytes were transferred to this thread: pdfjs may keep them without a copy.
      const opening = openPdf(request.bytes, { password: request.password, maxImagePixels: request.maxImagePixels, glyphPaths: false, copy: false });
      const open: OpenDocument = { doc: opening, fonts: new Map(), busy: new Set() };
      docs.set(request.doc, open);
      let doc: PdfDocument;
      try {
        doc = await opening;
      } catch (error) {
        docs.delete(request.doc);
        throw error;
      }
      const outline = request.outline ? await working(open, readOutline(doc)) : [];
      const meta = await working(open, doc.getMetadata()).catch(() => undefined);
      open.keepHyphens = !writerHyphenates(meta?.info as { Producer?: unknown; Creator?: unknown } | undefined);
      return { reply: { id: request.id, ok: true, value: { numPages: doc.numPages, outline } } };
    }
    case "page": {
      const open = docs.get(request.doc);
      if (!open) throw new DocParseError(LocalErrorCode.Aborted, "The document was closed");
      const value = await working(open, readPage(open, request.page, request.options));
      if (value.scanned) return { reply: { id: request.id, ok: true, value } };
      compactLayout(value.layout);
      return { reply: { id: request.id, ok: true, value }, transfer: pngBuffers(value.layout) };
    }
    case "close": {
      const open = docs.get(request.doc);
      docs.delete(request.doc);
      const doc = await open?.doc.catch(() => undefined);
      await Promise.allSettled(open?.busy ?? []);
      await doc?.destroy();
      return undefined;
    }
  }
}

async function readPage(open: OpenDocument, n: number, options: TextPageOptions): Promise<TextPageResult> {
  const page = await (await open.doc).getPage(n);
  try {
    return await readTextPage(page, open.fonts, open.keepHyphens ? { ...options, keepLineEndHyphens: true } : options);
  } finally {
    page.cleanup();
  }
}
