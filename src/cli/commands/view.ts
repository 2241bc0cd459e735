import type { Command } from "commander";
import { defaultEmbeddings } from "../../ingest/defaults.js";
import { openExistingStore } from "../read-store.js";
import type { CliIo } from "../cli-io.js";
import { CLI_DEFAULTS, storeUrl } from "../defaults.js";
import { EXIT } from "../exit-codes.js";
import { intOption } from "./options.js";

/** `docparse-rag view`: the citation viewer on localhost until Ctrl-C. */
export function viewCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("view")
    .description("open the citation viewer: search the store and see each quote highlighted on its page")
    .option("--store <url>", "the store to search (default $DOCPARSE_STORE or pglite://./.docparse)")
    .option("--port <n>", `port (default ${CLI_DEFAULTS.viewPort}; 0 picks a free one)`, intOption(0))
    .option("--host <host>", `address to bind (default ${CLI_DEFAULTS.host})`)
    .action(async (opts: { store?: string; port?: number; host?: string }) => {
      const store = await openExistingStore(storeUrl(opts.store, io));
      const { startViewer } = await import("../../viewer/index.js");
      const viewer = await startViewer({
        store,
        embeddings: await defaultEmbeddings(),
        port: opts.port ?? CLI_DEFAULTS.viewPort,
        host: opts.host ?? CLI_DEFAULTS.host,
      });
      io.stdout.write(`viewer at ${viewer.url} (Ctrl-C to stop)\n`);
      await untilInterrupted(io);
      await viewer.close();
      await store.close();
      setExit(EXIT.ok);
    });
}

/** Resolves on the first SIGINT/SIGTERM. */
export function untilInterrupted(io: CliIo): Promise<void> {
  return new Promise((resolve) => {
    const off = io.onInterrupt(() => {
      off();
      resolve();
    });
  });
}
