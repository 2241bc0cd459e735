import { Document } from "@langchain/core/documents";
import { index } from "@langchain/core/indexing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { DocParseVectorStore } from "../../src/langchain/docparse-vector-store.js";
import { chunkToDocument } from "../../src/langchain/documents.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { makeChunk } from "../store/fixtures.js";
import { InMemoryRecordManager } from "./record-manager.js";

const embeddings = new HashEmbeddings({ dimensions: 256 });

const docs = [
  chunkToDocument(makeChunk("c1", "Install the database server on Linux.", { sourceId: "guide.md", kind: "text", chunkIndex: 0 })),
  chunkToDocument(makeChunk("c2", "数据库服务器的安装步骤。", { sourceId: "guide.md", kind: "text", chunkIndex: 1, pages: [2] })),
  chunkToDocument(makeChunk("c3", "Revenue by quarter: Q1 10, Q2 12.", { sourceId: "report.pdf", kind: "table", chunkIndex: 0, pages: [5] })),
  chunkToDocument(makeChunk("c4", "Install the database server on Windows.", { sourceId: "guide.md", kind: "text", chunkIndex: 2, pages: [3] })),
];

describe("DocParseVectorStore", () => {
  let vs: DocParseVectorStore;
  beforeEach(() => {
    vs = new DocParseVectorStore(embeddings, { store: new MemoryStore() });
  });
  afterEach(async () => {
    await vs.store.close();
  });

  it("addDocuments keeps Document ids (or given ids) and returns them", async () => {
    expect(await vs.addDocuments(docs)).toEqual(["c1", "c2", "c3", "c4"]);
    expect(await vs.addDocuments([new Document({ pageContent: "plain" })], { ids: ["mine"] })).toEqual(["mine"]);
    const [plain] = await vs.getByIds(["mine"]);
    expect(plain?.id).toBe("mine");
    expect(plain?.metadata.sourceId).toBe("langchain");
  });

  it("similaritySearchWithScore returns Documents with chunk metadata and regions, best first", async () => {
    await vs.addDocuments(docs);
    const hits = await vs.similaritySearchWithScore("install database server linux", 2);
    expect(hits[0]![0].id).toBe("c1");
    expect(hits[0]![0].metadata.regions).toEqual(docs[0]!.metadata.regions);
    expect(hits[0]![0].metadata.sourceId).toBe("guide.md");
    expect(hits[0]![1]).toBeGreaterThan(hits[1]![1]);
  });

  it("filters are ChunkFilters", async () => {
    await vs.addDocuments(docs);
    const tables = await vs.similaritySearch("install", 4, { kind: "table" });
    expect(tables.map((d) => d.id)).toEqual(["c3"]);
    const later = await vs.similaritySearch("install", 4, { sourceId: "guide.md", pages: { from: 2 } });
    expect(later.map((d) => d.id).sort()).toEqual(["c2", "c4"]);
  });

  it("delete by ids and by source", async () => {
    await vs.addDocuments(docs);
    await vs.delete({ ids: ["c1"] });
    expect((await vs.getByIds(["c1", "c3"])).map((d) => d.id)).toEqual(["c3"]);
    await vs.delete({ sourceId: "guide.md" });
    expect(await vs.store.idsBySource("guide.md")).toEqual([]);
    await expect(vs.delete({})).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
  });

  it("maxMarginalRelevanceSearch prefers diverse results", async () => {
    await vs.addDocuments(docs);
    const relevant = await vs.similaritySearch("install the database server", 2);
    expect(relevant.map((d) => d.id).sort()).toEqual(["c1", "c4"]);
    const diverse = await vs.maxMarginalRelevanceSearch("install the database server", { k: 2, fetchK: 4, lambda: 0.1 }, undefined);
    expect(diverse).toHaveLength(2);
    expect(diverse.map((d) => d.id)).not.toEqual(expect.arrayContaining(["c1", "c4"]));
  });

  it("asRetriever works, with filters and with mmr", async () => {
    await vs.addDocuments(docs);
    const retriever = vs.asRetriever({ k: 1, filter: { kind: "table" } });
    expect((await retriever.invoke("install")).map((d) => d.id)).toEqual(["c3"]);
    const mmr = vs.asRetriever({ k: 2, searchType: "mmr", searchKwargs: { fetchK: 4, lambda: 0.5 } });
    expect(await mmr.invoke("database server")).toHaveLength(2);
  });

  it("hybrid: passes the query text so full-text ranking is fused", async () => {
    const hybrid = new DocParseVectorStore(embeddings, { store: new MemoryStore(), hybrid: true });
    await hybrid.addDocuments(docs);
    const [[top, score]] = (await hybrid.similaritySearchWithScore("安装", 1)) as [[Document, number]];
    expect(top.id).toBe("c2");
    // An RRF score, not a cosine similarity.
    expect(score).toBeLessThan(0.05);
  });

  it("fromUrl opens a store by URL", async () => {
    const fromUrl = await DocParseVectorStore.fromUrl("memory://", embeddings);
    expect(fromUrl.store).toBeInstanceOf(MemoryStore);
    expect(fromUrl._vectorstoreType()).toBe("docparse");
    await fromUrl.store.close();
  });

  describe("index() with a record manager", () => {
    it("re-indexing unchanged input adds nothing; changed input updates and cleans up", async () => {
      const recordManager = new InMemoryRecordManager();
      const options = { cleanup: "incremental" as const, sourceIdKey: "sourceId" };
      const first = await index({ docsSource: docs, recordManager, vectorStore: vs, options });
      expect(first).toMatchObject({ numAdded: 4, numDeleted: 0, numSkipped: 0 });
      expect(await vs.store.idsBySource("guide.md")).toHaveLength(3);

      const again = await index({ docsSource: docs, recordManager, vectorStore: vs, options });
      expect(again).toMatchObject({ numAdded: 0, numDeleted: 0, numSkipped: 4 });

      const changed = [
        chunkToDocument(makeChunk("c1", "Install the database server on Linux, version 2.", { sourceId: "guide.md", chunkIndex: 0 })),
        docs[1]!,
      ];
      const third = await index({ docsSource: changed, recordManager, vectorStore: vs, options });
      expect(third).toMatchObject({ numAdded: 1, numSkipped: 1, numDeleted: 2 });
      const left = await vs.store.idsBySource("guide.md");
      expect(left).toHaveLength(2);
      const texts = (await vs.store.getByIds(left)).map((c) => c.text).sort();
      expect(texts).toEqual(["Install the database server on Linux, version 2.", "数据库服务器的安装步骤。"]);
      // The report was not part of this run's sources: incremental cleanup leaves it.
      expect(await vs.store.idsBySource("report.pdf")).toHaveLength(1);
    });
  });
});
