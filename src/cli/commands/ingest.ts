import type { Command } from "commander";
import { invalidOption } from "../../errors.js";
import { enqueueIngest, ingest, type IngestReport } from "../../ingest/index.js";
import type { CliIo } from "../cli-io.js";
import { storeUrl } from "../defaults.js";
import { EXIT } from "../exit-codes.js";
import { createReporter } from "../progress-reporter.js";
import { intOption, jsonOption } from "./options.js";
import { checkConfig } from "./parse.js";

interface IngestCliOptions {
  store?: string;
  queue?: string;
  queueName?: string;
  wait: boolean;
  json?: boolean;
  include?: string[];
  exclude?: string[];
  root?: string;
  deleteMissing?: boolean;
  concurrency?: number;
  asyncJobs?: boolean;
  maxTokens?: number;
  config?: Record<string, unknown>;
  urlMode?: string;
}

/** `docparse-rag ingest <paths...>`: in process, or onto a BullMQ queue with `--queue`. */
export function ingestCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("ingest")
    .description("ingest files, directories and URLs into a store; unchanged documents are skipped on reruns")
    .argument("<paths...>", "files, directories (recursive) or http(s) URLs")
    .option("--store <url>", "pglite://dir, postgres://…, memory:// (default $DOCPARSE_STORE or pglite://./.docparse)")
    .option("--queue <url>", "enqueue one job per document on BullMQ at this Redis URL instead of processing here")
    .option("--queue-name <name>", "BullMQ queue name (default docparse-ingest)")
    .option("--no-wait", "with --queue: return once enqueued instead of waiting for the workers")
    .option("--json", "JSON lines (progress, failures, report) on stdout")
    .option("--include <globs...>", "only files matching these globs (relative to each directory)")
    .option("--exclude <globs...>", "skip files matching these globs")
    .option("--root <dir>", "sourceIds are paths relative to this directory (default: the working directory)")
    .option("--delete-missing", "remove documents from the store that are no longer in the sources")
    .option("-c, --concurrency <n>", "documents parsed at once (default 4)", intOption(1))
    .option("--async-jobs", "parse through resumable async jobs (remote parser)")
    .option("--max-tokens <n>", "most tokens per chunk (default 512)", intOption(16))
    .option("--config <json>", "parse config as on the wire", jsonOption)
    .option("--url-mode <mode>", "download (fetch and hash URLs here) | parser (pass them to the parser as file_url)")
    .action(async (paths: string[], opts: IngestCliOptions) => {
      if (opts.urlMode !== undefined && opts.urlMode !== "download" && opts.urlMode !== "parser") {
        throw invalidOption(`--url-mode must be download or parser, got ${JSON.stringify(opts.urlMode)}`);
      }
      const queueStore = opts.queue ? enqueuerStore(opts, io) : undefined;
      const controller = new AbortController();
      let interrupts = 0;
      const off = io.onInterrupt(() => {
        interrupts++;
        if (interrupts === 1) {
          io.stderr.write("\ninterrupted: finishing the documents being stored (Ctrl-C again to quit now)\n");
          controller.abort();
        } else {
          process.exit(EXIT.interrupted);
        }
      });
      const enqueueOnly = Boolean(opts.queue) && !opts.wait;
      const reporter = await createReporter(io, Boolean(opts.json), { enqueueOnly });
      const common = {
        sources: paths,
        ...(opts.root ? { root: opts.root } : { root: io.cwd }),
        ...(opts.include ? { include: opts.include } : {}),
        ...(opts.exclude ? { exclude: opts.exclude } : {}),
        ...(opts.deleteMissing ? { deleteMissing: true } : {}),
        ...(opts.urlMode ? { downloadLimits: { mode: opts.urlMode as "download" | "parser" } } : {}),
        onProgress: reporter.onProgress,
        onDocument: reporter.onDocument,
        signal: controller.signal,
      };
      let report: IngestReport;
      try {
        if (opts.queue) {
          report = await enqueueIngest({
            ...common,
            queue: opts.queue,
            wait: opts.wait,
            ...(opts.queueName ? { queueName: opts.queueName } : {}),
            ...(queueStore ? { store: queueStore } : {}),
          });
        } else {
          report = await ingest({
            ...common,
            store: storeUrl(opts.store, io),
            ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
            ...(opts.asyncJobs ? { asyncJobs: true } : {}),
            ...(opts.maxTokens ? { chunk: { maxTokens: opts.maxTokens } } : {}),
            ...(opts.config ? { parseConfig: checkConfig(opts.config) } : {}),
          });
        }
      } finally {
        off();
      }
      reporter.finish(report);
      setExit(report.aborted ? EXIT.interrupted : report.failed.length > 0 ? EXIT.failed : EXIT.ok);
    });
}

/**
 * The store the enqueuing process may open with `--queue`, if any. It only reads it
 * (settling jobs whose events were missed; `--delete-missing`), so it opens it only when
 * named. Never a `pglite://` directory: PGlite is single-process and the worker holds it —
 * a second opener corrupts it. Without a store, a job whose event was missed counts as
 * unchanged; `--delete-missing` needs one, so it is refused.
 */
function enqueuerStore(opts: IngestCliOptions, io: CliIo): string | undefined {
  if (!opts.store && !opts.deleteMissing) return undefined;
  const url = storeUrl(opts.store, io);
  if (!/^pglite:\/\//i.test(url)) return url;
  if (opts.deleteMissing) {
    throw invalidOption(
      `--delete-missing with --queue needs a store this process can open while the workers write to it, i.e. postgres://…; ${url} is a pglite:// directory, which only one process (the worker) may open. Use a postgres:// store for distributed runs, or ingest without --queue.`,
    );
  }
  io.stderr.write(`note: ${url} is left to the worker (a pglite:// directory is single-process); this process does not open it\n`);
  return undefined;
}
