/**
 * One ingest run in a fresh process, for the peak-RSS comparison: `node --import tsx
 * rss-child.ts <documents>`. Documents are generated on the fly (no disk), parsed by the
 * real LocalParser, chunked, embedded; the store keeps only the manifest. Prints
 * `{ documents, maxRssMiB, ms }`.
 */
import { HashEmbeddings } from "../../../src/embed/hash-embeddings.js";
import { LocalParser } from "../../../src/engine/local-parser.js";
import { ingest } from "../../../src/ingest/index.js";
import { NullStore } from "./null-store.js";

const n = Number(process.argv[2] ?? 100);

async function* documents() {
  for (let i = 0; i < n; i++) {
    const sections = Array.from({ length: 6 }, (_, s) => `## Section ${s}\n\n${`Sentence ${s} of document ${i} about ingestion memory. `.repeat(20)}\n\n第${s}节：内存测试。`);
    yield { data: Buffer.from(`# Document ${i}\n\n${sections.join("\n\n")}`), sourceId: `doc-${i}.md` };
  }
}

const started = performance.now();
const report = await ingest({
  sources: documents(),
  store: new NullStore(),
  parser: new LocalParser(),
  embeddings: new HashEmbeddings(),
  chunk: { tokenizer: "approximate" },
});
if (report.added !== n) throw new Error(`expected ${n} added, got ${JSON.stringify(report)}`);
process.stdout.write(`${JSON.stringify({ documents: n, maxRssMiB: process.resourceUsage().maxRSS / 1024, ms: Math.round(performance.now() - started) })}\n`);
