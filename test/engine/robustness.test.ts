import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LocalParser } from "../../src/engine/local-parser.js";
import { MemoryAssetStore } from "../../src/engine/assets.js";
import { DocParseError } from "../../src/errors.js";
import type { ParseConfig } from "../../src/wire/index.js";
import { expectConsistentResult } from "./check-result.js";

/**
 * Whatever text or bytes come in, the engine either returns a consistent, schema-valid
 * result or refuses with a DocParseError code: never a crash, never a broken tree.
 */

const parser = new LocalParser({ assets: new MemoryAssetStore() });
const CONFIG: ParseConfig = { capabilities: { pages: true, title_tree: true, include_table_structure: true, include_char_details: true, include_inline_objects: true } };

// Lines built from the pieces that drive the text and Markdown heuristics.
const piece = fc.constantFrom(
  "# ", "## ", "### ", "- ", "  - ", "1. ", "一、", "（一）", "第一章 ", "第二节 ", "1.1 ", "CHAPTER 2 ", "| a | b |", "|---|---|", "```", "$$", "$x$", "\t", "　　",
  "Hello world.", "中文内容。", "问题？", "WARNING", "text", "---", "===", "<table><tr><td>x</td></tr></table>", "\f", "\r", "\u0007", "\uFFFD", "é", "😀",
);
const line = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(""));
const document = fc.array(line, { minLength: 1, maxLength: 40 }).map((lines) => lines.join("\n"));

describe("robustness", () => {
  it("parses any mix of text and Markdown constructs into a consistent result", async () => {
    await fc.assert(
      fc.asyncProperty(document, fc.constantFrom("a.txt", "a.md"), async (text, filename) => {
        if (!text.trim()) return;
        let r;
        try {
          r = await parser.parse(Buffer.from(text), { filename, config: CONFIG });
        } catch (err) {
          // Only control characters make text look binary.
          expect((err as DocParseError).code).toBe(40303);
          expect(text).toMatch(/\u0007/);
          return;
        }
        expectConsistentResult(r);
      }),
      { numRuns: 60 },
    );
  });

  it("never crashes on arbitrary bytes: a result or a DocParseError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 600 }), fc.constantFrom(undefined, "a.txt", "a.md"), async (bytes, filename) => {
        try {
          const r = await parser.parse(bytes, { ...(filename ? { filename } : {}), config: CONFIG });
          expectConsistentResult(r);
        } catch (err) {
          expect(DocParseError.isInstance(err), String(err)).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
  });
});
