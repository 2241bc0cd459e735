import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT, runCli } from "../../../src/cli/index.js";
import { startRedis, type RedisServer } from "../../support/redis.js";
import { missing, tempDir } from "../../support/system.js";
import { bufferIo } from "../support.js";

const SAMPLES = resolve("examples/docs");

describe.skipIf(missing("redis-server"))("ingest --queue", () => {
  let redis: RedisServer;
  let dir: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    redis = await startRedis();
    dir = tempDir("cli-ingest-queue-");
  });
  afterAll(async () => {
    await redis?.stop();
    dir?.cleanup();
  });

  it("never opens a pglite:// store (the worker holds it); --no-wait counts the jobs enqueued", async () => {
    const storeDir = join(dir.path, "store");
    const io = bufferIo();
    const args = ["ingest", SAMPLES, "--root", SAMPLES, "--exclude", "*.ts", "--queue", redis.url, "--queue-name", "no-wait", "--store", `pglite://${storeDir}`, "--no-wait"];
    expect(await runCli(args, io)).toBe(EXIT.ok);
    // Opening it would have created the directory, and corrupted the worker's copy.
    expect(existsSync(storeDir)).toBe(false);
    expect(io.err()).toMatch(/is left to the worker/);
    expect(io.out()).toMatch(/^6 jobs enqueued \([\d.]+s\); not waiting for the workers\n$/);

    const json = bufferIo();
    expect(await runCli([...args, "--json", "--queue-name", "no-wait-json"], json)).toBe(EXIT.ok);
    expect(JSON.parse(json.out().trim().split("\n").at(-1)!)).toMatchObject({ type: "report", enqueued: 6 });
    expect(existsSync(storeDir)).toBe(false);
  }, 60_000);

  it("refuses --delete-missing with a pglite:// store: distributed runs need postgres://", async () => {
    for (const store of [["--store", `pglite://${join(dir.path, "store")}`], []]) {
      const io = bufferIo({ cwd: dir.path });
      expect(await runCli(["ingest", SAMPLES, "--queue", redis.url, "--delete-missing", ...store], io)).toBe(EXIT.usage);
      expect(io.err()).toMatch(/^docparse-rag: --delete-missing with --queue needs .*postgres:\/\/.*only one process \(the worker\) may open.*\(DOCPARSE_INVALID_OPTION\)\n$/);
      expect(io.out()).toBe("");
    }
    expect(existsSync(join(dir.path, "store"))).toBe(false);
  });
});
