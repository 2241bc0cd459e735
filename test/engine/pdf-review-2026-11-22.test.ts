import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { openPdf } from "../../src/engine/formats/pdf-load.js";
import { pdfjsWorkerModule, writeCachedCopy } from "../../src/engine/formats/pdfjs-patch.js";
import { rawPdf } from "../support/pdf-fixtures.js";
import { tempDir } from "../support/system.js";

/**
 * Review of 2026-11-22 (pdfjs patches): the cached copy's folder.
 *
 * The fallback folder is `<tmp>/docparse-rag-<uid>`, a name anyone on the machine can
 * take first. A symlink there, made by another user, to a private folder of ours passed
 * the owner and mode checks (stat follows the link); its owner can re-point the link
 * after the check, and every parser thread started later imports whatever the path then
 * names (the import resolves the path again, long after the check).
 */
describe("writeCachedCopy: the folder", () => {
  it.skipIf(process.getuid === undefined)("refuses a folder reached through a symlink (its owner could re-point it after the check)", () => {
    const dir = tempDir();
    try {
      // Ours and private: what the link points at while the checks run.
      const ours = join(dir.path, "ours");
      mkdirSync(ours, { mode: 0o700 });
      // Theirs in real life (same owner here: a test cannot create another user).
      const link = join(dir.path, "docparse-rag-link");
      symlinkSync(ours, link);
      const content = Buffer.from("export const a = 1;\n");
      let path: string | undefined;
      try {
        path = writeCachedCopy(link, "copy.mjs", content);
      } catch (error) {
        expect((error as Error).message).toMatch(/not private/);
        return;
      }
      // What accepting it allows: the link now names another folder, and the path
      // handed out (the one a thread imports later) reads the other folder's file.
      const theirs = join(dir.path, "theirs");
      mkdirSync(theirs);
      writeFileSync(join(theirs, "copy.mjs"), "export const a = 'evil';\n");
      unlinkSync(link);
      symlinkSync(theirs, `${link}.new`);
      renameSync(`${link}.new`, link);
      expect.fail(`accepted a folder behind a symlink; its path ${path} now holds: ${readFileSync(path, "utf8").trim()}`);
    } finally {
      dir.cleanup();
    }
  });

  it("still accepts a real private folder, and the copy in it", () => {
    const dir = tempDir();
    try {
      const path = writeCachedCopy(join(dir.path, "cache"), "copy.mjs", Buffer.from("export {};\n"));
      expect(readFileSync(path, "utf8")).toBe("export {};\n");
    } finally {
      dir.cleanup();
    }
  });
});

/**
 * A page tree over pages "one", "two", "three" whose root lists `kids` (1-based pages; an
 * array is a /Pages node listing those pages) with /Count the number of kids: flat, or
 * looking flat.
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

/** Each page's text (in page order), or its error message. */
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

const root = resolve(import.meta.dirname, "../..");

/** The same reads with pdfjs as shipped, in a child process (the patches are per process). */
async function shippedPages(pdfs: Uint8Array[]): Promise<string[][]> {
  const dir = tempDir();
  try {
    const files = pdfs.map((bytes, i) => {
      const file = join(dir.path, `tree-${i}.pdf`);
      writeFileSync(file, bytes);
      return file;
    });
    const script = join(dir.path, "read.mts");
    const result = join(dir.path, "result.json");
    writeFileSync(
      script,
      `import { readFileSync, writeFileSync } from "node:fs";
      import { openPdf } from ${JSON.stringify(pathToFileURL(join(root, "src/engine/formats/pdf-load.ts")).href)};
      import { pdfjsWorkerModule } from ${JSON.stringify(pathToFileURL(join(root, "src/engine/formats/pdfjs-patch.ts")).href)};
      if (pdfjsWorkerModule().patched) throw new Error("expected pdfjs as shipped");
      const out = [];
      for (const file of ${JSON.stringify(files)}) {
        const doc = await openPdf(new Uint8Array(readFileSync(file)), { glyphPaths: false });
        out.push(await (${READ_PAGES})(doc));
        await doc.destroy();
      }
      writeFileSync(${JSON.stringify(result)}, JSON.stringify(out));
      process.exit(0);`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, env: { ...process.env, DOCPARSE_PDFJS_PATCHES: "0" }, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    if (code !== 0) throw new Error(`child exited with ${code}: ${err}`);
    return JSON.parse(readFileSync(result, "utf8")) as string[][];
  } finally {
    dir.cleanup();
  }
}

/**
 * Review of 2026-11-22 (pdfjs patches): flat-page-tree on a kid listed twice.
 *
 * pdfjs' walk fails a page whose kid it already visited in the same walk (circular
 * reference); the fast path had recorded every kid before the one asked for, so the walk
 * it falls back to skipped them all and returned the repeated page instead: a flat tree
 * whose last kid repeats an earlier one (not the first) read that page twice where pdfjs
 * as shipped fails it. Same with a /Pages kid (the tree only looked flat) that lists an
 * earlier page again.
 */
describe("flat-page-tree: a kid listed twice", () => {
  it("reads every page as pdfjs as shipped does", async () => {
    expect(pdfjsWorkerModule().patched).toBe(true);
    const read = new Function(`return ${READ_PAGES}`)() as (doc: Awaited<ReturnType<typeof openPdf>>) => Promise<string[]>;
    const trees = [[1, 2, 2], [1, 2, 3, 2], [1, 2, 2, 3], [1, 2, 1], [1, 2, 3], [1, 2, [2]], [1, 2, [3]]] as (number | number[])[][];
    const pdfs = trees.map(flatTreePdf);
    const shipped = await shippedPages(pdfs);
    for (const [i, bytes] of pdfs.entries()) {
      const doc = await openPdf(bytes, { glyphPaths: false });
      try {
        expect(await read(doc), `kids ${JSON.stringify(trees[i])}`).toEqual(shipped[i]);
      } finally {
        await doc.destroy();
      }
    }
    // The cases pdfjs fails: the repeated page is not read twice.
    expect(shipped[0]![2]).toMatch(/^error: .*circular/);
    expect(shipped[5]![2]).toMatch(/^error: .*circular/);
  }, 60_000);
});
