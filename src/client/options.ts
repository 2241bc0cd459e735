import type { Dispatcher } from "undici";
import { invalidOption } from "../errors.js";

/** Something that takes log lines. Messages never contain credentials. */
export interface ClientLogger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
}

/**
 * Options of {@link DocParseClient}. Every member is optional when the matching
 * `DOCPARSE_*` environment variable is set.
 */
export interface DocParseClientOptions {
  /**
   * The service's base address, e.g. `https://api.textin.com` or the URL printed by
   * `docparse-rag serve`. Required here or in env.
   * @default process.env.DOCPARSE_BASE_URL
   */
  baseUrl?: string;
  /** Sent as `x-ti-app-id`. @default process.env.DOCPARSE_APP_ID */
  appId?: string;
  /** Sent as `x-ti-secret-code`. Never logged, never put in an error message. @default process.env.DOCPARSE_SECRET_CODE */
  secretCode?: string;
  /** The product segment of the path: `docparse`, or `xparse` for TextIn xParse. @default process.env.DOCPARSE_PRODUCT ?? "docparse" */
  product?: string;
  /** Time limit of one HTTP request (one attempt), in ms. @default 120000 */
  timeoutMs?: number;
  /** Retries after the first attempt, for retryable failures only. @default 3 */
  maxRetries?: number;
  /** First backoff step, in ms; doubles per retry, with full jitter. @default 500 */
  retryBaseMs?: number;
  /** Largest backoff, in ms (a longer `Retry-After` is still honoured). @default 30000 */
  retryMaxMs?: number;
  /** Requests per second sent to the service (sliding window); `Infinity` turns it off. @default 2 */
  requestsPerSecond?: number;
  /** Requests in flight at once. @default 2 */
  concurrency?: number;
  /**
   * Hosts, besides `baseUrl`'s, that may receive the credentials (e.g. a `result_url`
   * host that requires them). Entries are host names or `host:port`. Every other host is
   * called without credentials.
   * @default []
   */
  allowedHosts?: string[];
  /** Interval between job status polls in {@link DocParseClient.waitForJob}, in ms. @default 2000 */
  pollMs?: number;
  /** How long {@link DocParseClient.waitForJob} waits for a job, in ms. @default 1800000 (30 min) */
  waitTimeoutMs?: number;
  /** Largest response body read (results with base64 images can be big), in bytes. @default 536870912 (512 MiB) */
  maxResponseBytes?: number;
  /** The undici dispatcher to send requests through (a proxy agent, a mock, ...). @default undici's global dispatcher */
  dispatcher?: Dispatcher;
  /** Receives debug lines (requests, retries). @default no logging */
  logger?: ClientLogger;
  /** Where `DOCPARSE_*` defaults are read from. @default process.env */
  env?: Record<string, string | undefined>;
}

/** Options with every default applied and checked. */
export interface ResolvedClientOptions {
  baseUrl: URL;
  appId?: string;
  secretCode?: string;
  product: string;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  requestsPerSecond: number;
  concurrency: number;
  allowedHosts: string[];
  pollMs: number;
  waitTimeoutMs: number;
  maxResponseBytes: number;
  dispatcher?: Dispatcher;
  logger: ClientLogger;
}

/** The documented defaults; a test pins them against the TSDoc above. */
export const CLIENT_DEFAULTS = Object.freeze({
  product: "docparse",
  timeoutMs: 120_000,
  maxRetries: 3,
  retryBaseMs: 500,
  retryMaxMs: 30_000,
  requestsPerSecond: 2,
  concurrency: 2,
  pollMs: 2_000,
  waitTimeoutMs: 1_800_000,
  maxResponseBytes: 512 * 1024 * 1024,
});

function positive(name: string, value: number, { integer = false, allowZero = false, allowInfinity = false } = {}): number {
  const ok =
    typeof value === "number" &&
    !Number.isNaN(value) &&
    (allowInfinity || Number.isFinite(value)) &&
    (allowZero ? value >= 0 : value > 0) &&
    (!integer || !Number.isFinite(value) || Number.isInteger(value));
  if (!ok) {
    const what = `${integer ? "an integer" : "a number"} ${allowZero ? ">= 0" : "> 0"}${allowInfinity ? " (or Infinity)" : ""}`;
    throw invalidOption(`Expected \`${name}\` to be ${what}, got ${String(value)}`);
  }
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/** Applies env and defaults, and validates, with messages that name the option. */
export function resolveClientOptions(options: DocParseClientOptions = {}): ResolvedClientOptions {
  const env = options.env ?? process.env;
  const rawBase = nonEmpty(options.baseUrl) ?? nonEmpty(env.DOCPARSE_BASE_URL);
  if (!rawBase) throw invalidOption("Expected `baseUrl` (or env DOCPARSE_BASE_URL), e.g. https://api.textin.com");
  let baseUrl: URL;
  try {
    baseUrl = new URL(rawBase);
  } catch {
    throw invalidOption(`Expected \`baseUrl\` to be an absolute http(s) URL, got ${JSON.stringify(rawBase)}`);
  }
  if (baseUrl.protocol !== "http:" && baseUrl.protocol !== "https:") {
    throw invalidOption(`Expected \`baseUrl\` to use http or https, got ${baseUrl.protocol}`);
  }
  if (baseUrl.username || baseUrl.password) {
    throw invalidOption("`baseUrl` must not embed credentials; use `appId` and `secretCode`");
  }
  const product = nonEmpty(options.product) ?? nonEmpty(env.DOCPARSE_PRODUCT) ?? CLIENT_DEFAULTS.product;
  if (!/^[A-Za-z0-9_-]+$/.test(product)) {
    throw invalidOption(`Expected \`product\` to be a path segment like "docparse" or "xparse", got ${JSON.stringify(product)}`);
  }
  const allowedHosts = options.allowedHosts ?? [];
  if (!Array.isArray(allowedHosts) || allowedHosts.some((h) => typeof h !== "string" || h.trim() === "")) {
    throw invalidOption("Expected `allowedHosts` to be an array of host names");
  }
  const resolved: ResolvedClientOptions = {
    baseUrl,
    product,
    timeoutMs: positive("timeoutMs", options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs),
    maxRetries: positive("maxRetries", options.maxRetries ?? CLIENT_DEFAULTS.maxRetries, { integer: true, allowZero: true }),
    retryBaseMs: positive("retryBaseMs", options.retryBaseMs ?? CLIENT_DEFAULTS.retryBaseMs, { allowZero: true }),
    retryMaxMs: positive("retryMaxMs", options.retryMaxMs ?? CLIENT_DEFAULTS.retryMaxMs, { allowZero: true }),
    requestsPerSecond: positive("requestsPerSecond", options.requestsPerSecond ?? CLIENT_DEFAULTS.requestsPerSecond, { allowInfinity: true }),
    concurrency: positive("concurrency", options.concurrency ?? CLIENT_DEFAULTS.concurrency, { integer: true, allowInfinity: true }),
    allowedHosts: allowedHosts.map((h) => h.trim().toLowerCase()),
    pollMs: positive("pollMs", options.pollMs ?? CLIENT_DEFAULTS.pollMs),
    waitTimeoutMs: positive("waitTimeoutMs", options.waitTimeoutMs ?? CLIENT_DEFAULTS.waitTimeoutMs),
    maxResponseBytes: positive("maxResponseBytes", options.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes, { integer: true }),
    logger: options.logger ?? {},
  };
  const appId = nonEmpty(options.appId) ?? nonEmpty(env.DOCPARSE_APP_ID);
  const secretCode = nonEmpty(options.secretCode) ?? nonEmpty(env.DOCPARSE_SECRET_CODE);
  if (appId !== undefined) resolved.appId = appId;
  if (secretCode !== undefined) resolved.secretCode = secretCode;
  if (options.dispatcher) resolved.dispatcher = options.dispatcher;
  return resolved;
}
