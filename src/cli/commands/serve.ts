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
      const host = opts.host ?? CLI_DEFAULTS.host;
      const handle = await runServe({
        port: opts.port ?? CLI_DEFAULTS.servePort,
        host,
        env: io.env,
        // runServe names a wildcard bind by its loopback URL; the CLI prints what it bound.
        print: (line) => {
          if (!line.startsWith(LISTENING)) io.stdout.write(`${line}\n`);
        },
        handleSignals: false,
        ...(opts.appId ? { appId: opts.appId } : {}),
        ...(opts.secretCode ? { secretCode: opts.secretCode } : {}),
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.allowHost ? { allowedHosts: opts.allowHost } : {}),
      });
      io.stdout.write(`${listeningLine(host, handle.port)}\n`);
      const authless = !(text(opts.appId) ?? text(io.env.DOCPARSE_APP_ID)) && !(text(opts.secretCode) ?? text(io.env.DOCPARSE_SECRET_CODE));
      if (authless) io.stderr.write(noAuthWarning(host));
      const off = io.onInterrupt(() => {
        off();
        io.stdout.write("docparse-rag serve: shutting down\n");
        void handle.close();
      });
      await handle.closed;
      setExit(EXIT.ok);
    });
}

const LISTENING = "docparse-rag serve listening on ";

function text(value: string | undefined): string | undefined {
  return value?.trim() ? value : undefined;
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\./.test(h) || /^::ffff:127\./.test(h);
}

/** `docparse-rag serve listening on <url>` with the address actually bound (a wildcard also names its local URL). */
export function listeningLine(host: string, port: number): string {
  const h = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const url = `http://${h}:${port}`;
  if (host === "0.0.0.0" || host === "::") return `${LISTENING}${url} (all interfaces; from this machine http://${host === "::" ? "[::1]" : "127.0.0.1"}:${port})`;
  return `${LISTENING}${url}`;
}

/** The start-up warning when the service accepts requests without credentials; loud off loopback. */
export function noAuthWarning(host: string): string {
  const how = "set --app-id and --secret-code (or DOCPARSE_APP_ID and DOCPARSE_SECRET_CODE) to require them";
  if (isLoopback(host)) {
    return `warning: authentication is disabled (no credentials configured): any local process can use this service; ${how}\n`;
  }
  return [
    "",
    "!!! WARNING: AUTHENTICATION IS DISABLED and the service is bound to " + host + ".",
    "!!! Anyone who can reach this machine can parse documents with it and make it fetch URLs.",
    `!!! ${how[0]!.toUpperCase()}${how.slice(1)}, or bind to 127.0.0.1.`,
    "",
  ].join("\n") + "\n";
}
