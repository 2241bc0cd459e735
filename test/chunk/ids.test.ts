import { describe, expect, it } from "vitest";
import { chunkId, sha256Hex, toUuid, uniqueIds, type ChunkIdInput } from "../../src/chunk/ids.js";

const base: ChunkIdInput = { sourceId: "doc.pdf", elementIds: ["a", "b"], contentHash: sha256Hex("hello"), locator: "a:0-5", options: "[512]" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("chunkId", () => {
  it("is stable for the same input", () => {
    expect(chunkId(base)).toBe(chunkId({ ...base, elementIds: ["a", "b"] }));
  });

  it("changes when the text, the source, the elements, the place or the options change", () => {
    const id = chunkId(base);
    expect(chunkId({ ...base, contentHash: sha256Hex("hello!") })).not.toBe(id);
    expect(chunkId({ ...base, sourceId: "other.pdf" })).not.toBe(id);
    expect(chunkId({ ...base, elementIds: ["a"] })).not.toBe(id);
    expect(chunkId({ ...base, locator: "a:1-6" })).not.toBe(id);
    expect(chunkId({ ...base, options: "[256]" })).not.toBe(id);
  });

  it("is shaped as a version-5 UUID", () => {
    expect(chunkId(base)).toMatch(UUID);
    expect(toUuid("f".repeat(64))).toMatch(UUID);
    expect(toUuid("0".repeat(64))).toMatch(UUID);
  });
});

describe("uniqueIds", () => {
  it("keeps distinct ids and re-derives repeats deterministically", () => {
    const out = uniqueIds(["x", "y", "x", "x"]);
    expect(out[0]).toBe("x");
    expect(out[1]).toBe("y");
    expect(new Set(out).size).toBe(4);
    expect(uniqueIds(["x", "y", "x", "x"])).toEqual(out);
  });
});

describe("sha256Hex", () => {
  it("hashes UTF-8 text", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("中文")).toHaveLength(64);
  });
});
