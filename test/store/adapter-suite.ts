import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DocParseError } from "../../src/errors.js";
import type { ChunkStore, StoredChunk } from "../../src/store/chunk-store.js";
import { axis, entry, makeChunk, record } from "./fixtures.js";

/** How the shared suite gets a store of one adapter. */
export interface AdapterHarness {
  /** A fresh, empty store. Writes of up to 2 rows per statement where the adapter batches. */
  open(): Promise<ChunkStore>;
  /**
   * A record the adapter accepts in validation but fails to write (in the database),
   * or, for adapters that validate everything up front, one that fails validation.
   */
  poison(record: StoredChunk): StoredChunk;
}

/** The contract every ChunkStore adapter must meet. */
export function adapterSuite(name: string, harness: AdapterHarness): void {
  describe(`ChunkStore contract: ${name}`, () => {
    let store: ChunkStore;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
    });

    const a1 = record(makeChunk("a1", "The quarterly revenue grew by ten percent.", { chunkIndex: 0 }), axis(0));
    const a2 = record(makeChunk("a2", "Operating costs fell in the second half.", { chunkIndex: 1, pages: [2, 3] }), axis(1));
    const b1 = record(makeChunk("b1", "Installation guide for the server.", { sourceId: "doc-b.docx", filename: "doc-b.docx", chunkIndex: 0 }), axis(2));

    it("is empty at start", async () => {
      expect(await store.getByIds(["a1"])).toEqual([]);
      expect(await store.idsBySource("doc-a.pdf")).toEqual([]);
      expect(await store.query({ vector: axis(0), k: 5 })).toEqual([]);
      expect(await store.manifest.list()).toEqual([]);
    });

    it("upsert adds and query finds the nearest first, scores descending", async () => {
      await store.upsert([a1, a2, b1]);
      const hits = await store.query({ vector: axis(1), k: 3 });
      expect(hits.map((h) => h.chunk.id)[0]).toBe("a2");
      expect(hits).toHaveLength(3);
      expect(hits[0]!.score).toBeCloseTo(1, 5);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
      expect(hits[0]!.chunk).toEqual(makeChunk("a2", a2.text, { chunkIndex: 1, pages: [2, 3] }));
    });

    it("upsert of the same id twice (and twice in one batch) never duplicates", async () => {
      await store.upsert([a1, a2]);
      await store.upsert([a1, a2]);
      await store.upsert([a1, a1]);
      expect(await store.idsBySource("doc-a.pdf")).toEqual(["a1", "a2"]);
      expect(await store.query({ vector: axis(0), k: 10 })).toHaveLength(2);
    });

    it("upsert overwrites by id: text, metadata and vector", async () => {
      await store.upsert([a1, b1]);
      const changed = record(makeChunk("a1", "Revenue was restated.", { chunkIndex: 0, kind: "table" }), axis(5));
      await store.upsert([changed]);
      const [got] = await store.getByIds(["a1"]);
      expect(got?.text).toBe("Revenue was restated.");
      expect(got?.metadata.kind).toBe("table");
      const hits = await store.query({ vector: axis(5), k: 1 });
      expect(hits[0]?.chunk.id).toBe("a1");
    });

    it("delete removes by id; missing ids are ignored", async () => {
      await store.upsert([a1, a2, b1]);
      await store.delete(["a1", "nope"]);
      await store.delete([]);
      await store.delete(["never-there"]);
      expect(await store.getByIds(["a1", "a2", "b1"]).then((c) => c.map((x) => x.id))).toEqual(["a2", "b1"]);
    });

    it("deleteBySource removes exactly that source and counts", async () => {
      await store.upsert([a1, a2, b1]);
      expect(await store.deleteBySource("doc-a.pdf")).toBe(2);
      expect(await store.deleteBySource("doc-a.pdf")).toBe(0);
      expect(await store.idsBySource("doc-a.pdf")).toEqual([]);
      expect(await store.idsBySource("doc-b.docx")).toEqual(["b1"]);
    });

    it("getByIds keeps input order, leaves missing out; idsBySource follows chunkIndex", async () => {
      await store.upsert([a2, b1, a1]);
      const got = await store.getByIds(["b1", "missing", "a2", "a1"]);
      expect(got.map((c) => c.id)).toEqual(["b1", "a2", "a1"]);
      expect(await store.idsBySource("doc-a.pdf")).toEqual(["a1", "a2"]);
    });

    describe("query.filter", () => {
      const rows = [
        record(makeChunk("f1", "alpha", { sourceId: "s1", filename: "one.pdf", pages: [1], kind: "text", headingPath: ["Guide", "Setup"], lang: "en", year: 2024, draft: false }), axis(0)),
        record(makeChunk("f2", "beta", { sourceId: "s1", filename: "one.pdf", pages: [3, 4], kind: "table", elementTypes: ["Table"], headingPath: ["Guide", "Usage"], lang: "zh", year: 2025, draft: true }), axis(1)),
        record(makeChunk("f3", "gamma", { sourceId: "s2", filename: "two.docx", pages: [7], kind: "image", elementTypes: ["Image", "FigureCaption"], headingPath: ["Guide"], lang: "en", year: 2025, draft: false }), axis(2)),
        record(makeChunk("f4", "delta", { sourceId: "s3", filename: "three.html", pages: [1, 5], kind: "mixed", elementTypes: ["NarrativeText", "Table"], headingPath: ["Appendix", "Guide"], lang: "zh", year: 2024, draft: false }), axis(3)),
      ];
      const ids = async (filter: Parameters<ChunkStore["query"]>[0]["filter"]) =>
        (await store.query({ vector: axis(0), k: 10, filter })).map((h) => h.chunk.id).sort();

      it("sourceId (one and many), filename, kind (one and many)", async () => {
        await store.upsert(rows);
        expect(await ids({ sourceId: "s1" })).toEqual(["f1", "f2"]);
        expect(await ids({ sourceId: ["s2", "s3"] })).toEqual(["f3", "f4"]);
        expect(await ids({ filename: "two.docx" })).toEqual(["f3"]);
        expect(await ids({ kind: "table" })).toEqual(["f2"]);
        expect(await ids({ kind: ["image", "mixed"] })).toEqual(["f3", "f4"]);
      });

      it("pages: any page in the range, open on either end; gaps are honoured", async () => {
        await store.upsert(rows);
        expect(await ids({ pages: { from: 2, to: 3 } })).toEqual(["f2"]);
        expect(await ids({ pages: { from: 5 } })).toEqual(["f3", "f4"]);
        expect(await ids({ pages: { to: 1 } })).toEqual(["f1", "f4"]);
        // f4 spans pages 1..5 but touches only 1 and 5.
        expect(await ids({ pages: { from: 2, to: 4 } })).toEqual(["f2"]);
      });

      it("elementType and headingPathPrefix", async () => {
        await store.upsert(rows);
        expect(await ids({ elementType: "Table" })).toEqual(["f2", "f4"]);
        expect(await ids({ headingPathPrefix: ["Guide"] })).toEqual(["f1", "f2", "f3"]);
        expect(await ids({ headingPathPrefix: ["Guide", "Usage"] })).toEqual(["f2"]);
        expect(await ids({ headingPathPrefix: [] })).toEqual(["f1", "f2", "f3", "f4"]);
      });

      it("flat metadata equality (string, number, boolean) and AND of keys", async () => {
        await store.upsert(rows);
        expect(await ids({ metadata: { lang: "zh" } })).toEqual(["f2", "f4"]);
        expect(await ids({ metadata: { year: 2024 } })).toEqual(["f1", "f4"]);
        expect(await ids({ metadata: { draft: true } })).toEqual(["f2"]);
        expect(await ids({ metadata: { lang: "en", year: 2025 }, kind: "image" })).toEqual(["f3"]);
        expect(await ids({ sourceId: "s1", metadata: { lang: "en" } })).toEqual(["f1"]);
        expect(await ids({ sourceId: "nobody" })).toEqual([]);
      });

      it("an unknown filter key is an error, not a silent match-all", async () => {
        await store.upsert(rows);
        await expect(store.query({ vector: axis(0), k: 3, filter: { sourceID: "s1" } as never })).rejects.toMatchObject({
          code: "DOCPARSE_INVALID_OPTION",
        });
      });
    });

    describe("query.text (hybrid)", () => {
      const docs = [
        record(makeChunk("h1", "The quarterly report covers revenue.", { chunkIndex: 0 }), axis(0)),
        record(makeChunk("h2", "向量数据库支持混合检索和全文检索。", { chunkIndex: 1 }), axis(1)),
        record(makeChunk("h3", "今天天气很好，我们去公园散步。", { chunkIndex: 2 }), axis(2)),
        record(makeChunk("h4", "Hybrid search fuses the ranks of two retrievers.", { chunkIndex: 3 }), axis(3)),
        record(makeChunk("h5", "Tables keep their header rows.", { chunkIndex: 4 }), axis(4)),
      ];

      // Nearest h1, then h3, h4, h5; h2 is last by vector.
      const q = [1, 0, 0.3, 0.2, 0.1, 0, 0, 0];

      it("fuses full-text rank with vector rank (Chinese query, no spaces)", async () => {
        await store.upsert(docs);
        const pure = await store.query({ vector: q, k: 2 });
        expect(pure.map((h) => h.chunk.id)).toEqual(["h1", "h3"]);
        const hybrid = await store.query({ vector: q, text: "混合检索", k: 2 });
        // h2 is first in the text ranking and also in the vector ranking; h1 only in the vector one.
        expect(hybrid.map((h) => h.chunk.id)).toEqual(["h2", "h1"]);
        expect(hybrid[0]!.score).toBeGreaterThan(hybrid[1]!.score);
      });

      it("fuses with an English query and respects filters", async () => {
        await store.upsert(docs);
        const hybrid = await store.query({ vector: q, text: "hybrid search", k: 2 });
        expect(hybrid.map((h) => h.chunk.id)).toEqual(["h4", "h1"]);
        const filtered = await store.query({ vector: q, text: "hybrid search", k: 5, filter: { pages: { from: 9 } } });
        expect(filtered).toEqual([]);
      });

      it("a text with no terms falls back to pure vector search", async () => {
        await store.upsert(docs);
        const hits = await store.query({ vector: axis(2), text: "？！…", k: 1 });
        expect(hits[0]?.chunk.id).toBe("h3");
      });
    });

    it("metadata round trip: regions and all metadata come back byte-identical", async () => {
      const chunk = makeChunk("m1", "表格：收入 | 成本", {
        pages: [2, 3],
        table: { elementId: "t1", rowStart: 1, rowEnd: 4, headerRows: 1, rows: 9 },
        image: { url: "https://example.test/a.png", mimeType: "image/png" },
        headingPath: ["第一章", "收入 \"引号\" \\ 反斜杠"],
        custom: "x",
        nested: { deep: [1, { z: 1, a: 2 }] },
      });
      await store.upsert([record(chunk, axis(0))]);
      const [got] = await store.getByIds(["m1"]);
      expect(JSON.stringify(got!.metadata.regions)).toBe(JSON.stringify(chunk.metadata.regions));
      expect(JSON.stringify(got)).toBe(JSON.stringify(chunk));
      const [hit] = await store.query({ vector: axis(0), k: 1, includeVectors: true });
      expect(JSON.stringify(hit!.chunk)).toBe(JSON.stringify(chunk));
      expect(hit!.vector).toEqual(axis(0));
      expect(await store.query({ vector: axis(0), k: 1, filter: { headingPathPrefix: ["第一章", "收入 \"引号\" \\ 反斜杠"] } })).toHaveLength(1);
    });

    it("the vector dimension is fixed by the first write", async () => {
      await store.upsert([a1]);
      const wrong = record(makeChunk("x", "x"), [1, 0, 0]);
      await expect(store.upsert([wrong])).rejects.toSatisfy((e) => DocParseError.isInstance(e) && /dimension 3/.test(e.message));
      await expect(store.query({ vector: [1, 0], k: 1 })).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
      expect(await store.getByIds(["x"])).toEqual([]);
    });

    it("a batch that fails mid-way leaves the previous state intact", async () => {
      await store.upsert([a1, b1]);
      const changed = record(makeChunk("a1", "CHANGED", { chunkIndex: 0 }), axis(0));
      const fresh = record(makeChunk("a3", "new", { chunkIndex: 2 }), axis(3));
      const bad = harness.poison(record(makeChunk("a4", "bad", { chunkIndex: 3 }), axis(4)));
      await expect(store.upsert([changed, fresh, bad])).rejects.toSatisfy((e) => DocParseError.isInstance(e));
      expect((await store.getByIds(["a1"]))[0]?.text).toBe(a1.text);
      expect(await store.getByIds(["a3", "a4"])).toEqual([]);
      expect(await store.idsBySource("doc-a.pdf")).toEqual(["a1"]);
    });

    it("manifest: put, get, list in sourceId order, overwrite, delete", async () => {
      expect(await store.manifest.get("z.pdf")).toBeUndefined();
      await store.manifest.put(entry("z.pdf", ["z1"], { status: "pending" }));
      await store.manifest.put(entry("a.pdf", ["a1", "a2"], { jobId: "job-9", error: { code: 40422, message: "corrupt", stage: "parse" } }));
      expect(await store.manifest.get("a.pdf")).toEqual(entry("a.pdf", ["a1", "a2"], { jobId: "job-9", error: { code: 40422, message: "corrupt", stage: "parse" } }));
      expect((await store.manifest.list()).map((e) => e.sourceId)).toEqual(["a.pdf", "z.pdf"]);
      await store.manifest.put(entry("z.pdf", ["z1", "z2"], { status: "done" }));
      expect((await store.manifest.get("z.pdf"))?.chunkIds).toEqual(["z1", "z2"]);
      await store.manifest.delete("z.pdf");
      await store.manifest.delete("never");
      expect((await store.manifest.list()).map((e) => e.sourceId)).toEqual(["a.pdf"]);
    });

    it("replaceSource makes records the whole source and writes the entry; removeSource undoes", async () => {
      await store.upsert([a1, a2, b1]);
      const a1b = record(makeChunk("a1", "revised", { chunkIndex: 0 }), axis(0));
      const a5 = record(makeChunk("a5", "added", { chunkIndex: 1 }), axis(6));
      await store.replaceSource("doc-a.pdf", [a1b, a5], entry("doc-a.pdf", ["a1", "a5"]));
      expect(await store.idsBySource("doc-a.pdf")).toEqual(["a1", "a5"]);
      expect((await store.getByIds(["a1"]))[0]?.text).toBe("revised");
      expect(await store.idsBySource("doc-b.docx")).toEqual(["b1"]);
      expect((await store.manifest.get("doc-a.pdf"))?.chunkIds).toEqual(["a1", "a5"]);
      await store.removeSource("doc-a.pdf");
      expect(await store.idsBySource("doc-a.pdf")).toEqual([]);
      expect(await store.manifest.get("doc-a.pdf")).toBeUndefined();
      expect(await store.idsBySource("doc-b.docx")).toEqual(["b1"]);
    });

    it("replaceSource that fails leaves chunks and manifest as they were", async () => {
      await store.replaceSource("doc-a.pdf", [a1, a2], entry("doc-a.pdf", ["a1", "a2"]));
      const bad = harness.poison(record(makeChunk("a9", "bad", { chunkIndex: 1 }), axis(4)));
      const a1b = record(makeChunk("a1", "revised", { chunkIndex: 0 }), axis(0));
      await expect(store.replaceSource("doc-a.pdf", [a1b, bad], entry("doc-a.pdf", ["a1", "a9"]))).rejects.toSatisfy((e) =>
        DocParseError.isInstance(e),
      );
      expect(await store.idsBySource("doc-a.pdf")).toEqual(["a1", "a2"]);
      expect((await store.getByIds(["a1"]))[0]?.text).toBe(a1.text);
      expect((await store.manifest.get("doc-a.pdf"))?.chunkIds).toEqual(["a1", "a2"]);
    });

    it("replaceSource refuses records of another source", async () => {
      await expect(store.replaceSource("doc-a.pdf", [b1], entry("doc-a.pdf", ["b1"]))).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
    });

    it("reports its capabilities", () => {
      expect(store.capabilities).toEqual({ listBySource: true, hybridSearch: true, transactional: true, manifest: true });
    });
  });
}
