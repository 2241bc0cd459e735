/**
 * Distributed ingestion on BullMQ: one enqueuer, two workers, one shared store.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/distributed-ingest.ts [folder]
 *
 * In production the workers are separate processes on separate machines
 * (`docparse-rag worker --queue redis://… --store postgres://…`) sharing PostgreSQL;
 * here they share one process and an in-memory store so the example runs anywhere a
 * Redis server does. Enqueueing twice shows the deduplication by sourceId.
 */
import { fileURLToPath } from "node:url";
import { HashEmbeddings } from "../src/embed/hash-embeddings.js";
import { enqueueIngest, runWorker } from "../src/ingest/index.js";
import { openStore } from "../src/store/open-store.js";

const queue = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const folder = process.argv[2] ?? fileURLToPath(new URL("./docs/", import.meta.url));
// A queue name of our own, so the example never takes jobs meant for real workers.
const queueName = `docparse-example-${process.pid}`;
const store = await openStore("memory://");
const embeddings = new HashEmbeddings();

const workers = await Promise.all(
  ["worker-a", "worker-b"].map((name) =>
    runWorker({
      queue,
      queueName,
      store,
      embeddings,
      workerConcurrency: 2,
      onDocument: (o) => console.log(`  ${name}: ${o.status} ${o.sourceId}`),
    }),
  ),
);
try {
  await enqueueIngest({ sources: folder, root: folder, exclude: "*.ts", queue, queueName, wait: false });
  const report = await enqueueIngest({ sources: folder, root: folder, exclude: "*.ts", queue, queueName, store });
  console.log(`enqueued the folder twice; BullMQ kept one job per document (${report.enqueued} jobs)`);
  console.log(`${report.added} added, ${report.unchanged} unchanged, ${report.failed.length} failed`);
  const manifest = await store.manifest.list();
  console.log(`store holds ${manifest.length} documents: ${manifest.map((e) => e.sourceId).join(", ")}`);
  if (report.failed.length > 0) process.exitCode = 1;
} finally {
  await Promise.all(workers.map((w) => w.close()));
  await store.close();
}
