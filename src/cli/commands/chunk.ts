import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Command } from "commander";
import { chunkDocument } from "../../chunk/chunk-document.js";
import type { ChunkOptions } from "../../chunk/options.js";
import { defaultParser } from "../../ingest/defaults.js";
import { interpretEnvelope } from "../../client/response.js";
import { DocParseError, LocalErrorCode } from "../../errors.js";
import { ParseResultSchema, formatIssues, type ParseResult } from "../../wire/index.js";
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
    .option("--source-id <id>", "the sourceId written into every chunk (default: a result's metadata.filename, else the file name)")
    .action(async (input: string, opts: ChunkCliOptions) => {
      const stored = await readResult(input);
      const result = stored ?? (await (await defaultParser(io.env)).parse(toInput(input)));
      // A stored result names its document; "result.json" is only where it was saved.
      const named = stored?.metadata?.filename;
      const chunks = chunkDocument(result, {
        sourceId: opts.sourceId ?? (named ? named : basename(input)),
        ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
        ...(opts.strategy !== undefined ? { strategy: opts.strategy } : {}),
        ...(opts.tokenizer !== undefined ? { tokenizer: opts.tokenizer } : {}),
      });
      for (const chunk of chunks) io.stdout.write(`${JSON.stringify(chunk)}\n`);
      setExit(EXIT.ok);
    });
}

/**
 * Reads a `.json` input as a parse result. A `{code, …}` envelope raises its code unless
 * it is 200 (then `data` is the result); an object with `elements` must match
 * `ParseResultSchema`. Both fail loudly: chunking a broken result as if it were a text
 * document would index JSON punctuation and hide the real error. Only a `.json` that is
 * not result-shaped at all (an array, an unrelated object) is a document to parse;
 * `undefined` means "parse it". An unreadable file is left to the parser, which reports it
 * like any other missing document.
 */
export async function readResult(input: string): Promise<ParseResult | undefined> {
  if (!input.toLowerCase().endsWith(".json") || /^https?:\/\//i.test(input)) return undefined;
  let text: string;
  try {
    text = await readFile(input, "utf8");
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new DocParseError(
      LocalErrorCode.InvalidResponse,
      `${input} is not valid JSON (${cause instanceof Error ? cause.message : String(cause)}); \`chunk\` reads .json files as parse results written by \`parse\``,
      { cause },
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  if (typeof (value as { code?: unknown }).code === "number") {
    // The same reading as the client's: a non-200 code is that error, with its message.
    const { data } = interpretEnvelope(text, { httpStatus: 200 }, (t) => t);
    return validResult(input, data, "the envelope's data");
  }
  if ("elements" in value) return validResult(input, value, "it");
  return undefined;
}

function validResult(input: string, data: unknown, what: string): ParseResult {
  const parsed = ParseResultSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new DocParseError(LocalErrorCode.InvalidResponse, `${input} looks like a parse result, but ${what} does not match the contract:\n${formatIssues(parsed.error)}`, {
    issues: parsed.error.issues,
  });
}
