import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { enqueueIngest, ingest } from "../../src/ingest/index.js";
import type { ChunkStore } from "../../src/store/chunk-store.js";
import { openStore } from "../../src/store/open-store.js";
import { startRedis, type RedisServer } from "../support/redis.js";
import { missing, tempDir } from "../support/system.js";
import { fakeChunker } from "./support/fake-chunker.js";
import { FakeParser } from "./support/fake-parser.js";
import { FakeStore } from "./support/fake-store.js";
import { startSharedPgServer } from "./support/pg-server.js";

const WORKER = fileURLToPath(new URL("./support/worker-process.ts", import.meta.url));
const N = 24;

function startWorker(env: Record<string, string>): { child: ChildProcess; ready: Promise<void>; lines: string[] } {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    let buf = "";
    child.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line === "ready") resolve();
        else lines.push(line);
      }
    });
    child.once("exit", (code) => reject(new Error(`worker exited (${code}) before ready: ${stderr}`)));
  });
  return { child, ready, lines };
}

async function contents(store: ChunkStore): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await store.manifest.list()) {
    for (const chunk of await store.getByIds(await store.idsBySource(entry.sourceId))) {
      out.push(`${chunk.metadata.sourceId}|${chunk.id}|${chunk.text}`);
    }
  }
  return out.sort();
}

describe.skipIf(missing("redis-server"))("distributed ingestion (BullMQ on redis-server, shared postgres:// store)", () => {
  let redis: RedisServer;
  let pg: Awaited<ReturnType<typeof startSharedPgServer>>;
  let dir: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    [redis, pg] = await Promise.all([startRedis(), startSharedPgServer()]);
    dir = tempDir("distributed-");
    mkdirSync(join(dir.path, "docs"));
    for (let i = 0; i < N; i++) {
      writeFileSync(join(dir.path, "docs", `d${String(i).padStart(2, "0")}.txt`), `# Doc ${i}\n\nAlpha ${i}.\n\n段落 ${i}。`);
    }
    writeFileSync(join(dir.path, "docs", "zz-corrupt.txt"), "CORRUPT");
  });
  afterAll(async () => {
    await redis?.stop();
    await pg?.stop();
    dir?.cleanup();
  });

  it("two workers, one killed mid-run: every document once, the store equals a single-process run", async () => {
    const sources = join(dir.path, "docs");
    const store = await openStore(pg.url, { pool: { max: 1 } });
    try {
      // Enqueueing twice gives one job per document (job id = hash of the sourceId).
      const first = await enqueueIngest({ sources, root: dir.path, queue: redis.url, wait: false });
      await enqueueIngest({ sources, root: dir.path, queue: redis.url, wait: false });
      expect(first.enqueued).toBe(N + 1);
      const { Queue } = await import("bullmq");
      const q = new Queue("docparse-ingest", { connection: { url: redis.url } });
      expect(await q.getWaitingCount()).toBe(N + 1);
      await q.close();

      // Every document fails once with a retryable code in each worker: BullMQ's retries
      // (attempts 3, backoff) must carry it through.
      const env = { QUEUE_URL: redis.url, STORE_URL: pg.url, LATENCY_MS: "150", LOCK_MS: "1500", TRANSIENT: "1" };
      const a = startWorker(env);
      const b = startWorker(env);
      await Promise.all([a.ready, b.ready]);
      const waiting = enqueueIngest({ sources, root: dir.path, queue: redis.url, store, attempts: 3, backoffMs: 50, pollIntervalMs: 200 });
      // Kill A while it is in the middle of its share.
      await expect.poll(() => a.lines.filter((l) => l.includes('"added"')).length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
      a.child.kill("SIGKILL");
      const report = await waiting;
      b.child.kill("SIGTERM");

      expect(report.failed).toEqual([{ sourceId: "docs/zz-corrupt.txt", code: 40422, message: "corrupt file (injected)", stage: "parse" }]);
      expect(report.added + report.unchanged).toBe(N);
      expect(report.enqueued).toBe(N + 1);

      const reference = new FakeStore();
      await ingest({ sources, root: dir.path, store: reference, parser: new FakeParser(), chunker: fakeChunker, embeddings: new HashEmbeddings({ dimensions: 16 }) });
      expect(await contents(store)).toEqual(reference.contents());
      const entries = await store.manifest.list();
      expect(entries.filter((e) => e.status === "done")).toHaveLength(N);
      expect(entries.find((e) => e.sourceId === "docs/zz-corrupt.txt")).toMatchObject({ status: "failed", error: { code: 40422 } });
      for (const e of entries.filter((e) => e.status === "done")) expect(await store.idsBySource(e.sourceId)).toEqual(e.chunkIds);
    } finally {
      await store.close();
    }
  }, 90_000);
});
