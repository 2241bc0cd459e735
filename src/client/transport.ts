import type { Readable } from "node:stream";
import { request, type Dispatcher } from "undici";
import { DocParseError, LocalErrorCode, abortError } from "../errors.js";

/** One HTTP attempt. */
export interface AttemptRequest {
  method: "GET" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: AsyncIterable<Uint8Array> | Uint8Array;
  /** Time limit of the attempt, response body included. */
  timeoutMs: number;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

// undici's own error codes that mean "the network failed", all worth a retry.
const NETWORK_CODES = new Set([
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH",
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  const cause = (err as { cause?: unknown } | null)?.cause;
  return cause && cause !== err ? errorCode(cause) : undefined;
}

/**
 * undici drops a kept-alive socket when its own keep-alive timer fires (the server's
 * `Keep-Alive: timeout=N` less a 2 s margin, so before node's server closes it at
 * N + 1 s), but that timer cannot fire while the caller holds the event loop: after a
 * many-MB result, JSON.parse and the schema check (and whatever the caller does with
 * it) may run for longer than the server's keep-alive, and a request sent in the same
 * turn goes out on a socket the server has closed or is about to close: ECONNRESET or
 * EPIPE with no answer. A retry cannot cover that for job creation, which is never
 * resubmitted blindly, so the race is prevented: before sending, the attempt lets the
 * timers run (`setImmediate` would not do, it runs before the next turn's timers).
 *
 * That costs a loop turn (about 1 ms), paid only when the timers may be behind: when
 * none of ours has run for {@link TIMERS_LAG_MS}. Each attempt leaves a timer behind
 * that notes when timers last ran, so back-to-back requests pay nothing, and any
 * keep-alive expiry missed within that window still has the margin (2 s, at least the
 * 1 s node adds) before the server closes the socket.
 */
const TIMERS_LAG_MS = 250;
let timersRanAt = -Infinity;

function noteTimers(): void {
  setTimeout(() => {
    timersRanAt = performance.now();
  }, 0).unref();
}

async function settleSockets(): Promise<void> {
  if (performance.now() - timersRanAt <= TIMERS_LAG_MS) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  timersRanAt = performance.now();
}

/**
 * Sends one request and hands the response to `handle` (which reads the body) under a
 * single time limit; maps transport failures to DocParseErrors. Messages name the host
 * only: no path, query or header, so credentials cannot leak through them.
 */
export async function attempt<T>(req: AttemptRequest, handle: (res: Dispatcher.ResponseData) => Promise<T>): Promise<T> {
  const { signal } = req;
  if (signal?.aborted) throw abortError(signal);
  await settleSockets();
  if (signal?.aborted) throw abortError(signal);
  const timer = new AbortController();
  const timeout = setTimeout(
    () => timer.abort(new DocParseError(LocalErrorCode.Timeout, `No complete answer from ${req.url.host} within ${req.timeoutMs} ms`)),
    req.timeoutMs,
  );
  const combined = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  let res: Dispatcher.ResponseData | undefined;
  try {
    res = await request(req.url, {
      method: req.method,
      headers: req.headers,
      // undici streams async iterables (its types only omit them).
      body: (req.body ?? null) as Readable | Uint8Array | null,
      signal: combined,
      // The attempt's own timer is the limit; undici's defaults (300 s) would only mask it.
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
      ...(req.dispatcher ? { dispatcher: req.dispatcher } : {}),
    });
    return await handle(res);
  } catch (err) {
    if (res && !res.body.destroyed) {
      res.body.on("error", () => {});
      res.body.destroy();
    }
    if (signal?.aborted) throw abortError(signal);
    if (timer.signal.aborted) throw timer.signal.reason as DocParseError;
    if (DocParseError.isInstance(err)) throw err;
    const code = errorCode(err);
    if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
      throw new DocParseError(LocalErrorCode.Timeout, `Timed out talking to ${req.url.host} (${code})`, { cause: err });
    }
    throw new DocParseError(LocalErrorCode.Network, `Network error talking to ${req.url.host}${code ? ` (${code})` : ""}`, {
      cause: err,
      // A failure without a socket-level code (a bug, a bad header) is not retried blindly.
      isRetryable: code !== undefined && (NETWORK_CODES.has(code) || code.startsWith("E")),
    });
  } finally {
    clearTimeout(timeout);
    noteTimers();
  }
}
