import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { ingest } from "../../src/ingest/ingest.js";
import { DocParseVectorStore } from "../../src/langchain/docparse-vector-store.js";
import type { ChunkStore, ChunkStoreCapabilities, ChunkQuery } from "../../src/store/chunk-store.js";
import { MemoryStore } from "../../src/store/memory-store.js";

const EXAMPLES = join(import.meta.dirname, "../../examples/docs");

/** A ChunkStore that records its queries and can claim to lack hybrid search. */
function recordingStore(hybridSearch: boolean): { store: ChunkStore; queries: ChunkQuery[] } {
  const inner = new MemoryStore();
  const queries: ChunkQuery[] = [];
  const capabilities: ChunkStoreCapabilities = { ...inner.capabilities, hybridSearch };
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === "capabilities") return capabilities;
      if (key === "query") return (q: ChunkQuery) => (queries.push(q), target.query(q));
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as ChunkStore;
  return { store, queries };
}

describe("DocParseVectorStore hybrid default", () => {
  const embeddings = new HashEmbeddings({ dimensions: 64 });

  it("sends the query text by default when the store supports hybrid search", async () => {
    const { store, queries } = recordingStore(true);
    const vs = new DocParseVectorStore(embeddings, { store });
    expect(vs.hybrid).toBe(true);
    await vs.asRetriever({ k: 1 }).invoke("出差审批");
    expect(queries.at(-1)?.text).toBe("出差审批");
  });

  it("sends only the vector when the store cannot use text, or when hybrid: false", async () => {
    const lacking = recordingStore(false);
    expect(new DocParseVectorStore(embeddings, { store: lacking.store }).hybrid).toBe(false);
    await new DocParseVectorStore(embeddings, { store: lacking.store }).similaritySearch("refund", 1);
    expect(lacking.queries.at(-1)?.text).toBeUndefined();

    const optOut = recordingStore(true);
    await new DocParseVectorStore(embeddings, { store: optOut.store, hybrid: false }).similaritySearch("refund", 1);
    expect(optOut.queries.at(-1)?.text).toBeUndefined();
  });
});

describe("DocParseVectorStore.asRetriever() over examples/docs", () => {
  const embeddings = new HashEmbeddings();
  const store = new MemoryStore();
  beforeAll(async () => {
    const report = await ingest({ sources: [EXAMPLES], store, embeddings, exclude: ["*.ts"] });
    expect(report.failed).toEqual([]);
  }, 60_000);
  afterAll(() => store.close());

  it("ranks the travel-approval section first for a Chinese question (as the CLI does)", async () => {
    const docs = await new DocParseVectorStore(embeddings, { store }).asRetriever({ k: 3 }).invoke("出差需要提前几天申请？");
    expect(docs[0]?.metadata.headingPath).toEqual(["差旅管理制度", "出差审批"]);
    expect(docs[0]?.pageContent).toContain("提前五个工作日");
  });

  it("ranks the refund-period section first for an English question", async () => {
    const docs = await new DocParseVectorStore(embeddings, { store }).asRetriever({ k: 3 }).invoke("Within how many days of delivery can I return an item?");
    expect(docs[0]?.pageContent).toContain("within 30 days of delivery");
  });
});
