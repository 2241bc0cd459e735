import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DocParseError, LocalErrorCode } from "../../errors.js";

/**
 * Loading pdfjs-dist (legacy build, the one that runs on Node 20) and opening a
 * document with options that never fetch anything: fonts, CMaps, ICC profiles and wasm
 * decoders come from the package's own folders, and the "worker" runs in this thread
 * (Node has no Web Worker; pdfjs' fake worker with the worker module preloaded).
 */

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
export type PdfDocument = import("pdfjs-dist/types/src/display/api.js").PDFDocumentProxy;
export type PdfPage = import("pdfjs-dist/types/src/display/api.js").PDFPageProxy;

let loading: Promise<Pdfjs> | undefined;

/** Imports pdfjs once, with its worker module in-process. */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const natives = keepNatives();
    try {
      // pdfjs looks for `globalThis.pdfjsWorker` before spawning a worker: giving it the
      // worker module runs the parser in this thread, with no file URL to resolve.
      const g = globalThis as { pdfjsWorker?: unknown };
      // A non-literal specifier: the worker module ships no type declarations.
      const workerModule = "pdfjs-dist/legacy/build/pdf.worker.mjs";
      g.pdfjsWorker ??= (await import(workerModule)) as unknown;
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
}

/**
 * Opens a PDF. Maps failures to the service codes: 40423 password missing or wrong,
 * 40422 anything else that stops the document from opening (corrupt, truncated).
 */
export async function openPdf(bytes: Uint8Array, options: OpenPdfOptions = {}): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  const dir = pdfjsDir();
  const task = pdfjs.getDocument({
    // pdfjs transfers (detaches) the buffer it gets: give it a copy, the caller keeps the bytes.
    data: bytes.slice(),
    password: options.password,
    isEvalSupported: false,
    // Off: style facts (name, bold, italic, metrics) come without it, and pdfjs then frees
    // each font file after loading instead of keeping it and its cmaps for the document.
    fontExtraProperties: false,
    useSystemFonts: false,
    disableFontFace: true,
    standardFontDataUrl: join(dir, "standard_fonts") + "/",
    cMapUrl: join(dir, "cmaps") + "/",
    cMapPacked: true,
    iccUrl: join(dir, "iccs") + "/",
    wasmUrl: join(dir, "wasm") + "/",
    maxImageSize: options.maxImagePixels ?? 100_000_000,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (cause) {
    void task.destroy();
    throw pdfError(cause);
  }
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
