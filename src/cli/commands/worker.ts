import type { Command } from "commander";
import { runWorker } from "../../ingest/index.js";
import type { CliIo } from "../cli-io.js";
import { storeUrl } from "../defaults.js";
import { EXIT } from "../exit-codes.js";
import { intOption } from "./options.js";
import { checkConfig } from "./parse.js";
import { jsonOption } from "./options.js";
import { untilInterrupted } from "./view.js";

/** `docparse-rag worker --queue redis://… --store postgres://…`: processes ingest jobs until Ctrl-C. */
export function workerCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("worker")
    .description("process ingest jobs from a BullMQ queue into a shared store (run as many as you like)")
    .requiredOption("--queue <url>", "Redis URL of the queue, e.g. redis://127.0.0.1:6379")
    .option("--store <url>", "the shared store, e.g. postgres://… (default $DOCPARSE_STORE or pglite://./.docparse)")
    .option("--queue-name <name>", "BullMQ queue name (default docparse-ingest)")
    .option("-c, --concurrency <n>", "documents at once (default 4)", intOption(1))
    .option("--max-tokens <n>", "most tokens per chunk (default 512); must match the other workers", intOption(16))
    .option("--config <json>", "parse config as on the wire; must match the other workers", jsonOption)
    .option("--json", "one JSON line per finished document")
    .action(async (opts: { queue: string; store?: string; queueName?: string; concurrency?: number; maxTokens?: number; config?: Record<string, unknown>; json?: boolean }) => {
      const worker = await runWorker({
        queue: opts.queue,
        store: storeUrl(opts.store, io),
        ...(opts.queueName ? { queueName: opts.queueName } : {}),
        ...(opts.concurrency ? { workerConcurrency: opts.concurrency } : {}),
        ...(opts.maxTokens ? { chunk: { maxTokens: opts.maxTokens } } : {}),
        ...(opts.config ? { parseConfig: checkConfig(opts.config) } : {}),
        onDocument: (o) => {
          if (opts.json) io.stdout.write(`${JSON.stringify(o)}\n`);
          else if (o.status === "failed") io.stderr.write(`failed ${o.sourceId} [${o.failure.stage}] ${o.failure.code}: ${o.failure.message}\n`);
          else io.stdout.write(`${o.status} ${o.sourceId}\n`);
        },
      });
      io.stderr.write(`worker ready on ${opts.queue} (Ctrl-C to stop after the running jobs)\n`);
      await untilInterrupted(io);
      await worker.close();
      setExit(EXIT.ok);
    });
}
