import type { CliIo } from "./cli-io.js";

/** The CLI's defaults, pinned by a test and listed in docs/cli.md. */
export const CLI_DEFAULTS = {
  /** The embedded store, in the working directory. */
  store: "pglite://./.docparse",
  /** Passages `query` prints. */
  k: 5,
  /** The viewer's and the server's address. */
  host: "127.0.0.1",
  viewPort: 8765,
  servePort: 8080,
} as const;

/** `--store`, else `DOCPARSE_STORE`, else the embedded default. */
export function storeUrl(given: string | undefined, io: CliIo): string {
  return given ?? io.env.DOCPARSE_STORE ?? CLI_DEFAULTS.store;
}

/** Writes one JSON line. */
export function jsonLine(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}
