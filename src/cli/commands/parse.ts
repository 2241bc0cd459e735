import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { defaultParser } from "../../ingest/defaults.js";
import type { ParseInput } from "../../parser.js";
import { ParseConfigSchema, formatIssues } from "../../wire/index.js";
import { invalidOption } from "../../errors.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { jsonOption } from "./options.js";

/** `docparse-rag parse <file|url>`: the parse result as JSON. */
export function parseCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("parse")
    .description("parse one document (local engine, or the service at DOCPARSE_BASE_URL) and print the result as JSON")
    .argument("<input>", "a file path or an http(s) URL")
    .option("--config <json>", "parse config as on the wire, e.g. '{\"capabilities\":{\"pages\":true}}'", jsonOption)
    .option("-o, --out <file>", "write the JSON to a file instead of stdout")
    .option("--compact", "one line of JSON instead of indented")
    .action(async (input: string, opts: { config?: Record<string, unknown>; out?: string; compact?: boolean }) => {
      const config = opts.config ? checkConfig(opts.config) : undefined;
      const parser = await defaultParser(io.env);
      const result = await parser.parse(toInput(input), config ? { config } : {});
      const text = `${JSON.stringify(result, null, opts.compact ? undefined : 2)}\n`;
      if (opts.out) await writeFile(opts.out, text);
      else io.stdout.write(text);
      setExit(EXIT.ok);
    });
}

/** A URL becomes `{ url }` (the parser fetches it); anything else is a path. */
export function toInput(input: string): ParseInput {
  return /^https?:\/\//i.test(input) ? { url: input } : input;
}

/** Validates a `--config` object against the wire schema. */
export function checkConfig(config: Record<string, unknown>): import("../../wire/index.js").ParseConfig {
  const parsed = ParseConfigSchema.safeParse(config);
  if (!parsed.success) throw invalidOption(`--config: ${formatIssues(parsed.error)}`, parsed.error.issues);
  return parsed.data;
}
