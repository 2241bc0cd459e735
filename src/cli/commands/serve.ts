import type { Command } from "commander";
import type { CliIo } from "../cli-io.js";
import { CLI_DEFAULTS } from "../defaults.js";
import { EXIT } from "../exit-codes.js";
import { intOption } from "./options.js";

interface ServeCliOptions {
  port?: number;
  host?: string;
  appId?: string;
  secretCode?: string;
  concurrency?: number;
  allowHost?: string[];
}

/** `docparse-rag serve`: the local parse service speaking the wire contract, until Ctrl-C. */
export function serveCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("serve")
    .description("run the local parse service (the hosted API's contract, on this machine)")
    .option("--port <n>", `port (default ${CLI_DEFAULTS.servePort}; 0 picks a free one)`, intOption(0))
    .option("--host <host>", `address to bind (default ${CLI_DEFAULTS.host})`)
    .option("--app-id <id>", "x-ti-app-id clients must send (default $DOCPARSE_APP_ID; none = no auth)")
    .option("--secret-code <code>", "x-ti-secret-code clients must send (default $DOCPARSE_SECRET_CODE)")
    .option("-c, --concurrency <n>", "parses at once (default 2)", intOption(1))
    .option("--allow-host <hosts...>", "private hosts file_url and webhooks may reach")
    .action(async (opts: ServeCliOptions) => {
      const { runServe } = await import("../../server/index.js");
      const handle = await runServe({
        port: opts.port ?? CLI_DEFAULTS.servePort,
        host: opts.host ?? CLI_DEFAULTS.host,
        env: io.env,
        print: (line) => io.stdout.write(`${line}\n`),
        handleSignals: false,
        ...(opts.appId ? { appId: opts.appId } : {}),
        ...(opts.secretCode ? { secretCode: opts.secretCode } : {}),
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.allowHost ? { allowedHosts: opts.allowHost } : {}),
      });
      const off = io.onInterrupt(() => {
        off();
        io.stdout.write("docparse-rag serve: shutting down\n");
        void handle.close();
      });
      await handle.closed;
      setExit(EXIT.ok);
    });
}
