import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type RedisServer } from "../support/redis.js";
import { missing, tempDir } from "../support/system.js";

const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `docparse-rag` as a process; `onLine` may send it signals. */
function cli(args: string[], onLine?: (line: string, child: ReturnType<typeof spawn>) => void, cwd?: string): Promise<Run> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], { stdio: ["ignore", "pipe", "pipe"], cwd });
  let stdout = "";
  let stderr = "";
  let buf = "";
  child.stdout!.on("data", (d: Buffer) => {
    stdout += d.toString();
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      onLine?.(line, child);
    }
  });
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Run>((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr }))) as Promise<Run> & { child: typeof child };
  done.child = child;
  return done;
}

const DOCS = 200;

describe("docparse-rag (the bin entry)", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir("cli-main-");
    mkdirSync(join(dir.path, "docs"));
    // Enough documents that a run outlasts the progress throttle (the first --json progress
    // line comes ~250 ms in), so the test can interrupt it mid-way on a fast machine too.
    for (let i = 0; i < DOCS; i++) {
      writeFileSync(join(dir.path, "docs", `note-${String(i).padStart(2, "0")}.md`), `# Note ${i}\n\n## Part A\n\nText ${i} alpha.\n\n## Part B\n\n第${i}号文件的内容。`);
    }
  });
  afterAll(() => dir?.cleanup());

  it("runs through its shebang entry: --version exits 0, bad usage exits 2", async () => {
    const v = await cli(["--version"]);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const bad = await cli(["ingest"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/missing required argument 'paths'/);
  });

  it("SIGINT stops ingest with exit 130 and a consistent store; a rerun finishes it", async () => {
    const store = `pglite://${join(dir.path, "store")}`;
    const args = ["ingest", join(dir.path, "docs"), "--root", dir.path, "--store", store, "--json", "-c", "1"];
    let sent = false;
    const first = await cli(args, (line, child) => {
      const event = JSON.parse(line) as { type: string; completed?: number };
      if (!sent && event.type === "progress" && (event.completed ?? 0) >= 2) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    expect(first.stderr).toContain("interrupted");
    expect(first.code).toBe(130);
    const report = JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { type: string; aborted: boolean; added: number };
    expect(report).toMatchObject({ type: "report", aborted: true });
    expect(report.added).toBeLessThan(DOCS);

    const second = await cli(args);
    expect(second.code).toBe(0);
    const again = JSON.parse(second.stdout.trim().split("\n").at(-1)!) as { added: number; unchanged: number; failed: unknown[] };
    expect(again.unchanged).toBe(report.added);
    expect(again.added + again.unchanged).toBe(DOCS);
  }, 240_000);
});

describe.skipIf(missing("redis-server"))("docparse-rag ingest --queue + worker", () => {
  let redis: RedisServer;
  let dir: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    redis = await startRedis();
    dir = tempDir("cli-queue-");
  });
  afterAll(async () => {
    await redis?.stop();
    dir?.cleanup();
  });

  it("a worker process ingests what the enqueuer submits; the enqueuer reports and exits 0", async () => {
    const store = `pglite://${join(dir.path, "store")}`;
    const samples = fileURLToPath(new URL("../../examples/docs", import.meta.url));
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const worker = cli(["worker", "--queue", redis.url, "--store", store, "--json"]);
    worker.child.stderr!.on("data", (d: Buffer) => {
      if (d.toString().includes("worker ready")) ready();
    });
    await isReady;
    // The reviewer's reproduction: both processes name the same pglite:// store. The
    // enqueuer must leave it to the worker (a second PGlite opener corrupts the directory).
    const enqueue = await cli(["ingest", samples, "--root", samples, "--queue", redis.url, "--store", store, "--json", "--exclude", "*.ts"]);
    expect(enqueue.code).toBe(0);
    expect(enqueue.stderr).toContain("is left to the worker");
    const report = JSON.parse(enqueue.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(report).toMatchObject({ type: "report", enqueued: 6, added: 6, failed: [] });
    worker.child.kill("SIGTERM");
    const w = await worker;
    expect(w.code).toBe(0);
    expect(w.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { sourceId: string }).sourceId).sort()).toEqual([
      "en/device-manual.txt",
      "en/returns-policy.md",
      "en/warranty-terms.pdf",
      "zh/employee-handbook.md",
      "zh/product-faq.txt",
      "zh/travel-policy.docx",
    ]);

    const query = await cli(["query", "factory reset", "--store", store, "-k", "1"]);
    expect(query.code).toBe(0);
    expect(query.stdout).toContain("device-manual.txt");
  }, 240_000);
});
