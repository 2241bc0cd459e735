import type { Dispatcher } from "undici";
import type { z } from "zod";
import { DocParseError, LocalErrorCode, isRetryableCode } from "../errors.js";
import { ERROR_HEADER, EnvelopeSchema, REQUEST_ID_HEADER, describeCode, formatIssues } from "../wire/index.js";

/** HTTP statuses that mean "try again later" when the body carries no code. */
export const RETRYABLE_HTTP = new Set([429, 502, 503, 504]);

/** What a request learned besides the body: kept on every error. */
export interface ResponseContext {
  httpStatus: number;
  requestId?: string;
  retryAfterSeconds?: number;
  /** docparse-rag's local service: the engine code behind the answer's code (`x-docparse-error`). */
  errorName?: string;
}

/** Masks credentials wherever a server might have echoed them. */
export type Redactor = (text: string) => string;

export function makeRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  // Very short values would mask ordinary words of a message ("app" in "x-ti-app-id").
  const list = secrets.filter((s): s is string => typeof s === "string" && s.length >= 6);
  return (text) => list.reduce((t, s) => t.split(s).join("***"), text);
}

function firstHeader(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `Retry-After` in seconds (delta-seconds or an HTTP date), if present and sane. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, (at - now) / 1000);
}

export function responseContext(res: Pick<Dispatcher.ResponseData, "statusCode" | "headers">): ResponseContext {
  const ctx: ResponseContext = { httpStatus: res.statusCode };
  const requestId = firstHeader(res.headers, REQUEST_ID_HEADER);
  if (requestId) ctx.requestId = requestId;
  const retryAfter = parseRetryAfter(firstHeader(res.headers, "retry-after"));
  if (retryAfter !== undefined) ctx.retryAfterSeconds = retryAfter;
  const errorName = firstHeader(res.headers, ERROR_HEADER);
  if (errorName) ctx.errorName = errorName;
  return ctx;
}

/** Reads a whole body as text, refusing more than `maxBytes`. */
export async function readBounded(body: Dispatcher.ResponseData["body"], maxBytes: number, ctx: ResponseContext): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      throw new DocParseError(LocalErrorCode.LimitExceeded, `The response is larger than maxResponseBytes (${maxBytes})`, { ...ctx, isRetryable: false });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

function httpError(ctx: ResponseContext, what: string): DocParseError {
  return new DocParseError(LocalErrorCode.Http, `${what} (HTTP ${ctx.httpStatus})`, {
    ...ctx,
    isRetryable: RETRYABLE_HTTP.has(ctx.httpStatus),
  });
}

/** The outcome of a service call whose body had a success code (200, or 50207 partial). */
export interface EnvelopeOk {
  code: number;
  message: string;
  data: unknown;
  ctx: ResponseContext;
}

/**
 * Parses a service body: the body is read whatever the HTTP status, and the `code` in it
 * is the truth (errors come with HTTP 200). A body without a code falls back to the HTTP
 * status. `partialOk` accepts 50207 (some pages failed) as a success.
 */
export function interpretEnvelope(text: string, ctx: ResponseContext, redact: Redactor, { partialOk = false } = {}): EnvelopeOk {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    if (ctx.httpStatus < 200 || ctx.httpStatus >= 300) throw httpError(ctx, "The service answered without a JSON body");
    throw new DocParseError(LocalErrorCode.InvalidResponse, "The service answered with a body that is not JSON", { ...ctx, cause });
  }
  const env = EnvelopeSchema.safeParse(json);
  if (!env.success) {
    if (ctx.httpStatus < 200 || ctx.httpStatus >= 300) throw httpError(ctx, "The service answered without a {code, message} envelope");
    throw new DocParseError(LocalErrorCode.InvalidResponse, `The service's envelope is invalid:\n${formatIssues(env.error)}`, {
      ...ctx,
      issues: env.error.issues,
    });
  }
  const { code, message, data } = env.data;
  if (code === 200 || (partialOk && code === 50207)) return { code, message, data, ctx };
  const info = describeCode(code);
  const msg = redact(message ? `${info.name} (${code}): ${message}` : `${info.name} (${code}): ${info.meaning}`);
  throw new DocParseError(code, msg, {
    ...ctx,
    location: data ?? undefined,
    // Unknown codes behind a gateway status are still worth retrying.
    isRetryable: !markedDeterministic(code, ctx) && (isRetryableCode(code) || (!isKnownCode(code) && RETRYABLE_HTTP.has(ctx.httpStatus))),
  });
}

/**
 * Whether a failure with a retryable code is one the service marked as deterministic.
 * docparse-rag's local service answers an engine timeout with the contract's 500 (it has
 * no timeout code) plus `x-docparse-error: DOCPARSE_TIMEOUT`: the same document hits the
 * same limit again, and retrying would cost the service 1 + maxRetries full timeouts of
 * a parse slot per hostile PDF. Only that pair is exempt: the hosted service's plain 500s
 * (and a 500 with any other marker) stay retryable.
 */
function markedDeterministic(code: number, ctx: ResponseContext): boolean {
  return code === 500 && ctx.errorName === LocalErrorCode.Timeout;
}

function isKnownCode(code: number): boolean {
  return !describeCode(code).name.startsWith("UNKNOWN_");
}

/** Validates `data` with a wire schema; a mismatch is DOCPARSE_INVALID_RESPONSE with the issues. */
export function validateData<S extends z.ZodType>(schema: S, data: unknown, ctx: ResponseContext, what: string): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new DocParseError(LocalErrorCode.InvalidResponse, `The service's ${what} does not match the contract:\n${formatIssues(parsed.error)}`, {
    ...ctx,
    issues: parsed.error.issues,
  });
}
