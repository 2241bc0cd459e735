import { tmpdir } from "node:os";
import { invalidOption } from "../errors.js";
import type { Parser } from "../parser.js";
import type { FaultOptions } from "./faults.js";

/** Receives the server's log lines. Never given credentials or request bodies. */
export interface ServerLogger {
  info?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
  error?(message: string, meta?: Record<string, unknown>): void;
}

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one (read it from the returned `port`). @default 0 */
  port?: number;
  /** Interface to bind. Keep the loopback default unless the service must be reachable from elsewhere. @default "127.0.0.1" */
  host?: string;
  /**
   * The `x-ti-app-id` clients must send. When neither `appId` nor `secretCode` is set
   * (here or in env), the service accepts requests without credentials.
   * @default process.env.DOCPARSE_APP_ID
   */
  appId?: string;
  /** The `x-ti-secret-code` clients must send. @default process.env.DOCPARSE_SECRET_CODE */
  secretCode?: string;
  /** Product path segments served. @default ["docparse", "xparse"] */
  products?: string[];
  /** The engine. @default a `LocalParser` whose asset URLs point at this server */
  parser?: Parser;
  /** Largest upload or fetched `file_url` body, in bytes; more is code 40302. @default 524288000 (500 MiB) */
  maxUploadBytes?: number;
  /** Parses running at once (sync and async share them). @default 2 */
  concurrency?: number;
  /** Parses waiting for a free slot; one more is refused with code 40306. @default 64 */
  maxQueued?: number;
  /** How long finished jobs and their results are kept, in ms. @default 3600000 (1 h) */
  resultTtlMs?: number;
  /** Secret for the `x-docparse-signature` HMAC header on webhook calls. @default process.env.DOCPARSE_WEBHOOK_SECRET (unsigned when unset) */
  webhookSecret?: string;
  /** Deliveries of one webhook before giving up (first try included). @default 5 */
  webhookAttempts?: number;
  /** First webhook retry delay in ms; doubles per retry with jitter. @default 1000 */
  webhookBackoffMs?: number;
  /** Time limit of one webhook delivery, in ms. @default 10000 */
  webhookTimeoutMs?: number;
  /** Hosts that `file_url` and `webhook` may reach even on private addresses (tests use ["127.0.0.1"]). @default [] */
  allowedHosts?: string[];
  /** Allow every private address for `file_url` and `webhook` (trusted networks only). @default false */
  allowPrivate?: boolean;
  /** Time limit of fetching a `file_url`, in ms. @default 60000 */
  fetchTimeoutMs?: number;
  /** Time a client has to send its request headers, in ms (slow peers are cut off). @default 30000 */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, upload included, in ms. @default 600000 */
  requestTimeoutMs?: number;
  /** Base URL put in `result_url` and asset URLs, when the service is behind a proxy. @default the URL it listens on */
  publicUrl?: string;
  /** Where uploads are spooled while they wait for a parse. @default os.tmpdir() */
  tempDir?: string;
  /**
   * Directory of the default LocalParser's asset store (stored sources, page images).
   * Ignored when `parser` is given.
   * @default the engine's default (`${os.tmpdir()}/docparse-rag-assets`)
   */
  assetDirectory?: string;
  /** TEST ONLY: injected failures, latency and dropped connections (see {@link FaultOptions}). @default none */
  faults?: FaultOptions;
  /** Log sink. @default silent */
  logger?: ServerLogger;
  /** Where `DOCPARSE_*` defaults are read from. @default process.env */
  env?: Record<string, string | undefined>;
}

export interface ResolvedServerOptions {
  port: number;
  host: string;
  appId?: string;
  secretCode?: string;
  products: string[];
  parser?: Parser;
  maxUploadBytes: number;
  concurrency: number;
  maxQueued: number;
  resultTtlMs: number;
  webhookSecret?: string;
  webhookAttempts: number;
  webhookBackoffMs: number;
  webhookTimeoutMs: number;
  allowedHosts: string[];
  allowPrivate: boolean;
  fetchTimeoutMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  publicUrl?: string;
  tempDir: string;
  assetDirectory?: string;
  faults?: FaultOptions;
  logger: ServerLogger;
}

/** The documented defaults; a test pins them. */
export const SERVER_DEFAULTS = Object.freeze({
  port: 0,
  host: "127.0.0.1",
  products: Object.freeze(["docparse", "xparse"]) as readonly string[],
  maxUploadBytes: 500 * 1024 * 1024,
  concurrency: 2,
  maxQueued: 64,
  resultTtlMs: 3_600_000,
  webhookAttempts: 5,
  webhookBackoffMs: 1_000,
  webhookTimeoutMs: 10_000,
  fetchTimeoutMs: 60_000,
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 600_000,
});

function int(name: string, value: number, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw invalidOption(`Expected \`${name}\` to be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function text(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

export function resolveServerOptions(options: ServerOptions = {}): ResolvedServerOptions {
  const env = options.env ?? process.env;
  const d = SERVER_DEFAULTS;
  const products = options.products ?? [...d.products];
  if (!Array.isArray(products) || products.length === 0 || products.some((p) => typeof p !== "string" || !/^[A-Za-z0-9_-]+$/.test(p))) {
    throw invalidOption(`Expected \`products\` to be a non-empty array of path segments like "docparse", got ${JSON.stringify(products)}`);
  }
  const port = int("port", options.port ?? d.port, 0);
  if (port > 65535) throw invalidOption(`Expected \`port\` to be <= 65535, got ${port}`);
  if (options.publicUrl !== undefined) {
    try {
      new URL(options.publicUrl);
    } catch {
      throw invalidOption(`Expected \`publicUrl\` to be an absolute URL, got ${JSON.stringify(options.publicUrl)}`);
    }
  }
  const out: ResolvedServerOptions = {
    port,
    host: text(options.host) ?? d.host,
    products,
    maxUploadBytes: int("maxUploadBytes", options.maxUploadBytes ?? d.maxUploadBytes, 1),
    concurrency: int("concurrency", options.concurrency ?? d.concurrency, 1),
    maxQueued: int("maxQueued", options.maxQueued ?? d.maxQueued, 0),
    resultTtlMs: int("resultTtlMs", options.resultTtlMs ?? d.resultTtlMs, 1),
    webhookAttempts: int("webhookAttempts", options.webhookAttempts ?? d.webhookAttempts, 1),
    webhookBackoffMs: int("webhookBackoffMs", options.webhookBackoffMs ?? d.webhookBackoffMs, 0),
    webhookTimeoutMs: int("webhookTimeoutMs", options.webhookTimeoutMs ?? d.webhookTimeoutMs, 1),
    allowedHosts: options.allowedHosts ?? [],
    allowPrivate: options.allowPrivate ?? false,
    fetchTimeoutMs: int("fetchTimeoutMs", options.fetchTimeoutMs ?? d.fetchTimeoutMs, 1),
    headersTimeoutMs: int("headersTimeoutMs", options.headersTimeoutMs ?? d.headersTimeoutMs, 1),
    requestTimeoutMs: int("requestTimeoutMs", options.requestTimeoutMs ?? d.requestTimeoutMs, 1),
    tempDir: options.tempDir ?? tmpdir(),
    logger: options.logger ?? {},
  };
  const appId = text(options.appId) ?? text(env.DOCPARSE_APP_ID);
  const secretCode = text(options.secretCode) ?? text(env.DOCPARSE_SECRET_CODE);
  if ((appId === undefined) !== (secretCode === undefined)) {
    throw invalidOption("Set both `appId` and `secretCode` (or neither, to accept requests without credentials)");
  }
  if (appId !== undefined) out.appId = appId;
  if (secretCode !== undefined) out.secretCode = secretCode;
  const webhookSecret = text(options.webhookSecret) ?? text(env.DOCPARSE_WEBHOOK_SECRET);
  if (webhookSecret !== undefined) out.webhookSecret = webhookSecret;
  if (options.parser) out.parser = options.parser;
  if (options.publicUrl) out.publicUrl = options.publicUrl.replace(/\/+$/, "");
  if (options.faults) out.faults = options.faults;
  if (options.assetDirectory) out.assetDirectory = options.assetDirectory;
  return out;
}
