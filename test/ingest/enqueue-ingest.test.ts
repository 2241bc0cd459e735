import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { enqueueIngest, runWorker, type IngestWorker } from "../../src/ingest/index.js";
import { startRedis, type RedisServer } from "../support/redis.js";
import { missing, tempDir } from "../support/system.js";
import { fakeChunker } from "./support/fake-chunker.js";
import { FakeParser } from "./support/fake-parser.js";
import { FakeStore } from "./support/fake-store.js";

describe("enqueueIngest options", () => {
  it("rejects a non-Redis queue URL and deleteMissing without a store", async () => {
    await expect(enqueueIngest({ sources: [], queue: "http://127.0.0.1:1" })).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
    await expect(enqueueIngest({ sources: [], queue: "redis://127.0.0.1:1", deleteMissing: true })).rejects.toMatchObject({
      code: "DOCPARSE_INVALID_OPTION",
      message: "`deleteMissing` needs `store` and `wait`",
    });
  });
});

describe.skipIf(missing("redis-server"))("enqueueIngest + runWorker in one process", () => {
  let redis: RedisServer;
  let dir: ReturnType<typeof tempDir>;
  let worker: IngestWorker;
  const store = new FakeStore();
  const queueName = "enqueue-test";

  beforeAll(async () => {
    redis = await startRedis();
    dir = tempDir("enqueue-");
    mkdirSync(join(dir.path, "docs"));
    for (let i = 0; i < 5; i++) writeFileSync(join(dir.path, "docs", `d${i}.txt`), `# D${i}\n\nBody ${i}.`);
    worker = await runWorker({ queue: redis.url, queueName, store, parser: new FakeParser(), chunker: fakeChunker, embeddings: new HashEmbeddings({ dimensions: 8 }), retries: 0 });
  });
  afterAll(async () => {
    await worker?.close();
    await redis?.stop();
    dir?.cleanup();
  });

  const enqueue = (extra = {}) => enqueueIngest({ sources: join(dir.path, "docs"), root: dir.path, queue: redis.url, queueName, store, pollIntervalMs: 50, ...extra });

  it("reports like ingest(): added, then unchanged, then deleted with deleteMissing", async () => {
    expect(await enqueue()).toMatchObject({ enqueued: 5, added: 5, failed: [], aborted: false });
    expect(await enqueue()).toMatchObject({ enqueued: 5, unchanged: 5 });
    rmSync(join(dir.path, "docs", "d4.txt"));
    writeFileSync(join(dir.path, "docs", "d0.txt"), "# D0\n\nChanged.");
    expect(await enqueue({ deleteMissing: true })).toMatchObject({ enqueued: 4, updated: 1, unchanged: 3, deleted: 1 });
    expect((await store.manifest.list()).map((e) => e.sourceId)).toEqual(["docs/d0.txt", "docs/d1.txt", "docs/d2.txt", "docs/d3.txt"]);
    expect(worker.processed).toBe(14);
  }, 60_000);

  it("with wait: false returns once the jobs are queued", async () => {
    const report = await enqueue({ wait: false });
    expect(report).toMatchObject({ enqueued: 4, added: 0, unchanged: 0 });
  });
});
