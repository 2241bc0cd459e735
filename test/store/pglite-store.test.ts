import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import { openPgliteClient } from "../../src/store/pg/pglite-client.js";
import { PgStore, PG_STORE_DEFAULTS } from "../../src/store/pg/pg-store.js";
import type { SqlClient } from "../../src/store/pg/sql-client.js";
import { tempDir } from "../support/system.js";
import { adapterSuite } from "./adapter-suite.js";
import { axis, entry, makeChunk, record } from "./fixtures.js";

// One PGlite database for the whole file (opening one costs seconds); each test gets its
// own schema in it, so tests start empty without paying for a new database.
const dir = tempDir("docparse-pglite-");
let shared: SqlClient;
let n = 0;
beforeAll(async () => {
  shared = await openPgliteClient(dir.path);
});
afterAll(async () => {
  await shared.close();
  dir.cleanup();
});

adapterSuite("PGlite", {
  open: () => PgStore.open({ ...shared, close: async () => {} }, { schema: `t${++n}`, insertBatchSize: 2 }),
  // Passes our validation; Postgres rejects NUL in text, inside the transaction.
  poison: (r) => ({ ...r, text: "bad\u0000text" }),
});

describe("pglite:// store", () => {
  it("persists in its directory: reopen and find everything", async () => {
    const where = tempDir("docparse-pglite-reopen-");
    try {
      const url = `pglite://${where.path}/store`;
      const first = await openStore(url);
      const chunk = makeChunk("p1", "持久化的内容 persisted", { pages: [4] });
      await first.upsert([record(chunk, axis(2)), record(makeChunk("p2", "second", { chunkIndex: 1 }), axis(3))]);
      await first.manifest.put(entry("doc-a.pdf", ["p1", "p2"]));
      await first.close();

      const again = await openStore(url);
      try {
        expect(JSON.stringify((await again.getByIds(["p1"]))[0])).toBe(JSON.stringify(chunk));
        expect(await again.idsBySource("doc-a.pdf")).toEqual(["p1", "p2"]);
        expect((await again.query({ vector: axis(2), text: "持久化", k: 1 }))[0]?.chunk.id).toBe("p1");
        expect((await again.manifest.get("doc-a.pdf"))?.chunkIds).toEqual(["p1", "p2"]);
        // The dimension fixed by the first session still holds.
        await expect(again.upsert([record(makeChunk("p3", "x"), [1, 0])])).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
        // A second open of the same directory in this process would diverge silently.
        await expect(openStore(url)).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
      } finally {
        await again.close();
      }
    } finally {
      where.cleanup();
    }
  });

  it("serialises concurrent writes and reads on the single PGlite connection", async () => {
    const store = await PgStore.open({ ...shared, close: async () => {} }, { schema: `t${++n}`, insertBatchSize: 3 });
    const writes = Array.from({ length: 8 }, (_, i) =>
      store.replaceSource(`s${i}`, [0, 1, 2, 3].map((j) => record(makeChunk(`s${i}-${j}`, `text ${i} ${j}`, { sourceId: `s${i}`, chunkIndex: j }), axis(i + j))), entry(`s${i}`, [])),
    );
    const reads = Array.from({ length: 8 }, () => store.query({ vector: axis(1), k: 3 }));
    await Promise.all([...writes, ...reads]);
    expect(await store.count()).toBe(32);
    for (let i = 0; i < 8; i++) expect(await store.idsBySource(`s${i}`)).toHaveLength(4);
  });

  it("index: auto builds HNSW once the threshold is crossed, and queries still find the nearest", async () => {
    const store = await PgStore.open({ ...shared, close: async () => {} }, { schema: `t${++n}`, hnswThreshold: 50 });
    const rows = Array.from({ length: 60 }, (_, i) => {
      const v = Array.from({ length: 8 }, (_, j) => Math.sin(i * 7 + j * 3) + (j === i % 8 ? 2 : 0));
      return record(makeChunk(`x${i}`, `row ${i}`, { chunkIndex: i }), v);
    });
    await store.upsert(rows.slice(0, 40));
    expect(store.indexed).toBe(false);
    await store.upsert(rows.slice(40));
    expect(store.indexed).toBe(true);
    const hits = await store.query({ vector: rows[17]!.vector, k: 3 });
    expect(hits[0]?.chunk.id).toBe("x17");
    const filtered = await store.query({ vector: rows[17]!.vector, k: 3, filter: { sourceId: "doc-a.pdf", pages: { to: 1 } } });
    expect(filtered).toHaveLength(3);
    await store.dropIndex();
    expect(store.indexed).toBe(false);
  });

  it("sees what another writer on the same database wrote after it opened", async () => {
    const schema = `t${++n}`;
    const reader = await PgStore.open({ ...shared, close: async () => {} }, { schema });
    const writer = await PgStore.open({ ...shared, close: async () => {} }, { schema });
    expect(await reader.query({ vector: axis(1), k: 1 })).toEqual([]);
    await writer.upsert([record(makeChunk("w1", "written elsewhere"), axis(1))]);
    expect((await reader.query({ vector: axis(1), k: 1 }))[0]?.chunk.id).toBe("w1");
    await expect(reader.query({ vector: [1, 0], k: 1 })).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
  });

  it("index: auto keeps exact search for sparse vectors (HashEmbeddings-like)", async () => {
    const store = await PgStore.open({ ...shared, close: async () => {} }, { schema: `t${++n}`, hnswThreshold: 5 });
    await store.upsert(Array.from({ length: 8 }, (_, i) => record(makeChunk(`s${i}`, `row ${i}`, { chunkIndex: i }), axis(i))));
    expect(store.indexed).toBe(false);
    expect((await store.query({ vector: axis(3), k: 1 }))[0]?.chunk.id).toBe("s3");
  });

  it("index: hnsw indexes from the first write; exact never does", async () => {
    const hnsw = await PgStore.open({ ...shared, close: async () => {} }, { schema: `t${++n}`, index: "hnsw" });
    expect(hnsw.indexed).toBe(false);
    await hnsw.upsert([record(makeChunk("h1", "one"), axis(1)), record(makeChunk("h2", "two", { chunkIndex: 1 }), axis(2))]);
    expect(hnsw.indexed).toBe(true);
    expect((await hnsw.query({ vector: axis(2), k: 1 }))[0]?.chunk.id).toBe("h2");
    const exact = await PgStore.open({ ...shared, close: async () => {} }, { schema: `t${++n}`, index: "exact", hnswThreshold: 1 });
    await exact.upsert([record(makeChunk("e1", "one"), axis(1))]);
    expect(exact.indexed).toBe(false);
    await exact.createIndex();
    expect(exact.indexed).toBe(true);
  });

  it("pins its option defaults", () => {
    expect(PG_STORE_DEFAULTS).toEqual({
      schema: "docparse",
      index: "auto",
      hnswThreshold: 20_000,
      efSearch: 100,
      insertBatchSize: 1000,
      indexBuildMemory: "512MB",
    });
  });

  it("rejects a bad schema name", async () => {
    await expect(PgStore.open({ ...shared, close: async () => {} }, { schema: "x; drop table y" })).rejects.toMatchObject({
      code: "DOCPARSE_INVALID_OPTION",
    });
  });
});
