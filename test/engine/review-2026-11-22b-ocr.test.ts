import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { FormatContext } from "../../src/engine/draft.js";
import { ocrImage, ocrLanguages, terminateOcr } from "../../src/engine/ocr.js";
import { renderTextImage } from "../support/office-fixtures.js";
import { tempDir } from "../support/system.js";

// Review 2026-11-22b of "OCR in any language": tesseract.js 7 settles createWorker only
// when its wasm fails to load. Language data that fails to load (a truncated .gz) left
// the call, and every OCR call queued after it, waiting forever; data that loads but
// fails to initialise crashed the process (a stray "resolve" after the "reject" throws a
// TypeError in tesseract's message handler). Runs in a child process whose NODE_PATH holds
// two broken @tesseract.js-data packages and whose TMPDIR is private (to see the cache dirs).
describe("ocrImage with broken language data", () => {
  it("fails the call (DOCPARSE_MISSING_DEPENDENCY), removes its cache dir and keeps OCR usable", async () => {
    const dir = tempDir();
    try {
      const root = fileURLToPath(new URL("../..", import.meta.url));
      const eng = join(dirname(createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int", "eng.traineddata.gz");
      const head = Buffer.alloc(100_000);
      const fd = openSync(eng, "r");
      readSync(fd, head, 0, head.length, 0);
      closeSync(fd);
      const pkg = (code: string, data: Uint8Array) => {
        const folder = join(dir.path, "node_modules", "@tesseract.js-data", code);
        mkdirSync(join(folder, "4.0.0_best_int"), { recursive: true });
        writeFileSync(join(folder, "package.json"), JSON.stringify({ name: `@tesseract.js-data/${code}`, version: "1.0.0" }));
        writeFileSync(join(folder, "4.0.0_best_int", `${code}.traineddata.gz`), data);
      };
      pkg("zzt", head); // truncated gzip: gunzip fails in loadLanguage
      pkg("zzg", Buffer.alloc(5000, 7)); // not gzip, not traineddata: initialize fails
      const tmp = join(dir.path, "tmp");
      mkdirSync(tmp);
      const src = (p: string) => JSON.stringify(fileURLToPath(new URL(p, import.meta.url)));
      const script = join(dir.path, "broken-lang.mts");
      writeFileSync(
        script,
        `import { readdirSync } from "node:fs";
import { ocrImage, terminateOcr } from ${src("../../src/engine/ocr.ts")};
import { renderTextImage } from ${src("../support/office-fixtures.ts")};
process.on("uncaughtException", (e) => { console.log("UNCAUGHT " + String(e)); process.exit(3); });
setTimeout(() => { console.log("HANG"); process.exit(2); }, 20_000).unref();
const cacheDirs = () => readdirSync(${JSON.stringify(tmp)}).filter((n) => n.startsWith("docparse-ocr-")).length;
const png = await renderTextImage(["Still here"]);
for (const lang of ["zzt", "zzg"]) {
  const error = await ocrImage(png, { lang }).then(() => undefined, (e) => e);
  console.log("FAILED " + lang + " " + error?.code + " " + cacheDirs());
}
console.log("READ " + (await ocrImage(png)).lines[0]?.text);
await terminateOcr();
console.log("LEFT " + cacheDirs());`,
      );
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        cwd: root,
        env: { ...process.env, NODE_PATH: join(dir.path, "node_modules"), TMPDIR: tmp },
        stdio: ["ignore", "pipe", "ignore"],
      });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(out.trim().split("\n")).toEqual([
        "FAILED zzt DOCPARSE_MISSING_DEPENDENCY 0",
        "FAILED zzg DOCPARSE_MISSING_DEPENDENCY 0",
        "READ Still here",
        "LEFT 0",
      ]);
      expect(code).toBe(0);
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});

describe("ocrImage: signal", () => {
  afterAll(() => terminateOcr());

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

describe("ocrLanguages", () => {
  it("keeps the missing-dependency error as the cause of its 40004", () => {
    const ctx = { config: { config: { engine_params: { ocr_languages: "eng+fra" } } } } as unknown as Pick<FormatContext, "config">;
    const error = (() => {
      try {
        return ocrLanguages(ctx);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ code: 40004, cause: { code: "DOCPARSE_MISSING_DEPENDENCY" } });
  });
});
