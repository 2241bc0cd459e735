/**
 * `ingest()` as its own process, for the crash-safety test: STORE_URL, DOCS_DIR, ROOT,
 * LATENCY_MS from the environment; prints one JSON line per finished document and
 * "done" at the end, so the test can SIGKILL it at chosen moments.
 */
import { HashEmbeddings } from "../../../src/embed/hash-embeddings.js";
import { ingest } from "../../../src/ingest/index.js";
import { fakeChunker } from "./fake-chunker.js";
import { FakeParser } from "./fake-parser.js";

const report = await ingest({
  sources: process.env.DOCS_DIR!,
  root: process.env.ROOT!,
  store: process.env.STORE_URL!,
  parser: new FakeParser({ latencyMs: Number(process.env.LATENCY_MS ?? 0) }),
  chunker: fakeChunker,
  embeddings: new HashEmbeddings({ dimensions: 16 }),
  concurrency: { parse: 3, store: 1 },
  onDocument: (o) => process.stdout.write(`${JSON.stringify({ sourceId: o.sourceId, status: o.status })}\n`),
});
process.stdout.write(`done ${JSON.stringify({ added: report.added, updated: report.updated, unchanged: report.unchanged, failed: report.failed.length })}\n`);
