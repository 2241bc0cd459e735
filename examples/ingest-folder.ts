/**
 * Incremental ingestion of a folder, with progress, then a cited search:
 *
 *   npx tsx examples/ingest-folder.ts [folder] [--store pglite://./.docparse]
 *
 * Runs ingest twice to show that the second run skips every unchanged document. The
 * default folder is the project's sample documents; the default store a temporary
 * embedded PGlite directory. Offline: local parser, hash embeddings.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { HashEmbeddings } from "../src/embed/hash-embeddings.js";
import { ingest, type IngestProgress } from "../src/ingest/index.js";
import { CitationRetriever, formatCitations } from "../src/retrieve/index.js";
import { openStore } from "../src/store/open-store.js";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { store: { type: "string" } } });
const folder = positionals[0] ?? fileURLToPath(new URL("./docs/", import.meta.url));
const temp = values.store ? undefined : mkdtempSync(join(tmpdir(), "docparse-example-"));
const store = await openStore(values.store ?? `pglite://${temp}`);
const embeddings = new HashEmbeddings();

try {
  let lastLine = 0;
  const onProgress = (p: IngestProgress) => {
    // A line per second at most; the CLI draws a bar instead.
    if (p.change.type !== "done" && Date.now() - lastLine < 1000) return;
    lastLine = Date.now();
    console.log(`  ${p.completed}/${p.total ?? "?"} documents, parse ${p.stages.parse.active} · embed ${p.stages.embed.active} · store ${p.stages.store.active} in flight, ${p.pagesPerSecond.toFixed(1)} pages/s`);
  };

  // root = the folder, so sourceIds are paths inside it ("en/returns-policy.md").
  const first = await ingest({ sources: folder, root: folder, exclude: "*.ts", store, embeddings, onProgress });
  console.log(`first run:  ${first.added} added, ${first.failed.length} failed, ${first.chunks} chunks`);
  const second = await ingest({ sources: folder, root: folder, exclude: "*.ts", store, embeddings });
  console.log(`second run: ${second.unchanged} unchanged, ${second.added + second.updated} re-processed`);

  const retriever = new CitationRetriever({ store, embeddings, k: 2 });
  const docs = await retriever.invoke("How often should the HEPA filter be replaced?");
  console.log(`\n${formatCitations(docs)}`);
  if (first.failed.length > 0) process.exitCode = 1;
} finally {
  await store.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
}
