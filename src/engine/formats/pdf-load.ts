import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DocParseError, LocalErrorCode } from "../../errors.js";
import { DirectPort } from "./pdf-port.js";
import { pdfjsWorkerModule } from "./pdfjs-patch.js";

/**
 * Loading pdfjs-dist (legacy build, the one that runs on Node 20) and opening a
 * document with options that never fetch anything: fonts, CMaps, ICC profiles and wasm
 * decoders come from the package's own folders. pdfjs' "worker" runs in the calling thread
 * (Node has no Web Worker; pdfjs' fake worker with the worker module preloaded): text
 * extraction calls this on the parser threads (pdf-thread.ts), canvas renders on the
 * main thread.
 */

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
export type PdfDocument = import("pdfjs-dist/types/src/display/api.js").PDFDocumentProxy;
export type PdfPage = import("pdfjs-dist/types/src/display/api.js").PDFPageProxy;
type PdfWorker = import("pdfjs-dist/types/src/display/api.js").PDFWorker;

let loading: Promise<Pdfjs> | undefined;

/** Imports pdfjs once, with its worker module in-process. */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const natives = keepNatives();
    try {
      // pdfjs looks for `globalThis.pdfjsWorker` before spawning a worker: giving it the
      // worker module runs the parser in this thread, with no file URL to resolve.
      const g = globalThis as { pdfjsWorker?: unknown };
      // A computed specifier (the module ships no type declarations): the patched copy
      // when docparse-rag's speed patches apply (pdfjs-patch.ts), else the original.
      g.pdfjsWorker ??= (await import(pdfjsWorkerModule().url)) as unknown;
      const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
      pdfjs.GlobalWorkerOptions.workerSrc ||= "pdf.worker.mjs";
      return pdfjs;
    } catch (cause) {
      loading = undefined;
      throw new DocParseError(LocalErrorCode.MissingDependency, "PDF parsing needs pdfjs-dist: npm install pdfjs-dist@5.6.205", { cause });
    } finally {
      natives();
    }
  })();
  return loading;
}

/**
 * Uses an already imported pdfjs (and its worker module) instead of importing it: parser
 * threads import both natively before loading this module (pdf-thread.ts).
 */
export function providePdfjs(pdfjs: unknown, workerModule: unknown): void {
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= workerModule;
  const lib = pdfjs as Pdfjs;
  lib.GlobalWorkerOptions.workerSrc ||= "pdf.worker.mjs";
  loading = Promise.resolve(lib);
}

/**
 * Remembers the built-ins pdfjs' legacy build replaces and returns a function putting
 * them back. Its bundled core-js swaps `Array.prototype.push` (for a V8 < 12.2 edge case
 * with frozen array lengths) and `JSON.parse`/`JSON.stringify` (for JSON.rawJSON) with
 * polyfills written in JavaScript, for the whole process: on Node 20 that made every
 * `push` — pdfjs' parser, the layout code, everybody's — several times slower
 * (a third of a parse's CPU time). pdfjs needs neither edge case; the polyfills it adds
 * as new members (Promise.withResolvers, Map.getOrInsert, ...) stay.
 */
function keepNatives(): () => void {
  const push = Object.getOwnPropertyDescriptor(Array.prototype, "push");
  const parse = Object.getOwnPropertyDescriptor(JSON, "parse");
  const stringify = Object.getOwnPropertyDescriptor(JSON, "stringify");
  return () => {
    if (push) Object.defineProperty(Array.prototype, "push", push);
    if (parse) Object.defineProperty(JSON, "parse", parse);
    if (stringify) Object.defineProperty(JSON, "stringify", stringify);
  };
}

let worker: PdfWorker | undefined;

/**
 * The one in-thread pdfjs worker every document of this process talks to, over a
 * {@link DirectPort} (operator lists by reference, not structured clones). pdfjs keeps
 * each document's worker state apart and drops it when the document is destroyed.
 */
function sharedWorker(pdfjs: Pdfjs): PdfWorker {
  if (!worker) {
    const port = new DirectPort();
    const module = (globalThis as { pdfjsWorker?: { WorkerMessageHandler?: { initializeFromPort(port: unknown): void } } }).pdfjsWorker;
    if (!module?.WorkerMessageHandler) throw new DocParseError(LocalErrorCode.MissingDependency, "pdfjs-dist's worker module did not load");
    module.WorkerMessageHandler.initializeFromPort(port);
    worker = pdfjs.PDFWorker.create({ port: port as unknown as Worker, verbosity: 0 });
  }
  return worker;
}

let assetDir: string | undefined;
/** The pdfjs-dist package folder (for standard_fonts/, cmaps/, iccs/, wasm/). */
function pdfjsDir(): string {
  assetDir ??= dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
  return assetDir;
}

/** Options for {@link openPdf}. */
export interface OpenPdfOptions {
  password?: string;
  /** Largest image (pixels) pdfjs decodes; bigger ones are skipped. @default 100_000_000 */
  maxImagePixels?: number;
  /**
   * Build glyph outlines so pages can be drawn on a canvas (page images, OCR). Off for
   * text extraction: pdfjs then skips compiling and posting an outline for every glyph
   * it shows (a fifth of its work on text pages). Canvas renders of such a document
   * draw text in a fallback font. @default true
   */
  glyphPaths?: boolean;
  /**
   * Hand `bytes` to pdfjs as they are: pdfjs transfers (detaches) the buffer it gets, so
   * only a caller that owns `bytes` and has no further use for them may say false.
   * @default true
   */
  copy?: boolean;
}

/**
 * Opens a PDF. Maps failures to the service codes: 40423 password missing or wrong,
 * 40422 anything else that stops the document from opening (corrupt, truncated).
 */
export async function openPdf(bytes: Uint8Array, options: OpenPdfOptions = {}): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  const dir = pdfjsDir();
  let task: ReturnType<Pdfjs["getDocument"]>;
  try {
    task = startLoading(pdfjs, dir, bytes, options);
  } catch (cause) {
    // getDocument checks its arguments synchronously (e.g. an unusable data buffer).
    throw pdfError(cause);
  }
  try {
    const doc = await task.promise;
    if (options.glyphPaths === false) {
      // With font faces "enabled", pdfjs would install each font in the DOM, which Node
      // lacks (and then ask the worker for a fallback font): nothing to install here.
      const transport = (doc as unknown as { _transport?: { fontLoader?: { bind: (font: unknown) => Promise<void> } } })._transport;
      if (transport?.fontLoader) transport.fontLoader.bind = () => Promise.resolve();
    }
    return doc;
  } catch (cause) {
    void task.destroy();
    throw pdfError(cause);
  }
}

/** pdfjs' loading task for `bytes`, with options that never fetch anything. */
function startLoading(pdfjs: Pdfjs, dir: string, bytes: Uint8Array, options: OpenPdfOptions): ReturnType<Pdfjs["getDocument"]> {
  return pdfjs.getDocument({
    worker: sharedWorker(pdfjs),
    // A plain Uint8Array copy: pdfjs refuses a Node Buffer (whose slice() would be a view).
    data: options.copy === false ? bytes : new Uint8Array(bytes),
    password: options.password,
    isEvalSupported: false,
    // Off: style facts (name, bold, italic, metrics) come without it, and pdfjs then frees
    // each font file after loading instead of keeping it and its cmaps for the document.
    fontExtraProperties: false,
    useSystemFonts: false,
    // In Node there is no FontFace: "disabled" makes pdfjs draw glyphs from outlines.
    disableFontFace: options.glyphPaths ?? true,
    standardFontDataUrl: join(dir, "standard_fonts") + "/",
    cMapUrl: join(dir, "cmaps") + "/",
    cMapPacked: true,
    iccUrl: join(dir, "iccs") + "/",
    wasmUrl: join(dir, "wasm") + "/",
    maxImageSize: options.maxImagePixels ?? 100_000_000,
    verbosity: 0,
  });
}

/** Maps a pdfjs failure to a DocParseError. */
export function pdfError(cause: unknown, page?: number): DocParseError {
  if (DocParseError.isInstance(cause)) return cause;
  const name = (cause as { name?: string } | null)?.name;
  const message = cause instanceof Error || (cause && typeof (cause as Error).message === "string") ? (cause as Error).message : String(cause);
  if (name === "PasswordException") {
    const code = (cause as { code?: number }).code;
    const what = code === 2 ? "The PDF password is wrong" : "The PDF is encrypted: document.password is required";
    return new DocParseError(40423, what, { cause });
  }
  const where = page ? ` (page ${page})` : "";
  return new DocParseError(40422, `The PDF is corrupt or truncated${where}: ${message}`, { cause, location: page ? { page } : undefined });
}

/**
 * A page's /Rotate as pdfjs applies it: 0, 90, 180 or 270. pdfjs' `page.rotate` passes
 * on any value whose remainder by 90 is 0 as it is, so `/Rotate [90]` (an array, which
 * `%` turns into 90) came back as an array while its viewport turned by 90.
 */
export function pageRotation(page: Pick<PdfPage, "rotate">): number {
  const r = Number(page.rotate);
  return Number.isFinite(r) && r % 90 === 0 ? ((r % 360) + 360) % 360 : 0;
}
