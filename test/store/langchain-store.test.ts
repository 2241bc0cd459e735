import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import type { DocumentInterface } from "@langchain/core/documents";
import { describe, expect, it } from "vitest";
import type { ChunkMetadata } from "../../src/chunk/chunk.js";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { DocParseVectorStore } from "../../src/langchain/docparse-vector-store.js";
import { flattenMetadata, unflattenMetadata } from "../../src/store/flat-metadata.js";
import { LangChainStore } from "../../src/store/langchain-store.js";
import { matchesFilter } from "../../src/store/match-filter.js";
import { MemoryManifest } from "../../src/store/memory-manifest.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { axis, entry, makeChunk, record } from "./fixtures.js";

const embeddings = new HashEmbeddings({ dimensions: 8 });
const c1 = makeChunk("c1", "first", { pages: [1, 2], table: { elementId: "t", rowStart: 1, rowEnd: 2, headerRows: 1, rows: 3 } });
const c2 = makeChunk("c2", "second", { chunkIndex: 1, kind: "table", pages: [4] });
const c3 = makeChunk("c3", "other", { sourceId: "b.pdf", chunkIndex: 0 });

describe("flattenMetadata", () => {
  it("keeps scalars, JSON-encodes the rest, and comes back exactly", () => {
    const flat = flattenMetadata(c1.metadata);
    for (const value of Object.values(flat)) expect(["string", "number", "boolean"]).toContain(typeof value);
    expect(flat.sourceId).toBe("doc-a.pdf");
    expect(flat.pageStart).toBe(1);
    expect(typeof flat.regions).toBe("string");
    expect(JSON.stringify(unflattenMetadata(flat))).toBe(JSON.stringify(c1.metadata));
  });
});

describe("LangChainStore over MemoryVectorStore (no delete, no listing)", () => {
  it("writes chunks with ids and flat metadata, and reads them back whole", async () => {
    const lc = new MemoryVectorStore(embeddings);
    const store = new LangChainStore(lc);
    await store.upsert([record(c1, axis(0)), record(c2, axis(1))]);
    expect(lc.memoryVectors.map((v) => v.id)).toEqual(["c1", "c2"]);
    for (const value of Object.values(lc.memoryVectors[0]!.metadata)) expect(["string", "number", "boolean"]).toContain(typeof value);
    const [hit] = await store.query({ vector: axis(1), k: 1 });
    expect(hit!.chunk.id).toBe("c2");
    expect(JSON.stringify(hit!.chunk.metadata)).toBe(JSON.stringify(c2.metadata));
    expect(hit!.score).toBeCloseTo(1, 6);
  });

  it("reports its limits in capabilities and as DOCPARSE_UNSUPPORTED, never silently", async () => {
    const store = new LangChainStore(new MemoryVectorStore(embeddings));
    expect(store.capabilities).toEqual({ listBySource: false, hybridSearch: false, transactional: false, manifest: false });
    await store.upsert([record(c1, axis(0))]);
    const unsupported = { code: "DOCPARSE_UNSUPPORTED" };
    await expect(store.delete(["c1"])).rejects.toMatchObject(unsupported);
    await expect(store.getByIds(["c1"])).rejects.toMatchObject(unsupported);
    await expect(store.idsBySource("doc-a.pdf")).rejects.toMatchObject(unsupported);
    await expect(store.deleteBySource("doc-a.pdf")).rejects.toMatchObject(unsupported);
    await expect(store.replaceSource("doc-a.pdf", [], entry("doc-a.pdf", []))).rejects.toMatchObject(unsupported);
    await expect(store.removeSource("doc-a.pdf")).rejects.toMatchObject(unsupported);
    await expect(store.manifest.list()).rejects.toMatchObject(unsupported);
    await expect(store.query({ vector: axis(0), k: 1, filter: { kind: "table" } })).rejects.toMatchObject(unsupported);
    // Deleting nothing is fine even where delete is unsupported.
    await store.delete([]);
  });

  it("filters through translateFilter into the store's own filter type", async () => {
    const store = new LangChainStore(new MemoryVectorStore(embeddings), {
      // MemoryVectorStore filters with a function over the stored (flat) Document.
      translateFilter: (filter) => (doc: DocumentInterface) =>
        matchesFilter({ id: "", text: "", embedText: "", metadata: unflattenMetadata(doc.metadata) as ChunkMetadata }, filter),
    });
    await store.upsert([record(c1, axis(0)), record(c2, axis(1)), record(c3, axis(2))]);
    const hits = await store.query({ vector: axis(0), k: 3, filter: { kind: "table" } });
    expect(hits.map((h) => h.chunk.id)).toEqual(["c2"]);
  });
});

describe("LangChainStore with a side manifest, over a store that deletes by id", () => {
  const open = () => {
    const inner = new DocParseVectorStore(embeddings, { store: new MemoryStore() });
    return { inner, store: new LangChainStore(inner, { manifest: new MemoryManifest() }) };
  };

  it("replaceSource upserts, deletes stale chunks known from the manifest, and writes the entry", async () => {
    const { inner, store } = open();
    expect(store.capabilities.listBySource).toBe(true);
    await store.replaceSource("doc-a.pdf", [record(c1, axis(0)), record(c2, axis(1))], entry("doc-a.pdf", ["c1", "c2"]));
    await store.upsert([record(c3, axis(2))]);
    expect(await store.idsBySource("doc-a.pdf")).toEqual(["c1", "c2"]);

    await store.replaceSource("doc-a.pdf", [record(c2, axis(1))], entry("doc-a.pdf", ["c2"]));
    expect(await inner.store.getByIds(["c1", "c2", "c3"]).then((cs) => cs.map((c) => c.id))).toEqual(["c2", "c3"]);
    const [back] = await store.getByIds(["c2"]);
    expect(JSON.stringify(back!.metadata)).toBe(JSON.stringify(c2.metadata));

    expect(await store.deleteBySource("doc-a.pdf")).toBe(1);
    await store.removeSource("doc-a.pdf");
    expect(await store.manifest.get("doc-a.pdf")).toBeUndefined();
    expect(await store.getByIds(["c3"]).then((cs) => cs.length)).toBe(1);
  });

  it("flatten: false keeps nested metadata for stores that store JSON", async () => {
    const inner = new DocParseVectorStore(embeddings, { store: new MemoryStore() });
    const store = new LangChainStore(inner, { flatten: false });
    await store.upsert([record(c1, axis(0))]);
    const [raw] = await inner.getByIds(["c1"]);
    expect(raw!.metadata.regions).toEqual(c1.metadata.regions);
    expect(raw!.metadata.chunkId).toBe("c1");
    expect(JSON.stringify((await store.getByIds(["c1"]))[0]!.metadata)).toBe(JSON.stringify(c1.metadata));
  });

  it("refuses records of another source in replaceSource", async () => {
    const { store } = open();
    await expect(store.replaceSource("doc-a.pdf", [record(c3, axis(2))], entry("doc-a.pdf", ["c3"]))).rejects.toMatchObject({
      code: "DOCPARSE_INVALID_OPTION",
    });
  });

  it("wraps the vector store's own failures as DOCPARSE_STORE with the cause kept", async () => {
    const failing = new MemoryVectorStore(embeddings);
    const boom = new Error("qdrant is down");
    failing.addVectors = async () => {
      throw boom;
    };
    const error = await new LangChainStore(failing).upsert([record(c1, axis(0))]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DOCPARSE_STORE" });
    expect((error as Error).cause).toBe(boom);
  });
});
