import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkDocument, resolveTokenizer, type Chunk, type ChunkOptions } from "../../src/chunk/index.js";
import { buildResult, type Built, type Item } from "./support/generate.js";

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("title" as const), level: fc.integer({ min: 1, max: 4 }), words: fc.integer({ min: 1, max: 6 }) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("para" as const),
      words: fc.integer({ min: 1, max: 220 }),
      chinese: fc.boolean(),
      formula: fc.boolean(),
      chars: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("list" as const), words: fc.integer({ min: 1, max: 20 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("table" as const),
      rows: fc.integer({ min: 2, max: 40 }),
      cols: fc.integer({ min: 1, max: 5 }),
      span: fc.boolean(),
      form: fc.constantFrom("structure" as const, "html" as const, "markdown" as const, "plain" as const),
      caption: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("image" as const), words: fc.integer({ min: 0, max: 10 }), caption: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "noise" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "continue" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "page" as const }) },
);

const docArb = fc.record({
  items: fc.array(item, { minLength: 1, maxLength: 50 }),
  hierarchy: fc.constantFrom("tree" as const, "depth" as const, "none" as const, "broken" as const),
});

const optionsArb = fc.record({
  maxTokens: fc.integer({ min: 64, max: 400 }),
  minFraction: fc.integer({ min: 0, max: 3 }),
  headingLevel: fc.integer({ min: 1, max: 4 }),
  tableFormat: fc.constantFrom("html" as const, "markdown" as const),
  strategy: fc.constantFrom("hierarchy" as const, "by_page" as const, "by_element" as const),
});

function toOptions(o: { maxTokens: number; minFraction: number; headingLevel: number; tableFormat: "html" | "markdown"; strategy: ChunkOptions["strategy"] }, tokenizer: ChunkOptions["tokenizer"]): ChunkOptions {
  return {
    maxTokens: o.maxTokens,
    minTokens: Math.floor((o.maxTokens * o.minFraction) / 8),
    headingLevel: o.headingLevel,
    tableFormat: o.tableFormat,
    strategy: o.strategy,
    tokenizer,
  };
}

function wordCounts(chunks: Chunk[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of chunks) for (const m of c.text.matchAll(/w\d+/g)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  return counts;
}

function checkInvariants(built: Built, chunks: Chunk[], options: ChunkOptions, hierarchy: string): void {
  const tokenizer = resolveTokenizer(options.tokenizer ?? "cl100k_base");
  const counts = wordCounts(chunks);
  // Coverage: every kept element's words exactly once.
  for (const [, words] of built.words) for (const w of words) expect(counts.get(w) ?? 0, `word ${w}`).toBe(1);
  // Table body rows exactly once (span-covered Markdown cells repeat their cell's text).
  for (const w of built.tableBody) {
    const n = counts.get(w) ?? 0;
    if (options.tableFormat === "markdown" && built.tableSpanned.has(w)) expect(n).toBeGreaterThanOrEqual(1);
    else expect(n, `table word ${w}`).toBe(1);
  }
  for (const w of built.tableHeader) expect(counts.get(w) ?? 0, `header word ${w}`).toBeGreaterThanOrEqual(1);

  const continued = new Set(built.result.elements.filter((e) => e.metadata?.is_continuation).map((e) => e.element_id));
  const captions = new Set(built.result.elements.filter((e) => e.type.endsWith("Caption")).map((e) => e.element_id));
  const pageOf = new Map(built.result.elements.map((e) => [e.element_id, e.page_number]));
  const ids = new Set<string>();
  chunks.forEach((c, i) => {
    const m = c.metadata;
    // Budget.
    expect(m.tokens).toBe(tokenizer.count(c.embedText));
    if (!m.oversized) expect(m.tokens, `chunk ${i} tokens`).toBeLessThanOrEqual(options.maxTokens!);
    // Generated prose always has a place to cut: only a single table row can force it.
    else expect(m.table).toBeDefined();
    // Regions.
    for (const r of m.regions) {
      expect(m.elementIds).toContain(r.elementId);
      expect(m.pages).toContain(r.page);
    }
    expect([...m.pages].sort((a, b) => a - b)).toEqual(m.pages);
    expect(new Set(m.pages).size).toBe(m.pages.length);
    expect(m.pageStart).toBe(m.pages[0]);
    expect(m.pageEnd).toBe(m.pages[m.pages.length - 1]);
    // Links.
    expect(m.chunkIndex).toBe(i);
    expect(m.chunkCount).toBe(chunks.length);
    expect(m.prevId).toBe(chunks[i - 1]?.id);
    expect(m.nextId).toBe(chunks[i + 1]?.id);
    ids.add(c.id);
    // by_page: one page per chunk, apart from the continued halves joined to a block.
    // by_element: one element per chunk, apart from continuations and captions.
    const own = m.elementIds.filter((e) => !continued.has(e));
    if (options.strategy === "by_page") expect(new Set(own.map((e) => pageOf.get(e))).size, `chunk ${i} pages`).toBe(1);
    if (options.strategy === "by_element") expect(own.filter((e) => !captions.has(e)).length, `chunk ${i} elements`).toBeLessThanOrEqual(1);
    // Sections: a chunk never spans two (carried-down empty parent headings aside).
    if (options.strategy === "hierarchy" && hierarchy !== "none") {
      const section = m.sectionId!;
      const ancestors = built.titleAncestors.get(section) ?? [];
      for (const e of m.elementIds) {
        const s = built.sectionTitle(e, options.headingLevel!);
        if (s !== section) expect(ancestors, `${e} in chunk of section ${section}`).toContain(e);
      }
    }
  });
  expect(ids.size).toBe(chunks.length);
}

describe("chunkDocument invariants (property)", () => {
  it("holds coverage, budget, regions, sections and links with the approximate tokenizer", () => {
    fc.assert(
      fc.property(docArb, optionsArb, (doc, o) => {
        const built = buildResult(doc.items, { hierarchy: doc.hierarchy });
        const options = toOptions(o, "approximate");
        checkInvariants(built, chunkDocument(built.result, options), options, doc.hierarchy);
      }),
      { numRuns: 120, seed: 20261122 },
    );
  });

  it("holds them with cl100k_base", () => {
    fc.assert(
      fc.property(docArb, optionsArb, (doc, o) => {
        const built = buildResult(doc.items, { hierarchy: doc.hierarchy });
        const options = toOptions(o, "cl100k_base");
        checkInvariants(built, chunkDocument(built.result, options), options, doc.hierarchy);
      }),
      { numRuns: 25, seed: 7 },
    );
  });

  it("is deterministic: byte-identical output for the same input, unaffected by a copy", () => {
    fc.assert(
      fc.property(docArb, optionsArb, (doc, o) => {
        const built = buildResult(doc.items, { hierarchy: doc.hierarchy });
        const options = toOptions(o, "approximate");
        const a = JSON.stringify(chunkDocument(built.result, options));
        const b = JSON.stringify(chunkDocument(structuredClone(built.result), options));
        expect(b).toBe(a);
      }),
      { numRuns: 40, seed: 3 },
    );
  });

  it("with overlapTokens, every word is still covered at least once", () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        const built = buildResult(doc.items, { hierarchy: doc.hierarchy });
        const chunks = chunkDocument(built.result, { maxTokens: 80, overlapTokens: 20, tokenizer: "approximate" });
        const counts = wordCounts(chunks);
        for (const [, words] of built.words) for (const w of words) expect(counts.get(w) ?? 0).toBeGreaterThanOrEqual(1);
        for (const c of chunks) if (!c.metadata.oversized) expect(c.metadata.tokens).toBeLessThanOrEqual(80);
      }),
      { numRuns: 40, seed: 11 },
    );
  });
});
