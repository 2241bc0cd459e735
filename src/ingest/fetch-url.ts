import { DocParseError, LocalErrorCode } from "../errors.js";

/** How URL sources are read. */
export interface DownloadLimits {
  /**
   * `"download"`: fetch the bytes here (within the limits below) and hash them, so an
   * unchanged page is skipped. `"parser"`: hand `{ url }` to the parser (the service's
   * `file_url`) and identify the content by the URL and its HEAD validators (ETag,
   * Last-Modified, Content-Length); a URL without validators counts as unchanged once
   * stored. @default "download"
   */
  mode?: "download" | "parser";
  /** Largest body accepted. @default 500 MiB (the service's own file limit) */
  maxBytes?: number;
  /** Time limit for the whole download. @default 60_000 */
  timeoutMs?: number;
}

/** Downloads a URL into memory within limits. Errors are DocParseErrors (network ones retryable). */
export async function downloadUrl(url: string, limits: DownloadLimits = {}, signal?: AbortSignal): Promise<Buffer> {
  const { maxBytes = 500 * 1024 * 1024, timeoutMs = 60_000 } = limits;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { signal: combined, redirect: "follow" });
  } catch (cause) {
    if (signal?.aborted) throw new DocParseError(LocalErrorCode.Aborted, "The download was aborted", { cause });
    if (timeout.aborted) throw new DocParseError(LocalErrorCode.Timeout, `Downloading ${url} took longer than ${timeoutMs} ms`, { cause });
    throw new DocParseError(LocalErrorCode.Network, `Could not download ${url}`, { cause });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DocParseError(LocalErrorCode.Http, `Downloading ${url} answered HTTP ${response.status}`, {
      httpStatus: response.status,
      isRetryable: response.status >= 500 || response.status === 429,
    });
  }
  const declared = Number(response.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(url, maxBytes);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += part.length;
      if (size > maxBytes) throw tooLarge(url, maxBytes);
      parts.push(part);
    }
  }
  return Buffer.concat(parts);
}

function tooLarge(url: string, maxBytes: number): DocParseError {
  return new DocParseError(LocalErrorCode.LimitExceeded, `${url} is larger than ${maxBytes} bytes (downloadLimits.maxBytes)`);
}

/**
 * What identifies a URL's content without downloading it: the URL plus the validators of
 * a HEAD response. A failed HEAD leaves the URL alone (the parser will report the error).
 */
export async function urlValidators(url: string, timeoutMs = 10_000, signal?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { method: "HEAD", redirect: "follow", signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!response.ok) return url;
    const h = response.headers;
    return [url, h.get("etag") ?? "", h.get("last-modified") ?? "", h.get("content-length") ?? ""].join("\n");
  } catch {
    return url;
  }
}
