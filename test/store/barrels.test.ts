import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** Every package a module pulls in through static (non-type) imports, following our own files. */
function staticPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    // Statement-level imports/exports only; `import type`/`export type` vanish at runtime,
    // and `await import(...)` is the lazy loading we allow.
    for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)) {
      const spec = m[1]!;
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      else packages.add(spec);
    }
  };
  visit(resolve(entry));
  return packages;
}

describe("barrels stay light", () => {
  for (const barrel of ["src/store/index.ts", "src/embed/index.ts", "src/langchain/index.ts"]) {
    it(`${barrel} imports no PGlite, pg or parse engine statically`, () => {
      const packages = [...staticPackages(barrel)];
      expect(packages.filter((p) => /^@electric-sql\/|^pg$|^pdfjs-dist|^tesseract|^exceljs|^mammoth/.test(p))).toEqual([]);
      expect(packages.length).toBeGreaterThan(0);
    });
  }
});
