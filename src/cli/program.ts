import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { DocParseError, LocalErrorCode } from "../errors.js";
import { processIo, type CliIo } from "./cli-io.js";
import { chunkCommand } from "./commands/chunk.js";
import { demoCommand } from "./commands/demo.js";
import { ingestCommand } from "./commands/ingest.js";
import { parseCommand } from "./commands/parse.js";
import { queryCommand } from "./commands/query.js";
import { serveCommand } from "./commands/serve.js";
import { viewCommand } from "./commands/view.js";
import { workerCommand } from "./commands/worker.js";
import { EXIT } from "./exit-codes.js";

// src/cli/program.ts and dist/cli/program.js are both two levels below package.json.
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** The `docparse-rag` command tree, writing to `io`. */
export function createProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command("docparse-rag")
    .description("Parse documents, chunk them with their hierarchy, index them, and answer with citations.")
    .version(packageVersion())
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });
  serveCommand(program, io, setExit);
  parseCommand(program, io, setExit);
  chunkCommand(program, io, setExit);
  ingestCommand(program, io, setExit);
  queryCommand(program, io, setExit);
  viewCommand(program, io, setExit);
  workerCommand(program, io, setExit);
  demoCommand(program, io, setExit);
  for (const command of program.commands) command.exitOverride().showHelpAfterError("(run with --help for usage)");
  return program;
}

/**
 * The one line an error is reported with: `docparse-rag: <message> (<code>)`, the code
 * once — service errors already carry it (`CORRUPT_FILE (40422): …`).
 */
export function errorLine(error: DocParseError): string {
  const code = String(error.code);
  return error.message.includes(`(${code})`) ? `docparse-rag: ${error.message}` : `docparse-rag: ${error.message} (${code})`;
}

/**
 * Runs the CLI on `argv` (without the node and script entries) and returns the exit
 * code: 0 ok, 1 something failed (a document, the parse, the store), 2 bad usage,
 * 130 interrupted. Never calls `process.exit` itself (except on a second Ctrl-C).
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let code: number = EXIT.ok;
  const program = createProgram(io, (c) => (code = c));
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end in a CommanderError with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (DocParseError.isInstance(error)) {
      io.stderr.write(`${errorLine(error)}\n`);
      return error.code === LocalErrorCode.InvalidOption ? EXIT.usage : EXIT.failed;
    }
    io.stderr.write(`docparse-rag: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}
