import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chunkDocumentWithReport, type ChunkOptions } from "../../src/chunk/index.js";
import type { ParseResult } from "../../src/wire/index.js";

/**
 * Golden files: chunker output for hand-written results, checked byte for byte.
 * Regenerate after an intended change with `UPDATE_GOLDEN=1 npx vitest run test/chunk/golden.test.ts`
 * and review the diff; a test below refuses to let the flag stay on in CI.
 */
const dir = join(fileURLToPath(new URL(".", import.meta.url)), "golden");
const update = process.env.UPDATE_GOLDEN === "1";

const cases: [name: string, input: string, options: ChunkOptions][] = [
  ["annual-report.default", "annual-report", {}],
  ["annual-report.small-markdown", "annual-report", { maxTokens: 48, minTokens: 0, tableFormat: "markdown" }],
  ["annual-report.by-page", "annual-report", { strategy: "by_page" }],
  ["annual-report.by-element", "annual-report", { strategy: "by_element", headingLevel: 1 }],
  ["purchase-contract-zh.default", "purchase-contract-zh", {}],
  ["purchase-contract-zh.small-approximate", "purchase-contract-zh", { maxTokens: 32, minTokens: 0, tokenizer: "approximate", overlapTokens: 4 }],
];

describe("golden chunker output", () => {
  it.each(cases)("%s", (name, input, options) => {
    const result = JSON.parse(readFileSync(join(dir, `${input}.input.json`), "utf8")) as ParseResult;
    const actual = `${JSON.stringify(chunkDocumentWithReport(result, options), null, 2)}\n`;
    const file = join(dir, `${name}.golden.json`);
    if (update) writeFileSync(file, actual);
    expect(existsSync(file), `${file} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
    expect(actual).toBe(readFileSync(file, "utf8"));
  });

  it("refuses UPDATE_GOLDEN in CI (a regenerate flag left on would make these tests pass blindly)", () => {
    expect(process.env.CI && update ? "UPDATE_GOLDEN=1 is set in CI" : "ok").toBe("ok");
  });
});
