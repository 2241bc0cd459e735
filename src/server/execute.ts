import { DocParseError, LocalErrorCode } from "../errors.js";
import { fetchBounded, type AddressPolicy } from "../net/address-guard.js";
import type { ParsedDocument, Parser } from "../parser.js";
import { parsePageRange } from "../wire/index.js";
import type { ParseRequest } from "./parse-request.js";

export interface ExecuteOptions {
  policy: AddressPolicy;
  maxUploadBytes: number;
  fetchTimeoutMs: number;
  signal?: AbortSignal;
}

/** A failure as the service reports it: a code, a safe message, optional location data. */
export interface ServiceFailure {
  code: number;
  message: string;
  data?: unknown;
  /** True when the cause is ours (a bug, a missing dependency): logged, never shown. */
  internal: boolean;
  /** The engine's `DOCPARSE_*` code behind `code`, sent as `x-docparse-error` (see ERROR_HEADER). */
  errorName?: string;
}

/**
 * Runs the parser on a request: fetches a `file_url` (SSRF-guarded, bounded), passes
 * an upload as its temp path with the client's filename, and checks `page_range`
 * against the document as a safety net for engines that do not.
 */
export async function executeParse(parser: Parser, req: ParseRequest, options: ExecuteOptions): Promise<ParsedDocument> {
  let input: string | Uint8Array;
  let filename: string | undefined;
  if (req.source.kind === "file") {
    input = req.source.path;
    // Without a client filename the temp file's random name must not reach the result.
    filename = req.source.filename || "document";
  } else {
    try {
      const fetched = await fetchBounded(req.source.url, {
        policy: options.policy,
        maxBytes: options.maxUploadBytes,
        timeoutMs: options.fetchTimeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      input = fetched.bytes;
      filename = fetched.filename;
    } catch (error) {
      if (DocParseError.isInstance(error) && (error.code === 40302 || error.code === LocalErrorCode.Aborted)) throw error;
      const why = DocParseError.isInstance(error) ? error.message : "fetch failed";
      throw new DocParseError(40400, `Could not fetch file_url: ${why}`, { cause: error, isRetryable: false });
    }
  }
  const result = await parser.parse(input, {
    ...(filename ? { filename } : {}),
    ...(req.config ? { config: req.config } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const range = req.config?.scope?.page_range;
  const pageCount = result.metadata?.page_count;
  if (range && pageCount !== undefined) {
    const spans = parsePageRange(range);
    if (Array.isArray(spans) && spans.some((s) => s.from > pageCount)) {
      throw new DocParseError(40424, `page_range ${range} goes beyond the document's ${pageCount} page(s)`);
    }
  }
  return result;
}

const LOCAL_TO_SERVICE: Partial<Record<string, number>> = {
  // The contract has no timeout code, so an engine timeout answers 500 with the engine's
  // message (a hostile PDF's timeout is not an internal error) and `x-docparse-error:
  // DOCPARSE_TIMEOUT`, which tells our client not to retry it (see MARKED below).
  [LocalErrorCode.Timeout]: 500,
  [LocalErrorCode.InvalidOption]: 40004,
  [LocalErrorCode.Unsupported]: 40425,
  [LocalErrorCode.LimitExceeded]: 40004,
  [LocalErrorCode.ForbiddenAddress]: 40400,
};

/**
 * Local codes whose contract code is retryable although the failure is not transient,
 * marked so the client can tell. A timeout is the engine's own limit on one document
 * (`limits.timeoutMs`): the same PDF runs out of time again, and each retry holds one
 * of the `concurrency` parse slots for the whole limit, so one hostile PDF would cost
 * 1 + maxRetries full timeouts. A timeout that was only contention (a busy machine) is
 * retried by a caller who knows so; the service's plain 500s stay retryable.
 */
const MARKED: ReadonlySet<string> = new Set([LocalErrorCode.Timeout]);

/** Maps any failure to what the service answers; internal causes get a generic message. */
export function toServiceFailure(error: unknown): ServiceFailure {
  if (DocParseError.isInstance(error)) {
    if (typeof error.code === "number") {
      const internal = error.code === 500;
      return {
        code: error.code,
        message: internal ? "Internal server error" : error.message,
        ...(error.location !== undefined && !internal ? { data: error.location } : {}),
        internal,
      };
    }
    const mapped = LOCAL_TO_SERVICE[error.code];
    if (mapped !== undefined) return { code: mapped, message: error.message, internal: false, ...(MARKED.has(error.code) ? { errorName: error.code } : {}) };
  }
  return { code: 500, message: "Internal server error", internal: true };
}
