import type { DocumentOutcome, IngestProgress, IngestReport } from "../ingest/index.js";
import type { CliIo } from "./cli-io.js";
import { jsonLine } from "./defaults.js";

/** How `ingest` shows progress: a bar on a terminal, JSON lines with `--json`, else a summary only. */
export interface ProgressReporter {
  onProgress(progress: IngestProgress): void;
  onDocument(outcome: DocumentOutcome): void;
  finish(report: IngestReport): void;
}

/** How {@link createReporter} reports. */
export interface ReporterOptions {
  /** `ingest --queue --no-wait`: nothing completes here, so no bar, and the summary counts jobs enqueued. @default false */
  enqueueOnly?: boolean;
}

/** Picks the reporter for the output: `--json` → JSON lines; a TTY → cli-progress bar; else quiet. */
export async function createReporter(io: CliIo, json: boolean, options: ReporterOptions = {}): Promise<ProgressReporter> {
  if (json) return jsonReporter(io);
  if (options.enqueueOnly) return quietReporter(io, enqueuedSummary);
  if (io.stderr.isTTY) return barReporter(io);
  return quietReporter(io, summary);
}

// JSON lines: throttled progress (4 a second) plus one line per failure and the report.
// The window starts with the run, not at 0: the first event is the first document found
// while the rest are still being enumerated (`discovered: 1, total: 6`), a line that only
// confuses; a quarter second in, the counts have caught up.
function jsonReporter(io: CliIo): ProgressReporter {
  let last = Date.now();
  return {
    onProgress(p) {
      const now = Date.now();
      if (p.change.type !== "done" && now - last < 250) return;
      last = now;
      const { change: _, ...counts } = p;
      jsonLine(io, { type: "progress", ...counts });
    },
    onDocument(outcome) {
      if (outcome.status === "failed") jsonLine(io, { type: "failed", ...outcome.failure });
    },
    finish(report) {
      jsonLine(io, { type: "report", ...report });
    },
  };
}

async function barReporter(io: CliIo): Promise<ProgressReporter> {
  const { default: cliProgress } = await import("cli-progress");
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WritableStream,
      format: "{bar} {value}/{total} docs | {pps} pages/s | ETA {etaText} | parse {parse} · chunk {chunk} · embed {embed} · store {store} | failed {failedCount}",
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const failures: string[] = [];
  return {
    onProgress(p) {
      const payload = {
        pps: p.pagesPerSecond.toFixed(1),
        etaText: p.etaSeconds === undefined ? "?" : `${Math.ceil(p.etaSeconds)}s`,
        parse: p.stages.parse.active,
        chunk: p.stages.chunk.active,
        embed: p.stages.embed.active,
        store: p.stages.store.active,
        failedCount: p.failed,
      };
      const total = p.total ?? p.discovered;
      if (!started) {
        bar.start(total, p.completed, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(p.completed, payload);
      }
    },
    onDocument(outcome) {
      if (outcome.status === "failed") failures.push(describeFailure(outcome));
    },
    finish(report) {
      if (started) bar.stop();
      for (const line of failures) io.stderr.write(`${line}\n`);
      io.stdout.write(summary(report));
    },
  };
}

function quietReporter(io: CliIo, describe: (report: IngestReport) => string): ProgressReporter {
  return {
    onProgress() {},
    onDocument(outcome) {
      if (outcome.status === "failed") io.stderr.write(`${describeFailure(outcome)}\n`);
    },
    finish(report) {
      io.stdout.write(describe(report));
    },
  };
}

function describeFailure(outcome: Extract<DocumentOutcome, { status: "failed" }>): string {
  const f = outcome.failure;
  return `failed ${f.sourceId} [${f.stage}] ${f.code}: ${f.message}`;
}

/** The one-line human summary of a report. */
export function summary(report: IngestReport): string {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const parts = [
    `${report.added} added`,
    `${report.updated} updated`,
    `${report.unchanged} unchanged`,
    `${report.deleted} deleted`,
    `${report.failed.length} failed`,
  ];
  return `${report.aborted ? "interrupted: " : ""}${parts.join(", ")} (${report.chunks} chunks, ${report.pages} pages, ${seconds}s)\n`;
}

/** The summary of `ingest --queue --no-wait`: jobs submitted, not documents processed. */
export function enqueuedSummary(report: IngestReport & { enqueued?: number }): string {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const n = report.enqueued ?? 0;
  const failed = report.failed.length > 0 ? `, ${report.failed.length} failed` : "";
  return `${report.aborted ? "interrupted: " : ""}${n} ${n === 1 ? "job" : "jobs"} enqueued${failed} (${seconds}s); not waiting for the workers\n`;
}
