/**
 * A distributed ingest worker as its own process, for the distributed test:
 * `node --import tsx worker-process.ts` with QUEUE_URL, STORE_URL, LATENCY_MS in the
 * environment. Prints "ready" when it takes jobs and one line per finished document.
 */
import { HashEmbeddings } from "../../../src/embed/hash-embeddings.js";
import { runWorker } from "../../../src/ingest/index.js";
import { openStore } from "../../../src/store/open-store.js";
import { fakeChunker } from "./fake-chunker.js";
import { FakeParser } from "./fake-parser.js";

const store = await openStore(process.env.STORE_URL!, { pool: { max: 1 } });
const worker = await runWorker({
  queue: process.env.QUEUE_URL!,
  queueName: process.env.QUEUE_NAME ?? "docparse-ingest",
  store,
  parser: new FakeParser({ latencyMs: Number(process.env.LATENCY_MS ?? 0), transientFailures: Number(process.env.TRANSIENT ?? 0) }),
  chunker: fakeChunker,
  embeddings: new HashEmbeddings({ dimensions: 16 }),
  workerConcurrency: 2,
  lockDurationMs: Number(process.env.LOCK_MS ?? 1500),
  retries: 0,
  onDocument: (o) => process.stdout.write(`${JSON.stringify({ sourceId: o.sourceId, status: o.status })}\n`),
});
process.stdout.write("ready\n");
process.on("SIGTERM", () => {
  void worker.close().then(() => store.close()).then(() => process.exit(0));
});
