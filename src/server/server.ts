import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Parser } from "../parser.js";
import { ServiceContext } from "./context.js";
import { FaultInjector } from "./faults.js";
import { JobStore } from "./job-store.js";
import { resolveServerOptions, type ServerOptions } from "./options.js";
import { createRouter } from "./router.js";
import { WorkQueue } from "./work-queue.js";

/** A running local parse service. */
export interface RunningServer {
  /** Base URL to give a client as `baseUrl`, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** The node:http server (for tests that need connection-level control). */
  readonly server: Server;
  /**
   * Stops accepting connections, aborts running parses and webhook retries, waits for
   * in-flight requests up to `graceMs`, then closes every connection. Idempotent.
   */
  close(graceMs?: number): Promise<void>;
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return host === "::" ? "[::1]" : "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts the local parse service: the wire contract (`/api/v1/{product}/parse/sync`,
 * `/async`, job status, results, assets) over node:http, in front of a `Parser`
 * (`LocalParser` unless another is given).
 *
 * @example
 * ```ts
 * const service = await startServer({ appId: "id", secretCode: "secret" });
 * const client = new DocParseClient({ baseUrl: service.url, appId: "id", secretCode: "secret" });
 * // ...
 * await service.close();
 * ```
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const opts = resolveServerOptions(options);
  let parser: Promise<Parser> | undefined = opts.parser ? Promise.resolve(opts.parser) : undefined;
  const ctx: ServiceContext = new ServiceContext({
    options: opts,
    jobs: new JobStore(opts.resultTtlMs),
    queue: new WorkQueue(opts),
    faults: opts.faults ? new FaultInjector(opts.faults) : undefined,
    // The engine (and what it imports) loads on the first parse, keeping start-up light.
    parser: (): Promise<Parser> =>
      (parser ??= Promise.all([import("../engine/local-parser.js"), import("../engine/disk-asset-store.js")]).then(
        ([{ LocalParser }, { DiskAssetStore }]) =>
          new LocalParser({
            assetBaseUrl: `${ctx.publicUrl}/api/v1/${opts.products[0]}/assets`,
            ...(opts.assetDirectory ? { assets: new DiskAssetStore({ directory: opts.assetDirectory }) } : {}),
          }),
      )),
  });
  const server = createServer(
    {
      // Slow peers are cut off: headers within headersTimeoutMs, the whole request within requestTimeoutMs.
      // Node requires headersTimeout <= requestTimeout; a shorter request limit wins.
      headersTimeout: Math.min(opts.headersTimeoutMs, opts.requestTimeoutMs),
      requestTimeout: opts.requestTimeoutMs,
      keepAliveTimeout: 5_000,
      // Node checks those limits on this interval (30 s by default, too coarse for short limits).
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(Math.min(opts.headersTimeoutMs, opts.requestTimeoutMs) / 4))),
    },
    createRouter(ctx),
  );
  // No socket inactivity timeout: a long sync parse leaves the socket quiet on purpose.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    const status = err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "408 Request Timeout" : "400 Bad Request";
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\n\r\n`);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(opts.host)}:${port}`;
  ctx.publicUrl = opts.publicUrl ?? url;
  opts.logger.info?.(`docparse-rag service listening on ${url}`);

  let closing: Promise<void> | undefined;
  const close = (graceMs = 2_000) =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      ctx.closing.abort();
      ctx.queue.close();
      const grace = new Promise<void>((r) => setTimeout(r, graceMs).unref());
      await Promise.race([Promise.allSettled([ctx.queue.onIdle(), ...ctx.deliveries, ...ctx.handlers]), grace]);
      server.closeAllConnections();
      await stopped;
      // Handlers cut off above still delete their uploads: wait for that cleanup briefly.
      await Promise.race([Promise.allSettled([...ctx.handlers]), new Promise<void>((r) => setTimeout(r, 500).unref())]);
      ctx.jobs.close();
    })());
  return { url, port, server, close };
}
