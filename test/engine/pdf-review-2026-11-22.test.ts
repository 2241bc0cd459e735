import { mkdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeCachedCopy } from "../../src/engine/formats/pdfjs-patch.js";
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
