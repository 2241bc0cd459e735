import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { DocParseError, LocalErrorCode, type DocParseErrorCode } from "../../errors.js";
import type { OutlineEntry } from "../layout/index.js";
import { DEFAULT_PDF_THREADS } from "../limits.js";
import type { TextPageOptions, TextPageResult } from "./pdf-page.js";
import { pdfjsWorkerModule } from "./pdfjs-patch.js";

/**
 * PDF parser threads: a small pool of `worker_threads` Workers, each with its own pdfjs
 * (pdf-thread-worker.ts). A document is opened on one thread, or on several when it has
 * enough pages, and its pages are handed out to them as they free up. Each thread answers
 * with laid-out blocks, so the main thread only assembles the document.
 *
 * Threads are shared by every document of the process, hold the process open only while
 * they have work, and exit after a while without any.
 */

/** Pages a thread should get at least before one more thread joins a document. @default 8 */
const PAGES_PER_THREAD = 8;

/** Page requests a thread holds at once per document, so it never waits for the next one. @default 2 */
const IN_FLIGHT = 2;

/** A thread with no work for this long exits, unless it is the last one (a new one starts on demand). @default 30 s */
const IDLE_EXIT_MS = 30_000;

/**
 * The last thread stays this long without work: a fresh one costs the next document
 * pdfjs' import and a cold JIT (~0.3 s), which a service parsing now and then would pay
 * on every request. It never keeps the process alive. @default 10 min
 */
const LAST_THREAD_IDLE_EXIT_MS = 600_000;

/**
 * After a document is given up (timeout, abort) with a request still running on a
 * thread, the thread has this long to answer before it is stopped: a hostile content
 * stream can keep pdfjs busy for minutes, and every later document would queue behind
 * it. Other documents' requests on a stopped thread fail with code 500. @default 1 s
 */
const ABANDON_GRACE_MS = 1_000;

/** Heap limit of a parser thread: a document that needs more ends that thread (code 500), not the process. @default 2048 MB */
const THREAD_HEAP_MB = 2_048;

/**
 * Young generation of a parser thread. V8's default (up to 48 MB) fills up on a long
 * document; at 16 MB the 1,000-page bench peaks 15–30 MB lower a thread, at the same
 * speed (pdfjs' garbage is short-lived; 8 MB was 5–10 % slower). @default 16 MB
 */
const THREAD_YOUNG_MB = 16;

/** A request to a parser thread. */
export type ThreadRequest =
  | { op: "open"; id: number; doc: number; bytes: Uint8Array; password?: string; maxImagePixels: number; outline: boolean }
  | { op: "page"; id: number; doc: number; page: number; options: TextPageOptions }
  | { op: "close"; id: number; doc: number };

/** A parser thread's answer to an `open` or `page` request. */
export type ThreadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { code: DocParseErrorCode; message: string } };

/** What opening a document tells. */
export interface OpenedPdf {
  numPages: number;
  outline: OutlineEntry[];
}

type Request = ThreadRequest extends infer R ? (R extends ThreadRequest ? Omit<R, "id"> : never) : never;

/**
 * Runs the worker module. pdfjs is imported first, natively (from TypeScript source under
 * tsx its 3 MB would be transformed too), with the built-ins its legacy build replaces put
 * back (see `keepNatives` in pdf-load.ts), and handed to the module's `start`.
 *
 * pdfjs' display layer requires `@napi-rs/canvas` as it loads, for the DOMMatrix,
 * ImageData and Path2D that drawing needs: native Skia, 25 MB of memory a thread. A parser
 * thread never draws, so for that import a stand-in sits in the require cache: a
 * DOMMatrix that constructs, scales and moves (pdf.mjs builds one as it loads, the parser
 * one per image-mask Type 3 glyph) and classes that refuse to be built. Pages are drawn on
 * the calling thread, with the real module.
 *
 * Should the patched worker module be gone when the thread imports it (a cache cleaned
 * right then), the thread runs pdfjs' own, with the same output.
 */
const BOOT = `
const { workerData } = require("node:worker_threads");
const { createRequire, Module } = require("node:module");
const keep = [[Array.prototype, "push"], [JSON, "parse"], [JSON, "stringify"]].map(([o, k]) => [o, k, Object.getOwnPropertyDescriptor(o, k)]);
function withoutCanvas(pdfjsUrl) {
  let path;
  try {
    path = createRequire(pdfjsUrl).resolve("@napi-rs/canvas");
  } catch {
    return () => {};
  }
  const refuse = (name) => class { constructor() { throw new Error(name + " is not available on a PDF parser thread"); } };
  const stub = new Module(path);
  stub.filename = path;
  stub.loaded = true;
  // pdfjs' parser scales and moves one for image-mask Type 3 glyphs (compileType3Glyph).
  class DOMMatrix {
    a = 1; b = 0; c = 0; d = 1; e = 0; f = 0;
    scaleSelf(x = 1, y = x) { this.a *= x; this.b *= x; this.c *= y; this.d *= y; return this; }
    translateSelf(tx = 0, ty = 0) { this.e += this.a * tx + this.c * ty; this.f += this.b * tx + this.d * ty; return this; }
  }
  stub.exports = { DOMMatrix, ImageData: refuse("ImageData"), Path2D: refuse("Path2D") };
  require.cache[path] = stub;
  return () => { if (require.cache[path] === stub) delete require.cache[path]; };
}
(async () => {
  const worker = await import(workerData.pdfjsWorker).catch(() => import(workerData.shippedWorker));
  const restore = withoutCanvas(workerData.pdfjs);
  const pdfjs = await import(workerData.pdfjs).finally(restore);
  for (const [o, k, d] of keep) if (d) Object.defineProperty(o, k, d);
  const module = workerData.tsx
    ? await import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.url, workerData.url))
    : await import(workerData.url);
  module.start(pdfjs, worker);
})().catch((error) => setImmediate(() => { throw error; }));
`;

function workerData(): { url: string; pdfjs: string; pdfjsWorker: string; shippedWorker: string; tsx?: string } {
  const require = createRequire(import.meta.url);
  const resolved = (specifier: string): string => {
    try {
      return pathToFileURL(require.resolve(specifier)).href;
    } catch (cause) {
      throw new DocParseError(LocalErrorCode.MissingDependency, "PDF parsing needs pdfjs-dist: npm install pdfjs-dist@5.6.205", { cause });
    }
  };
  // The worker module: with docparse-rag's speed patches when they apply (pdfjs-patch.ts).
  const pdfjs = { pdfjs: resolved("pdfjs-dist/legacy/build/pdf.mjs"), pdfjsWorker: pdfjsWorkerModule().url, shippedWorker: resolved("pdfjs-dist/legacy/build/pdf.worker.mjs") };
  const fromSource = import.meta.url.endsWith(".ts");
  const url = new URL(`./pdf-thread-worker.${fromSource ? "ts" : "js"}`, import.meta.url).href;
  if (!fromSource) return { url, ...pdfjs };
  // Only when running from source (tests): tsx's ESM API sits next to the CommonJS file
  // `require.resolve` finds (the CommonJS `tsImport` looks for it at a wrong path).
  const tsx = pathToFileURL(require.resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  return { url, ...pdfjs, tsx };
}

class ParserThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  #nextId = 1;
  #idle: NodeJS.Timeout | undefined;
  dead = false;
  /** Documents given up while this thread was still working on them: no new work until they settle. */
  abandoned = 0;

  constructor(WorkerClass: typeof Worker) {
    this.#worker = new WorkerClass(BOOT, { eval: true, workerData: workerData(), resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_MB } });
    this.#worker.on("message", (reply: ThreadReply) => this.#settle(reply));
    this.#worker.on("error", (error) => this.#die(error));
    // An answer that cannot be decoded would leave its request waiting: stop the thread.
    this.#worker.on("messageerror", (error) => this.stop(`an answer could not be read: ${error.message}`));
    this.#worker.on("exit", (code) => this.#die(new Error(`exited with code ${code}`)));
    // Idle from the start: a thread started to fill the pool may never be given work. After
    // the listeners: adding a "message" listener refs the thread's port again, and a
    // thread that never got work then kept the process alive (30 s, until its idle exit).
    this.#rest();
  }

  /** Requests in flight. */
  get load(): number {
    return this.#pending.size;
  }

  request<T>(message: Request, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.dead) return Promise.reject(new DocParseError(500, "The PDF parser thread stopped"));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.size === 0) this.#busy();
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** A request with no answer (close). */
  send(message: Request): void {
    if (!this.dead) this.#worker.postMessage({ ...message, id: 0 });
  }

  /** Stops the thread now; its pending requests fail. */
  stop(reason: string): void {
    this.#die(new Error(reason));
    void this.#worker.terminate();
  }

  #settle(reply: ThreadReply): void {
    const waiting = this.#pending.get(reply.id);
    if (!waiting) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#rest();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(new DocParseError(reply.error.code, reply.error.message));
  }

  /** With answers to wait for, the thread keeps the process alive. */
  #busy(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    this.#worker.ref();
  }

  #rest(): void {
    this.#worker.unref();
    // Out of the pool at once, not at its exit event: a request sent in between would fail.
    this.#idleFor(IDLE_EXIT_MS, () => {
      if (pool.length > 1) this.stop("idle");
      else this.#idleFor(LAST_THREAD_IDLE_EXIT_MS - IDLE_EXIT_MS, () => this.stop("idle"));
    });
  }

  #idleFor(ms: number, then: () => void): void {
    this.#idle = setTimeout(then, ms);
    this.#idle.unref();
  }

  #die(cause: unknown): void {
    if (this.dead) return;
    this.dead = true;
    if (this.#idle) clearTimeout(this.#idle);
    const message = cause instanceof Error ? cause.message : String(cause);
    for (const { reject } of this.#pending.values()) reject(new DocParseError(500, `The PDF parser thread stopped: ${message}`, { cause }));
    this.#pending.clear();
    const i = pool.indexOf(this);
    if (i >= 0) pool.splice(i, 1);
  }
}

const pool: ParserThread[] = [];

/**
 * The parser threads now (diagnostics): how many run, and how many have requests in
 * flight. Idle threads exit after 30 s (the last one after 10 min); one stuck on a
 * given-up document is stopped.
 */
export function parserThreadStats(): { threads: number; busy: number } {
  return { threads: pool.length, busy: pool.filter((t) => t.load > 0).length };
}

/**
 * `count` live threads, least busy first. The pool is filled up to `size` at once: a
 * thread takes a while to start (pdfjs' import), better spent before a long document
 * needs it than during.
 */
async function threads(count: number, size: number): Promise<ParserThread[]> {
  const ready = (): ParserThread[] => pool.filter((t) => t.abandoned === 0);
  if (ready().length < Math.max(count, size)) {
    const { Worker } = await import("node:worker_threads");
    while (ready().length < Math.max(count, size)) pool.push(new ParserThread(Worker));
  }
  return ready()
    .sort((a, b) => a.load - b.load)
    .slice(0, count);
}

let nextDoc = 1;

/** Options for {@link ThreadedPdf}. */
export interface ThreadedPdfOptions {
  password?: string;
  /** Largest image (pixels) pdfjs decodes. */
  maxImagePixels: number;
  /** Parser threads this document may use. @default DEFAULT_PDF_THREADS */
  threads?: number;
}

/**
 * A PDF open on parser threads. `opened` resolves once the first thread has read the
 * document's structure; `close()` (always call it, also after a failed open) frees it on
 * every thread.
 */
export class ThreadedPdf {
  readonly #id = nextDoc++;
  readonly #bytes: Uint8Array;
  readonly #options: ThreadedPdfOptions;
  readonly #on = new Map<ParserThread, Promise<unknown>>();
  /** This document's requests still running, per thread. */
  readonly #running = new Map<ParserThread, number>();
  /** Per thread this document was given up on while busy there: gives the thread back. */
  readonly #release = new Map<ParserThread, () => void>();
  #closed = false;
  readonly opened: Promise<OpenedPdf>;

  get #size(): number {
    return this.#options.threads ?? DEFAULT_PDF_THREADS;
  }

  constructor(bytes: Uint8Array, options: ThreadedPdfOptions) {
    this.#bytes = bytes;
    this.#options = options;
    this.opened = this.#open(true);
  }

  /** Opens the document on the least busy thread; once more on another if that one stops meanwhile. */
  async #open(retry: boolean): Promise<OpenedPdf> {
    const [thread] = await threads(1, this.#size);
    try {
      return (await this.#openOn(thread!, true)) as OpenedPdf;
    } catch (error) {
      if (!retry || !thread!.dead || this.#closed) throw error;
      return this.#open(false);
    }
  }

  #openOn(thread: ParserThread, outline: boolean): Promise<unknown> {
    let opening = this.#on.get(thread);
    // After close() nothing would free a document opened now.
    if (!opening && this.#closed) return Promise.reject(new DocParseError(LocalErrorCode.Aborted, "The document was closed"));
    if (!opening) {
      // Each thread gets its own copy, transferred: pdfjs keeps it for the document's life.
      // Copied by the constructor: a Node Buffer's slice() is a view, and its buffer the caller's.
      const bytes = new Uint8Array(this.#bytes);
      const { password, maxImagePixels } = this.#options;
      opening = this.#track(thread, thread.request({ op: "open", doc: this.#id, bytes, password, maxImagePixels, outline }, [bytes.buffer]));
      this.#on.set(thread, opening);
    }
    return opening;
  }

  /**
   * Reads `numbers` (1-based page numbers) on up to `threads` threads. Each entry of the
   * answer is the page's result or the error that page failed with, in `numbers` order.
   *
   * Pages lost to a thread that stopped (another document's memory bomb, a crash) are
   * read once more on the pool's live threads (a new one replaces the stopped one); a
   * page that stops a thread twice fails with 500.
   */
  async readPages(numbers: readonly number[], options: TextPageOptions): Promise<(TextPageResult | DocParseError)[]> {
    await this.opened;
    const results: (TextPageResult | DocParseError | undefined)[] = new Array(numbers.length);
    const all = Array.from(numbers.keys());
    let lost = await this.#readRound(numbers, all, options, results);
    if (lost.length > 0 && !this.#closed) lost = await this.#readRound(numbers, lost, options, results);
    const gone = new DocParseError(500, "No PDF parser thread was left to read the page");
    for (const i of lost) results[i] ??= gone;
    return Array.from(results, (r) => r ?? gone);
  }

  /** Reads `numbers[i]` for each i of `which` into `results`; returns the i whose thread stopped under them. */
  async #readRound(numbers: readonly number[], which: number[], options: TextPageOptions, results: (TextPageResult | DocParseError | undefined)[]): Promise<number[]> {
    const wanted = Math.max(1, Math.min(this.#size, Math.ceil(which.length / PAGES_PER_THREAD)));
    const lost: number[] = [];
    let cursor = 0;
    const lane = async (thread: ParserThread): Promise<void> => {
      while (!this.#closed && !thread.dead && cursor < which.length) {
        const i = which[cursor++]!;
        try {
          results[i] = await this.#track(thread, thread.request<TextPageResult>({ op: "page", doc: this.#id, page: numbers[i]!, options }));
        } catch (error) {
          results[i] = DocParseError.isInstance(error) ? error : new DocParseError(500, String(error), { cause: error });
          if (thread.dead) lost.push(i);
        }
      }
    };
    const lanes: Promise<void>[] = [];
    for (const thread of await threads(wanted, this.#size)) {
      // A thread that cannot open the document leaves its pages to the others.
      const ready = this.#openOn(thread, false).then(() => true, () => false);
      for (let k = 0; k < IN_FLIGHT; k++) lanes.push(ready.then((ok) => (ok ? lane(thread) : undefined)));
    }
    await Promise.all(lanes);
    // Pages never handed out: every thread of this round stopped first.
    for (const i of which.slice(cursor)) lost.push(i);
    return lost;
  }

  #track<T>(thread: ParserThread, request: Promise<T>): Promise<T> {
    this.#running.set(thread, (this.#running.get(thread) ?? 0) + 1);
    const done = (): void => {
      const left = this.#running.get(thread)! - 1;
      this.#running.set(thread, left);
      if (left === 0) this.#release.get(thread)?.();
    };
    request.then(done, done);
    return request;
  }

  /**
   * Frees the document on every thread it was opened on, once the pages a thread is
   * reading are done; pages not yet handed out end with an error. A thread still busy
   * with this document `ABANDON_GRACE_MS` later is stopped.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // Closed before it reached a thread, `opened` rejects: not an unhandled rejection.
    this.opened.catch(() => undefined);
    for (const [thread, opening] of this.#on) {
      opening.catch(() => undefined);
      thread.send({ op: "close", doc: this.#id });
    }
    for (const [thread, running] of this.#running) {
      if (running === 0) continue;
      thread.abandoned++;
      // New work again as soon as this document's requests there are answered.
      const release = (): void => {
        if (!this.#release.delete(thread)) return;
        clearTimeout(timer);
        thread.abandoned--;
      };
      const timer = setTimeout(() => {
        release();
        if (this.#running.get(thread)! > 0) thread.stop("a page was still being read after its document was given up");
      }, ABANDON_GRACE_MS);
      timer.unref();
      this.#release.set(thread, release);
    }
  }
}
