import { request } from "undici";
import { DocParseError, LocalErrorCode, abortError } from "../errors.js";
import { assertAllowedUrl, guardedDispatcher, type AddressPolicy } from "./url-guard.js";

export interface FetchBoundedOptions {
  /** Which hosts may be reached; every redirect hop is checked again. @default {} (public only) */
  policy?: AddressPolicy;
  /** Largest body accepted; more is refused with code 40302. @default 524288000 (500 MiB) */
  maxBytes?: number;
  /** Time limit for the whole fetch, redirects and body included. @default 30000 */
  timeoutMs?: number;
  /** Cancels the fetch. */
  signal?: AbortSignal;
  /** Redirects followed before giving up. @default 5 */
  maxRedirects?: number;
}

export interface FetchedFile {
  /** The whole body. */
  bytes: Uint8Array;
  /** The `content-type` header without parameters, when sent. */
  contentType?: string;
  /** From `content-disposition`, else the last path segment of the final URL. */
  filename?: string;
  /** The final URL after redirects. */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The filename in a `content-disposition` header (`filename*=` preferred). */
export function dispositionFilename(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || undefined;
}

function lastSegment(url: URL): string | undefined {
  const seg = url.pathname.split("/").filter(Boolean).at(-1);
  if (!seg) return undefined;
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * GETs a URL someone else supplied, safely: the SSRF policy is checked before the first
 * request, on every redirect hop, and again at connect time (DNS rebinding); the body is
 * bounded; the whole fetch has a time limit.
 *
 * @throws DocParseError `DOCPARSE_FORBIDDEN_ADDRESS`, 40302 (body over `maxBytes`),
 *   `DOCPARSE_HTTP` (non-2xx, with `httpStatus`), `DOCPARSE_TIMEOUT`, `DOCPARSE_ABORTED`,
 *   `DOCPARSE_NETWORK`.
 */
export async function fetchBounded(url: string | URL, options: FetchBoundedOptions = {}): Promise<FetchedFile> {
  const { policy = {}, maxBytes = 500 * 1024 * 1024, timeoutMs = 30_000, signal, maxRedirects = 5 } = options;
  if (signal?.aborted) throw abortError(signal);
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new DocParseError(LocalErrorCode.Timeout, `Fetching the URL took longer than ${timeoutMs} ms`)), timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  const dispatcher = guardedDispatcher(policy);
  try {
    let current = await assertAllowedUrl(url, policy);
    for (let hop = 0; ; hop++) {
      const res = await request(current, { method: "GET", dispatcher, signal: combined, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      const location = header(res.headers, "location");
      if (REDIRECTS.has(res.statusCode) && location) {
        await res.body.dump();
        if (hop >= maxRedirects) {
          throw new DocParseError(LocalErrorCode.Http, `Too many redirects (more than ${maxRedirects})`, { httpStatus: res.statusCode });
        }
        current = await assertAllowedUrl(new URL(location, current), policy);
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump();
        throw new DocParseError(LocalErrorCode.Http, `${current.origin} answered HTTP ${res.statusCode}`, {
          httpStatus: res.statusCode,
          isRetryable: [429, 502, 503, 504].includes(res.statusCode),
        });
      }
      const length = Number(header(res.headers, "content-length"));
      if (Number.isFinite(length) && length > maxBytes) {
        discard(res.body);
        throw tooLarge(maxBytes);
      }
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        total += chunk.length;
        // Leaving the loop by throwing ends the iterator, which destroys the body.
        if (total > maxBytes) throw tooLarge(maxBytes);
        chunks.push(chunk);
      }
      const contentType = header(res.headers, "content-type")?.split(";")[0]?.trim() || undefined;
      const filename = dispositionFilename(header(res.headers, "content-disposition")) ?? lastSegment(current);
      const out: FetchedFile = { bytes: new Uint8Array(Buffer.concat(chunks, total)), url: current.href };
      if (contentType) out.contentType = contentType;
      if (filename) out.filename = filename;
      return out;
    }
  } catch (err) {
    throw toFetchError(err, signal, timer.signal);
  } finally {
    clearTimeout(timeout);
  }
}

/** Drops a body we will not read, without an unhandled 'error' event from undici. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on("error", () => {});
  body.destroy();
}

function tooLarge(maxBytes: number): DocParseError {
  return new DocParseError(40302, `The file is larger than the limit of ${maxBytes} bytes`);
}

function toFetchError(err: unknown, signal: AbortSignal | undefined, timeout: AbortSignal): DocParseError {
  if (signal?.aborted) return abortError(signal);
  if (timeout.aborted) return timeout.reason as DocParseError;
  if (DocParseError.isInstance(err)) return err;
  // A refusal from the connect-time guard arrives wrapped by undici; unwrap it.
  const cause = (err as { cause?: unknown })?.cause;
  if (DocParseError.isInstance(cause)) return cause;
  const code = (err as { code?: string })?.code;
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
    return new DocParseError(LocalErrorCode.Timeout, "Fetching the URL timed out", { cause: err });
  }
  return new DocParseError(LocalErrorCode.Network, "Fetching the URL failed", { cause: err });
}
