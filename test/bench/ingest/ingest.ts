/**
 * Ingestion benchmark: `npx tsx test/bench/ingest/ingest.ts`
 *
 * 1. Throughput against the local parse server with an injected latency L per parse and
 *    parse concurrency C: achieved documents/s as a fraction of the limit C / L
 *    (goal >= 0.9), and the embedding batch fill.
 * 2. Peak RSS of a whole run in a fresh process, 100 vs 1,000 documents (goal: flat).
 * 3. Fault run: BENCH_FAULT_DOCS (default 500) documents with 20% transient faults
 *    injected in the service, plus a few corrupt PDFs: every good document ingested
 *    exactly once, the corrupt ones reported with their code, nothing else affected.
 *
 * Sizes: BENCH_LATENCY_MS (200), BENCH_CONCURRENCY ("2,4,8"), BENCH_RSS_DOCS ("100,1000").
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { DocParseClient } from "../../../src/client/index.js";
import { HashEmbeddings } from "../../../src/embed/hash-embeddings.js";
import { ingest } from "../../../src/ingest/index.js";
import { startServer } from "../../../src/server/index.js";
import { MemoryStore } from "../../../src/store/memory-store.js";
import { NullStore } from "./null-store.js";

const L = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CS = (process.env.BENCH_CONCURRENCY ?? "2,4,8").split(",").map(Number);
const RSS_DOCS = (process.env.BENCH_RSS_DOCS ?? "100,1000").split(",").map(Number);
const FAULT_DOCS = Number(process.env.BENCH_FAULT_DOCS ?? 500);

function smallDoc(i: number): { data: Buffer; sourceId: string } {
  return { data: Buffer.from(`# Note ${i}\n\nA short note number ${i} for the throughput run.\n\n第${i}号笔记。`), sourceId: `note-${i}.md` };
}

async function* docs(n: number, offset = 0) {
  for (let i = 0; i < n; i++) yield smallDoc(offset + i);
}

async function throughput(): Promise<string[]> {
  const lines: string[] = [];
  const server = await startServer({ concurrency: 64, maxQueued: 10_000, faults: { latencyMs: L, routes: ["sync"] } });
  try {
    // The last C runs twice: with the default 10 ms linger and with 250 ms, to show what
    // waiting for texts from other documents buys in batch fill (for paid embedders).
    const runs = [...CS.map((c) => ({ c, linger: 10 })), { c: CS.at(-1)!, linger: 250 }];
    for (const { c, linger } of runs) {
      const client = new DocParseClient({ baseUrl: server.url, requestsPerSecond: Infinity, concurrency: c, maxRetries: 3 });
      // Enough documents for ~4 s at the limit, so start-up and drain are a small share.
      const n = Math.max(20, Math.round((4 * c * 1000) / L));
      const report = await ingest({ sources: docs(n), store: new NullStore(), parser: client, embeddings: new HashEmbeddings(), concurrency: { parse: c }, embedLingerMs: linger, chunk: { tokenizer: "approximate" } });
      const achieved = n / (report.durationMs / 1000);
      const limit = c / (L / 1000);
      lines.push(`| ${c} | ${L} | ${linger} | ${n} | ${limit.toFixed(1)} | ${achieved.toFixed(1)} | **${(achieved / limit).toFixed(2)}** | ${report.embedding?.batches ?? 0} | ${((report.embedding?.fill ?? 0) * 100).toFixed(0)}% |`);
      if (report.failed.length) throw new Error(`throughput run had failures: ${JSON.stringify(report.failed.slice(0, 3))}`);
    }
  } finally {
    await server.close();
  }
  return lines;
}

function peakRss(): string[] {
  const child = fileURLToPath(new URL("./rss-child.ts", import.meta.url));
  const results = RSS_DOCS.map((n) => JSON.parse(execFileSync(process.execPath, ["--import", "tsx", child, String(n)], { encoding: "utf8" }).trim()) as { documents: number; maxRssMiB: number; ms: number });
  const base = results[0]!;
  return results.map((r) => `| ${r.documents} | ${r.maxRssMiB.toFixed(0)} MiB | **${(r.maxRssMiB / base.maxRssMiB).toFixed(2)}** | ${(r.ms / 1000).toFixed(1)} s |`);
}

async function faultRun(): Promise<string[]> {
  const corrupt = 5;
  // 20% of sync requests fail with a retryable code; corrupt PDFs fail for good (40422).
  const server = await startServer({ concurrency: 16, maxQueued: 10_000, faults: { failRate: 0.2, codes: [500, 30203, 40306], routes: ["sync"], seed: 7 } });
  try {
    const client = new DocParseClient({ baseUrl: server.url, requestsPerSecond: Infinity, concurrency: 8, maxRetries: 6, retryBaseMs: 5, retryMaxMs: 50 });
    const store = new MemoryStore();
    async function* sources() {
      yield* docs(FAULT_DOCS);
      for (let i = 0; i < corrupt; i++) yield { data: Buffer.from("%PDF-1.7\n1 0 obj garbage\n"), sourceId: `corrupt-${i}.pdf` };
    }
    const started = performance.now();
    const report = await ingest({ sources: sources(), store, parser: client, embeddings: new HashEmbeddings(), concurrency: { parse: 8 }, chunk: { tokenizer: "approximate" }, retryDelayMs: 5 });
    const seconds = (performance.now() - started) / 1000;
    // Duplicates: chunks in the store beyond what the manifest says each document has.
    const entries = await store.manifest.list();
    let expected = 0;
    let stored = 0;
    for (const e of entries) {
      expected += e.chunkIds.length;
      stored += (await store.idsBySource(e.sourceId)).length;
    }
    const corruptCodes = [...new Set(report.failed.map((f) => f.code))].join(", ");
    const ok = report.added === FAULT_DOCS && report.failed.length === corrupt && report.failed.every((f) => f.sourceId.startsWith("corrupt-")) && stored === expected;
    return [
      `| ${FAULT_DOCS} + ${corrupt} corrupt | 20% (500, 30203, 40306) | ${report.added} | ${report.failed.length} (${corruptCodes}) | ${stored - expected} | ${seconds.toFixed(1)} s | ${ok ? "pass" : "**FAIL**"} |`,
    ];
  } finally {
    await server.close();
  }
}

console.log(`## Ingestion (test/bench/ingest/ingest.ts, ${new Date().toISOString().slice(0, 10)})\n`);
console.log("Throughput against the local server with latency L per parse and parse concurrency C (limit = C / L):\n");
console.log("| C | L (ms) | linger (ms) | docs | limit docs/s | achieved docs/s | achieved / limit | embed batches | batch fill |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const line of await throughput()) console.log(line);
console.log("\nPeak RSS of a whole run (fresh process, LocalParser, manifest-only store):\n");
console.log("| documents | peak RSS | vs first | time |");
console.log("|---|---|---|---|");
for (const line of peakRss()) console.log(line);
console.log("\nFault run (client retries, ingest retries; MemoryStore):\n");
console.log("| documents | injected transient faults | added | failed | duplicate chunks | time | result |");
console.log("|---|---|---|---|---|---|---|");
for (const line of await faultRun()) console.log(line);
