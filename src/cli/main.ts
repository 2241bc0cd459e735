#!/usr/bin/env node
/**
 * The `docparse-rag` command. Exit codes: 0 ok, 1 something failed, 2 bad usage,
 * 130 interrupted (see src/cli/exit-codes.ts and docs/cli.md).
 */
import { runCli } from "./program.js";

const code = await runCli(process.argv.slice(2));
// Let stdout drain, then leave even if a library keeps a handle open (pools, timers).
process.exitCode = code;
process.stdout.write("", () => process.exit(code));
