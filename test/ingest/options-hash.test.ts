import { describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { stableStringify } from "../../src/ingest/content-hash.js";
import { describeEmbeddings, optionsHash } from "../../src/ingest/options-hash.js";

const base = { parser: "local", parseConfig: undefined, chunk: { maxTokens: 256 }, chunker: undefined, embedder: "HashEmbeddings{}" };

describe("optionsHash", () => {
  it("ignores key order and changes with every part of the identity", () => {
    expect(stableStringify({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe('{"a":{"c":[3,{"e":0,"f":1}],"d":2},"b":1}');
    const h = optionsHash(base);
    expect(optionsHash({ ...base, chunk: { maxTokens: 256 } })).toBe(h);
    expect(optionsHash({ ...base, parser: "remote:api.textin.com" })).not.toBe(h);
    expect(optionsHash({ ...base, parseConfig: { capabilities: { pages: true } } })).not.toBe(h);
    expect(optionsHash({ ...base, chunk: { maxTokens: 512 } })).not.toBe(h);
    expect(optionsHash({ ...base, chunker: "mine" })).not.toBe(h);
    expect(optionsHash({ ...base, embedder: "Other{}" })).not.toBe(h);
  });
});

describe("describeEmbeddings", () => {
  it("names the class and the fields that change vectors", () => {
    expect(describeEmbeddings(new HashEmbeddings())).toBe('HashEmbeddings{"dimensions":384,"seed":0}');
    expect(describeEmbeddings(new HashEmbeddings({ dimensions: 64 }))).not.toBe(describeEmbeddings(new HashEmbeddings()));
  });
});
