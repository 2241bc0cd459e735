/**
 * Store benchmark: upsert throughput and query latency at 10k and 100k chunks for
 * MemoryStore, PGlite (exact scan), PGlite + HNSW, and LangChain's MemoryVectorStore, on
 * the same vectors in the same run; recall@10 of HNSW against exact search.
 *
 *   npx tsx test/bench/store/store.ts [--sizes 10000,100000] [--dim 384] [--queries 30] [--pglite-max 100000] [--vectors hash|dense]
 *
 * `--vectors hash` (default): HashEmbeddings of synthetic texts (Zipf-distributed words,
 * topical clusters) — sparse lexical vectors, what the embedded default produces.
 * `--vectors dense`: dense vectors of low intrinsic dimension (a random projection of
 * 24-dimensional Gaussian topic clusters), shaped like a neural embedding model's. HNSW recall differs a lot between the two.
 * Ratios are against MemoryStore measured in the same run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { Document } from "@langchain/core/documents";
import type { Chunk } from "../../../src/chunk/chunk.js";
import { HashEmbeddings } from "../../../src/embed/hash-embeddings.js";
import type { ChunkStore, StoredChunk } from "../../../src/store/chunk-store.js";
import { MemoryStore } from "../../../src/store/memory-store.js";
import { openStore } from "../../../src/store/open-store.js";
import type { PgStore } from "../../../src/store/pg/pg-store.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const SIZES = (args.get("sizes") ?? "10000,100000").split(",").map(Number);
const DIM = Number(args.get("dim") ?? 384);
const QUERIES = Number(args.get("queries") ?? 30);
const PGLITE_MAX = Number(args.get("pglite-max") ?? 100_000);
const VECTORS = args.get("vectors") ?? "hash";
const BATCH = 1000;
const K = 10;

// Deterministic pseudo-random numbers (mulberry32), so every run sees the same data.
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCAB = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
const TOPICS = 200;

/** A text of ~40 words: half from its topic's own 100 words, half Zipf from the whole vocabulary. */
function syntheticText(random: () => number, topic: number): string {
  const words: string[] = [];
  for (let i = 0; i < 40; i++) {
    if (random() < 0.5) words.push(VOCAB[(topic * 97 + Math.floor(random() * 100)) % VOCAB.length]!);
    else words.push(VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.exp(random() * Math.log(VOCAB.length))) - 1)]!);
  }
  return words.join(" ");
}

// Dense vectors with a low intrinsic dimension, as neural embeddings have: a point is a
// random linear image of a 24-dimensional latent (its topic's centre + Gaussian spread),
// plus a little full-dimensional noise.
const LATENT = 24;
let projection: number[][] | undefined;
const centres = new Map<number, number[]>();
const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
function denseVector(random: () => number, topic: number): number[] {
  if (!projection) {
    const pr = rng(99);
    projection = Array.from({ length: DIM }, () => Array.from({ length: LATENT }, () => gauss(pr)));
  }
  if (!centres.has(topic)) {
    const cr = rng(1000 + topic);
    centres.set(topic, Array.from({ length: LATENT }, () => gauss(cr)));
  }
  const z = centres.get(topic)!.map((c) => c + 0.7 * gauss(random));
  const v = projection.map((row) => row.reduce((s, a, j) => s + a * z[j]!, 0) + 0.3 * gauss(random));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function makeData(n: number, embeddings: HashEmbeddings): { records: StoredChunk[]; queries: number[][] } {
  const random = rng(42);
  const records: StoredChunk[] = [];
  for (let i = 0; i < n; i++) {
    const topic = Math.floor(random() * TOPICS);
    const text = syntheticText(random, topic);
    const chunk: Chunk = {
      id: `c${i}`,
      text,
      embedText: text,
      metadata: {
        sourceId: `doc${Math.floor(i / 20)}`,
        headingPath: [`Topic ${topic}`],
        pageStart: 1 + (i % 20),
        pageEnd: 1 + (i % 20),
        pages: [1 + (i % 20)],
        regions: [{ page: 1 + (i % 20), coordinates: [0.1, 0.1, 0.9, 0.1, 0.9, 0.2, 0.1, 0.2], elementId: `e${i}` }],
        elementIds: [`e${i}`],
        elementTypes: ["NarrativeText"],
        kind: "text",
        chunkIndex: i % 20,
        chunkCount: 20,
        tokens: 40,
        contentHash: `h${i}`,
      },
    };
    records.push({ ...chunk, vector: VECTORS === "dense" ? denseVector(random, topic) : embeddings.embedSync(text) });
  }
  const qr = rng(7);
  const queries = Array.from({ length: QUERIES }, () => {
    const topic = Math.floor(qr() * TOPICS);
    return VECTORS === "dense" ? denseVector(qr, topic) : embeddings.embedSync(syntheticText(qr, topic).split(" ").slice(0, 8).join(" "));
  });
  return { records, queries };
}

interface Result {
  store: string;
  n: number;
  upsertPerSec: number;
  indexSec?: number;
  queryMs: number;
  p95Ms: number;
  recall?: number;
}

async function timeUpsert(store: ChunkStore, records: StoredChunk[]): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < records.length; i += BATCH) await store.upsert(records.slice(i, i + BATCH));
  return records.length / ((performance.now() - t) / 1000);
}

async function timeQueries(run: (q: number[]) => Promise<string[]>, queries: number[][]): Promise<{ mean: number; p95: number; ids: string[][] }> {
  await run(queries[0]!); // warm-up
  const times: number[] = [];
  const ids: string[][] = [];
  for (const q of queries) {
    const t = performance.now();
    ids.push(await run(q));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { mean: times.reduce((s, x) => s + x, 0) / times.length, p95: times[Math.floor(times.length * 0.95)]!, ids };
}

function recall(got: string[][], truth: string[][]): number {
  let hit = 0;
  let total = 0;
  got.forEach((ids, i) => {
    const t = new Set(truth[i]);
    hit += ids.filter((id) => t.has(id)).length;
    total += t.size;
  });
  return hit / total;
}

async function main(): Promise<void> {
  const embeddings = new HashEmbeddings({ dimensions: DIM });
  const results: Result[] = [];
  // Progress as it goes: a 100k PGlite run takes minutes.
  const push = results.push.bind(results);
  results.push = (...rs: Result[]) => {
    for (const r of rs) console.log(`  ${r.store}: upsert ${r.upsertPerSec.toFixed(0)}/s, query ${r.queryMs.toFixed(1)} ms${r.indexSec ? `, index ${r.indexSec.toFixed(1)} s` : ""}${r.recall !== undefined ? `, recall ${r.recall.toFixed(3)}` : ""}`);
    return push(...rs);
  };
  for (const n of SIZES) {
    const t0 = performance.now();
    const { records, queries } = makeData(n, embeddings);
    console.log(`\n== ${n} chunks (${VECTORS} vectors), dim ${DIM}, ${queries.length} queries, k=${K} (data in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

    // Reference: MemoryStore (exact cosine).
    const memory = new MemoryStore();
    const memUps = await timeUpsert(memory, records);
    const memQ = await timeQueries(async (q) => (await memory.query({ vector: q, k: K })).map((h) => h.chunk.id), queries);
    results.push({ store: "MemoryStore (exact)", n, upsertPerSec: memUps, queryMs: memQ.mean, p95Ms: memQ.p95, recall: 1 });
    await memory.close();

    // LangChain's MemoryVectorStore, same vectors.
    const lc = new MemoryVectorStore(embeddings);
    let t = performance.now();
    for (let i = 0; i < records.length; i += BATCH) {
      const batch = records.slice(i, i + BATCH);
      await lc.addVectors(batch.map((r) => r.vector), batch.map((r) => new Document({ id: r.id, pageContent: r.text, metadata: r.metadata })));
    }
    const lcUps = n / ((performance.now() - t) / 1000);
    const lcQ = await timeQueries(async (q) => (await lc.similaritySearchVectorWithScore(q, K)).map(([d]) => d.id!), queries);
    results.push({ store: "LangChain MemoryVectorStore", n, upsertPerSec: lcUps, queryMs: lcQ.mean, p95Ms: lcQ.p95, recall: recall(lcQ.ids, memQ.ids) });

    if (n > PGLITE_MAX) {
      console.log(`(PGlite skipped above --pglite-max ${PGLITE_MAX})`);
      continue;
    }
    const dir = mkdtempSync(join(tmpdir(), "docparse-bench-"));
    try {
      const pg = (await openStore(`pglite://${dir}`, { index: "exact" })) as PgStore;
      const pgUps = await timeUpsert(pg, records);
      const exact = await timeQueries(async (q) => (await pg.query({ vector: q, k: K })).map((h) => h.chunk.id), queries);
      results.push({ store: "PGlite exact scan", n, upsertPerSec: pgUps, queryMs: exact.mean, p95Ms: exact.p95, recall: recall(exact.ids, memQ.ids) });
      const filtered = await timeQueries(async (q) => (await pg.query({ vector: q, k: K, filter: { pages: { from: 3, to: 4 } } })).map((h) => h.chunk.id), queries);
      results.push({ store: "PGlite exact, filter pages 3-4", n, upsertPerSec: Number.NaN, queryMs: filtered.mean, p95Ms: filtered.p95 });

      t = performance.now();
      await pg.createIndex();
      const indexSec = (performance.now() - t) / 1000;
      const hnsw = await timeQueries(async (q) => (await pg.query({ vector: q, k: K })).map((h) => h.chunk.id), queries);
      results.push({ store: "PGlite + HNSW", n, upsertPerSec: Number.NaN, indexSec, queryMs: hnsw.mean, p95Ms: hnsw.p95, recall: recall(hnsw.ids, exact.ids) });
      const hf = await timeQueries(async (q) => (await pg.query({ vector: q, k: K, filter: { pages: { from: 3, to: 4 } } })).map((h) => h.chunk.id), queries);
      results.push({ store: "PGlite + HNSW, filter pages 3-4", n, upsertPerSec: Number.NaN, queryMs: hf.mean, p95Ms: hf.p95, recall: recall(hf.ids, filtered.ids) });
      const hybrid = await timeQueries(async (q) => (await pg.query({ vector: q, text: "w1 w2 w3", k: K })).map((h) => h.chunk.id), queries);
      results.push({ store: "PGlite + HNSW, hybrid", n, upsertPerSec: Number.NaN, queryMs: hybrid.mean, p95Ms: hybrid.p95 });

      // Writing into the indexed table: what `index: "hnsw"` would pay on every insert.
      const extra = makeData(Math.min(300, n), embeddings).records.map((r) => ({ ...r, id: `x${r.id}` }));
      const idxUps = await timeUpsert(pg, extra);
      results.push({ store: "PGlite upsert into HNSW-indexed table", n, upsertPerSec: idxUps, queryMs: Number.NaN, p95Ms: Number.NaN });
      await pg.close();

      // The recall/latency trade-off of hnsw.ef_search (default 100).
      for (const efSearch of [40, 400]) {
        const again = (await openStore(`pglite://${dir}`, { index: "exact", efSearch })) as PgStore;
        const ef = await timeQueries(async (q) => (await again.query({ vector: q, k: K })).map((h) => h.chunk.id), queries);
        results.push({ store: `PGlite + HNSW, ef_search ${efSearch}`, n, upsertPerSec: Number.NaN, queryMs: ef.mean, p95Ms: ef.p95, recall: recall(ef.ids, exact.ids) });
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  console.log("\n| chunks | store | upsert rows/s | index build s | query mean ms | query p95 ms | recall@10 | query time vs MemoryStore |");
  console.log("|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    const ref = results.find((x) => x.n === r.n && x.store.startsWith("MemoryStore"))!;
    const f = (x: number | undefined, d = 1) => (x === undefined || Number.isNaN(x) ? "" : x.toFixed(d));
    console.log(
      `| ${r.n} | ${r.store} | ${f(r.upsertPerSec, 0)} | ${f(r.indexSec)} | ${f(r.queryMs, 2)} | ${f(r.p95Ms, 2)} | ${f(r.recall, 3)} | ${Number.isNaN(r.queryMs) ? "" : `${(r.queryMs / ref.queryMs).toFixed(2)}×`} |`,
    );
  }
}

await main();
