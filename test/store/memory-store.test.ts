import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/store/memory-store.js";
import { adapterSuite } from "./adapter-suite.js";
import { axis, makeChunk, record } from "./fixtures.js";

adapterSuite("MemoryStore", {
  open: async () => new MemoryStore(),
  // The memory store validates a whole batch before touching anything: a NaN fails it.
  poison: (r) => ({ ...r, vector: r.vector.map((x, i) => (i === 0 ? Number.NaN : x)) }),
});

describe("MemoryStore", () => {
  it("returns copies: changing a result does not change the store", async () => {
    const store = new MemoryStore();
    await store.upsert([record(makeChunk("c1", "text"), axis(0))]);
    const [got] = await store.getByIds(["c1"]);
    got!.metadata.headingPath.push("mutated");
    expect((await store.getByIds(["c1"]))[0]!.metadata.headingPath).toEqual(["Intro"]);
  });

  it("refuses work after close", async () => {
    const store = new MemoryStore();
    await store.close();
    await expect(store.getByIds(["x"])).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
  });
});
