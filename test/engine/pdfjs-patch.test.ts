import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, resolve } from "node:path";
import { constants, deflateRawSync, deflateSync } from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { inflateRawWhole } from "../../src/engine/formats/pdf-inflate.js";
import { openPdf } from "../../src/engine/formats/pdf-load.js";
import { PDFJS_PATCHES, patchPdfjsWorker, pdfjsWorkerModule, removeStaleCopies, STALE_COPY_MS, writeCachedCopy } from "../../src/engine/formats/pdfjs-patch.js";
import { buildPdf, rawPdf } from "../support/pdf-fixtures.js";
import { tempDir } from "../support/system.js";
import { parsePdf } from "./pdf-helpers.js";

const root = resolve(import.meta.dirname, "../..");
const url = (path: string): string => pathToFileURL(join(root, path)).href;
/**
 * Runs `body` (TypeScript, top-level await) in a fresh process with `env` added; the
 * script writes its answer with `done(value)`. Returns that value.
 */
async function inChild<T>(body: string, env: Record<string, string>): Promise<T> {
  const dir = tempDir();
  try {
    const script = join(dir.path, "child.mts");
    const result = join(dir.path, "result.json");
    writeFileSync(
      script,
      `import { writeFileSync as writeResult } from "node:fs";
      const done = (value: unknown): never => {
        writeResult(${JSON.stringify(result)}, JSON.stringify(value));
        process.exit(0);
      };
      ${body}`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    if (code !== 0) throw new Error(`child exited with ${code}: ${err}`);
    return JSON.parse(readFileSync(result, "utf8")) as T;
  } finally {
    dir.cleanup();
  }
}

const originalSource = (): string => readFileSync(createRequire(import.meta.url).resolve("pdfjs-dist/legacy/build/pdf.worker.mjs"), "utf8");
const patch = (source: string): string | undefined => patchPdfjsWorker(Buffer.from(source))?.toString("utf8");

describe("pdfjs patches: applying them", () => {
  it("all apply, each exactly once, to the installed pdfjs-dist (a version bump that breaks one fails here)", () => {
    const source = originalSource();
    for (const patch of PDFJS_PATCHES) {
      const first = source.indexOf(patch.find);
      expect(first, patch.name).toBeGreaterThanOrEqual(0);
      expect(source.indexOf(patch.find, first + 1), patch.name).toBe(-1);
    }
    const patched = patch(source)!;
    for (const { replace } of PDFJS_PATCHES) expect(patched).toContain(replace);
    expect(patched).not.toContain("sourceMappingURL");
  });

  it("is all or nothing: a build where one edit does not match runs as shipped", () => {
    const source = originalSource();
    const last = PDFJS_PATCHES.at(-1)!;
    expect(patch(source.replace(last.find, "/* changed upstream */"))).toBeUndefined();
    // Twice is as bad as never: the edit could land in the wrong place.
    expect(patch(source + "\n" + PDFJS_PATCHES[0]!.find)).toBeUndefined();
  });

  it("the process loads the patched copy, which holds exactly the patched source", () => {
    const status = pdfjsWorkerModule();
    expect(status).toMatchObject({ patched: true });
    expect(readFileSync(fileURLToPath(status.url), "utf8")).toBe(patch(originalSource()));
  });
});

describe("pdfjs patches: the cached copy", () => {
  it("is written once, rewritten when it was tampered with, and read back before use", () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, "cache");
      const content = Buffer.from("export const a = 1;\n");
      const path = writeCachedCopy(cache, "copy.mjs", content);
      expect(readFileSync(path, "utf8")).toBe("export const a = 1;\n");
      writeFileSync(path, "export const a = 'evil';\n");
      expect(writeCachedCopy(cache, "copy.mjs", content)).toBe(path);
      expect(readFileSync(path, "utf8")).toBe("export const a = 1;\n");
    } finally {
      dir.cleanup();
    }
  });

  it.skipIf(process.getuid === undefined)("refuses a folder other users can write to", () => {
    const dir = tempDir();
    try {
      const shared = join(dir.path, "shared");
      mkdirSync(shared);
      chmodSync(shared, 0o777);
      expect(() => writeCachedCopy(shared, "copy.mjs", Buffer.from("export {};\n"))).toThrow(/not private/);
    } finally {
      dir.cleanup();
    }
  });

  it.skipIf(process.getuid === undefined)("refuses a folder reached through a symlink", () => {
    // The temp fallback `<tmp>/docparse-rag-<uid>` is a name anyone can take first: a link
    // there to a private folder of ours passes owner and mode checks on its target, and
    // its owner could re-point it before a parser thread imports the path.
    const dir = tempDir();
    try {
      const ours = join(dir.path, "ours");
      mkdirSync(ours, { mode: 0o700 });
      const link = join(dir.path, "docparse-rag-link");
      symlinkSync(ours, link);
      expect(() => writeCachedCopy(link, "copy.mjs", Buffer.from("export {};\n"))).toThrow(/not private/);
    } finally {
      dir.cleanup();
    }
  });
});

describe("pdfjs patches: copies of other versions", () => {
  it("are removed once untouched for a day, with their leftover temp files; nothing else is", () => {
    const dir = tempDir();
    try {
      const old = (Date.now() - STALE_COPY_MS - 60_000) / 1000;
      const files = {
        keep: "pdf.worker-5.6.205-aaaaaaaaaaaaaaaa.mjs",
        stale: "pdf.worker-5.6.205-bbbbbbbbbbbbbbbb.mjs",
        staleTemp: "pdf.worker-5.6.205-bbbbbbbbbbbbbbbb.mjs.123.456.tmp",
        recent: "pdf.worker-5.7.0-cccccccccccccccc.mjs",
        unrelated: "notes.txt",
      };
      for (const name of Object.values(files)) writeFileSync(join(dir.path, name), "export {};\n");
      for (const name of [files.keep, files.stale, files.staleTemp, files.unrelated]) utimesSync(join(dir.path, name), old, old);
      removeStaleCopies(dir.path, files.keep);
      expect(readdirSync(dir.path).sort()).toEqual([files.unrelated, files.keep, files.recent].sort());
    } finally {
      dir.cleanup();
    }
  });

  it("the copy a process uses is marked in use when the process resolves it", async () => {
    const dir = tempDir();
    try {
      const resolve = (): Promise<string> =>
        inChild<string>(
          `import { fileURLToPath } from "node:url";
          import { pdfjsWorkerModule } from ${JSON.stringify(url("src/engine/formats/pdfjs-patch.ts"))};
          done(fileURLToPath(pdfjsWorkerModule().url));`,
          { DOCPARSE_PDFJS_CACHE: dir.path },
        );
      const copy = await resolve();
      const old = (Date.now() - 2 * STALE_COPY_MS) / 1000;
      utimesSync(copy, old, old);
      expect(await resolve()).toBe(copy);
      expect(Date.now() - statSync(copy).mtimeMs).toBeLessThan(60_000);
    } finally {
      dir.cleanup();
    }
  }, 60_000);

  it("the copy of a process running for over a day is marked again when a new parser thread asks for it, so other versions keep it", async () => {
    const dir = tempDir();
    try {
      // One process: it resolves its copy, then (a day later, by the copy's mark) starts
      // another thread. Before that thread imports the copy, it must not look stale.
      const out = await inChild<{ copy: string; mtimeMs: number }>(
        `import { statSync, utimesSync } from "node:fs";
        import { fileURLToPath } from "node:url";
        import { pdfjsWorkerModule, STALE_COPY_MS } from ${JSON.stringify(url("src/engine/formats/pdfjs-patch.ts"))};
        const copy = fileURLToPath(pdfjsWorkerModule().url);
        const old = (Date.now() - 2 * STALE_COPY_MS) / 1000;
        utimesSync(copy, old, old);
        const again = fileURLToPath(pdfjsWorkerModule().url);
        if (again !== copy) throw new Error("resolved anew: " + again);
        done({ copy, mtimeMs: statSync(copy).mtimeMs });`,
        { DOCPARSE_PDFJS_CACHE: dir.path },
      );
      expect(Date.now() - out.mtimeMs).toBeLessThan(60_000);
      // A process of another version sweeping now keeps it.
      removeStaleCopies(dir.path, "pdf.worker-9.9.9-ffffffffffffffff.mjs");
      expect(readdirSync(dir.path)).toContain(basename(out.copy));
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});

/** Whether this process may make a file immutable (chattr +i: root with CAP_LINUX_IMMUTABLE, on ext4/tmpfs...). */
function canMakeImmutable(): boolean {
  const dir = tempDir();
  try {
    const file = join(dir.path, "probe");
    writeFileSync(file, "");
    if (spawnSync("chattr", ["+i", file]).status !== 0) return false;
    spawnSync("chattr", ["-i", file]);
    return true;
  } catch {
    return false;
  } finally {
    dir.cleanup();
  }
}

describe("pdfjs patches: a copy that cannot be marked in use", () => {
  // A read-only file system (a copy written when an image was built) is what this stands
  // for; an immutable file refuses a new modification time the same way, even to root.
  it.skipIf(!canMakeImmutable())("is used all the same, and not resolved again for each thread (needs chattr +i)", async () => {
    const dir = tempDir();
    let copy: string | undefined;
    try {
      const resolve = (): Promise<{ path: string; patched: boolean; same: boolean }> =>
        inChild(
          `import { fileURLToPath } from "node:url";
          import { pdfjsWorkerModule } from ${JSON.stringify(url("src/engine/formats/pdfjs-patch.ts"))};
          const first = pdfjsWorkerModule();
          done({ path: fileURLToPath(first.url), patched: first.patched, same: pdfjsWorkerModule() === first });`,
          { DOCPARSE_PDFJS_CACHE: dir.path },
        );
      copy = (await resolve()).path;
      expect(copy.startsWith(dir.path)).toBe(true);
      const old = (Date.now() - 2 * STALE_COPY_MS) / 1000;
      utimesSync(copy, old, old);
      expect(spawnSync("chattr", ["+i", copy]).status).toBe(0);
      expect(await resolve()).toEqual({ path: copy, patched: true, same: true });
    } finally {
      if (copy) spawnSync("chattr", ["-i", copy]);
      dir.cleanup();
    }
  }, 60_000);
});

describe("pdfjs patches: a cached copy deleted while the process runs", () => {
  it("unusable when a new thread imports it: that thread runs pdfjs as shipped instead of dying", async () => {
    const dir = tempDir();
    try {
      const out = await inChild<{ threads: number; texts: string[] }>(
        `import fs from "node:fs";
        import { fileURLToPath } from "node:url";
        import { pdfjsWorkerModule } from ${JSON.stringify(url("src/engine/formats/pdfjs-patch.ts"))};
        import { parserThreadStats } from ${JSON.stringify(url("src/engine/formats/pdf-thread.ts"))};
        import { buildPdf } from ${JSON.stringify(url("test/support/pdf-fixtures.ts"))};
        import { parsePdf } from ${JSON.stringify(url("test/engine/pdf-helpers.ts"))};
        const pages = (n: number) => buildPdf(Array.from({ length: n }, (_, i) => ({ texts: [{ text: "Fallback page " + (i + 1), x: 72, y: 100 }] })));
        const first = await parsePdf(await pages(1), { limits: { pdfThreads: 1 } });
        const file = fileURLToPath(pdfjsWorkerModule().url);
        // A folder where the copy was: its checks (it is there) pass, importing it fails,
        // as when a cleaner removes the copy between the check and a thread's import.
        fs.rmSync(file);
        fs.mkdirSync(file);
        // 20 pages on 2 threads: a second thread starts and imports the missing copy.
        const second = await parsePdf(await pages(20), { limits: { pdfThreads: 2 } });
        done({ threads: parserThreadStats().threads, texts: [...first.elements, ...second.elements].map((e) => e.text) });`,
        { DOCPARSE_PDFJS_CACHE: join(dir.path, "cache") },
      );
      // Both threads alive: the second did not die on the missing file (its pages would
      // have been read again on the first, a replacement thread dying the same way).
      expect(out.threads).toBe(2);
      expect(out.texts).toEqual(["Fallback page 1", ...Array.from({ length: 20 }, (_, i) => `Fallback page ${i + 1}`)]);
    } finally {
      dir.cleanup();
    }
  }, 60_000);

  it("is written again for the next parser thread, which then starts", async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, "cache");
      const out = await inChild<{ file: string; recreated: boolean; threads: number; texts: string[] }>(
        `import { existsSync, rmSync } from "node:fs";
        import { fileURLToPath } from "node:url";
        import { pdfjsWorkerModule } from ${JSON.stringify(url("src/engine/formats/pdfjs-patch.ts"))};
        import { parserThreadStats } from ${JSON.stringify(url("src/engine/formats/pdf-thread.ts"))};
        import { buildPdf } from ${JSON.stringify(url("test/support/pdf-fixtures.ts"))};
        import { parsePdf } from ${JSON.stringify(url("test/engine/pdf-helpers.ts"))};
        const pages = (n: number) => buildPdf(Array.from({ length: n }, (_, i) => ({ texts: [{ text: "Kept page " + (i + 1), x: 72, y: 100 }] })));
        const file = fileURLToPath(pdfjsWorkerModule().url);
        const first = await parsePdf(await pages(1), { limits: { pdfThreads: 1 } });
        rmSync(file);
        // 20 pages on 2 threads: a second thread starts and imports the module.
        const second = await parsePdf(await pages(20), { limits: { pdfThreads: 2 } });
        done({ file, recreated: existsSync(file), threads: parserThreadStats().threads, texts: [...first.elements, ...second.elements].map((e) => e.text) });`,
        { DOCPARSE_PDFJS_CACHE: cache },
      );
      // The copy lived in the folder DOCPARSE_PDFJS_CACHE named, and is back.
      expect(out.file.startsWith(cache)).toBe(true);
      expect(out.recreated).toBe(true);
      expect(out.threads).toBe(2);
      expect(out.texts).toEqual(["Kept page 1", ...Array.from({ length: 20 }, (_, i) => `Kept page ${i + 1}`)]);
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});

/** A page tree: a string is a page showing that text, an array a /Pages node. */
type TreeNode = string | TreeNode[];

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";

/**
 * A PDF with the page tree `kids` under /Pages. `count` overrides the root's /Count (a
 * lying count), `fontName` (resources) and `tfName` (content) are written as is, escapes
 * and all, `font` replaces the font dictionary, `show` turns a page's text into the
 * operand of Tj.
 */
function treePdf(
  kids: TreeNode[],
  options: { count?: number; fontName?: string; tfName?: string; font?: string; show?: (text: string) => string; extra?: string } = {},
): Uint8Array {
  const { fontName = "F1", tfName = fontName, show = (t: string) => `(${t})` } = options;
  const objects: Parameters<typeof rawPdf>[0] = ["", options.font ?? FONT];
  const reserve = (): number => objects.push("");
  const add = (body: Parameters<typeof rawPdf>[0][number]): number => objects.push(body);
  const leaves = (n: TreeNode): number => (typeof n === "string" ? 1 : n.reduce((sum, k) => sum + leaves(k), 0));
  const page = (text: string, parent: number): number => {
    const content = add({ dict: "", data: `BT /${tfName} 18 Tf 72 700 Td ${show(text)} Tj ET${options.extra ?? ""}` });
    return add(`<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /${fontName} 2 0 R >> >> /Contents ${content} 0 R >>`);
  };
  const node = (children: TreeNode[], parent?: number, count?: number): number => {
    const id = reserve();
    const refs = children.map((k) => (typeof k === "string" ? page(k, id) : node(k, id)));
    objects[id - 1] = `<< /Type /Pages ${parent ? `/Parent ${parent} 0 R ` : ""}/Kids [${refs.map((r) => `${r} 0 R`).join(" ")}] /Count ${count ?? leaves(children)} >>`;
    return id;
  };
  const top = node(kids, undefined, options.count);
  objects[0] = `<< /Type /Catalog /Pages ${top} 0 R >>`;
  return rawPdf(objects);
}

/** Type 1 encryption (eexec: r = 55665, charstrings: r = 4330), after `prefix` bytes. */
function t1encrypt(plain: Uint8Array, r: number, prefix = 4): Buffer {
  const input = Buffer.concat([Buffer.alloc(prefix, 0xaa), plain]);
  const out = Buffer.alloc(input.length);
  for (let i = 0; i < input.length; i++) {
    const c = input[i]! ^ (r >> 8);
    out[i] = c;
    r = ((c + r) * 55665 + 22719) & 0xffff;
  }
  return out;
}

/** A Type 1 charstring number (-107..1131 is enough here). */
const t1num = (v: number): number[] => (v >= -107 && v <= 107 ? [v + 139] : [247 + ((v - 108) >> 8), (v - 108) & 0xff]);

/**
 * A Type 1 font program (PFA cleartext + binary eexec part) with glyphs alpha, beta and
 * gamma at codes a, b, g and their widths, only in the font's built-in encoding.
 */
function type1Font(): { header: Buffer; encrypted: Buffer } {
  const glyphs: [string, number, number][] = [[".notdef", 0, 250], ["alpha", 97, 631], ["beta", 98, 549], ["gamma", 103, 411]];
  const header = Buffer.from(
    [
      "%!PS-AdobeFont-1.0: TestSymbol 001.000",
      "12 dict begin",
      "/FontName /TestSymbol def",
      "/Encoding 256 array",
      "0 1 255 {1 index exch /.notdef put} for",
      ...glyphs.slice(1).map(([name, code]) => `dup ${code} /${name} put`),
      "readonly def",
      "/PaintType 0 def",
      "/FontType 1 def",
      "/FontMatrix [0.001 0 0 0.001 0 0] readonly def",
      "/FontBBox {0 -200 1000 800} readonly def",
      "currentdict end",
      "currentfile eexec",
      "",
    ].join("\n"),
    "latin1",
  );
  const parts: Buffer[] = [
    Buffer.from(
      "dup /Private 8 dict dup begin\n/RD {string currentfile exch readstring pop} executeonly def\n/ND {noaccess def} executeonly def\n" +
        "/NP {noaccess put} executeonly def\n/lenIV 4 def\n/password 5839 def\n/Subrs 0 array\nND\n2 index /CharStrings 4 dict dup begin\n",
      "latin1",
    ),
  ];
  for (const [name, , width] of glyphs) {
    // hsbw (sidebearing 0, advance width), endchar.
    const charstring = t1encrypt(Uint8Array.from([...t1num(0), ...t1num(width), 13, 14]), 4330);
    parts.push(Buffer.from(`/${name} ${charstring.length} RD `, "latin1"), charstring, Buffer.from(" ND\n", "latin1"));
  }
  parts.push(Buffer.from("end\nend\nreadonly put\nnoaccess put\ndup /FontName get exch definefont pop\nmark currentfile closefile\n", "latin1"));
  return { header, encrypted: t1encrypt(Buffer.concat(parts), 55665) };
}

/**
 * A page in an embedded Type 1 font with only its built-in encoding and no /Widths (the
 * TeX case: unicode and widths come from the font program): "abg" is alpha, beta, gamma.
 */
function embeddedType1Pdf(): Uint8Array {
  const { header, encrypted } = type1Font();
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /S1 5 0 R >> >> /Contents 4 0 R >>",
    { dict: "", data: "BT /S1 24 Tf 72 700 Td (abg) Tj ET" },
    "<< /Type /Font /Subtype /Type1 /BaseFont /TestSymbol /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>",
    "<< /Type /FontDescriptor /FontName /TestSymbol /Flags 4 /FontBBox [0 -200 1000 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile 7 0 R >>",
    { dict: `/Length1 ${header.length} /Length2 ${encrypted.length} /Length3 0`, data: Buffer.concat([header, encrypted]).toString("latin1") },
  ]);
}

/**
 * A page showing "Packed page" whose catalog, page tree, page and font sit in a deflated
 * object stream (read synchronously by pdfjs, with a cross-reference stream pointing
 * into it); `mangle` edits the deflated bytes (cut short, corrupt).
 */
function objectStreamPdf(mangle: (z: Buffer) => Buffer = (z) => z): Uint8Array {
  const packed: [number, string][] = [
    [1, "<< /Type /Catalog /Pages 2 0 R >>"],
    [2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    [3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"],
    [5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"],
  ];
  let at = 0;
  const offsets = packed.map(([num, body]) => {
    const entry = `${num} ${at}`;
    at += body.length + 1;
    return entry;
  });
  const header = offsets.join(" ") + "\n";
  const stream = mangle(deflateSync(header + packed.map(([, body]) => body + "\n").join("")));
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n", "latin1")];
  const offsetOf: Record<number, number> = {};
  const add = (num: number, text: Buffer): void => {
    offsetOf[num] = parts.reduce((sum, p) => sum + p.length, 0);
    parts.push(text);
  };
  const content = "BT /F1 18 Tf 72 700 Td (Packed page) Tj ET";
  add(4, Buffer.from(`4 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n`, "latin1"));
  add(6, Buffer.concat([Buffer.from(`6 0 obj\n<< /Type /ObjStm /N ${packed.length} /First ${header.length} /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`, "latin1"), stream, Buffer.from("\nendstream\nendobj\n", "latin1")]));
  const xrefAt = parts.reduce((sum, p) => sum + p.length, 0);
  offsetOf[7] = xrefAt;
  // /W [1 4 2]: type, offset or object stream number, generation or index in the stream.
  const row = (type: number, field: number, index: number): Buffer => {
    const b = Buffer.alloc(7);
    b.writeUInt8(type, 0);
    b.writeUInt32BE(field, 1);
    b.writeUInt16BE(index, 5);
    return b;
  };
  const inStream = (num: number): Buffer => row(2, 6, packed.findIndex(([n]) => n === num));
  const rows = Buffer.concat([row(0, 0, 65535), inStream(1), inStream(2), inStream(3), row(1, offsetOf[4]!, 0), inStream(5), row(1, offsetOf[6]!, 0), row(1, xrefAt, 0)]);
  parts.push(Buffer.from(`7 0 obj\n<< /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`, "latin1"), rows, Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, "latin1"));
  return new Uint8Array(Buffer.concat(parts));
}

/** Deflated bytes with garbage after the zlib header: no inflate reads them. */
const corruptDeflate = (z: Buffer): Buffer => Buffer.concat([z.subarray(0, 2), Buffer.from("this is not deflate data at all"), z.subarray(2)]);

/**
 * A page with a FreeText annotation whose appearance stream is cut short: two deflate
 * blocks, the first holding the annotation's first line, the second cut in the middle.
 * pdfjs reads that stream synchronously first (its font and colour, up to the first text
 * shown, from the first block), then asynchronously (the annotation's drawing), which
 * rewinds the stream to its zlib header.
 */
function cutFreeTextPdf(): Uint8Array {
  let rest = "";
  for (let i = 0; i < 40; i++) rest += `BT /Helv 9 Tf 10 ${60 - i} Td (Annotation line ${i} of the note) Tj ET\n`;
  const raw = Buffer.concat([deflateRawSync("BT /Helv 12 Tf 10 70 Td (Note first line) Tj ET\n", { finishFlush: constants.Z_SYNC_FLUSH }), deflateRawSync(rest)]);
  const cut = Buffer.concat([Buffer.from([0x78, 0x9c]), raw.subarray(0, Math.floor(raw.length * 0.6))]);
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots [6 0 R] >>",
    { dict: "", data: "BT /F1 14 Tf 72 740 Td (Body text of the page) Tj ET" },
    FONT,
    "<< /Type /Annot /Subtype /FreeText /Rect [50 600 400 700] /Contents (Note first line) /DA (/Helv 12 Tf 0 g) /AP << /N 7 0 R >> >>",
    { dict: "/Type /XObject /Subtype /Form /BBox [0 0 350 100] /Resources << /Font << /Helv 5 0 R >> >> /Filter /FlateDecode", data: cut.toString("latin1") },
  ]);
}

const hex = (text: string): string => Buffer.from(text, "latin1").toString("hex").toUpperCase();

interface Outcome {
  patched: boolean;
  docs: Record<string, { pages?: number; elements?: unknown[]; error?: string }>;
}

/** Parses `files` in a fresh process, with or without the patches. */
function parseInChild(files: Record<string, string>, patches: boolean): Promise<Outcome> {
  return inChild<Outcome>(
    `import { readFileSync } from "node:fs";
    import { pdfjsWorkerModule } from ${JSON.stringify(url("src/engine/formats/pdfjs-patch.ts"))};
    import { parsePdf } from ${JSON.stringify(url("test/engine/pdf-helpers.ts"))};
    const out: { patched: boolean; docs: Record<string, unknown> } = { patched: pdfjsWorkerModule().patched, docs: {} };
    for (const [name, path] of Object.entries(${JSON.stringify(files)} as Record<string, string>)) {
      try {
        const doc = await parsePdf(new Uint8Array(readFileSync(path)), { capabilities: { include_char_details: true } });
        out.docs[name] = { pages: doc.pageCount, elements: doc.elements.map((e) => [e.page, e.type, e.text, e.box, e.chars]) };
      } catch (error) {
        out.docs[name] = { error: String((error as { code?: unknown }).code ?? error) };
      }
    }
    done(out);`,
    { DOCPARSE_PDFJS_PATCHES: patches ? "1" : "0" },
  );
}

describe("pdfjs patches: same output as pdfjs as shipped", () => {
  it("on flat, nested and lying page trees, escaped names, odd hex strings, an embedded Type 1 font and deflate streams zlib refuses", async () => {
    const dir = tempDir();
    try {
      const long = "A".repeat(9_000);
      const docs: Record<string, Uint8Array> = {
        // /Count equals the kids: the flat fast path.
        flat: treePdf(Array.from({ length: 12 }, (_, i) => `Flat page ${i + 1}`)),
        // pdf-lib: flat tree, page objects in object streams.
        pdfLib: await buildPdf(Array.from({ length: 30 }, (_, i) => ({ texts: [{ text: `Library page ${i + 1}`, x: 72, y: 100 }] }))),
        nested: treePdf(["Nested one", ["Nested two", ["Nested three"]], "Nested four"]),
        // /Count 3 over three kids, but one kid is a /Pages node: no flat fast path.
        lying: treePdf(["Lying one", ["Lying two", "Lying three"], "Lying four"], { count: 3 }),
        // A name with # escapes (F#231 is F#1), text as hex with spaces and an odd digit count.
        escapes: treePdf(["Hex page one", "Hex page two"], { fontName: "F#231", show: (t) => `<${hex(t).replace(/(..)/g, "$1 ")}4>` }),
        // Escapes that must decode right: the content's /F#31 is the resources' /F1, and
        // /Cour#69er is Courier (monospace: a code block).
        escapedFont: treePdf(["let answer = 42;"], { tfName: "F#31", font: FONT.replace("/Helvetica", "/Cour#69er") }),
        symbolType1: embeddedType1Pdf(),
        // An object stream (read synchronously): whole, cut short and corrupt (the last two
        // are left to pdfjs' own inflate, with its outcome).
        objectStream: objectStreamPdf(),
        objectStreamCut: objectStreamPdf((z) => z.subarray(0, Math.floor(z.length / 2))),
        objectStreamCorrupt: objectStreamPdf(corruptDeflate),
        // A stream read synchronously, then asynchronously, which zlib refuses (cut short).
        freeTextCut: cutFreeTextPdf(),
        // A hex string longer than one String.fromCharCode call takes.
        longHex: treePdf(["Long"], { extra: ` BT /F1 2 Tf 10 10 Td <${hex(long)}> Tj ET` }),
        // Tiling patterns: one used twice, one painting with another (tiling-pattern-cycle).
        patterns: patternPdf(false),
        // Graphics states saved and restored, nested, changing the CTM and text state in
        // each (flat-graphics-state), and saves never restored.
        nestedStates: treePdf(["States"], {
          extra: ` q 2 0 0 2 0 0 cm 1 0 0 rg q 0.5 0 0 0.5 5 5 cm 3 Tr BT /F1 9 Tf 30 30 Td (Inner state) Tj ET Q BT /F1 9 Tf 20 20 Td (Outer state) Tj ET Q ${"q 1 0 0 1 1 1 cm ".repeat(300)}BT /F1 9 Tf 10 10 Td (Unclosed) Tj ET`,
        }),
      };
      const files: Record<string, string> = {};
      for (const [name, bytes] of Object.entries(docs)) writeFileSync((files[name] = join(dir.path, `${name}.pdf`)), bytes);
      const [patched, shipped] = await Promise.all([parseInChild(files, true), parseInChild(files, false)]);
      expect(patched.patched).toBe(true);
      expect(shipped.patched).toBe(false);
      expect(patched.docs).toEqual(shipped.docs);

      const texts = (name: string): string[] => (patched.docs[name]!.elements ?? []).map((e) => (e as unknown[])[2] as string);
      expect(texts("flat")).toEqual(Array.from({ length: 12 }, (_, i) => `Flat page ${i + 1}`));
      expect(texts("pdfLib")).toEqual(Array.from({ length: 30 }, (_, i) => `Library page ${i + 1}`));
      expect(texts("nested")).toEqual(["Nested one", "Nested two", "Nested three", "Nested four"]);
      expect(patched.docs.lying!.pages).toBe(3);
      expect(texts("lying")).toEqual(["Lying one", "Lying two", "Lying three"]);
      expect(texts("escapes").join(" ")).toContain("Hex page one");
      expect(patched.docs.escapedFont!.elements!.map((e) => (e as unknown[]).slice(1, 3))).toEqual([["CodeSnippet", "let answer = 42;"]]);
      expect(texts("symbolType1")).toEqual(["αβγ"]);
      expect(texts("objectStream")).toEqual(["Packed page"]);
      // The lines of the cut appearance stream up to the cut, as pdfjs as shipped reads them.
      expect(texts("freeTextCut").join(" ")).toContain("Annotation line 0 of the note");
      // Its widths came from the font program: (631 + 549 + 411) / 1000 × 24 pt = 38.2 pt
      // of advances (without them every glyph would advance by /MissingWidth, 0).
      const [, , , box] = patched.docs.symbolType1!.elements![0] as [number, string, string, { x0: number; x1: number }];
      expect((box.x1 - box.x0) * 612).toBeGreaterThan(36);
      expect((box.x1 - box.x0) * 612).toBeLessThan(42);
      expect(texts("longHex").join("")).toContain("A".repeat(200));
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});

/**
 * Pages "one", "two", "three" under a root listing `kids` (1-based pages; an array is a
 * /Pages node listing those pages) with /Count the number of kids: flat, or looking flat.
 */
function flatTreePdf(kids: (number | number[])[]): Uint8Array {
  const page = (k: number): string => `${3 + 2 * k} 0 R`;
  const objects: Parameters<typeof rawPdf>[0] = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"];
  for (const text of ["one", "two", "three"]) {
    const content = objects.push({ dict: "", data: `BT /F1 12 Tf 72 700 Td (${text}) Tj ET` });
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`);
  }
  const refs = kids.map((k) =>
    typeof k === "number" ? page(k) : `${objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${k.map(page).join(" ")}] /Count ${k.length} >>`)} 0 R`,
  );
  objects[1] = `<< /Type /Pages /Kids [${refs.join(" ")}] /Count ${kids.length} >>`;
  return rawPdf(objects);
}

/** Each page's text (in page order), or its error message; the same source runs in the child. */
const READ_PAGES = `async (doc) => {
  const out = [];
  for (let n = 1; n <= doc.numPages; n++) {
    try {
      const page = await doc.getPage(n);
      out.push((await page.getTextContent()).items.map((i) => i.str).join(""));
    } catch (error) {
      out.push("error: " + error.message);
    }
  }
  return out;
}`;

describe("pdfjs patches: page trees listing a kid twice", () => {
  it("read every page as pdfjs as shipped does (which fails the repeated page: circular reference)", async () => {
    // The fast path must not record kids the walk it falls back to has not visited, or the
    // walk skips them and returns the repeated page instead of failing it.
    expect(pdfjsWorkerModule().patched).toBe(true);
    const trees = [[1, 2, 2], [1, 2, 3, 2], [1, 2, 2, 3], [1, 2, 1], [1, 2, 3], [1, 2, [2]], [1, 2, [3]]] as (number | number[])[][];
    const dir = tempDir();
    try {
      const files = trees.map((kids, i) => {
        const file = join(dir.path, `tree-${i}.pdf`);
        writeFileSync(file, flatTreePdf(kids));
        return file;
      });
      const shipped = await inChild<string[][]>(
        `import { readFileSync } from "node:fs";
        import { openPdf } from ${JSON.stringify(url("src/engine/formats/pdf-load.ts"))};
        const read = ${READ_PAGES};
        const out = [];
        for (const file of ${JSON.stringify(files)}) {
          const doc = await openPdf(new Uint8Array(readFileSync(file)), { glyphPaths: false });
          out.push(await read(doc));
          await doc.destroy();
        }
        done(out);`,
        { DOCPARSE_PDFJS_PATCHES: "0" },
      );
      const read = new Function(`return ${READ_PAGES}`)() as (doc: Awaited<ReturnType<typeof openPdf>>) => Promise<string[]>;
      for (const [i, file] of files.entries()) {
        const doc = await openPdf(new Uint8Array(readFileSync(file)), { glyphPaths: false });
        try {
          expect(await read(doc), `kids ${JSON.stringify(trees[i])}`).toEqual(shipped[i]);
        } finally {
          await doc.destroy();
        }
      }
      expect(shipped[0]![2]).toMatch(/^error: .*circular/);
      expect(shipped[5]![2]).toMatch(/^error: .*circular/);
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});

describe("pdfjs patches: streams read synchronously", () => {
  it("are inflated whole by the inflate a parser thread installs, or by pdfjs when it refuses them", async () => {
    // Installed here as parser threads install it (pdf-inflate.ts), noting what it inflates.
    const hook = Symbol.for("docparse-rag.pdfjs.inflateRaw");
    const inflated: (number | undefined)[] = [];
    const read = async (bytes: Uint8Array): Promise<string> => {
      const doc = await openPdf(bytes, { glyphPaths: false });
      try {
        const page = await doc.getPage(1);
        return (await page.getTextContent()).items.map((i) => ("str" in i ? i.str : "")).join("");
      } finally {
        await doc.destroy();
      }
    };
    (globalThis as Record<symbol, unknown>)[hook] = (input: Uint8Array) => {
      const out = inflateRawWhole(input);
      inflated.push(out?.length);
      return out;
    };
    try {
      expect(await read(objectStreamPdf())).toBe("Packed page");
      expect(inflated).toHaveLength(1);
      expect(inflated[0]).toBeGreaterThan(200);
      // Refused by zlib (on each of pdfjs' attempts), then by pdfjs' inflate too: the
      // document cannot be opened.
      await expect(read(objectStreamPdf(corruptDeflate))).rejects.toThrow();
      expect(inflated.length).toBeGreaterThan(1);
      expect(inflated.slice(1).every((n) => n === undefined)).toBe(true);
    } finally {
      delete (globalThis as Record<symbol, unknown>)[hook];
    }
  });
});

describe("pdfjs patches: flat-graphics-state", () => {
  it("reads a page under 30,000 unclosed saves (q) in linear time: each state's prototype chain grew by one, 10,000 took 4 s", async () => {
    const bytes = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      { dict: "", data: "q ".repeat(30_000) + "BT /F1 12 Tf 72 300 Td (Under the saves) Tj ET" },
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
    ]);
    const doc = await parsePdf(bytes, { limits: { timeoutMs: 10_000 } });
    expect(doc.elements.map((e) => e.text)).toEqual(["Under the saves"]);
  }, 30_000);
});

/**
 * A page painting with tiling patterns around two lines of text: /P2 used twice and /P3
 * painting with /P2; with `cycle`, /P1 painting with itself first.
 */
function patternPdf(cycle: boolean): Uint8Array {
  const pattern = (content: string, patterns: string) => ({
    dict: `/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << /Pattern << ${patterns} >> >>`,
    data: content,
  });
  const uses = `${cycle ? "/Pattern cs /P1 scn 0 0 300 300 re f " : ""}/Pattern cs /P2 scn 0 0 50 50 re f /P2 scn 60 0 50 50 re f /P3 scn 120 0 50 50 re f`;
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    { dict: "", data: `BT /F1 12 Tf 72 700 Td (Before the patterns) Tj ET ${uses} BT /F1 12 Tf 72 500 Td (After the patterns) Tj ET` },
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> /Pattern << /P1 6 0 R /P2 7 0 R /P3 8 0 R >> >> >>",
    pattern("/Pattern cs /P1 scn 0 0 10 10 re f", "/P1 6 0 R"),
    pattern("1 0 0 rg 0 0 5 5 re f", ""),
    pattern("/Pattern cs /P2 scn 0 0 10 10 re f", "/P2 7 0 R"),
  ]);
}

describe("pdfjs patches: tiling-pattern-cycle", () => {
  it("reads a page whose tiling pattern paints with itself (pdfjs parsed it inside itself without end: 2 GB of heap or the timeout)", async () => {
    const doc = await parsePdf(patternPdf(true), { limits: { timeoutMs: 10_000 } });
    // The pattern-filled square is a vector figure.
    expect(doc.elements.filter((e) => e.type !== "Image").map((e) => e.text)).toEqual(["Before the patterns", "After the patterns"]);
  }, 30_000);
});
