import { describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { CitationRetriever } from "../../src/retrieve/citation-retriever.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { buildQaChain } from "../../examples/qa/qa-chain.js";
import { makeChunk } from "./make-chunks.js";
import { FakeListChatModel } from "@langchain/core/utils/testing";

async function retriever(): Promise<CitationRetriever> {
  const store = new MemoryStore();
  const embeddings = new HashEmbeddings();
  const chunks = [
    makeChunk("a", "Refunds are accepted within thirty days of purchase. Keep the receipt.", { filename: "policy.md" }),
    makeChunk("b", "顾客可以在购买后三十天内申请退货。请保留发票。", { filename: "returns-zh.md", sourceId: "returns-zh.md" }),
  ];
  const vectors = await embeddings.embedDocuments(chunks.map((c) => c.embedText));
  await store.upsert(chunks.map((c, i) => ({ ...c, vector: vectors[i]! })));
  return new CitationRetriever({ store, embeddings, k: 2 });
}

describe("examples/qa chain", () => {
  it("answers offline from the best quotes, citing [n]", async () => {
    const result = await buildQaChain(await retriever()).invoke("How many days for refunds?");
    expect(result.mode).toBe("extractive");
    expect(result.answer).toContain("Refunds are accepted within thirty days of purchase. [1]");
    expect(result.sources.split("\n")[0]).toMatch(/^\[1\] policy\.md, p\. 1/);
  });

  it("answers Chinese questions from Chinese quotes", async () => {
    const result = await buildQaChain(await retriever()).invoke("退货期限是多久");
    expect(result.answer).toContain("顾客可以在购买后三十天内申请退货。 [1]");
  });

  it("uses a chat model when one is given, with the numbered sources in the prompt", async () => {
    const model = new FakeListChatModel({ responses: ["Thirty days [1]."] });
    const result = await buildQaChain(await retriever(), model).invoke("How many days for refunds?");
    expect(result).toMatchObject({ mode: "model", answer: "Thirty days [1]." });
  });
});
