import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { INGEST_DEFAULTS, ingest, resolveConcurrency, type IngestOptions, type IngestProgress } from "../../src/ingest/index.js";
import { tempDir } from "../support/system.js";
import { fakeChunker } from "./support/fake-chunker.js";
import { FakeParser } from "./support/fake-parser.js";
import { FakeStore } from "./support/fake-store.js";

let dir: { path: string; cleanup: () => void };
beforeEach(() => {
  dir = tempDir("ingest-");
});
afterEach(() => dir.cleanup());

function write(rel: string, text: string): void {
  const path = join(dir.path, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function sample(n: number): void {
  for (let i = 0; i < n; i++) write(`docs/d${String(i).padStart(3, "0")}.txt`, `# Title ${i}\n\nFirst paragraph of ${i}.\n\n第二段 ${i}。`);
}

function run(store: FakeStore, extra: Partial<IngestOptions> = {}, parser = new FakeParser()) {
  return ingest({
    sources: join(dir.path, "docs"),
    root: dir.path,
    store,
    parser,
    chunker: fakeChunker,
    embeddings: new HashEmbeddings({ dimensions: 16 }),
    retryDelayMs: 1,
    ...extra,
  });
}

describe("ingest()", () => {
  it("stores every document of a directory with sourceIds relative to root", async () => {
    sample(5);
    const store = new FakeStore();
    const report = await run(store);
    expect(report).toMatchObject({ added: 5, updated: 0, unchanged: 0, deleted: 0, failed: [], chunks: 15, aborted: false });
    const ids = (await store.manifest.list()).map((e) => e.sourceId);
    expect(ids).toEqual(["docs/d000.txt", "docs/d001.txt", "docs/d002.txt", "docs/d003.txt", "docs/d004.txt"]);
    const entry = await store.manifest.get("docs/d000.txt");
    expect(entry?.status).toBe("done");
    expect(entry?.chunkIds).toHaveLength(3);
    expect(await store.idsBySource("docs/d000.txt")).toEqual(entry?.chunkIds);
    expect([...store.chunks.values()].every((c) => c.vector.length === 16)).toBe(true);
  });

  it("skips unchanged documents on a rerun without parsing or writing them", async () => {
    sample(3);
    const store = new FakeStore();
    await run(store);
    const parser = new FakeParser();
    const writes = store.calls.replaceSource;
    const report = await run(store, {}, parser);
    expect(report).toMatchObject({ added: 0, updated: 0, unchanged: 3, failed: [] });
    expect(parser.calls).toBe(0);
    expect(store.calls.replaceSource).toBe(writes);
  });

  it("re-stores a changed document and removes its stale chunks", async () => {
    sample(3);
    const store = new FakeStore();
    await run(store);
    const before = await store.idsBySource("docs/d001.txt");
    write("docs/d001.txt", "# New title\n\nOnly one paragraph now.");
    const report = await run(store);
    expect(report).toMatchObject({ added: 0, updated: 1, unchanged: 2 });
    const after = await store.idsBySource("docs/d001.txt");
    expect(after).toHaveLength(2);
    expect(after.some((id) => before.includes(id))).toBe(false);
    expect((await store.manifest.get("docs/d001.txt"))?.chunkIds).toEqual(after);
  });

  it("re-processes everything when the options change (options hash)", async () => {
    sample(2);
    const store = new FakeStore();
    await run(store);
    const report = await run(store, { embeddings: new HashEmbeddings({ dimensions: 8 }) });
    expect(report).toMatchObject({ updated: 2, unchanged: 0 });
    expect([...store.chunks.values()].every((c) => c.vector.length === 8)).toBe(true);
  });

  it("options.deleteMissing removes documents that vanished, and only then", async () => {
    sample(3);
    const store = new FakeStore();
    await run(store);
    rmSync(join(dir.path, "docs/d002.txt"));
    expect(await run(store)).toMatchObject({ deleted: 0, unchanged: 2 });
    expect(await store.idsBySource("docs/d002.txt")).toHaveLength(3);
    const report = await run(store, { deleteMissing: true });
    expect(report).toMatchObject({ deleted: 1, unchanged: 2 });
    expect(await store.idsBySource("docs/d002.txt")).toEqual([]);
    expect(await store.manifest.get("docs/d002.txt")).toBeUndefined();
  });

  it("options.deleteMissing deletes nothing when a source could not be listed", async () => {
    sample(2);
    const store = new FakeStore();
    await run(store);
    const report = await run(store, { sources: [join(dir.path, "nope")], deleteMissing: true });
    expect(report.deleted).toBe(0);
    expect(report.failed).toEqual([expect.objectContaining({ stage: "source", code: "DOCPARSE_INVALID_OPTION" })]);
    expect((await store.manifest.list()).length).toBe(2);
  });

  it("reports failed documents with code, message and stage, and goes on with the others", async () => {
    sample(4);
    write("docs/bad.txt", "CORRUPT bytes");
    const store = new FakeStore();
    store.failWrites.add("docs/d003.txt");
    const report = await run(store);
    expect(report.added).toBe(3);
    expect([...report.failed].sort((a, b) => (a.sourceId < b.sourceId ? -1 : 1))).toEqual([
      { sourceId: "docs/bad.txt", code: 40422, message: "corrupt file (injected)", stage: "parse" },
      { sourceId: "docs/d003.txt", code: "DOCPARSE_STORE", message: "write refused for docs/d003.txt", stage: "store" },
    ]);
    const entry = await store.manifest.get("docs/bad.txt");
    expect(entry).toMatchObject({ status: "failed", error: { code: 40422, stage: "parse" } });
    // A failed document is tried again on the next run.
    store.failWrites.clear();
    const again = await run(store);
    expect(again).toMatchObject({ added: 1, unchanged: 3 });
    expect(again.failed.map((f) => f.sourceId)).toEqual(["docs/bad.txt"]);
  });

  it("retries retryable parse failures (options.retries)", async () => {
    sample(3);
    const store = new FakeStore();
    const flaky = new FakeParser({ transientFailures: 2 });
    expect(await run(store, {}, flaky)).toMatchObject({ added: 3, failed: [] });
    expect(flaky.calls).toBe(9);
    const store2 = new FakeStore();
    const report = await run(store2, { retries: 1 }, new FakeParser({ transientFailures: 2 }));
    expect(report.failed.map((f) => f.code)).toEqual([40306, 40306, 40306]);
  });

  it("applies include/exclude globs to directory sources", async () => {
    sample(3);
    write("docs/notes.md", "# Notes\n\nMarkdown.");
    write("docs/sub/deep.md", "# Deep\n\nNested.");
    write("docs/.hidden.md", "# Hidden");
    const store = new FakeStore();
    const report = await run(store, { include: "**/*.md", exclude: "sub/**" });
    expect(report.added).toBe(1);
    expect((await store.manifest.list()).map((e) => e.sourceId)).toEqual(["docs/notes.md"]);
    const all = new FakeStore();
    await run(all);
    expect((await all.manifest.list()).map((e) => e.sourceId)).toEqual([
      "docs/d000.txt",
      "docs/d001.txt",
      "docs/d002.txt",
      "docs/notes.md",
      "docs/sub/deep.md",
    ]);
  });

  it("takes bytes, files and async iterables, and refuses a duplicate sourceId", async () => {
    sample(1);
    async function* more() {
      yield { data: Buffer.from("# 标题\n\n中文段落。"), sourceId: "mem/zh.txt" };
      yield { path: join(dir.path, "docs/d000.txt"), sourceId: "custom/id" };
      yield { data: Buffer.from("dup"), sourceId: "mem/zh.txt" };
    }
    const store = new FakeStore();
    const report = await run(store, { sources: more(), countFirst: true });
    expect(report.added).toBe(2);
    expect(report.failed).toEqual([expect.objectContaining({ sourceId: "mem/zh.txt", stage: "source", code: "DOCPARSE_INVALID_OPTION" })]);
    expect((await store.getByIds(await store.idsBySource("mem/zh.txt"))).map((c) => c.text)).toEqual(["标题", "中文段落。"]);
  });

  it("keeps at most concurrency.parse parses and concurrency.documents documents in flight", async () => {
    const store = new FakeStore();
    const parser = new FakeParser({ latencyMs: 5 });
    let pulled = 0;
    let maxAhead = 0;
    let finished = 0;
    async function* many() {
      for (let i = 0; i < 40; i++) {
        pulled++;
        maxAhead = Math.max(maxAhead, pulled - finished);
        yield { data: Buffer.from(`doc ${i}\n\nbody ${i}`), sourceId: `m/${i}` };
      }
    }
    const report = await run(store, { sources: many(), concurrency: { parse: 3, documents: 5 }, onDocument: () => finished++ }, parser);
    expect(report.added).toBe(40);
    expect(parser.maxRunning).toBeLessThanOrEqual(3);
    expect(parser.maxRunning).toBeGreaterThan(1);
    // The generator runs one item ahead of the slot it waits for.
    expect(maxAhead).toBeLessThanOrEqual(6);
  });

  it("emits progress with per-stage counts, a total and a final ETA of 0", async () => {
    sample(4);
    const events: IngestProgress[] = [];
    await run(new FakeStore(), { onProgress: (p) => events.push(p) });
    const last = events.at(-1)!;
    expect(last.change).toEqual({ type: "done" });
    expect(last).toMatchObject({ total: 4, completed: 4, added: 4, pages: 4, etaSeconds: 0 });
    expect(last.stages).toEqual({
      parse: { active: 0, done: 4 },
      chunk: { active: 0, done: 4 },
      embed: { active: 0, done: 4 },
      store: { active: 0, done: 4 },
    });
    expect(events.every((e) => e.total === 4)).toBe(true);
    expect(events.some((e) => e.stages.parse.active > 0)).toBe(true);
    expect(last.pagesPerSecond).toBeGreaterThan(0);
  });

  it("cancels through signal: resolves aborted, store consistent, a rerun completes it", async () => {
    sample(30);
    const store = new FakeStore();
    const controller = new AbortController();
    let done = 0;
    const report = await run(
      store,
      {
        signal: controller.signal,
        concurrency: 2,
        onDocument: () => {
          if (++done === 5) controller.abort();
        },
      },
      new FakeParser({ latencyMs: 3 }),
    );
    expect(report.aborted).toBe(true);
    expect(report.added).toBeGreaterThanOrEqual(5);
    expect(report.added).toBeLessThan(30);
    // Every done entry matches its chunks exactly; nothing else is stored.
    for (const entry of await store.manifest.list()) {
      if (entry.status === "done") expect(await store.idsBySource(entry.sourceId)).toEqual(entry.chunkIds);
    }
    const again = await run(store);
    expect(again.added + again.unchanged).toBe(30);
    expect(again.unchanged).toBe(report.added);
    const reference = new FakeStore();
    await run(reference);
    expect(store.contents()).toEqual(reference.contents());
  });

  it("rejects invalid options with DOCPARSE_INVALID_OPTION", async () => {
    const store = new FakeStore();
    await expect(run(store, { concurrency: 0 })).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION", message: "Expected `concurrency.parse` to be an integer >= 1, got 0" });
    await expect(run(store, { embedBatchSize: 1.5 })).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
    await expect(run(store, { parsesPerSecond: -1 })).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
  });
});

describe("INGEST_DEFAULTS", () => {
  it("pins the documented defaults", () => {
    expect(INGEST_DEFAULTS).toEqual({
      parseConfig: { capabilities: { pages: true, include_table_structure: true } },
      concurrency: { parse: 4, chunk: 2, embed: 2, store: 1 },
      embedBatchSize: 64,
      embedLingerMs: 10,
      retries: 2,
      retryDelayMs: 500,
      asyncJobs: false,
      deleteMissing: false,
      countFirst: true,
    });
    expect(resolveConcurrency(undefined)).toEqual({ parse: 4, chunk: 2, embed: 2, store: 1, documents: 12 });
    expect(resolveConcurrency(8)).toEqual({ parse: 8, chunk: 2, embed: 2, store: 1, documents: 20 });
  });
});

describe("ingest() with the real parser, chunker and stores", () => {
  const samples = join(process.cwd(), "examples/docs");

  it("ingests the sample documents into memory:// with citation metadata, then skips them", async () => {
    const { MemoryStore } = await import("../../src/store/memory-store.js");
    const store = new MemoryStore();
    const report = await ingest({ sources: samples, root: samples, store, exclude: "*.ts" });
    expect(report).toMatchObject({ added: 6, failed: [], aborted: false });
    expect(report.embedding?.texts).toBe(report.chunks);
    const ids = await store.idsBySource("zh/employee-handbook.md");
    const chunks = await store.getByIds(ids);
    const leave = chunks.find((c) => c.metadata.headingPath.includes("年假"));
    expect(leave?.metadata).toMatchObject({ sourceId: "zh/employee-handbook.md", filename: "employee-handbook.md", pageStart: 1 });
    expect(leave?.metadata.regions.length).toBeGreaterThan(0);
    // The default parse config asks for pages and the default chunker keeps their sizes,
    // so citations can be drawn in pixels of the page image.
    expect(leave?.metadata["pageSizes"]).toEqual({ "1": { width: expect.any(Number), height: expect.any(Number) } });
    expect((leave?.metadata["textSpans"] as unknown[] | undefined)?.length).toBeGreaterThan(0);
    expect((await store.manifest.get("zh/employee-handbook.md"))?.chunkIds).toEqual(ids);
    // Table structure is asked for by default: tables reach the store as HTML with their cells.
    const policy = await store.getByIds(await store.idsBySource("en/returns-policy.md"));
    const table = policy.find((c) => c.metadata.kind === "table" || c.metadata.elementTypes.includes("Table"));
    expect(table?.text).toMatch(/<table>[\s\S]*<th[^>]*>Reason for return<\/th>/);
    expect(await ingest({ sources: samples, root: samples, store, exclude: "*.ts" })).toMatchObject({ unchanged: 6, added: 0 });
  });

  it("opens and closes a pglite:// store given as a URL", async () => {
    const url = `pglite://${join(dir.path, "store")}`;
    expect(await ingest({ sources: join(samples, "en"), root: samples, store: url })).toMatchObject({ added: 3, failed: [] });
    // Closed after the run: the directory can be opened again (one process at a time).
    expect(await ingest({ sources: join(samples, "en"), root: samples, store: url, deleteMissing: true })).toMatchObject({ unchanged: 3, deleted: 0 });
  }, 60_000);
});
