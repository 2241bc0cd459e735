import { describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { DocParseError, abortError } from "../../src/errors.js";
import { ingest } from "../../src/ingest/index.js";
import type { ParsedDocument, Parser, ParseInput, ParseOptions } from "../../src/parser.js";
import { fakeChunker } from "./support/fake-chunker.js";
import { textResult } from "./support/fake-parser.js";
import { FakeStore } from "./support/fake-store.js";

/** A remote-like parser with async jobs; `hold` keeps jobs pending until released. */
class FakeJobParser implements Parser {
  readonly name = "fake-remote";
  readonly created: string[] = [];
  readonly waited: string[] = [];
  readonly jobs = new Map<string, string>();
  hold = false;
  /** Job ids the "service" has forgotten. */
  readonly forgotten = new Set<string>();

  async parse(): Promise<ParsedDocument> {
    throw new Error("asyncJobs should not call parse");
  }
  async createJob(input: ParseInput, _options?: ParseOptions): Promise<{ jobId: string }> {
    const id = `job-${this.created.length + 1}`;
    this.created.push(id);
    this.jobs.set(id, Buffer.from(input as Uint8Array).toString("utf8"));
    return { jobId: id };
  }
  async waitForJob(jobId: string, options: { signal?: AbortSignal } = {}): Promise<{ job_id: string; status: string }> {
    this.waited.push(jobId);
    if (this.forgotten.has(jobId)) throw new DocParseError(40004, "unknown job");
    if (this.hold) {
      await new Promise((_, reject) => options.signal?.addEventListener("abort", () => reject(abortError(options.signal)), { once: true }));
    }
    return { job_id: jobId, status: "completed" };
  }
  async fetchResult(status: { job_id: string }): Promise<ParsedDocument> {
    return textResult(this.jobs.get(status.job_id)!, "a.txt");
  }
}

function run(store: FakeStore, parser: FakeJobParser, signal?: AbortSignal) {
  return ingest({
    sources: [{ data: Buffer.from("# A\n\nbody"), sourceId: "a.txt" }],
    store,
    parser,
    asyncJobs: true,
    chunker: fakeChunker,
    embeddings: new HashEmbeddings({ dimensions: 8 }),
    ...(signal ? { signal } : {}),
  });
}

describe("options.asyncJobs", () => {
  it("persists the job id before waiting and resumes it after an interruption instead of resubmitting", async () => {
    const store = new FakeStore();
    const parser = new FakeJobParser();
    parser.hold = true;
    const controller = new AbortController();
    const first = run(store, parser, controller.signal);
    await expect.poll(() => parser.waited.length).toBe(1);
    controller.abort();
    expect((await first).aborted).toBe(true);
    expect(await store.manifest.get("a.txt")).toMatchObject({ status: "parsing", jobId: "job-1", chunkIds: [] });

    parser.hold = false;
    const second = await run(store, parser);
    expect(second).toMatchObject({ added: 1, failed: [] });
    expect(parser.created).toEqual(["job-1"]);
    expect(parser.waited).toEqual(["job-1", "job-1"]);
    expect(await store.manifest.get("a.txt")).toMatchObject({ status: "done", jobId: "job-1" });
    expect(await store.idsBySource("a.txt")).toHaveLength(2);
  });

  it("submits a new job when the persisted one is unknown to the service", async () => {
    const store = new FakeStore();
    const parser = new FakeJobParser();
    parser.hold = true;
    const controller = new AbortController();
    const first = run(store, parser, controller.signal);
    await expect.poll(() => parser.waited.length).toBe(1);
    controller.abort();
    await first;
    parser.hold = false;
    parser.forgotten.add("job-1");
    expect(await run(store, parser)).toMatchObject({ added: 1 });
    expect(parser.created).toEqual(["job-1", "job-2"]);
  });
});
