import { copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { DocParseError, LocalErrorCode, abortError } from "../errors.js";
import type { FormatContext } from "./draft.js";
import { imageSize } from "./formats/image-size.js";
import { processTempDir } from "./process-temp.js";

/**
 * Offline OCR with tesseract.js and the `@tesseract.js-data/<language>` packages
 * (`@tesseract.js-data/eng` ships with docparse-rag; install others to read other
 * languages, e.g. `npm install @tesseract.js-data/deu`).
 *
 * Nothing is downloaded: each language's traineddata (LSTM `best_int` model, gzipped as
 * the package ships it) is copied from its package into a private temp dir, where
 * tesseract.js looks for its cache, and read from there.
 *
 * Calls share a small pool of workers (each a tesseract thread with its languages
 * loaded; the wasm engine is single-threaded, so each reads one image at a time). A call
 * takes an idle worker that has its languages, else starts one while the pool has room,
 * else replaces the idle worker unused longest; when every worker is busy it waits, in
 * call order. Workers end after `idleMs` without work, on {@link terminateOcr} and at
 * process exit.
 */

/** A box in pixels of the input image, origin top-left. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One recognised character. */
export interface OcrChar {
  text: string;
  box: PixelBox;
  /** 0..1. */
  confidence: number;
  /** Alternatives tesseract considered, best first (may be empty). */
  candidates: { text: string; confidence: number }[];
}

/** One recognised word. */
export interface OcrWord {
  text: string;
  box: PixelBox;
  /** 0..1. */
  confidence: number;
  chars?: OcrChar[];
}

/** One recognised text line. */
export interface OcrLine {
  text: string;
  box: PixelBox;
  /**
   * Height of the line's type, descender to ascender, in pixels, as Tesseract models the
   * row (its x-height, ascenders and descenders): unlike the box, the same for `mat.` and
   * `play` set in one font. Absent when Tesseract gives none.
   */
  rowHeight?: number;
  /** 0..1. */
  confidence: number;
  words: OcrWord[];
}

/** What {@link ocrImage} found in one image. */
export interface OcrResult {
  /** Pixel size of the image as tesseract read it. */
  width: number;
  height: number;
  /** Text lines in reading order (tesseract's block → paragraph → line order). */
  lines: OcrLine[];
}

/** Options of {@link ocrImage}. */
export interface OcrOptions {
  /** Cancels the call; a running recognition is stopped by terminating the worker. */
  signal?: AbortSignal;
  /**
   * Tesseract language code, or several joined with "+" (`eng+deu`: a page mixing both).
   * Each needs its `@tesseract.js-data/<code>` package installed; `eng` ships.
   * @default "eng"
   */
  lang?: string;
}

/**
 * Milliseconds without work after which a worker is terminated (a restart costs ~0.6 s).
 * An idle worker's thread is unref'd, so it never keeps a process alive.
 * @default 30000
 */
let idleMs = 30_000;

/** Changes how long an idle OCR worker is kept (ms, 0 to 2^31 - 1), from its next idle spell. Returns the previous value. */
export function setOcrIdleTimeout(ms: number): number {
  // Past 2^31 - 1 ms Node fires a timer after 1 ms: an idle worker would end at once.
  if (!Number.isFinite(ms) || ms < 0 || ms > 2 ** 31 - 1) {
    throw new DocParseError(LocalErrorCode.InvalidOption, `Expected \`ms\` to be a number from 0 to 2147483647 (24.8 days), got ${ms}`);
  }
  const previous = idleMs;
  idleMs = ms;
  return previous;
}

/**
 * Workers at most at once: one core is left to the calling thread (which renders the
 * pages scanned PDFs OCR), at most 2 (each holds its languages' models, ~40 MB for
 * English). @default min(2, cores - 1), at least 1
 */
let maxWorkers = Math.max(1, Math.min(2, availableParallelism() - 1));

/**
 * Changes how many OCR workers may run at once (an integer >= 1); idle workers over the
 * new count end now (unused longest first), busy ones as they become idle. Returns the
 * previous value.
 */
export function setOcrConcurrency(n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new DocParseError(LocalErrorCode.InvalidOption, `Expected \`n\` to be an integer >= 1, got ${n}`);
  }
  const previous = maxWorkers;
  maxWorkers = n;
  // An idle worker over the count would still be handed to calls (more reads at once than
  // allowed), and a call of another language would wait for its idle timer to make room.
  const idle = [...slots].filter((s) => !s.busy).sort((a, b) => a.lastUsed - b.lastUsed);
  for (const s of idle) {
    if (slots.size <= maxWorkers) break;
    void remove(s);
  }
  pump();
  return previous;
}

/** How many images {@link ocrImage} reads at once at most (the pool size). */
export function ocrConcurrency(): number {
  return maxWorkers;
}

/** The OCR pool right now, and workers started so far (each start loads its models). */
export function ocrStats(): { workers: number; busy: number; waiting: number; started: number } {
  let busy = 0;
  for (const s of slots) if (s.busy) busy++;
  return { workers: slots.size, busy, waiting: pending.length, started };
}

type TesseractWorker = import("tesseract.js").Worker;

interface WorkerSlot {
  lang: string;
  worker: Promise<TesseractWorker>;
  cacheDir: string;
  /** The worker's thread, when it could be captured (for ref/unref). */
  thread?: ThreadHandle;
  busy: boolean;
  /** When it last finished a call (for replacing the one unused longest). */
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
  /**
   * Rejects once the worker leaves the pool: tesseract.js' terminate() kills its thread
   * and never settles the job running on it, so a call reading on it races this.
   */
  ended: Promise<never>;
  end: (reason: DocParseError) => void;
}

/** A call waiting for a worker. */
interface Pending {
  lang: string;
  signal: AbortSignal | undefined;
  take: (slot: WorkerSlot) => void;
  /** It cannot be served: its worker could not be set up (temp folder), or it was aborted. */
  fail: (error: unknown) => void;
}

const slots = new Set<WorkerSlot>();
/** Cache dirs not removed yet, including those of workers being terminated (for the exit hook). */
const cacheDirs = new Set<string>();
const pending: Pending[] = [];
let started = 0;
let exitHookInstalled = false;

/** A tesseract language code: `eng`, `chi_sim`, `deu_latf`. */
const LANGUAGE_CODE = /^[a-z]{3}(?:_[a-z]+)*$/;

/** The codes of a language string (`eng+deu`); 40004 when one is not a language code. */
export function languageCodes(lang: string): string[] {
  const codes = lang.split("+");
  for (const code of codes) {
    if (!LANGUAGE_CODE.test(code)) {
      throw new DocParseError(40004, `Expected an OCR language code such as "eng" or "chi_sim" (several joined with "+"), got ${JSON.stringify(code)} in ${JSON.stringify(lang)}`);
    }
  }
  return codes;
}

/**
 * The gzipped traineddata of one language, from its `@tesseract.js-data/<code>` package.
 *
 * @throws DocParseError DOCPARSE_MISSING_DEPENDENCY when the package is not installed.
 */
export function languageDataFile(code: string): string {
  const require = createRequire(import.meta.url);
  let pkg: string;
  try {
    pkg = require.resolve(`@tesseract.js-data/${code}/package.json`);
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.MissingDependency, `OCR in "${code}" needs its language data: npm install @tesseract.js-data/${code}`, { cause });
  }
  // best_int: the LSTM-only integer model, 3 MB instead of 11 MB and accurate enough;
  // we run tesseract with OEM.LSTM_ONLY so the legacy model would be dead weight.
  return join(dirname(pkg), "4.0.0_best_int", `${code}.traineddata.gz`);
}

/**
 * The OCR languages a request asks for in `engine_params.ocr_languages` (`"eng+deu"` or
 * `["eng", "deu"]`), joined for tesseract.
 *
 * @throws DocParseError 40004 when the value is malformed or a language's data is not
 *   installed (the hint names the package).
 * @default "eng"
 */
export function ocrLanguages(ctx: Pick<FormatContext, "config">): string {
  const value = (ctx.config.config?.engine_params as { ocr_languages?: unknown } | undefined)?.ocr_languages;
  if (value === undefined) return "eng";
  const joined = Array.isArray(value) && value.every((v) => typeof v === "string") ? value.join("+") : value;
  if (typeof joined !== "string" || joined === "") {
    throw new DocParseError(40004, `Expected \`engine_params.ocr_languages\` to be a language string ("eng+deu") or an array of codes, got ${JSON.stringify(value)}`);
  }
  for (const code of languageCodes(joined)) {
    try {
      languageDataFile(code);
    } catch (error) {
      throw new DocParseError(40004, `\`engine_params.ocr_languages\`: ${(error as Error).message}`, { cause: error });
    }
  }
  return joined;
}

/** A thread handle we can ref/unref (node:worker_threads Worker). */
interface ThreadHandle {
  ref(): void;
  unref(): void;
  terminate?(): unknown;
  removeAllListeners?(event: string): unknown;
  on?(event: string, listener: (value: unknown) => void): unknown;
}

/** The thread of the newest tesseract worker, captured when tesseract.js spawns it. */
let lastSpawned: ThreadHandle | undefined;
let spawnHooked = false;

/**
 * tesseract.js keeps its worker thread private, and a live thread keeps the process
 * running: a CLI would hang until the idle timer fires. Wrapping its (internal, CommonJS)
 * spawn function before tesseract.js first loads lets us `unref()` the thread while it is
 * idle and `ref()` it while it works. If the internals ever move, this degrades to the
 * idle timer alone.
 */
function hookSpawn(): void {
  if (spawnHooked) return;
  spawnHooked = true;
  try {
    const require = createRequire(import.meta.url);
    const nodeWorker = require("tesseract.js/src/worker/node/index.js") as { spawnWorker?: (o: unknown) => ThreadHandle };
    const original = nodeWorker.spawnWorker;
    if (typeof original !== "function") return;
    nodeWorker.spawnWorker = (options: unknown) => {
      const thread = original(options);
      lastSpawned = thread;
      // tesseract.js listens for a thread's errors the browser way (`onerror`), which a
      // Node thread never calls: an error thrown in the thread was uncaught here and ended
      // the process, and a thread that exited left its job waiting forever.
      thread.on?.("error", (error: unknown) => threadStopped(thread, error));
      thread.on?.("exit", (code: unknown) => threadStopped(thread, `exit code ${String(code)}`));
      return thread;
    };
  } catch {
    // Internals not found: keep the idle timer as the only way the thread ends.
  }
}

/** A worker's thread failed or exited on its own: its call fails (500, retryable), the worker leaves the pool. */
function threadStopped(thread: ThreadHandle, why: unknown): void {
  for (const slot of slots) {
    if (slot.thread !== thread) continue;
    const message = why instanceof Error ? why.message : String(why);
    slot.end(new DocParseError(500, `The OCR worker stopped (${message}); the image was not read`, { cause: why }));
    void drop(slot);
  }
}

async function startWorker(slot: WorkerSlot): Promise<TesseractWorker> {
  const { lang, cacheDir } = slot;
  hookSpawn();
  let tesseract: typeof import("tesseract.js");
  try {
    tesseract = (await import("tesseract.js")).default;
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.MissingDependency, "OCR needs tesseract.js: npm install tesseract.js @tesseract.js-data/eng", {
      cause,
    });
  }
  // tesseract.js reads `<cachePath>/<code>.traineddata` before anything else (and
  // gunzips what it finds): each language comes from its own package this way.
  const files = languageCodes(lang).map((code) => [code, languageDataFile(code)] as const);
  for (const [code, file] of files) copyFileSync(file, join(cacheDir, `${code}.traineddata`));
  // tesseract.js 7 rejects createWorker only when its wasm fails to load: a language that
  // fails to load or initialise (truncated or foreign traineddata) reaches errorHandler
  // alone, and createWorker never settled (this call and every queued one waited forever).
  // A failed initialise also posts a stray "resolve" that throws in tesseract's message
  // handler (an uncaught TypeError), so that handler is detached before it arrives.
  let failStart: (reason: unknown) => void = () => {};
  const startFailed = new Promise<never>((_, reject) => (failStart = reject));
  let starting = true;
  let thread: ThreadHandle | undefined;
  const creating = tesseract.createWorker(lang, tesseract.OEM.LSTM_ONLY, {
    langPath: dirname(files[0]![1]),
    gzip: true,
    cachePath: cacheDir,
    cacheMethod: "write",
    logger: () => {},
    errorHandler: (data: unknown) => {
      if (!starting) return;
      starting = false;
      thread?.removeAllListeners?.("message");
      void thread?.terminate?.();
      failStart(data);
    },
  });
  thread = lastSpawned;
  slot.thread = thread;
  let worker: TesseractWorker;
  try {
    worker = await Promise.race([creating, startFailed]);
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.MissingDependency, `OCR could not load the language data of "${lang}" (${String(cause)}): reinstall ${files.map(([code]) => `@tesseract.js-data/${code}`).join(" ")}`, { cause });
  } finally {
    starting = false;
  }
  // The languages are in the worker now: the copies (megabytes each) go at once, so a
  // process that ends without an exit event (a signal, a killed test worker) leaves
  // behind at most an empty folder.
  for (const [code] of files) rmSync(join(cacheDir, `${code}.traineddata`), { force: true });
  // Tesseract's library default reads the image as one block of text (PSM 6): lines run
  // across a page's columns and tables. Its command line, and this engine, segment the
  // page first (PSM 3): columns, then paragraphs, then lines.
  // Its progress notes (`Estimating resolution as 236`) would print on the user's stdout.
  await worker.setParameters({ tessedit_pageseg_mode: tesseract.PSM.AUTO, debug_file: "/dev/null" } as Parameters<TesseractWorker["setParameters"]>[0]);
  return worker;
}

function ensureExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Worker threads die with the process; the hook only removes the temp cache dirs.
  process.once("exit", () => {
    for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** A new worker for `lang`, in the pool (started, not yet ready). */
function startSlot(lang: string): WorkerSlot {
  let end: (reason: DocParseError) => void = () => {};
  const ended = new Promise<never>((_, reject) => (end = reject));
  // Nobody may be reading on it when it ends.
  ended.catch(() => undefined);
  const slot: WorkerSlot = { lang, worker: undefined as unknown as Promise<TesseractWorker>, cacheDir: processTempDir("docparse-ocr-"), busy: false, lastUsed: Date.now(), ended, end };
  cacheDirs.add(slot.cacheDir);
  slots.add(slot);
  started++;
  ensureExitHook();
  slot.worker = startWorker(slot);
  // A failed start must not poison later calls: the slot goes, the next call starts anew.
  slot.worker.catch(() => void drop(slot));
  return slot;
}

/** A worker for the first waiting call's languages, if one can be had now (see the file comment). */
function pick(lang: string): WorkerSlot | undefined {
  let idleOther: WorkerSlot | undefined;
  for (const s of slots) {
    if (s.busy) continue;
    if (s.lang === lang) return s;
    if (!idleOther || s.lastUsed < idleOther.lastUsed) idleOther = s;
  }
  if (slots.size < maxWorkers) return startSlot(lang);
  if (idleOther) {
    void remove(idleOther);
    // Over the limit (lowered meanwhile): the dropped worker made no room yet.
    return slots.size < maxWorkers ? startSlot(lang) : undefined;
  }
  return undefined;
}

/** Hands workers to waiting calls, in call order, while there are workers to hand. */
function pump(): void {
  while (pending.length > 0) {
    const first = pending[0]!;
    // Aborted, its listener not run yet: one signal shared with a running call whose
    // listener ended that worker (and pumped) first. Starting a worker for it is waste.
    if (first.signal?.aborted) {
      pending.shift();
      first.fail(abortError(first.signal));
      continue;
    }
    let slot: WorkerSlot | undefined;
    try {
      slot = pick(first.lang);
    } catch (error) {
      // Its worker could not even be set up: that call fails, the next ones still get theirs
      // (left first in line, it would have been handed the next worker, busy for good).
      pending.shift()!.fail(error);
      continue;
    }
    if (!slot) return;
    slot.busy = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    pending.shift()!.take(slot);
  }
}

/** Waits for a worker with `lang` loaded; rejects when `signal` aborts first. */
function acquire(lang: string, signal: AbortSignal | undefined): Promise<WorkerSlot> {
  return new Promise<WorkerSlot>((resolve, reject) => {
    const entry: Pending = {
      lang,
      signal,
      take: (slot) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(slot);
      },
      fail: (error) => {
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      },
    };
    const onAbort = (): void => {
      const at = pending.indexOf(entry);
      if (at >= 0) pending.splice(at, 1);
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    pending.push(entry);
    pump();
  });
}

/** Gives a worker back to the pool: idle, its thread unref'd, ended after `idleMs` unused. */
function release(slot: WorkerSlot): void {
  slot.busy = false;
  slot.lastUsed = Date.now();
  slot.thread?.unref();
  if (slots.size > maxWorkers) {
    void drop(slot);
    return;
  }
  slot.idleTimer = setTimeout(() => void drop(slot), idleMs);
  // The worker thread itself keeps the process alive while it works; the timer must not
  // keep it beyond that, and ends an idle worker.
  slot.idleTimer.unref();
  pump();
}

/** Takes a worker out of the pool and terminates it (a running call on it fails); waiting calls may then start one. */
function drop(slot: WorkerSlot): Promise<void> {
  const removed = remove(slot);
  pump();
  return removed;
}

/** {@link drop} without handing out workers (for {@link pick}, inside {@link pump}). */
async function remove(slot: WorkerSlot): Promise<void> {
  if (!slots.delete(slot)) return;
  if (slot.idleTimer) clearTimeout(slot.idleTimer);
  slot.end(new DocParseError(LocalErrorCode.Aborted, "OCR stopped: its worker was terminated (terminateOcr) while it read this image"));
  try {
    const worker = await slot.worker;
    await worker.terminate();
  } catch {
    // Already dead or never started: nothing to release.
  } finally {
    rmSync(slot.cacheDir, { recursive: true, force: true });
    cacheDirs.delete(slot.cacheDir);
  }
}

/** Terminates every OCR worker now (the next call starts a new one). */
export async function terminateOcr(): Promise<void> {
  await Promise.all([...slots].map(drop));
}

const clamp01 = (n: number): number => (Number.isFinite(n) ? Math.min(1, Math.max(0, n / 100)) : 0);
const box = (b: { x0: number; y0: number; x1: number; y1: number }): PixelBox => ({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 });

interface TessSymbol {
  text: string;
  confidence: number;
  bbox: PixelBox;
  choices?: { text: string; confidence: number }[];
}
interface TessWord {
  text: string;
  confidence: number;
  bbox: PixelBox;
  symbols?: TessSymbol[];
}
interface TessLine {
  text: string;
  confidence: number;
  bbox: PixelBox;
  rowAttributes?: { rowHeight?: number };
  words?: TessWord[];
}
interface TessBlock {
  paragraphs?: { lines?: TessLine[] }[];
}

/** Converts tesseract's block tree into lines → words → chars. */
function toLines(blocks: TessBlock[] | null | undefined): OcrLine[] {
  const lines: OcrLine[] = [];
  for (const block of blocks ?? []) {
    for (const para of block.paragraphs ?? []) {
      for (const line of para.lines ?? []) {
        const words: OcrWord[] = [];
        for (const w of line.words ?? []) {
          const text = w.text.trim();
          if (!text) continue;
          const chars = (w.symbols ?? []).map<OcrChar>((s) => ({
            text: s.text,
            box: box(s.bbox),
            confidence: clamp01(s.confidence),
            // tesseract's LSTM engine reports no per-symbol choices in this build; the
            // recognised character is then its own single candidate.
            candidates: s.choices?.length
              ? s.choices.map((c) => ({ text: c.text, confidence: clamp01(c.confidence) }))
              : [{ text: s.text, confidence: clamp01(s.confidence) }],
          }));
          words.push({ text, box: box(w.bbox), confidence: clamp01(w.confidence), chars });
        }
        if (words.length === 0) continue;
        const rowHeight = line.rowAttributes?.rowHeight;
        lines.push({
          text: words.map((w) => w.text).join(" "),
          box: box(line.bbox),
          ...(rowHeight !== undefined && Number.isFinite(rowHeight) && rowHeight > 0 ? { rowHeight } : {}),
          confidence: clamp01(line.confidence),
          words,
        });
      }
    }
  }
  return lines;
}

/**
 * Recognises text in one encoded image (PNG, JPEG, BMP, WebP, GIF, PBM; TIFF where
 * tesseract's Leptonica build reads it).
 *
 * @throws DocParseError 40422 when the image cannot be decoded, DOCPARSE_ABORTED when
 *   `signal` aborts, DOCPARSE_MISSING_DEPENDENCY when tesseract.js or its data is missing.
 */
export async function ocrImage(image: Uint8Array, options: OcrOptions = {}): Promise<OcrResult> {
  const { signal, lang = "eng" } = options;
  if (signal?.aborted) throw abortError(signal);
  // Checked before taking a worker: a call that cannot load its languages would otherwise
  // replace an idle worker of another language (the only one, in a pool of one), then fail.
  for (const code of languageCodes(lang)) languageDataFile(code);
  const slot = await acquire(lang, signal);
  try {
    return await recognise(slot, image, signal);
  } finally {
    if (slots.has(slot)) release(slot);
  }
}

async function recognise(slot: WorkerSlot, image: Uint8Array, signal: AbortSignal | undefined): Promise<OcrResult> {
  // Ended while it started (terminateOcr): a job posted to it now would never settle.
  const worker = await Promise.race([slot.worker, slot.ended]);
  slot.thread?.ref();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (!signal) return;
    onAbort = () => {
      // First: ending the worker rejects `slot.ended` too, and this call is aborted.
      reject(abortError(signal));
      // tesseract cannot cancel a running job: ending the worker is the only stop.
      void drop(slot);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    // The listener above misses an abort that came while the worker was starting.
    if (signal?.aborted) throw abortError(signal);
    const job = worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { blocks: true, text: false });
    const result = await Promise.race([job, aborted, slot.ended]);
    const size = imageSize(image);
    const lines = toLines(result.data.blocks as unknown as TessBlock[] | null);
    return { width: size?.width ?? 0, height: size?.height ?? 0, lines };
  } catch (cause) {
    if (DocParseError.isInstance(cause)) throw cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    // A failed decode can leave the wasm state dirty; start fresh next time.
    void drop(slot);
    throw new DocParseError(40422, `OCR could not read the image: ${message}`, { cause });
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
