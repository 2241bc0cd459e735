import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/system.js";
import { DocParseError } from "../../src/errors.js";
import { ocrConcurrency, ocrImage, ocrLanguages, ocrStats, setOcrConcurrency, setOcrIdleTimeout, terminateOcr } from "../../src/engine/ocr.js";
import type { FormatContext } from "../../src/engine/draft.js";
import { charAccuracy, renderTextImage } from "../support/office-fixtures.js";

const LINES = [
  "The quick brown fox jumps over the lazy dog.",
  "Invoice number 12345 dated 2024-03-15.",
  "Total amount due: $1,234.56 by April 30.",
];

afterAll(() => terminateOcr());

/**
 * Runs `body` in a fresh process (TypeScript, top-level await; `ocrImage`, `terminateOcr`
 * and `renderTextImage` imported) with `env` added. Returns its stdout, exit code, when
 * it exited and when a text first showed in its output.
 */
async function inChild(body: string, env: Record<string, string> = {}): Promise<{ out: string; code: number | null; exitedAt: number; seenAt: (text: string) => number }> {
  const dir = tempDir();
  try {
    const src = (p: string) => JSON.stringify(fileURLToPath(new URL(p, import.meta.url)));
    const script = join(dir.path, "ocr-child.mts");
    writeFileSync(
      script,
      `import { ocrImage, terminateOcr } from ${src("../../src/engine/ocr.ts")};
      import { renderTextImage } from ${src("../support/office-fixtures.ts")};
      ${body}`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: fileURLToPath(new URL("../..", import.meta.url)), env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    // tesseract writes its own complaints to stderr (broken data, tests that mean it).
    child.stderr.resume();
    let out = "";
    const seen: { at: number; out: string }[] = [];
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      seen.push({ at: Date.now(), out });
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const exitedAt = Date.now();
    return { out, code, exitedAt, seenAt: (text) => seen.find((s) => s.out.includes(text))?.at ?? exitedAt };
  } finally {
    dir.cleanup();
  }
}

describe("ocrImage", () => {
  it("reads rendered English text offline with high character accuracy", async () => {
    const png = await renderTextImage(LINES);
    const result = await ocrImage(png);
    const text = result.lines.map((l) => l.text).join("\n");
    const accuracy = charAccuracy(LINES.join("\n"), text);
    console.log(`[ocr] character accuracy ${(accuracy * 100).toFixed(2)}% on ${LINES.join(" ").length} chars`);
    expect(accuracy).toBeGreaterThan(0.95);
    expect(result.lines).toHaveLength(3);
    expect(result.width).toBeGreaterThan(0);
  });

  it("gives lines, words and chars pixel boxes inside the image, top to bottom", async () => {
    const png = await renderTextImage(LINES.slice(0, 2));
    const { width, height, lines } = await ocrImage(png);
    expect(lines[0]!.box.y1).toBeLessThan(lines[1]!.box.y0 + 1);
    for (const line of lines) {
      expect(line.confidence).toBeGreaterThan(0.5);
      expect(line.confidence).toBeLessThanOrEqual(1);
      for (const w of line.words) {
        expect(w.box.x0).toBeGreaterThanOrEqual(line.box.x0);
        expect(w.box.x1).toBeLessThanOrEqual(width);
        expect(w.box.y1).toBeLessThanOrEqual(height);
        expect(w.chars!.map((c) => c.text).join("")).toBe(w.text);
        for (const c of w.chars!) expect(c.candidates.length).toBeGreaterThan(0);
      }
    }
  });

  it("reads JPEG and WebP as well as PNG", async () => {
    for (const format of ["jpeg", "webp"] as const) {
      const img = await renderTextImage([LINES[0]!], { format });
      const { lines } = await ocrImage(img);
      expect(charAccuracy(LINES[0]!, lines.map((l) => l.text).join(" "))).toBeGreaterThan(0.9);
    }
  });

  it("rejects bytes that are not an image with 40422 and keeps working after", async () => {
    const err = await ocrImage(new TextEncoder().encode("not an image at all")).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40422);
    const { lines } = await ocrImage(await renderTextImage(["Still alive"]));
    expect(lines[0]?.text).toBe("Still alive");
  });

  it("honours an aborted signal", async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await ocrImage(await renderTextImage(["x"]), { signal: ac.signal }).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe("DOCPARSE_ABORTED");
  });

  it("stops a running recognition when the signal aborts mid-way", async () => {
    const ac = new AbortController();
    const big = await renderTextImage(Array.from({ length: 30 }, () => LINES[0]!));
    const pending = ocrImage(big, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const err = await pending.catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe("DOCPARSE_ABORTED");
    const { lines } = await ocrImage(await renderTextImage(["Back again"]));
    expect(lines[0]?.text).toBe("Back again");
  });

  it("keeps no copy of the language data on disk once the worker has it", async () => {
    const dir = tempDir();
    try {
      const { out } = await inChild(
        `import { readdirSync } from "node:fs";
        import { tmpdir } from "node:os";
        import { join } from "node:path";
        await ocrImage(await renderTextImage(["Nothing left behind"]), { lang: "eng+deu" });
        const dirs = readdirSync(tmpdir()).filter((d) => d.startsWith("docparse-ocr-"));
        console.log("FILES " + JSON.stringify(dirs.map((d) => readdirSync(join(tmpdir(), d)))));
        process.kill(process.pid, "SIGKILL");`,
        { TMPDIR: dir.path },
      );
      // One worker folder, empty while the worker runs (a kill leaves no megabytes behind).
      expect(out).toContain("FILES [[]]");
    } finally {
      dir.cleanup();
    }
  }, 60_000);

  it("removes at exit the folder of a worker still being terminated", async () => {
    const dir = tempDir();
    try {
      const { out, code } = await inChild(
        `const call = ocrImage(await renderTextImage(["Exit while ending"])).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 20));
        // Not awaited: the worker is still starting, so its folder goes only once it ended.
        void terminateOcr();
        console.log("EXITING");
        process.exit(0);`,
        { TMPDIR: dir.path },
      );
      expect(out).toContain("EXITING");
      expect(code).toBe(0);
      expect(readdirSync(dir.path).filter((d) => d.startsWith("docparse-ocr-"))).toEqual([]);
    } finally {
      dir.cleanup();
    }
  }, 60_000);

  it("never keeps a process alive while idle (no terminateOcr needed)", async () => {
    const { out, code, exitedAt, seenAt } = await inChild(`console.log("DONE " + (await ocrImage(await renderTextImage(["Exit quickly"]))).lines[0]?.text);`);
    expect(out).toContain("DONE Exit quickly");
    expect(code).toBe(0);
    // The idle timer is 30 s: exiting this fast means the idle thread did not hold the process.
    expect(exitedAt - seenAt("DONE")).toBeLessThan(5000);
  }, 60_000);

  it("fails a language whose data is broken (DOCPARSE_MISSING_DEPENDENCY), removes its folder and stays usable", async () => {
    // tesseract.js 7 settles createWorker only when its wasm fails: data that fails to
    // load (a truncated .gz) left the call and every queued one waiting forever, and data
    // that fails to initialise crashed the process (a stray "resolve" after the "reject").
    const dir = tempDir();
    try {
      const eng = readFileSync(join(dirname(createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int", "eng.traineddata.gz"));
      const pkg = (code: string, data: Uint8Array): void => {
        const folder = join(dir.path, "node_modules", "@tesseract.js-data", code);
        mkdirSync(join(folder, "4.0.0_best_int"), { recursive: true });
        writeFileSync(join(folder, "package.json"), JSON.stringify({ name: `@tesseract.js-data/${code}`, version: "1.0.0" }));
        writeFileSync(join(folder, "4.0.0_best_int", `${code}.traineddata.gz`), data);
      };
      pkg("zzt", eng.subarray(0, 100_000)); // truncated gzip: gunzip fails while loading
      pkg("zzg", Buffer.alloc(5000, 7)); // not gzip, not traineddata: initialising fails
      const tmp = join(dir.path, "tmp");
      mkdirSync(tmp);
      const { out, code } = await inChild(
        `import { readdirSync } from "node:fs";
        process.on("uncaughtException", (e) => { console.log("UNCAUGHT " + String(e)); process.exit(3); });
        setTimeout(() => { console.log("HANG"); process.exit(2); }, 20_000).unref();
        const folders = () => readdirSync(${JSON.stringify(tmp)}).filter((n) => n.startsWith("docparse-ocr-")).length;
        const png = await renderTextImage(["Still here"]);
        for (const lang of ["zzt", "zzg"]) {
          const error = await ocrImage(png, { lang }).then(() => undefined, (e) => e);
          console.log("FAILED " + lang + " " + error?.code + " " + folders());
        }
        console.log("READ " + (await ocrImage(png)).lines[0]?.text);
        await terminateOcr();
        console.log("LEFT " + folders());`,
        { NODE_PATH: join(dir.path, "node_modules"), TMPDIR: tmp },
      );
      expect(out.trim().split("\n")).toEqual(["FAILED zzt DOCPARSE_MISSING_DEPENDENCY 0", "FAILED zzg DOCPARSE_MISSING_DEPENDENCY 0", "READ Still here", "LEFT 0"]);
      expect(code).toBe(0);
    } finally {
      dir.cleanup();
    }
  }, 60_000);

  it("stops a call whose signal aborts while the worker is still starting (DOCPARSE_ABORTED)", async () => {
    await terminateOcr();
    const png = await renderTextImage(["Abort while starting"]);
    const controller = new AbortController();
    const call = ocrImage(png, { signal: controller.signal });
    // Starting a worker (wasm, language data) takes hundreds of ms; the abort lands in it.
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect((await ocrImage(png)).lines[0]?.text).toBe("Abort while starting");
  });
});

describe("OCR worker threads", () => {
  it("fails the call of a worker whose thread throws (500), keeps the process up and serves the next call on a new worker", async () => {
    const ocrModule = JSON.stringify(fileURLToPath(new URL("../../src/engine/ocr.ts", import.meta.url)));
    const { out, code } = await inChild(
      `import { createRequire } from "node:module";
      import { ocrStats } from ${ocrModule};
      setTimeout(() => { console.log("HANG"); process.exit(2); }, 30_000).unref();
      // The threads tesseract.js spawns, seen the way ocr.ts sees them.
      const nodeWorker = createRequire(${ocrModule})("tesseract.js/src/worker/node/index.js");
      const threads = [];
      const spawn = nodeWorker.spawnWorker;
      nodeWorker.spawnWorker = (options) => { const thread = spawn(options); threads.push(thread); return thread; };
      const png = await renderTextImage(["Crash test words"]);
      console.log("READ " + (await ocrImage(png)).lines[0].text);
      // A message tesseract's worker script cannot dispatch throws in its thread, before
      // the next call's job: the thread dies with an uncaught error.
      threads.at(-1).postMessage({ action: "no-such-action" });
      const failed = await ocrImage(png).then(() => "read", (e) => e.code);
      console.log("FAILED " + failed + " " + ocrStats().workers);
      console.log("READ " + (await ocrImage(png)).lines[0].text + " " + ocrStats().started);
      await terminateOcr();
      process.exit(0);`,
    );
    expect(code, out).toBe(0);
    expect(out.trim().split("\n")).toEqual(["READ Crash test words", "FAILED 500 0", "READ Crash test words 2"]);
  }, 60_000);
});

describe("OCR languages", () => {
  const GERMAN = ["Die Größe der Straße überrascht außerordentlich.", "Übung macht den Meister: schön, müde, heiß."];

  it("reads German with its language data installed, where the English model loses ä, ö, ü and ß", async () => {
    const png = await renderTextImage(GERMAN);
    const read = async (lang: string): Promise<string> => (await ocrImage(png, { lang })).lines.map((l) => l.text).join("\n");
    const english = await read("eng");
    const german = await read("deu");
    const both = await read("eng+deu");
    expect(english).not.toContain("ß");
    expect(charAccuracy(GERMAN.join("\n"), german)).toBeGreaterThan(0.98);
    expect(charAccuracy(GERMAN.join("\n"), both)).toBeGreaterThan(0.98);
    expect(german).toContain("Größe der Straße");
    expect(charAccuracy(GERMAN.join("\n"), german)).toBeGreaterThan(charAccuracy(GERMAN.join("\n"), english));
  });

  it("names the package of a language that is not installed, and checks codes", async () => {
    const png = await renderTextImage(["x"]);
    const missing = await ocrImage(png, { lang: "eng+fra" }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "DOCPARSE_MISSING_DEPENDENCY" });
    expect((missing as Error).message).toContain("npm install @tesseract.js-data/fra");
    await expect(ocrImage(png, { lang: "en-US" })).rejects.toMatchObject({ code: 40004 });
    // The worker survives both.
    expect((await ocrImage(await renderTextImage(["Still here"]))).lines[0]?.text).toBe("Still here");
  });

  it("reads engine_params.ocr_languages: a string or an array, checked up front (40004 with the package to install)", () => {
    const ctx = (ocr_languages?: unknown): Pick<FormatContext, "config"> => ({ config: { config: { engine_params: ocr_languages === undefined ? {} : { ocr_languages } } } as FormatContext["config"] });
    expect(ocrLanguages(ctx())).toBe("eng");
    expect(ocrLanguages(ctx("deu"))).toBe("deu");
    expect(ocrLanguages(ctx(["eng", "deu"]))).toBe("eng+deu");
    for (const bad of [42, "", "en-US", ["eng", 7], "eng++deu"]) expect(() => ocrLanguages(ctx(bad)), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 40004 }));
    expect(() => ocrLanguages(ctx("fra"))).toThrow(/npm install @tesseract.js-data\/fra/);
  });

  it("keeps the missing-dependency error as the cause of its 40004", () => {
    const ctx = { config: { config: { engine_params: { ocr_languages: "eng+fra" } } } } as Pick<FormatContext, "config">;
    expect(() => ocrLanguages(ctx)).toThrow(expect.objectContaining({ code: 40004, cause: expect.objectContaining({ code: "DOCPARSE_MISSING_DEPENDENCY" }) }));
  });
});

describe("OCR worker pool", () => {
  const read = async (png: Uint8Array, lang: string): Promise<string> => (await ocrImage(png, { lang })).lines.map((l) => l.text).join(" ");
  // Each test sets the pool size it needs; the default comes back after it.
  const defaultSize = ocrConcurrency();
  afterEach(() => void setOcrConcurrency(defaultSize));
  /** The pool at `size` workers, emptied: the next call starts a worker. */
  const freshPool = async (size: number): Promise<void> => {
    setOcrConcurrency(size);
    await terminateOcr();
  };

  it("keeps a worker per language: calls alternating two languages start two workers, not one per call", async () => {
    await freshPool(2);
    const english = await renderTextImage(["Plain English words"]);
    const german = await renderTextImage(["Größe der Straße"]);
    const before = ocrStats().started;
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push(await read(english, "eng"), await read(german, "deu"));
    expect(texts).toEqual(Array.from({ length: 3 }, () => ["Plain English words", "Größe der Straße"]).flat());
    expect(ocrStats().started - before).toBe(2);
    expect(ocrStats()).toMatchObject({ workers: 2, busy: 0, waiting: 0 });
  }, 60_000);

  it("reads images side by side up to the pool size; beyond it, calls wait in order", async () => {
    setOcrConcurrency(2);
    const images = await Promise.all(["First image text", "Second image text", "Third image text"].map((t) => renderTextImage([t])));
    let peakBusy = 0;
    let peakWaiting = 0;
    const sampler = setInterval(() => {
      const { busy, waiting } = ocrStats();
      peakBusy = Math.max(peakBusy, busy);
      peakWaiting = Math.max(peakWaiting, waiting);
    }, 2);
    const finished: string[] = [];
    const texts = await Promise.all(
      images.map(async (png) => {
        const text = await read(png, "eng");
        finished.push(text);
        return text;
      }),
    );
    clearInterval(sampler);
    expect(texts).toEqual(["First image text", "Second image text", "Third image text"]);
    expect(peakBusy).toBe(2);
    expect(peakWaiting).toBeGreaterThanOrEqual(1);
    // The third call waited for a worker: it cannot have finished first.
    expect(finished[0]).not.toBe("Third image text");
    expect(ocrStats()).toMatchObject({ busy: 0, waiting: 0 });
  }, 60_000);

  it("with one worker, a call of another language replaces it; a waiting call can be aborted", async () => {
    await freshPool(1);
    const english = await renderTextImage(["One worker only"]);
    const before = ocrStats().started;
    expect(await read(english, "eng")).toBe("One worker only");
    expect(await read(english, "eng+deu")).toBe("One worker only");
    expect(ocrStats()).toMatchObject({ workers: 1 });
    expect(ocrStats().started - before).toBe(2);
    // A call queued behind a running one leaves the queue when its signal aborts.
    const running = read(english, "eng+deu");
    const controller = new AbortController();
    const queued = ocrImage(english, { lang: "eng+deu", signal: controller.signal });
    expect(ocrStats().waiting).toBe(1);
    controller.abort();
    await expect(queued).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect(ocrStats().waiting).toBe(0);
    expect(await running).toBe("One worker only");
  }, 60_000);

  /** `call`'s outcome, or "pending" when it has not settled within `ms` (a call that would wait forever). */
  const settled = <T,>(call: Promise<T>, ms = 10_000): Promise<T | "pending"> =>
    Promise.race([call, new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms).unref())]);

  it("fails a call whose worker terminateOcr() ends, while it reads or while it starts (it never waits forever)", async () => {
    await freshPool(1);
    const big = await renderTextImage(Array.from({ length: 30 }, () => LINES[0]!));
    // tesseract.js' terminate() kills the thread and never settles the job running on it.
    const starting = ocrImage(big).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await terminateOcr();
    expect(await settled(starting)).toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect(await ocrImage(await renderTextImage(["Warm again"]))).toMatchObject({ lines: [{ text: "Warm again" }] });
    const reading = ocrImage(big).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ocrStats().busy).toBe(1);
    await terminateOcr();
    expect(await settled(reading)).toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect(ocrStats()).toMatchObject({ workers: 0, busy: 0, waiting: 0 });
    expect((await ocrImage(await renderTextImage(["After the end"]))).lines[0]?.text).toBe("After the end");
  }, 60_000);

  it("lowering the pool size ends idle workers over it: no more reads at once than the new size, no wait for an idle timeout", async () => {
    await freshPool(2);
    const png = await renderTextImage(["Smaller pool"]);
    await Promise.all([ocrImage(png), ocrImage(png)]);
    expect(ocrStats()).toMatchObject({ workers: 2, busy: 0 });
    setOcrConcurrency(1);
    expect(ocrStats().workers).toBe(1);
    // Another language replaces the idle worker at once (it waited for the 30 s idle
    // timer of the worker over the limit, with nothing holding the process open).
    expect(await settled(read(png, "deu"))).toBe("Smaller pool");
    let peakBusy = 0;
    const sampler = setInterval(() => (peakBusy = Math.max(peakBusy, ocrStats().busy)), 2);
    try {
      await Promise.all([read(png, "deu"), read(png, "deu")]);
    } finally {
      clearInterval(sampler);
    }
    expect(peakBusy).toBe(1);
    expect(ocrStats()).toMatchObject({ workers: 1, busy: 0, waiting: 0 });
  }, 60_000);

  it("a worker that cannot get its temp folder fails its call alone: later calls are served, none waits forever", async () => {
    await freshPool(1);
    const tmp = process.env.TMPDIR;
    try {
      const png = await renderTextImage(["Temp folder back"]);
      process.env.TMPDIR = "/nonexistent-docparse-tmp/deeper";
      const failed = await settled(ocrImage(png).catch((e: unknown) => e));
      expect(failed).toMatchObject({ code: "ENOENT" });
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
      expect(ocrStats()).toMatchObject({ workers: 0, busy: 0, waiting: 0 });
      // The failed call stayed first in line: the next worker went to it, busy for good.
      expect(await settled(read(png, "eng"))).toBe("Temp folder back");
      expect(ocrStats()).toMatchObject({ workers: 1, busy: 0, waiting: 0 });
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
  }, 60_000);

  it("starts no worker for a waiting call whose signal has aborted (one signal for a running and a waiting call)", async () => {
    await freshPool(1);
    const png = await renderTextImage(["Both aborted"]);
    expect(await read(png, "eng")).toBe("Both aborted");
    const before = ocrStats().started;
    const big = await renderTextImage(Array.from({ length: 30 }, () => LINES[0]!));
    const controller = new AbortController();
    const running = ocrImage(big, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Queued after the first call began reading: that call's listener runs first on abort
    // and ends its worker, which frees room in the pool while this one is still queued.
    const waiting = ocrImage(png, { signal: controller.signal }).catch((e: unknown) => e);
    expect(ocrStats()).toMatchObject({ busy: 1, waiting: 1 });
    controller.abort();
    expect(await running).toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect(await waiting).toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect(ocrStats()).toMatchObject({ workers: 0, busy: 0, waiting: 0, started: before });
  }, 60_000);

  it("fails a call in languages it cannot load before it takes a worker: the idle worker of another language stays", async () => {
    await freshPool(1);
    const png = await renderTextImage(["Worker stays"]);
    expect(await read(png, "eng")).toBe("Worker stays");
    const before = ocrStats().started;
    await expect(ocrImage(png, { lang: "eng+fra" })).rejects.toMatchObject({ code: "DOCPARSE_MISSING_DEPENDENCY" });
    await expect(ocrImage(png, { lang: "en-US" })).rejects.toMatchObject({ code: 40004 });
    expect(ocrStats()).toMatchObject({ workers: 1, busy: 0, waiting: 0, started: before });
    expect(await read(png, "eng")).toBe("Worker stays");
    expect(ocrStats().started).toBe(before);
  }, 60_000);

  it("checks the pool size and the idle timeout", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => setOcrConcurrency(bad), String(bad)).toThrow(expect.objectContaining({ code: "DOCPARSE_INVALID_OPTION" }));
    // Past 2^31 - 1 ms a Node timer fires at once: refused, not an idle worker ended at once.
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) expect(() => setOcrIdleTimeout(bad), String(bad)).toThrow(expect.objectContaining({ code: "DOCPARSE_INVALID_OPTION" }));
    const previous = setOcrIdleTimeout(2 ** 31 - 1);
    expect(setOcrIdleTimeout(previous)).toBe(2 ** 31 - 1);
  });
});
