/**
 * The parse service's business codes. Errors come back with HTTP 200 and the truth is
 * the `code` in the body; never branch on `message`.
 */

/** How a code should be handled by a caller. */
export type CodeCategory =
  | "success"
  | "auth"
  | "billing"
  | "request"
  | "file"
  | "rate_limit"
  | "partial"
  | "server";

export interface CodeInfo {
  /** The numeric code in the response body. */
  readonly code: number;
  /** A stable identifier (SCREAMING_SNAKE). */
  readonly name: string;
  readonly category: CodeCategory;
  /** Whether the same request may succeed when tried again later. */
  readonly retryable: boolean;
  /** What the code means, in English. */
  readonly meaning: string;
}

const entries: readonly CodeInfo[] = [
  { code: 200, name: "SUCCESS", category: "success", retryable: false, meaning: "Success" },
  { code: 40101, name: "AUTH_HEADERS_EMPTY", category: "auth", retryable: false, meaning: "x-ti-app-id or x-ti-secret-code is empty" },
  { code: 40102, name: "AUTH_INVALID", category: "auth", retryable: false, meaning: "x-ti-app-id or x-ti-secret-code is invalid, verification failed" },
  { code: 40103, name: "IP_NOT_ALLOWED", category: "auth", retryable: false, meaning: "The client IP address is not allowed" },
  { code: 40003, name: "NO_BALANCE", category: "billing", retryable: false, meaning: "The account balance is insufficient" },
  { code: 40004, name: "PARAMETER_ERROR", category: "request", retryable: false, meaning: "Parameter error: the passed parameters are wrong" },
  { code: 40007, name: "SERVICE_MISSING", category: "request", retryable: false, meaning: "The service does not exist" },
  { code: 40008, name: "SERVICE_NOT_ACTIVATED", category: "billing", retryable: false, meaning: "The service is not activated for this account" },
  { code: 40301, name: "UNSUPPORTED_IMAGE_TYPE", category: "file", retryable: false, meaning: "The image type is not supported" },
  { code: 40302, name: "FILE_TOO_LARGE", category: "file", retryable: false, meaning: "The file is larger than the limit (500 MB)" },
  { code: 40303, name: "UNSUPPORTED_FILE_TYPE", category: "file", retryable: false, meaning: "The file type is not supported" },
  { code: 40304, name: "IMAGE_SIZE_OUT_OF_RANGE", category: "file", retryable: false, meaning: "The image dimensions are out of the allowed range" },
  { code: 40305, name: "NO_FILE", category: "request", retryable: false, meaning: "No file was uploaded" },
  { code: 40306, name: "QPS_LIMIT", category: "rate_limit", retryable: true, meaning: "The QPS limit was exceeded" },
  { code: 40307, name: "DAILY_QUOTA_USED", category: "rate_limit", retryable: false, meaning: "The daily quota is used up" },
  { code: 40400, name: "INVALID_URL", category: "request", retryable: false, meaning: "The file URL is invalid or could not be fetched" },
  { code: 40422, name: "CORRUPT_FILE", category: "file", retryable: false, meaning: "The file is corrupt" },
  { code: 40423, name: "PDF_PASSWORD", category: "file", retryable: false, meaning: "The PDF password is missing or wrong" },
  { code: 40424, name: "PAGE_RANGE_OUT_OF_DOCUMENT", category: "request", retryable: false, meaning: "page_range goes beyond the document" },
  { code: 40425, name: "UNSUPPORTED_FORMAT", category: "file", retryable: false, meaning: "The file format is not supported" },
  { code: 40427, name: "BAD_DPI", category: "request", retryable: false, meaning: "The DPI value is not supported" },
  { code: 40428, name: "OFFICE_CONVERSION_FAILED", category: "server", retryable: true, meaning: "Converting the office document failed" },
  { code: 40429, name: "UNSUPPORTED_ENGINE", category: "request", retryable: false, meaning: "The engine is not supported" },
  { code: 50207, name: "PARTIAL_FAILURE", category: "partial", retryable: false, meaning: "Some pages failed to parse; the result is partial" },
  { code: 30203, name: "UPSTREAM_FAULT", category: "server", retryable: true, meaning: "An upstream service failed" },
  { code: 500, name: "INTERNAL_ERROR", category: "server", retryable: true, meaning: "Internal server error" },
];

/** Every known code, by number. */
export const CODES: ReadonlyMap<number, CodeInfo> = new Map(entries.map((e) => [e.code, e]));

/** Named constants for the codes, e.g. `Code.CORRUPT_FILE === 40422`. */
export const Code = Object.freeze(
  Object.fromEntries(entries.map((e) => [e.name, e.code])),
) as Readonly<Record<string, number>> & {
  readonly SUCCESS: 200;
  readonly AUTH_HEADERS_EMPTY: 40101;
  readonly AUTH_INVALID: 40102;
  readonly IP_NOT_ALLOWED: 40103;
  readonly NO_BALANCE: 40003;
  readonly PARAMETER_ERROR: 40004;
  readonly SERVICE_MISSING: 40007;
  readonly SERVICE_NOT_ACTIVATED: 40008;
  readonly UNSUPPORTED_IMAGE_TYPE: 40301;
  readonly FILE_TOO_LARGE: 40302;
  readonly UNSUPPORTED_FILE_TYPE: 40303;
  readonly IMAGE_SIZE_OUT_OF_RANGE: 40304;
  readonly NO_FILE: 40305;
  readonly QPS_LIMIT: 40306;
  readonly DAILY_QUOTA_USED: 40307;
  readonly INVALID_URL: 40400;
  readonly CORRUPT_FILE: 40422;
  readonly PDF_PASSWORD: 40423;
  readonly PAGE_RANGE_OUT_OF_DOCUMENT: 40424;
  readonly UNSUPPORTED_FORMAT: 40425;
  readonly BAD_DPI: 40427;
  readonly OFFICE_CONVERSION_FAILED: 40428;
  readonly UNSUPPORTED_ENGINE: 40429;
  readonly PARTIAL_FAILURE: 50207;
  readonly UPSTREAM_FAULT: 30203;
  readonly INTERNAL_ERROR: 500;
};

/**
 * Facts about a code. Unknown codes do not throw: they get a generic entry
 * (`UNKNOWN_<code>`, category `server` for 5xxxx and `request` otherwise, not retryable).
 */
export function describeCode(code: number): CodeInfo {
  const known = CODES.get(code);
  if (known) return known;
  const category: CodeCategory = code >= 50000 || (code >= 500 && code < 600) ? "server" : "request";
  return { code, name: `UNKNOWN_${code}`, category, retryable: false, meaning: `Unknown service code ${code}` };
}
