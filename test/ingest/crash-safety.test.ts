import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { ingest } from "../../src/ingest/index.js";
import type { ChunkStore } from "../../src/store/chunk-store.js";
import { openStore } from "../../src/store/open-store.js";
import { tempDir } from "../support/system.js";
import { fakeChunker } from "./support/fake-chunker.js";
import { FakeParser } from "./support/fake-parser.js";

const SCRIPT = fileURLToPath(new URL("./support/ingest-process.ts", import.meta.url));
const N = 16;

/** Runs the ingest process; kills it with SIGKILL once `killAfter` documents are done (or after `killAfterMs`). */
function runIngest(env: Record<string, string>, kill: { afterDocs?: number; afterMs?: number } = {}): Promise<{ lines: string[]; killed: boolean; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let stderr = "";
    let killed = false;
    let buf = "";
    const killNow = () => {
      if (!killed && child.exitCode === null) {
        killed = true;
        child.kill("SIGKILL");
      }
    };
    if (kill.afterMs !== undefined) setTimeout(killNow, kill.afterMs);
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (kill.afterDocs !== undefined && lines.length >= kill.afterDocs) killNow();
      }
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (!killed && code !== 0) reject(new Error(`ingest process failed (${code}): ${stderr}`));
      else resolve({ lines, killed, code });
    });
  });
}

/** Everything a reader of the store can see: chunks (with metadata) per source, and which sources are done. */
async function snapshot(store: ChunkStore): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of await store.manifest.list()) {
    const ids = await store.idsBySource(entry.sourceId);
    out[entry.sourceId] = {
      status: entry.status,
      contentHash: entry.contentHash,
      optionsHash: entry.optionsHash,
      chunkIds: entry.chunkIds,
      ids,
      chunks: await store.getByIds(ids),
    };
  }
  return out;
}

describe("crash safety (SIGKILL at any moment, then rerun)", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir("crash-");
    mkdirSync(join(dir.path, "docs"));
    for (let i = 0; i < N; i++) {
      const paragraphs = Array.from({ length: 2 + (i % 4) }, (_, p) => `Paragraph ${p} of document ${i}. 第${p}段。`);
      writeFileSync(join(dir.path, "docs", `doc-${String(i).padStart(2, "0")}.txt`), `# Document ${i}\n\n${paragraphs.join("\n\n")}`);
    }
  });
  afterAll(() => dir?.cleanup());

  it("killed three times mid-run, the rerun gives the same store as an uninterrupted run", async () => {
    const base = { DOCS_DIR: join(dir.path, "docs"), ROOT: dir.path, LATENCY_MS: "20" };
    const crashed = `pglite://${join(dir.path, "crashed")}`;
    const reference = `pglite://${join(dir.path, "reference")}`;

    const first = await runIngest({ ...base, STORE_URL: crashed }, { afterDocs: 2 });
    expect(first.killed).toBe(true);
    // A kill at an arbitrary moment, wherever the run happens to be (opening the store, mid-transaction, ...).
    await runIngest({ ...base, STORE_URL: crashed }, { afterMs: 2500 });
    const third = await runIngest({ ...base, STORE_URL: crashed }, { afterDocs: 6 });
    expect(third.killed).toBe(true);
    const last = await runIngest({ ...base, STORE_URL: crashed });
    expect(last.killed).toBe(false);
    const done = JSON.parse(last.lines.at(-1)!.slice("done ".length)) as { added: number; unchanged: number; failed: number };
    expect(done.failed).toBe(0);
    expect(done.added + done.unchanged).toBe(N);
    expect(done.unchanged).toBeGreaterThan(0);

    // The uninterrupted reference run, in this process with the same parts as the script.
    await ingest({
      sources: base.DOCS_DIR,
      root: base.ROOT,
      store: reference,
      parser: new FakeParser(),
      chunker: fakeChunker,
      embeddings: new HashEmbeddings({ dimensions: 16 }),
    });

    const a = await openStore(crashed);
    const b = await openStore(reference);
    try {
      const sa = (await snapshot(a)) as Record<string, { status: string; ids: string[]; chunkIds: string[] }>;
      const sb = await snapshot(b);
      expect(Object.keys(sa)).toHaveLength(N);
      for (const s of Object.values(sa)) {
        expect(s.status).toBe("done");
        expect(s.ids).toEqual(s.chunkIds);
      }
      expect(sa).toEqual(sb);
    } finally {
      await a.close();
      await b.close();
    }
  }, 180_000);
});
