import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocParseClient } from "../../src/client/index.js";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { LocalParser } from "../../src/engine/local-parser.js";
import { ingest } from "../../src/ingest/index.js";
import type { ParsedDocument, Parser, ParseInput, ParseOptions } from "../../src/parser.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { MemoryStore } from "../../src/store/memory-store.js";

/** The local engine, slowed down while `slow` is set, so a job stays in progress. */
class SlowParser implements Parser {
  readonly name = "local";
  slow = true;
  readonly inner = new LocalParser();
  async parse(input: ParseInput, options?: ParseOptions): Promise<ParsedDocument> {
    while (this.slow) await new Promise((r) => setTimeout(r, 20));
    return this.inner.parse(input, options);
  }
}

describe("options.asyncJobs with DocParseClient against the local server", () => {
  let server: RunningServer;
  const engine = new SlowParser();
  let creates = 0;
  beforeAll(async () => {
    server = await startServer({
      parser: engine,
      // Counts job submissions; injects nothing.
      faults: { plan: ({ route }) => (route === "async" ? (creates++, undefined) : undefined) },
    });
  });
  afterAll(() => server.close());

  it("a run interrupted while the job runs is resumed by the next run without a second submission", async () => {
    const client = new DocParseClient({ baseUrl: server.url, pollMs: 20, requestsPerSecond: Infinity });
    const store = new MemoryStore();
    const source = [{ data: Buffer.from("# Remote\n\nParsed through an async job."), sourceId: "remote.md" }];
    const options = { sources: source, store, parser: client, asyncJobs: true, embeddings: new HashEmbeddings({ dimensions: 16 }) };

    const controller = new AbortController();
    const first = ingest({ ...options, signal: controller.signal });
    await expect.poll(async () => (await store.manifest.get("remote.md"))?.status, { timeout: 10_000 }).toBe("parsing");
    controller.abort();
    expect(await first).toMatchObject({ aborted: true, added: 0 });
    const jobId = (await store.manifest.get("remote.md"))?.jobId;
    expect(jobId).toEqual(expect.any(String));
    expect(creates).toBe(1);

    engine.slow = false;
    const second = await ingest(options);
    expect(second).toMatchObject({ added: 1, failed: [] });
    expect(creates).toBe(1);
    expect(await store.manifest.get("remote.md")).toMatchObject({ status: "done", jobId });
    const chunks = await store.getByIds(await store.idsBySource("remote.md"));
    expect(chunks.map((c) => c.text).join(" ")).toContain("Parsed through an async job.");
  }, 60_000);
});
