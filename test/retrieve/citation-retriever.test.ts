import { describe, expect, it } from "vitest";
import type { Chunk } from "../../src/chunk/chunk.js";
import { rectOf } from "../../src/chunk/rect.js";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { DocParseError } from "../../src/errors.js";
import { CITATION_RETRIEVER_DEFAULTS, CitationRetriever, isDuplicateHit } from "../../src/retrieve/citation-retriever.js";
import type { Citation } from "../../src/retrieve/citation.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { linkChunks, makeChunk } from "./make-chunks.js";

const embeddings = new HashEmbeddings();

async function storeWith(chunks: Chunk[]): Promise<MemoryStore> {
  const store = new MemoryStore();
  const vectors = await embeddings.embedDocuments(chunks.map((c) => c.embedText));
  await store.upsert(chunks.map((c, i) => ({ ...c, vector: vectors[i]! })));
  return store;
}

const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

function corpus(): Chunk[] {
  return linkChunks([
    makeChunk("c0", "The warranty covers manufacturing defects for two years.", { sectionId: "s1", headingPath: ["Policy", "Warranty"] }),
    makeChunk("c1", "Refunds are accepted within thirty days of purchase. Keep the receipt.", {
      sectionId: "s1",
      headingPath: ["Policy", "Warranty"],
      pageSizes: { "2": { width: 1240, height: 1754 } },
      regions: [{ page: 2, elementId: "e1", coordinates: box(0.1, 0.2, 0.8, 0.24) }],
    }),
    makeChunk("c2", "Shipping is free for orders above fifty euros.", { sectionId: "s2", headingPath: ["Policy", "Shipping"] }),
    makeChunk("c3", "退款期限为购买后三十天。运费由买家承担。", {
      sectionId: "s3",
      headingPath: ["政策"],
      regions: [{ page: 3, elementId: "e3", coordinates: box(0.1, 0.5, 0.5, 0.52) }],
    }),
  ]);
}

describe("CitationRetriever defaults and options", () => {
  it("pins the defaults", async () => {
    const r = new CitationRetriever({ store: new MemoryStore(), embeddings });
    expect({ k: r.k, hybrid: r.hybrid, mmr: r.mmr, expand: r.expand, window: r.window, maxPassageChunks: r.maxPassageChunks, dedup: r.dedup, rerank: r.rerank, maxQueryLength: r.maxQueryLength }).toEqual({
      k: 4,
      hybrid: true,
      mmr: false,
      expand: "none",
      window: 1,
      maxPassageChunks: 8,
      dedup: true,
      rerank: true,
      maxQueryLength: 4000,
    });
    expect(CITATION_RETRIEVER_DEFAULTS).toEqual({ k: 4, hybrid: true, mmr: false, expand: "none", window: 1, maxPassageChunks: 8, dedup: true, rerank: true, maxQueryLength: 4000 });
  });

  it("rejects bad options and queries with DocParseError", async () => {
    expect(() => new CitationRetriever({ store: new MemoryStore(), embeddings, k: 0 })).toThrow(/`k` to be an integer >= 1, got 0/);
    const r = new CitationRetriever({ store: new MemoryStore(), embeddings, maxQueryLength: 10 });
    await expect(r.invoke("x".repeat(11))).rejects.toSatisfy((e: unknown) => DocParseError.isInstance(e) && e.code === "DOCPARSE_INVALID_OPTION");
    await expect(r.invoke("  ")).rejects.toThrow(/non-empty/);
  });
});

describe("result.metadata.citation", () => {
  it("survives a round trip through the memory store", async () => {
    const chunks = corpus();
    const r = new CitationRetriever({ store: await storeWith(chunks), embeddings, k: 1 });
    const [doc] = await r.invoke("How many days for refunds?");
    expect(doc!.id).toBe("c1");
    expect(doc!.pageContent).toBe(chunks[1]!.text);
    const c = doc!.metadata.citation as Citation;
    expect(c).toMatchObject({ sourceId: "doc.pdf", filename: "doc.pdf", pages: [2], headingPath: ["Policy", "Warranty"], chunkIds: ["c1"] });
    expect(c.regions.map((x) => [x.page, x.elementId, x.coordinates])).toEqual(chunks[1]!.metadata.regions.map((x) => [x.page, x.elementId, x.coordinates]));
    expect(doc!.metadata).toMatchObject({ chunkId: "c1", sourceId: "doc.pdf", pageStart: 2, pageEnd: 2, kind: "text" });
  });

  it("pixel boxes equal normalised boxes times the page size", async () => {
    const r = new CitationRetriever({ store: await storeWith(corpus()), embeddings, k: 1 });
    const [doc] = await r.invoke("refunds thirty days");
    const region = doc!.metadata.citation.regions[0]!;
    expect(region.pageSize).toEqual({ width: 1240, height: 1754 });
    expect(region.pixels).toEqual(region.coordinates.map((v, i) => v * (i % 2 === 0 ? 1240 : 1754)));
    for (const q of doc!.metadata.citation.quote.regions) expect(q.pixels).toEqual(q.coordinates.map((v, i) => v * (i % 2 === 0 ? 1240 : 1754)));
  });

  it("takes page sizes from the resolver when metadata has none, and omits pixels when unknown", async () => {
    const asked: number[] = [];
    const r = new CitationRetriever({
      store: await storeWith(corpus()),
      embeddings,
      k: 1,
      pageSizes: ({ page }) => {
        asked.push(page);
        return page === 3 ? { width: 100, height: 200 } : undefined;
      },
    });
    const [zh] = await r.invoke("退款期限");
    expect(zh!.metadata.citation.regions[0]!.pixels).toEqual([10, 100, 50, 100, 50, 104, 10, 104]);
    expect(asked).toContain(3);
    const [en] = await r.invoke("warranty defects two years");
    expect(en!.id).toBe("c0");
    expect(en!.metadata.citation.regions[0]!.pixels).toBeUndefined();
  });

  it("quotes the best sentence with boxes inside the chunk's box (English and Chinese)", async () => {
    const r = new CitationRetriever({ store: await storeWith(corpus()), embeddings, k: 1 });
    const [en] = await r.invoke("refunds accepted thirty days");
    const q = en!.metadata.citation.quote;
    expect(q.text).toBe("Refunds are accepted within thirty days of purchase.");
    expect(en!.pageContent.slice(q.start, q.end)).toBe(q.text);
    expect(q.approximate).toBe(true);
    const [zh] = await r.invoke("运费谁承担");
    const zq = zh!.metadata.citation.quote;
    expect(zq.text).toBe("运费由买家承担。");
    // The second of two equally long sentences on one line: the right half of the box.
    const rect = rectOf(zq.regions[0]!.coordinates);
    expect(rect.x0).toBeGreaterThan(0.25);
    expect(rect.x1).toBeLessThanOrEqual(0.5 + 1e-9);
  });

  it("uses char-level textSpans for exact quote boxes", async () => {
    const text = "Alpha beta. Gamma delta.";
    const textSpans = [...text].map((_, i) => ({
      start: i,
      end: i + 1,
      page: 1,
      elementId: "e",
      granularity: "char",
      coordinates: box(0.1 + i * 0.01, 0.3, 0.11 + i * 0.01, 0.32),
    }));
    const chunk = makeChunk("ch", text, { textSpans, regions: [{ page: 1, elementId: "e", coordinates: box(0.1, 0.3, 0.34, 0.32) }] });
    const r = new CitationRetriever({ store: await storeWith([chunk]), embeddings, k: 1 });
    const [doc] = await r.invoke("gamma delta");
    const q = doc!.metadata.citation.quote;
    expect(q.text).toBe("Gamma delta.");
    expect(q.approximate).toBe(false);
    expect(q.regions).toHaveLength(1);
    const rect = rectOf(q.regions[0]!.coordinates);
    expect(rect.x0).toBeCloseTo(0.1 + 12 * 0.01);
    expect(rect.x1).toBeCloseTo(0.11 + 23 * 0.01);
  });
});

describe("options.filter", () => {
  it("passes the filter to the store, merged with per-call filters", async () => {
    const chunks = [
      makeChunk("x1", "Refunds within thirty days.", { sourceId: "a.pdf" }),
      makeChunk("x2", "Refunds within thirty days!", { sourceId: "b.pdf", regions: [{ page: 2, elementId: "q", coordinates: box(0, 0, 1, 0.1) }] }),
    ];
    const store = await storeWith(chunks);
    const r = new CitationRetriever({ store, embeddings, k: 5, filter: { sourceId: "b.pdf" } });
    expect((await r.invoke("refunds")).map((d) => d.id)).toEqual(["x2"]);
    expect((await r.search("refunds", { filter: { pages: { from: 1, to: 1 } } })).map((d) => d.id)).toEqual([]);
    const open = new CitationRetriever({ store, embeddings, k: 5 });
    expect((await open.search("refunds", { filter: { sourceId: "a.pdf" } })).map((d) => d.id)).toEqual(["x1"]);
    expect(await open.search("refunds", { k: 1 })).toHaveLength(1);
  });
});

describe("options.expand", () => {
  it("neighbors adds prev/next chunks of the same section", async () => {
    const r = new CitationRetriever({ store: await storeWith(corpus()), embeddings, k: 1, expand: "neighbors" });
    const [doc] = await r.invoke("Refunds accepted within thirty days");
    // c2 is another section, so only c0 joins.
    expect(doc!.metadata.citation.chunkIds).toEqual(["c0", "c1"]);
    expect(doc!.pageContent).toBe(`${corpus()[0]!.text}\n\n${corpus()[1]!.text}`);
    const q = doc!.metadata.citation.quote;
    expect(doc!.pageContent.slice(q.start, q.end)).toBe("Refunds are accepted within thirty days of purchase.");
    expect(doc!.metadata.citation.pages).toEqual([1, 2]);
    expect(q.regions.every((x) => x.page === 2)).toBe(true);
  });

  it("section grows to the whole section, bounded by maxPassageChunks", async () => {
    const many = linkChunks(Array.from({ length: 6 }, (_, i) => makeChunk(`p${i}`, `Paragraph ${i} about topic${i}.`, { sectionId: "s" })));
    const store = await storeWith(many);
    const r = new CitationRetriever({ store, embeddings, k: 1, expand: "section" });
    const [doc] = await r.invoke("topic3");
    expect(doc!.metadata.citation.chunkIds).toEqual(["p0", "p1", "p2", "p3", "p4", "p5"]);
    const bounded = new CitationRetriever({ store, embeddings, k: 1, expand: "section", maxPassageChunks: 3 });
    const [small] = await bounded.invoke("topic3");
    expect(small!.metadata.citation.chunkIds).toHaveLength(3);
    expect(small!.metadata.citation.chunkIds).toContain("p3");
  });

  it("two hits growing into one passage are returned once", async () => {
    const many = linkChunks(Array.from({ length: 3 }, (_, i) => makeChunk(`p${i}`, `Paragraph ${i} about apples and pears ${i}.`, { sectionId: "s" })));
    const r = new CitationRetriever({ store: await storeWith(many), embeddings, k: 3, expand: "section" });
    const docs = await r.invoke("apples pears");
    expect(docs).toHaveLength(1);
    expect(docs[0]!.metadata.citation.chunkIds).toEqual(["p0", "p1", "p2"]);
  });
});

describe("options.dedup", () => {
  const a = makeChunk("a", "Overlap text one. Shared sentence here.", { regions: [{ page: 1, elementId: "e", coordinates: box(0.1, 0.1, 0.9, 0.3) }] });
  const b = makeChunk("b", "Shared sentence here. Overlap text two.", { regions: [{ page: 1, elementId: "e", coordinates: box(0.1, 0.15, 0.9, 0.25) }] });
  const c = makeChunk("c", "Shared sentence here elsewhere.", { regions: [{ page: 1, elementId: "f", coordinates: box(0.1, 0.5, 0.9, 0.6) }] });

  it("isDuplicateHit: measured boxes inside a better hit's boxes; approximate boxes never", () => {
    expect(isDuplicateHit(a, b)).toBe(true);
    expect(isDuplicateHit(a, c)).toBe(false);
    const approx = { ...b, metadata: { ...b.metadata, regions: [{ ...b.metadata.regions[0]!, approximate: true }] } };
    expect(isDuplicateHit(a, approx)).toBe(false);
  });

  it("drops covered hits by default and keeps them with dedup: false", async () => {
    const store = await storeWith([a, b, c]);
    const on = await new CitationRetriever({ store, embeddings, k: 3 }).invoke("shared sentence overlap");
    expect(on.map((d) => d.id).sort()).toHaveLength(2);
    const off = await new CitationRetriever({ store, embeddings, k: 3, dedup: false }).invoke("shared sentence overlap");
    expect(off).toHaveLength(3);
  });
});

describe("options.rerank", () => {
  it("lifts the candidate whose sentence holds the query's words over a vector-only neighbour", async () => {
    // A fake store that ranks a distractor first, as a weak embedding might.
    const good = makeChunk("good", "Refunds are accepted within thirty days of purchase.");
    const bad = makeChunk("bad", "Our stores open at nine and close at six every day.");
    const store = {
      capabilities: { listBySource: false, hybridSearch: false, transactional: false, manifest: false },
      query: async () => [
        { chunk: bad, score: 0.9 },
        { chunk: good, score: 0.8 },
      ],
      getByIds: async () => [],
    } as unknown as ConstructorParameters<typeof CitationRetriever>[0]["store"];
    const on = await new CitationRetriever({ store, embeddings, k: 1 }).invoke("refund within thirty days");
    expect(on[0]!.id).toBe("good");
    const off = await new CitationRetriever({ store, embeddings, k: 1, rerank: false }).invoke("refund within thirty days");
    expect(off[0]!.id).toBe("bad");
  });
});

describe("rerank: heading path and store ties", () => {
  /** A fake store that returns the hits as given (as a hybrid store's RRF might). */
  function fixedStore(hits: { chunk: Chunk; score: number }[]) {
    return {
      capabilities: { listBySource: false, hybridSearch: true, transactional: false, manifest: false },
      query: async () => hits,
      getByIds: async () => [],
    } as unknown as ConstructorParameters<typeof CitationRetriever>[0]["store"];
  }

  it("a tie in the store and in quote coverage goes to the section whose heading matches (English)", async () => {
    const shipping = makeChunk("shipping", "Return shipping is paid by the customer unless the product is defective.", { headingPath: ["Refund Policy", "Shipping"] });
    const returns = makeChunk("returns", "Customers may return any product they bought from us.", { headingPath: ["Refund Policy", "Returns"] });
    const store = fixedStore([
      { chunk: shipping, score: 0.0325 },
      { chunk: returns, score: 0.0325 },
    ]);
    const docs = await new CitationRetriever({ store, embeddings, k: 2 }).invoke("How long do I have to return a product?");
    expect(docs.map((d) => d.id)).toEqual(["returns", "shipping"]);
  });

  it("the same for Chinese headings", async () => {
    const a = makeChunk("a", "退货手续由顾客承担。", { headingPath: ["退货期限"] });
    const b = makeChunk("b", "退货费用由顾客承担。", { headingPath: ["运费"] });
    const store = fixedStore([
      { chunk: a, score: 0.5 },
      { chunk: b, score: 0.5 },
    ]);
    const docs = await new CitationRetriever({ store, embeddings, k: 2 }).invoke("运费谁承担？");
    expect(docs.map((d) => d.id)).toEqual(["b", "a"]);
  });

  it("a clearly better store rank still beats a heading match alone", async () => {
    const hits = Array.from({ length: 8 }, (_, i) => ({
      chunk: makeChunk(`c${i}`, `Customers may return any product, note ${i}.`, { headingPath: [i === 7 ? "Returns" : "Policy"] }),
      score: 1 - i / 10,
    }));
    const docs = await new CitationRetriever({ store: fixedStore(hits), embeddings, k: 1 }).invoke("return a product");
    expect(docs[0]!.id).toBe("c0");
  });
});

describe("options.mmr", () => {
  it("prefers a diverse hit over a near duplicate", async () => {
    const chunks = [
      makeChunk("d1", "Solar panels convert sunlight into electricity efficiently.", { regions: [{ page: 1, elementId: "x1", coordinates: box(0, 0, 1, 0.1) }] }),
      makeChunk("d2", "Solar panels convert sunlight into electricity efficiently!", { regions: [{ page: 2, elementId: "x2", coordinates: box(0, 0, 1, 0.1) }] }),
      makeChunk("d3", "Wind turbines also generate electricity.", { regions: [{ page: 3, elementId: "x3", coordinates: box(0, 0, 1, 0.1) }] }),
    ];
    const store = await storeWith(chunks);
    const plain = await new CitationRetriever({ store, embeddings, k: 2, dedup: false }).invoke("solar panels electricity");
    expect(plain.map((d) => d.id).sort()).toEqual(["d1", "d2"]);
    const diverse = await new CitationRetriever({ store, embeddings, k: 2, dedup: false, mmr: { lambda: 0.3 } }).invoke("solar panels electricity");
    expect(diverse.map((d) => d.id)).toContain("d3");
  });
});
