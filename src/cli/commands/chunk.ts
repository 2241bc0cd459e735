import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Command } from "commander";
import { chunkDocument } from "../../chunk/chunk-document.js";
import type { ChunkOptions } from "../../chunk/options.js";
import { defaultParser } from "../../ingest/defaults.js";
import { ParseResultSchema, type ParseResult } from "../../wire/index.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { intOption } from "./options.js";
import { toInput } from "./parse.js";

interface ChunkCliOptions {
  maxTokens?: number;
  strategy?: ChunkOptions["strategy"];
  tokenizer?: "cl100k_base" | "approximate";
  sourceId?: string;
}

/** `docparse-rag chunk <result.json|file>`: chunks as JSON Lines. */
export function chunkCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("chunk")
    .description("chunk a parse result (result.json from `parse`) or a document (parsed first); prints one chunk per line (JSON Lines)")
    .argument("<input>", "a parse result .json, a document path, or an http(s) URL")
    .option("--max-tokens <n>", "most tokens per chunk (default 512)", intOption(16))
    .option("--strategy <name>", "hierarchy | by_page | by_element (default hierarchy)")
    .option("--tokenizer <name>", "cl100k_base | approximate (default cl100k_base)")
    .option("--source-id <id>", "the sourceId written into every chunk (default the file name)")
    .action(async (input: string, opts: ChunkCliOptions) => {
      const result = (await readResult(input)) ?? (await (await defaultParser(io.env)).parse(toInput(input)));
      const chunks = chunkDocument(result, {
        sourceId: opts.sourceId ?? basename(input),
        ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
        ...(opts.strategy !== undefined ? { strategy: opts.strategy } : {}),
        ...(opts.tokenizer !== undefined ? { tokenizer: opts.tokenizer } : {}),
      });
      for (const chunk of chunks) io.stdout.write(`${JSON.stringify(chunk)}\n`);
      setExit(EXIT.ok);
    });
}

// A .json file that is a parse result (or a whole {code, data} envelope) is chunked as
// is; any other file is a document to parse.
async function readResult(input: string): Promise<ParseResult | undefined> {
  if (!input.toLowerCase().endsWith(".json") || /^https?:\/\//i.test(input)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(await readFile(input, "utf8"));
  } catch {
    return undefined;
  }
  const data = value !== null && typeof value === "object" && "data" in value && "code" in value ? (value as { data: unknown }).data : value;
  const parsed = ParseResultSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
