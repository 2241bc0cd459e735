import { describe, expect, it } from "vitest";
import { HASH_EMBEDDINGS_DEFAULTS, HashEmbeddings } from "../../src/embed/hash-embeddings.js";

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("HashEmbeddings", () => {
  it("pins its defaults", () => {
    expect(HASH_EMBEDDINGS_DEFAULTS).toEqual({ dimensions: 384, seed: 0 });
    expect(new HashEmbeddings().dimensions).toBe(384);
  });

  it("is deterministic across instances and calls", async () => {
    const text = "Quarterly revenue grew 10% — 季度收入增长";
    const [a] = await new HashEmbeddings().embedDocuments([text]);
    const b = await new HashEmbeddings().embedQuery(text);
    expect(a).toEqual(b);
  });

  it("keeps a fixed fingerprint (changing the hashing would silently invalidate stored vectors)", () => {
    // 6 features: hello, world, hello_world, 你, 好, 你好 — each weight 1/sqrt(6).
    const v = new HashEmbeddings().embedSync("hello world 你好");
    const features = v.flatMap((x, i) => (x !== 0 ? [[i, Math.round(x * 1e6) / 1e6]] : []));
    expect(features).toEqual([[102, -0.408248], [147, -0.408248], [168, -0.408248], [171, 0.408248], [191, 0.408248], [296, -0.408248]]);
  });

  it("gives L2-normalised vectors of the configured dimension; empty text gives zeros", async () => {
    const e = new HashEmbeddings({ dimensions: 64 });
    const [v, empty] = await e.embedDocuments(["some words here", "…!?"]);
    expect(v).toHaveLength(64);
    expect(Math.hypot(...v!)).toBeCloseTo(1, 12);
    expect(empty!.every((x) => x === 0)).toBe(true);
  });

  it("normalises case, width and punctuation (NFKC)", () => {
    const e = new HashEmbeddings();
    expect(e.embedSync("Hello, WORLD!")).toEqual(e.embedSync("hello world"));
    expect(e.embedSync("ＡＢＣ １２３")).toEqual(e.embedSync("abc 123"));
  });

  it("ranks lexical overlap: related English texts are closer than unrelated ones", () => {
    const e = new HashEmbeddings();
    const q = e.embedSync("install the database server");
    const near = e.embedSync("How to install a database server on Linux");
    const far = e.embedSync("Quarterly revenue and operating costs");
    expect(cosine(q, near)).toBeGreaterThan(cosine(q, far) + 0.2);
  });

  it("handles Chinese without spaces through character n-grams", () => {
    const e = new HashEmbeddings();
    const q = e.embedSync("向量数据库");
    const near = e.embedSync("本文介绍向量数据库的混合检索");
    const far = e.embedSync("今天天气很好，我们去公园散步");
    expect(cosine(q, near)).toBeGreaterThan(0.3);
    expect(cosine(q, near)).toBeGreaterThan(cosine(q, far) + 0.3);
  });

  it("word order matters a little (bigrams), the words matter most", () => {
    const e = new HashEmbeddings();
    const ab = e.embedSync("new york city");
    expect(cosine(ab, e.embedSync("city york new"))).toBeLessThan(0.99);
    expect(cosine(ab, e.embedSync("city york new"))).toBeGreaterThan(0.5);
  });

  it("different seeds give different vectors", () => {
    expect(new HashEmbeddings({ seed: 1 }).embedSync("abc")).not.toEqual(new HashEmbeddings().embedSync("abc"));
  });

  it("validates options", () => {
    expect(() => new HashEmbeddings({ dimensions: 1 })).toThrow(/dimensions/);
    expect(() => new HashEmbeddings({ dimensions: 3.5 })).toThrow(/dimensions/);
    expect(() => new HashEmbeddings({ seed: -1 })).toThrow(/seed/);
  });
});
