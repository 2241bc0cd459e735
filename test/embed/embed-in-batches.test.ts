import { Embeddings } from "@langchain/core/embeddings";
import { describe, expect, it } from "vitest";
import { EMBED_IN_BATCHES_DEFAULTS, embedInBatches } from "../../src/embed/embed-in-batches.js";
import { DocParseError } from "../../src/errors.js";

/** A fake remote embedder: records calls, can fail, vectors encode the text length. */
class FakeRemote extends Embeddings {
  calls: string[][] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly failures: (Error | undefined)[] = []) {
    super({});
  }
  override async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 5));
    this.inFlight--;
    const failure = this.failures.shift();
    if (failure) throw failure;
    return texts.map((t) => [t.length, 1]);
  }
  override async embedQuery(text: string): Promise<number[]> {
    return [text.length, 1];
  }
}

describe("embedInBatches", () => {
  const texts = Array.from({ length: 10 }, (_, i) => "x".repeat(i + 1));

  it("pins its defaults", () => {
    expect(EMBED_IN_BATCHES_DEFAULTS).toEqual({ batchSize: 64, concurrency: 2, retries: 2, retryDelayMs: 500 });
  });

  it("batches, bounds concurrency and keeps input order", async () => {
    const fake = new FakeRemote();
    const out = await embedInBatches(fake, texts, { batchSize: 3, concurrency: 2 });
    expect(fake.calls.map((c) => c.length)).toEqual([3, 3, 3, 1]);
    expect(fake.maxInFlight).toBe(2);
    expect(out.map((v) => v[0])).toEqual(texts.map((t) => t.length));
  });

  it("retries a failed batch", async () => {
    const fake = new FakeRemote([new Error("503 from the embedding API")]);
    const out = await embedInBatches(fake, texts.slice(0, 2), { retries: 1, retryDelayMs: 1 });
    expect(out).toHaveLength(2);
    expect(fake.calls).toHaveLength(2);
  });

  it("gives up after the retries with DOCPARSE_EMBEDDING, cause kept", async () => {
    const boom = new Error("still down");
    const fake = new FakeRemote([boom, boom, boom]);
    const error = await embedInBatches(fake, ["a"], { retries: 1, retryDelayMs: 1 }).catch((e: unknown) => e);
    expect(DocParseError.isInstance(error) && error.code).toBe("DOCPARSE_EMBEDDING");
    expect((error as Error).cause).toBe(boom);
    expect(fake.calls).toHaveLength(2);
  });

  it("does not retry errors marked not retryable", async () => {
    const fatal = Object.assign(new Error("invalid api key"), { isRetryable: false });
    const fake = new FakeRemote([fatal]);
    await expect(embedInBatches(fake, ["a"], { retries: 3, retryDelayMs: 1 })).rejects.toMatchObject({ code: "DOCPARSE_EMBEDDING" });
    expect(fake.calls).toHaveLength(1);
  });

  it("stops on abort with DOCPARSE_ABORTED", async () => {
    const controller = new AbortController();
    const fake = new FakeRemote([new Error("x"), new Error("x"), new Error("x")]);
    const pending = embedInBatches(fake, ["a"], { retries: 5, retryDelayMs: 1000, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
  });

  it("checks the number of vectors returned", async () => {
    const short = new (class extends FakeRemote {
      override async embedDocuments(): Promise<number[][]> {
        return [[1]];
      }
    })();
    await expect(embedInBatches(short, ["a", "b"], { retries: 0 })).rejects.toMatchObject({ code: "DOCPARSE_EMBEDDING" });
  });

  it("validates options", async () => {
    await expect(embedInBatches(new FakeRemote(), ["a"], { batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(embedInBatches(new FakeRemote(), ["a"], { concurrency: 0 })).rejects.toThrow(/concurrency/);
  });
});
