import type { CliIo } from "../../src/cli/index.js";

/** A CliIo that records output, for running the CLI in process. */
export function bufferIo(options: { env?: NodeJS.ProcessEnv; cwd?: string; tty?: boolean } = {}): CliIo & { out: () => string; err: () => string; interrupt: () => void } {
  let out = "";
  let err = "";
  const listeners = new Set<() => void>();
  return {
    stdout: { write: (s: string) => (out += s), isTTY: options.tty ?? false },
    stderr: { write: (s: string) => (err += s), isTTY: options.tty ?? false },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    onInterrupt(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    out: () => out,
    err: () => err,
    interrupt: () => {
      for (const l of [...listeners]) l();
    },
  };
}
