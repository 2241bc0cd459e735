import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { CitationRetriever } from "../../src/retrieve/citation-retriever.js";
import type { ChunkStore } from "../../src/store/chunk-store.js";
import { LangChainStore } from "../../src/store/langchain-store.js";
import { openStore } from "../../src/store/open-store.js";
import { startPgServer } from "../support/pg.js";
import { tempDir } from "../support/system.js";
import { linkChunks, makeChunk } from "./make-chunks.js";

const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
const dir = tempDir("docparse-retrieve-pglite-");
let pg: Awaited<ReturnType<typeof startPgServer>>;
beforeAll(async () => {
  pg = await startPgServer();
}, 90_000);
afterAll(async () => {
  await pg?.stop();
  dir.cleanup();
});

const chunks = () =>
  linkChunks([
    makeChunk("r0", "Intro text about the company history.", { sectionId: "s", fileId: "f", headingPath: ["公司", "History"] }),
    makeChunk("r1", "退款期限为购买后三十天。运费由买家承担。", {
      sectionId: "s",
      fileId: "f",
      headingPath: ["公司", "History"],
      pageSizes: { "2": { width: 1190, height: 1684 } },
      regions: [
        { page: 2, elementId: "e1", coordinates: box(0.1, 0.8, 0.6, 0.82) },
        { page: 3, elementId: "e1", coordinates: box(0.1, 0.05, 0.6, 0.07), approximate: true },
      ],
    }),
  ]);

// Every adapter: memory, PGlite in a directory, PostgreSQL over the wire (a
// pglite-socket server speaking the Postgres protocol to `pg`), and the bridge to a
// LangChain VectorStore (metadata flattened to scalars and back; no getByIds, so no
// expansion there).
const ADAPTERS: [string, () => Promise<ChunkStore>, boolean][] = [
  ["memory://", () => openStore("memory://"), true],
  ["pglite://<dir>", () => openStore(`pglite://${dir.path}/db`), true],
  ["postgres://", () => openStore(pg.url, { pool: { max: 1 } }), true],
  ["LangChainStore(MemoryVectorStore)", async () => new LangChainStore(new MemoryVectorStore(new HashEmbeddings())), false],
];

describe.each(ADAPTERS)("citations survive a round trip through %s", (_name, open, canExpand) => {
  it("keeps regions, pages, heading path, page sizes and the quote", async () => {
    const store: ChunkStore = await open();
    try {
      const embeddings = new HashEmbeddings();
      const cs = chunks();
      const vectors = await embeddings.embedDocuments(cs.map((c) => c.embedText));
      await store.upsert(cs.map((c, i) => ({ ...c, vector: vectors[i]! })));
      const retriever = new CitationRetriever({ store, embeddings, k: 1, expand: "neighbors" });
      const [doc] = await retriever.invoke("退款期限");
      const c = doc!.metadata.citation;
      expect(doc!.id).toBe("r1");
      expect(c.chunkIds).toEqual(canExpand ? ["r0", "r1"] : ["r1"]);
      expect(c.sourceId).toBe("doc.pdf");
      expect(c.fileId).toBe("f");
      expect(c.headingPath).toEqual(["公司", "History"]);
      expect(c.pages).toEqual(canExpand ? [1, 2, 3] : [2, 3]);
      const r1 = c.regions.filter((r) => r.elementId === "e1");
      expect(r1.map((r) => [r.page, r.coordinates, r.approximate ?? false])).toEqual([
        [2, box(0.1, 0.8, 0.6, 0.82), false],
        [3, box(0.1, 0.05, 0.6, 0.07), true],
      ]);
      expect(r1[0]!.pixels).toEqual(box(0.1, 0.8, 0.6, 0.82).map((v, i) => v * (i % 2 === 0 ? 1190 : 1684)));
      expect(r1[1]!.pixels).toBeUndefined();
      expect(c.quote.text).toBe("退款期限为购买后三十天。");
      expect(doc!.pageContent.slice(c.quote.start, c.quote.end)).toBe(c.quote.text);
      expect(c.quote.regions.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
    // PGlite's first open (WASM start, pgvector) takes seconds; more on a busy machine.
  }, 90_000);
});
