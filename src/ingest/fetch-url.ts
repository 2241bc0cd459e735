import { DocParseError, LocalErrorCode } from "../errors.js";

/** Limits for downloading URL sources. */
export interface DownloadLimits {
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
