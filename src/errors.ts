/**
 * The one error family of docparse-rag.
 *
 * Match on `code`, never on `message` (its text may change). `code` is the parse
 * service's numeric code where there is one (40004, 40422, ...; see
 * `src/wire/codes.ts`), otherwise one of the stable string codes below.
 */

const MARKER = Symbol.for("docparse-rag.error");

/** Stable string codes for failures that do not come from the parse service. */
export const LocalErrorCode = {
  /** An option or argument given to a docparse-rag API is invalid. */
  InvalidOption: "DOCPARSE_INVALID_OPTION",
  /** A response or stored record did not match the expected schema. */
  InvalidResponse: "DOCPARSE_INVALID_RESPONSE",
  /** The network failed (connection refused, reset, DNS). Retryable. */
  Network: "DOCPARSE_NETWORK",
  /** A request or job took longer than its time limit. Retryable. */
  Timeout: "DOCPARSE_TIMEOUT",
  /** The operation was cancelled through an AbortSignal. */
  Aborted: "DOCPARSE_ABORTED",
  /** An HTTP status with no parse-service code in the body (e.g. 502 from a proxy). */
  Http: "DOCPARSE_HTTP",
  /** A URL points to a host the caller is not allowed to reach (SSRF guard). */
  ForbiddenAddress: "DOCPARSE_FORBIDDEN_ADDRESS",
  /** An async job finished with status `failed`. */
  JobFailed: "DOCPARSE_JOB_FAILED",
  /** A vector store failed or refused an operation. */
  Store: "DOCPARSE_STORE",
  /** A store adapter cannot do what was asked (e.g. list ids in a LangChain store). */
  Unsupported: "DOCPARSE_UNSUPPORTED",
  /** An optional dependency is not installed. The message says how to install it. */
  MissingDependency: "DOCPARSE_MISSING_DEPENDENCY",
  /** Embedding failed. */
  Embedding: "DOCPARSE_EMBEDDING",
  /** A limit (size, count, memory) was exceeded. */
  LimitExceeded: "DOCPARSE_LIMIT_EXCEEDED",
} as const;

export type LocalErrorCode = (typeof LocalErrorCode)[keyof typeof LocalErrorCode];

/** A parse-service code (number) or a local code (string). */
export type DocParseErrorCode = number | LocalErrorCode;

export interface DocParseErrorOptions {
  /** The underlying error, kept as an object. */
  cause?: unknown;
  /** Whether trying again may succeed. Defaults from the code catalogue. */
  isRetryable?: boolean;
  /** The service's `x-request-id` response header, when there was one. */
  requestId?: string;
  /** The HTTP status of the response, when there was one. */
  httpStatus?: number;
  /** Error-location information from the service's `data` on a parse error. */
  location?: unknown;
  /** Validation issues (zod) behind an InvalidOption / InvalidResponse error. */
  issues?: readonly unknown[];
  /** Seconds the server asked to wait before retrying (Retry-After). */
  retryAfterSeconds?: number;
}

const RETRYABLE_LOCAL = new Set<DocParseErrorCode>([
  LocalErrorCode.Network,
  LocalErrorCode.Timeout,
]);

// The retryable service codes, per the hosted service's documentation: QPS limit,
// internal error, upstream fault and office conversion failure.
const RETRYABLE_SERVICE = new Set<number>([40306, 500, 30203, 40428]);

/** Whether a code is retryable by default. */
export function isRetryableCode(code: DocParseErrorCode): boolean {
  return typeof code === "number" ? RETRYABLE_SERVICE.has(code) : RETRYABLE_LOCAL.has(code);
}

/**
 * Every error docparse-rag throws on purpose.
 *
 * @example
 * ```ts
 * try { await client.parse("a.pdf") } catch (e) {
 *   if (DocParseError.isInstance(e) && e.code === 40423) askForPassword();
 * }
 * ```
 */
export class DocParseError extends Error {
  readonly [MARKER] = true;
  override readonly name = "DocParseError";
  /** The service's numeric code, or a {@link LocalErrorCode}. */
  readonly code: DocParseErrorCode;
  /** Whether trying again may succeed. */
  readonly isRetryable: boolean;
  /** The `x-request-id` of the failed response, if any. */
  readonly requestId?: string;
  /** HTTP status of the failed response, if any. */
  readonly httpStatus?: number;
  /** Error-location information returned by the service, if any. */
  readonly location?: unknown;
  /** Validation issues behind the error, if any. */
  readonly issues?: readonly unknown[];
  /** Seconds the server asked to wait before a retry, if it said. */
  readonly retryAfterSeconds?: number;

  constructor(code: DocParseErrorCode, message: string, options: DocParseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.isRetryable = options.isRetryable ?? isRetryableCode(code);
    if (options.requestId !== undefined) this.requestId = options.requestId;
    if (options.httpStatus !== undefined) this.httpStatus = options.httpStatus;
    if (options.location !== undefined) this.location = options.location;
    if (options.issues !== undefined) this.issues = options.issues;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** True for a DocParseError from any copy of this package (a `Symbol.for` marker). */
  static isInstance(value: unknown): value is DocParseError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** A plain object for logs and JSON reports (no stack, cause summarised). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      isRetryable: this.isRetryable,
      requestId: this.requestId,
      httpStatus: this.httpStatus,
      location: this.location,
    };
  }
}

/** Shorthand for an invalid-option error. */
export function invalidOption(message: string, issues?: readonly unknown[]): DocParseError {
  return new DocParseError(LocalErrorCode.InvalidOption, message, issues ? { issues } : {});
}

/** Turns an abort reason into a DocParseError with code DOCPARSE_ABORTED (or keeps a DocParseError). */
export function abortError(signal: AbortSignal | undefined): DocParseError {
  const reason: unknown = signal?.reason;
  if (DocParseError.isInstance(reason)) return reason;
  return new DocParseError(LocalErrorCode.Aborted, "The operation was aborted", { cause: reason });
}
