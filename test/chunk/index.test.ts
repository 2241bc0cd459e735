import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

describe("chunk barrel", () => {
  it("loads the 1 MB cl100k rank table only on the first count", async () => {
    const require = createRequire(import.meta.url);
    const loaded = () => Object.keys(require.cache).some((k) => k.includes("cl100k_base"));
    expect(loaded()).toBe(false);
    const chunk = await import("../../src/chunk/index.js");
    chunk.chunkDocument({ schema_version: "1.4.0", file_id: "f", elements: [{ element_id: "a", type: "NarrativeText", text: "hi", page_number: 1, coordinates: [] }] }, { tokenizer: "approximate" });
    expect(loaded()).toBe(false);
    expect(chunk.cl100kTokenizer().count("hello world")).toBe(2);
    expect(loaded()).toBe(true);
  });

  it("exports the public API", async () => {
    const chunk = await import("../../src/chunk/index.js");
    for (const name of ["chunkDocument", "chunkDocumentWithReport", "resolveChunkOptions", "CHUNK_OPTION_DEFAULTS", "cl100kTokenizer", "approximateTokenizer", "resolveTokenizer", "splitTextRanges", "DEFAULT_SEPARATORS", "detectTableText", "addCitationGeometry", "withCitationGeometry"]) {
      expect(chunk, name).toHaveProperty(name);
    }
  });
});
