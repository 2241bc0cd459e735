import { describe, expect, it } from "vitest";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { DocParseError } from "../../src/errors.js";
import { EmbedBatcher } from "../../src/ingest/index.js";

/** An embedder that records its batches; a text "boom" fails its batch for good. */
class RecordingEmbeddings implements EmbeddingsInterface {
  readonly batches: string[][] = [];
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.batches.push(texts);
    if (texts.includes("boom")) throw new DocParseError("DOCPARSE_EMBEDDING", "boom", { isRetryable: false });
    return texts.map((t) => [t.length, 1]);
  }
  async embedQuery(text: string): Promise<number[]> {
    return [text.length, 1];
  }
}

const options = { batchSize: 8, concurrency: 2, lingerMs: 5, retry: { retries: 0, delayMs: 1 } };

describe("EmbedBatcher", () => {
  it("pools texts of many documents into full batches and returns each document's vectors in order", async () => {
    const e = new RecordingEmbeddings();
    const batcher = new EmbedBatcher(e, options);
    const docs = Array.from({ length: 10 }, (_, d) => Array.from({ length: 3 }, (_, i) => "x".repeat(d * 3 + i + 1)));
    const results = await Promise.all(docs.map((texts) => batcher.embed(texts)));
    results.forEach((vectors, d) => expect(vectors.map((v) => v[0])).toEqual([d * 3 + 1, d * 3 + 2, d * 3 + 3]));
    // 30 texts in batches of 8: 4 batches, the first three full.
    expect(e.batches.map((b) => b.length)).toEqual([8, 8, 8, 6]);
    expect(batcher.stats).toEqual({ batches: 4, texts: 30, fill: 30 / 32 });
  });

  it("sends a partial batch after lingerMs", async () => {
    const e = new RecordingEmbeddings();
    const batcher = new EmbedBatcher(e, options);
    expect(await batcher.embed(["a", "bb"])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(e.batches).toEqual([["a", "bb"]]);
  });

  it("fails only the documents whose texts were in the failed batch", async () => {
    const e = new RecordingEmbeddings();
    const batcher = new EmbedBatcher(e, { ...options, batchSize: 2 });
    const bad = batcher.embed(["boom", "x"]);
    const good = batcher.embed(["ok", "fine"]);
    await expect(bad).rejects.toMatchObject({ code: "DOCPARSE_EMBEDDING" });
    expect(await good).toEqual([
      [2, 1],
      [4, 1],
    ]);
  });

  it("rejects when the embedder returns the wrong number of vectors", async () => {
    const short: EmbeddingsInterface = { embedDocuments: async () => [[1]], embedQuery: async () => [1] };
    const batcher = new EmbedBatcher(short, options);
    await expect(batcher.embed(["a", "b"])).rejects.toMatchObject({ code: "DOCPARSE_EMBEDDING" });
  });
});
