import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import { tempDir } from "./support/system.js";

// Packages that must load only when their format, store or feature is first used.
const HEAVY = [
  "pdfjs-dist",
  "@napi-rs/canvas",
  "exceljs",
  "mammoth",
  "jszip",
  "tesseract.js",
  "@electric-sql/pglite",
  "@electric-sql/pglite-pgvector",
  "pg",
  "bullmq",
  "ioredis",
  "playwright-core",
  "js-tiktoken",
];

describe("main entry", () => {
  it("loads no format library, database driver, queue or browser", () => {
    const dir = tempDir();
    try {
      const log = join(dir.path, "imports.txt");
      execFileSync(
        process.execPath,
        ["--import", "tsx", "--import", "./test/support/record-imports.mjs", "-e", "await import('./src/index.ts')"],
        { env: { ...process.env, RECORD_IMPORTS_FILE: log }, stdio: ["ignore", "ignore", "inherit"] },
      );
      const loaded = new Set(readFileSync(log, "utf8").split("\n").filter(Boolean));
      // The hook really records: zod is imported by the wire schemas.
      expect(loaded.has("zod")).toBe(true);
      expect(HEAVY.filter((p) => loaded.has(p))).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });

  it("exports the public names the architecture promises", () => {
    for (const name of [
      "DocParseClient",
      "LocalParser",
      "startServer",
      "chunkDocument",
      "DocParseLoader",
      "HashEmbeddings",
      "openStore",
      "ingest",
      "CitationRetriever",
      "DocParseError",
      "startViewer",
    ]) {
      expect(api, name).toHaveProperty(name);
    }
  });
});
