import { startServer, type RunningServer } from "./server.js";
import type { ServerOptions } from "./options.js";

/** Options of {@link runServe}: the server's, plus how the command behaves. */
export interface ServeOptions extends ServerOptions {
  /** Where the listening line goes. @default console.log */
  print?: (line: string) => void;
  /** Close cleanly on SIGTERM and SIGINT. @default true */
  handleSignals?: boolean;
}

/** A served instance plus a promise that settles when it has shut down. */
export interface ServeHandle extends RunningServer {
  /** Resolves after a signal (or `close()`) has shut the service down. */
  readonly closed: Promise<void>;
}

/**
 * `docparse-rag serve`: starts the service, prints `docparse-rag serve listening on
 * <url>`, and shuts down cleanly (in-flight requests get a grace period) on SIGTERM or
 * SIGINT. The CLI wires its flags (`--port`, `--host`, `--app-id`, ...) into `options`.
 */
export async function runServe(options: ServeOptions = {}): Promise<ServeHandle> {
  const { print = (line: string) => console.log(line), handleSignals = true, ...serverOptions } = options;
  const running = await startServer(serverOptions);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const onSignal = (signal: NodeJS.Signals) => {
    print(`docparse-rag serve: ${signal}, shutting down`);
    void close();
  };
  const close = async (graceMs?: number) => {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    await running.close(graceMs);
    resolveClosed();
  };
  if (handleSignals) {
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  }
  print(`docparse-rag serve listening on ${running.url}`);
  return { url: running.url, port: running.port, server: running.server, close, closed };
}
