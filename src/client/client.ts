import type { Dispatcher } from "undici";
import { DocParseError, LocalErrorCode, invalidOption } from "../errors.js";
import { isHostAllowed } from "../net/address-guard.js";
import type { ParsedDocument, ParseInput, ParseOptions, Parser } from "../parser.js";
import {
  AUTH_HEADERS,
  AsyncCreateDataSchema,
  JobStatusSchema,
  ParseConfigSchema,
  ParseResultSchema,
  formatIssues,
  paths,
  type AsyncCreateData,
  type JobStatus,
  type ParseConfig,
} from "../wire/index.js";
import { resolveInput, type Upload } from "./input.js";
import { interpretResultBody, jobFailedError, pollJob, type WaitForJobOptions } from "./jobs.js";
import { multipartBody } from "./multipart.js";
import { resolveClientOptions, type DocParseClientOptions, type ResolvedClientOptions } from "./options.js";
import { RateLimiter } from "./rate-limiter.js";
import {
  interpretEnvelope,
  makeRedactor,
  readBounded,
  responseContext,
  validateData,
  type Redactor,
  type ResponseContext,
} from "./response.js";
import { withRetry } from "../retry.js";
import { attempt } from "./transport.js";

/** Options of {@link DocParseClient.createJob}. */
export interface CreateJobOptions extends ParseOptions {
  /** URL the service POSTs `{job_id, status, result_url}` to when the job completes or fails. */
  webhook?: string;
}

/** Options of {@link DocParseClient.parseAsync}. */
export type ParseAsyncOptions = CreateJobOptions & Omit<WaitForJobOptions, "signal">;

/** Options of calls that take only a signal. */
export interface CallOptions {
  signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_RESULT_REDIRECTS = 5;

interface ServiceCall<T> {
  method: "GET" | "POST";
  url: URL;
  label: string;
  upload?: { fields: [string, string][]; file?: Upload };
  signal?: AbortSignal | undefined;
  /** Whether this failure may be retried (beyond `isRetryable`). */
  retryIf?: (error: unknown) => boolean;
  /** Send the credentials (only to the service's own host or allow-listed ones). @default true */
  credentials?: boolean;
  /** Turns the body into the result; `location` is set for a redirect (no body then). */
  handle: (text: string, ctx: ResponseContext, location?: string) => T;
}

/**
 * A typed client for the parse API (TextIn xParse, or `docparse-rag serve`).
 *
 * - Checks `code` in every body whatever the HTTP status, validates `data` with the wire
 *   schemas, and throws {@link DocParseError}s carrying `code`, `isRetryable`,
 *   `requestId`, `httpStatus` and `location`.
 * - Retries the retryable set with exponential backoff and full jitter, honouring
 *   `Retry-After`; keeps under `requestsPerSecond` and `concurrency`.
 * - Streams uploads; sends credentials only to `baseUrl`'s host and `allowedHosts`.
 *
 * @example
 * ```ts
 * const client = new DocParseClient({ baseUrl: "http://127.0.0.1:8080", appId, secretCode });
 * const result = await client.parse("report.pdf", { config: { capabilities: { pages: true } } });
 * ```
 */
export class DocParseClient implements Parser {
  /** `remote:<host>` of `baseUrl`. */
  readonly name: string;
  /** The resolved options, without the credentials (kept private). */
  readonly options: Readonly<Omit<ResolvedClientOptions, "appId" | "secretCode">>;
  readonly #appId: string | undefined;
  readonly #secretCode: string | undefined;
  readonly #limiter: RateLimiter;
  readonly #redact: Redactor;

  constructor(options: DocParseClientOptions = {}) {
    const { appId, secretCode, ...rest } = resolveClientOptions(options);
    this.options = Object.freeze(rest);
    this.#appId = appId;
    this.#secretCode = secretCode;
    this.name = `remote:${rest.baseUrl.host}`;
    this.#limiter = new RateLimiter(rest);
    this.#redact = makeRedactor([appId, secretCode]);
  }

  /** Parses a document synchronously (`POST .../parse/sync`). A 50207 result comes back with `partial: true`. */
  async parse(input: ParseInput, options: ParseOptions = {}): Promise<ParsedDocument> {
    const config = checkConfig(options.config);
    const file = await resolveInput(input, options.filename);
    return this.#call({
      method: "POST",
      url: this.#url(paths.sync(this.options.product)),
      label: "parse",
      upload: { fields: formFields(config, file), file },
      signal: options.signal,
      handle: (text, ctx) => {
        const env = interpretEnvelope(text, ctx, this.#redact, { partialOk: true });
        const data = validateData(ParseResultSchema, env.data, ctx, "parse result");
        return env.code === 50207 ? { ...data, partial: true } : data;
      },
    });
  }

  /**
   * Creates an async job (`POST .../parse/async`). There is no idempotency key, so the
   * creation is retried only when the service surely did not take it (40306, HTTP 429/503,
   * connection refused): persist the returned `job_id` and resume with {@link waitForJob}.
   */
  async createJob(input: ParseInput, options: CreateJobOptions = {}): Promise<AsyncCreateData> {
    const config = checkConfig(options.config);
    if (options.webhook !== undefined) checkHttpUrl("webhook", options.webhook);
    const file = await resolveInput(input, options.filename);
    const fields = formFields(config, file);
    if (options.webhook !== undefined) fields.push(["webhook", options.webhook]);
    return this.#call({
      method: "POST",
      url: this.#url(paths.async(this.options.product)),
      label: "createJob",
      upload: { fields, file },
      signal: options.signal,
      retryIf: notTakenByService,
      handle: (text, ctx) => validateData(AsyncCreateDataSchema, interpretEnvelope(text, ctx, this.#redact).data, ctx, "job creation answer"),
    });
  }

  /** The status of a job (`GET .../parse/async/{job_id}`). */
  async getJob(jobId: string, options: CallOptions = {}): Promise<JobStatus> {
    if (typeof jobId !== "string" || jobId.trim() === "") throw invalidOption(`Expected a job id, got ${JSON.stringify(jobId)}`);
    return this.#call({
      method: "GET",
      url: this.#url(paths.job(this.options.product, jobId)),
      label: "getJob",
      signal: options.signal,
      handle: (text, ctx) => validateData(JobStatusSchema, interpretEnvelope(text, ctx, this.#redact).data, ctx, "job status"),
    });
  }

  /** Polls until the job is completed (resolves with its status) or failed (rejects, DOCPARSE_JOB_FAILED). */
  async waitForJob(jobId: string, options: WaitForJobOptions = {}): Promise<JobStatus> {
    return pollJob((signal) => this.getJob(jobId, { signal: signal! }), jobId, {
      ...options,
      pollMs: options.pollMs ?? this.options.pollMs,
      timeoutMs: options.timeoutMs ?? this.options.waitTimeoutMs,
    });
  }

  /**
   * Downloads a completed job's result from its `result_url` (a status, or a job id to
   * look up). The URL may be on another host: credentials go only to `baseUrl`'s host
   * and `allowedHosts`, on redirects too. The body may be the bare `data` or the envelope.
   */
  async fetchResult(job: JobStatus | string, options: CallOptions = {}): Promise<ParsedDocument> {
    const status = typeof job === "string" ? await this.getJob(job, options) : job;
    if (status.status === "failed") throw jobFailedError(status);
    if (status.status !== "completed") {
      throw new DocParseError(LocalErrorCode.InvalidOption, `Job ${status.job_id} is ${status.status}, not completed; call waitForJob first`);
    }
    if (!status.result_url) {
      throw new DocParseError(LocalErrorCode.InvalidResponse, `Job ${status.job_id} is completed but has no result_url`, { location: status });
    }
    let url: URL;
    try {
      url = new URL(status.result_url, this.options.baseUrl);
    } catch (cause) {
      throw new DocParseError(LocalErrorCode.InvalidResponse, `Job ${status.job_id} has an invalid result_url`, { cause });
    }
    return this.#fetchResultUrl(url, options.signal);
  }

  /** Creates a job, waits for it and fetches its result. */
  async parseAsync(input: ParseInput, options: ParseAsyncOptions = {}): Promise<ParsedDocument> {
    const { job_id } = await this.createJob(input, options);
    const status = await this.waitForJob(job_id, options);
    return this.fetchResult(status, options.signal ? { signal: options.signal } : {});
  }

  async #fetchResultUrl(start: URL, signal: AbortSignal | undefined): Promise<ParsedDocument> {
    let url = start;
    for (let hop = 0; ; hop++) {
      const credentialed = this.#mayReceiveCredentials(url);
      const outcome = await this.#call<{ redirect: URL } | { result: ParsedDocument }>({
        method: "GET",
        url,
        label: "fetchResult",
        signal,
        credentials: credentialed,
        handle: (text, ctx, location) => {
          if (location !== undefined) return { redirect: new URL(location, url) };
          return { result: interpretResultBody(text, ctx, this.#redact) };
        },
      });
      if ("result" in outcome) return outcome.result;
      if (hop >= MAX_RESULT_REDIRECTS) throw new DocParseError(LocalErrorCode.Http, `Too many redirects fetching the result from ${start.host}`);
      url = outcome.redirect;
    }
  }

  /** Credentials go to `baseUrl`'s origin and to allow-listed hosts (never over plain http when baseUrl is https). */
  #mayReceiveCredentials(url: URL): boolean {
    const base = this.options.baseUrl;
    if (url.protocol === base.protocol && url.host === base.host) return true;
    if (base.protocol === "https:" && url.protocol !== "https:") return false;
    return isHostAllowed({ allowedHosts: this.options.allowedHosts }, url.hostname, url.port || (url.protocol === "https:" ? "443" : "80"));
  }

  #url(path: string): URL {
    const base = this.options.baseUrl;
    // Keep a path prefix of baseUrl (a gateway mount point) in front of the API path.
    const prefix = base.pathname.replace(/\/+$/, "");
    return new URL(`${prefix}${path}`, base.origin);
  }

  #headers(credentials: boolean): Record<string, string> {
    const h: Record<string, string> = { accept: "application/json" };
    if (credentials) {
      if (this.#appId !== undefined) h[AUTH_HEADERS.appId] = this.#appId;
      if (this.#secretCode !== undefined) h[AUTH_HEADERS.secretCode] = this.#secretCode;
    }
    return h;
  }

  async #call<T>(call: ServiceCall<T>): Promise<T> {
    const { options } = this;
    const credentials = call.credentials ?? true;
    const file = call.upload?.file?.kind === "file" ? call.upload.file : undefined;
    const run = async (n: number): Promise<T> => {
      const headers = this.#headers(credentials);
      let body: AsyncIterable<Uint8Array> | Uint8Array | undefined;
      if (call.upload) {
        const mp = multipartBody(call.upload.fields, file);
        headers["content-type"] = mp.contentType;
        if (mp.contentLength !== undefined) headers["content-length"] = String(mp.contentLength);
        body = mp.body;
      }
      options.logger.debug?.(`docparse ${call.label} attempt ${n + 1}`, { host: call.url.host });
      const send = () =>
        attempt({ method: call.method, url: call.url, headers, ...(body ? { body } : {}), timeoutMs: options.timeoutMs, ...(call.signal ? { signal: call.signal } : {}), ...dispatcherOf(options.dispatcher) }, async (res) => {
          const ctx = responseContext(res);
          const location = res.headers.location;
          if (REDIRECTS.has(res.statusCode) && typeof location === "string") {
            await res.body.dump();
            return call.handle("", ctx, location);
          }
          const text = await readBounded(res.body, options.maxResponseBytes, ctx);
          return call.handle(text, ctx);
        });
      // Only calls to the service count against its QPS limit.
      return credentials ? this.#limiter.run(send, call.signal) : send();
    };
    return withRetry(run, { maxRetries: options.maxRetries, baseMs: options.retryBaseMs, maxMs: options.retryMaxMs }, {
      ...(call.signal ? { signal: call.signal } : {}),
      shouldRetry: (error) => {
        if (file && !file.replayable) return false;
        if (!DocParseError.isInstance(error) || !error.isRetryable) return false;
        return call.retryIf ? call.retryIf(error) : true;
      },
      onRetry: (error, n, delayMs) => {
        const code = DocParseError.isInstance(error) ? error.code : undefined;
        options.logger.warn?.(`docparse ${call.label} failed (${String(code)}), retry ${n + 1}/${options.maxRetries} in ${delayMs} ms`, {
          host: call.url.host,
          code,
        });
      },
    });
  }
}

function dispatcherOf(dispatcher: Dispatcher | undefined): { dispatcher?: Dispatcher } {
  return dispatcher ? { dispatcher } : {};
}

function checkConfig(config: ParseConfig | undefined): ParseConfig | undefined {
  if (config === undefined) return undefined;
  const parsed = ParseConfigSchema.safeParse(config);
  if (!parsed.success) throw invalidOption(`Invalid \`config\`:\n${formatIssues(parsed.error)}`, parsed.error.issues);
  return parsed.data;
}

function checkHttpUrl(name: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption(`Expected \`${name}\` to be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidOption(`Expected \`${name}\` to use http or https, got ${url.protocol}`);
}

function formFields(config: ParseConfig | undefined, upload: Upload): [string, string][] {
  const fields: [string, string][] = [];
  if (upload.kind === "url") fields.push(["file_url", upload.url]);
  if (config !== undefined) fields.push(["config", JSON.stringify(config)]);
  return fields;
}

/** Failures after which the service surely did not create the job, so resubmitting cannot duplicate it. */
function notTakenByService(error: unknown): boolean {
  if (!DocParseError.isInstance(error)) return false;
  if (error.code === 40306) return true;
  if (error.code === LocalErrorCode.Http) return error.httpStatus === 429 || error.httpStatus === 503;
  if (error.code === LocalErrorCode.Network) {
    const code = (error.cause as { code?: string } | undefined)?.code;
    return code === "ECONNREFUSED";
  }
  return false;
}
