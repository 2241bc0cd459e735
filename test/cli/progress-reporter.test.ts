import { describe, expect, it } from "vitest";
import { ProgressTracker, type IngestProgress } from "../../src/ingest/progress.js";
import { createReporter } from "../../src/cli/progress-reporter.js";
import { bufferIo } from "./support.js";

describe("createReporter(io, json: true)", () => {
  it("does not print the first document found before the others: the first line has consistent counts", async () => {
    const io = bufferIo();
    const reporter = await createReporter(io, true);
    const tracker = new ProgressTracker((p: IngestProgress) => reporter.onProgress(p));
    tracker.total = 6;
    for (let i = 0; i < 6; i++) tracker.discover(`doc-${i}`);
    tracker.stage("doc-0", "parse", "start");
    expect(io.out()).toBe("");
    await new Promise((r) => setTimeout(r, 300));
    tracker.stage("doc-1", "parse", "start");
    const lines = io.out().trim().split("\n").map((l) => JSON.parse(l) as { type: string; discovered: number; total: number });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "progress", discovered: 6, total: 6 });
    tracker.change({ type: "done" });
    expect(io.out().trim().split("\n")).toHaveLength(2);
  });
});
