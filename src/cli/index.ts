/** The `docparse-rag` command, for embedding or testing: `runCli(argv, io)` returns the exit code. */
export { runCli, createProgram } from "./program.js";
export { EXIT, type ExitCode } from "./exit-codes.js";
export { CLI_DEFAULTS } from "./defaults.js";
export type { CliIo } from "./cli-io.js";
export { DEMO_QUESTIONS } from "./commands/demo.js";
