import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { DocParseError, LocalErrorCode } from "../../errors.js";
import { defaultEmbeddings, openStoreUrl } from "../../ingest/defaults.js";
import { ingest } from "../../ingest/index.js";
import { CitationRetriever, formatCitations } from "../../retrieve/index.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { summary } from "../progress-reporter.js";

/** The questions the demo answers, in English and Chinese, about the sample documents. */
export const DEMO_QUESTIONS = [
  "How many days do I have to return an item for a refund?",
  "How do I reset the air purifier to factory settings?",
  "员工入职满一年后每年有几天带薪年假？",
  "报销需要在多长时间内提交？",
  "How many years is the fan motor covered by the warranty?",
  "出差需要提前几个工作日提交申请？",
] as const;

// src/cli/commands/demo.ts and dist/cli/commands/demo.js are both three levels below the
// package root, where examples/docs lives.
const SAMPLES = fileURLToPath(new URL("../../../examples/docs/", import.meta.url));

/** `docparse-rag demo`: ingest the sample documents (text, Markdown, PDF, Word) and answer questions with citations, offline. */
export function demoCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("demo")
    .description("ingest examples/docs into an embedded store and print cited answers to a few questions (offline)")
    .option("--store <url>", "keep the store here (default: a temporary pglite:// directory, removed afterwards)")
    .option("--docs <dir>", "the documents to ingest (default: the project's examples/docs)")
    .action(async (opts: { store?: string; docs?: string }) => {
      const docs = opts.docs ?? SAMPLES;
      if (!existsSync(docs)) {
        throw new DocParseError(LocalErrorCode.InvalidOption, `No sample documents at ${docs}; run the demo from a checkout of the project, or pass --docs <dir>`);
      }
      const temp = opts.store ? undefined : mkdtempSync(join(tmpdir(), "docparse-demo-"));
      const url = opts.store ?? `pglite://${temp}`;
      try {
        // The demo always parses in process: it must work offline, whatever the environment says.
        const { LocalParser } = await import("../../engine/local-parser.js");
        io.stdout.write(`Ingesting ${docs} into ${url} …\n`);
        // make-samples.ts (the script that writes the binary samples) is not a sample.
        // Per-character details give exact quote boxes; the samples are small, so the memory is nothing.
        const parseConfig = { capabilities: { pages: true, include_table_structure: true, include_char_details: true } };
        const report = await ingest({ sources: docs, root: docs, store: url, parser: new LocalParser(), parseConfig, exclude: "*.ts" });
        io.stdout.write(summary(report));
        for (const f of report.failed) io.stderr.write(`failed ${f.sourceId} [${f.stage}] ${f.code}: ${f.message}\n`);

        const store = await openStoreUrl(url);
        try {
          const retriever = new CitationRetriever({ store, embeddings: await defaultEmbeddings(), k: 2 });
          for (const question of DEMO_QUESTIONS) {
            const hits = await retriever.search(question);
            io.stdout.write(`\nQ: ${question}\n`);
            const best = hits[0];
            if (!best) {
              io.stdout.write("A: (no passage found)\n");
              continue;
            }
            io.stdout.write(`A: ${best.metadata.citation.quote.text.replace(/\s+/g, " ").trim()} [1]\n`);
            io.stdout.write(`${formatCitations(hits, { maxQuoteLength: 120 })}\n`);
          }
        } finally {
          await store.close();
        }
        setExit(report.failed.length > 0 ? EXIT.failed : EXIT.ok);
      } finally {
        if (temp) rmSync(temp, { recursive: true, force: true });
      }
    });
}
