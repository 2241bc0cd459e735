import { open } from "node:fs/promises";
import { basename } from "node:path";
import { Readable } from "node:stream";
import type { ParseInput } from "../parser.js";
import { DocParseError, abortError, invalidOption } from "../errors.js";
import type { AddressPolicy } from "../net/url-guard.js";

/** The bytes of one input, read with a size bound. */
export interface InputBytes {
  bytes: Uint8Array;
  /** From the option, else the path / File / URL. */
  filename?: string;
  /** The HTTP content type of a `{ url }` input (a hint, like the filename). */
  contentType?: string;
  /** Where a `{ url }` input came from (final URL after redirects, without credentials or query). */
  sourceUrl?: string;
}

export interface ReadInputOptions {
  /** Names a byte, Blob or stream input. */
  filename?: string;
  /** Larger inputs are refused with 40302. */
  maxBytes: number;
  /** For `{ url }` inputs: which hosts may be fetched. */
  urlPolicy?: AddressPolicy;
  /** For `{ url }` inputs: time limit of the download. */
  fetchTimeoutMs?: number;
  signal?: AbortSignal;
}

function tooLarge(maxBytes: number): DocParseError {
  return new DocParseError(40302, `The file is larger than the limit of ${maxBytes} bytes`);
}

function noFile(detail: string): DocParseError {
  return new DocParseError(40305, `No file: ${detail}`);
}

/**
 * Reads a parse input into memory, never more than `maxBytes` (+1 chunk) of it:
 * a path (size checked before reading), bytes, a Blob, a Readable (stopped as soon as it
 * goes over), or `{ url }` (fetched through the SSRF guard). Empty input is 40305.
 */
export async function readInput(input: ParseInput, options: ReadInputOptions): Promise<InputBytes> {
  const { maxBytes, signal } = options;
  if (signal?.aborted) throw abortError(signal);
  let out: InputBytes;
  if (typeof input === "string") {
    out = { bytes: await readPath(input, maxBytes), filename: options.filename ?? basename(input) };
  } else if (input instanceof Uint8Array) {
    if (input.byteLength > maxBytes) throw tooLarge(maxBytes);
    out = { bytes: input };
  } else if ((input as unknown) instanceof ArrayBuffer) {
    // Not in the ParseInput type, but what fetch().arrayBuffer() gives: accepted as bytes.
    const bytes = new Uint8Array(input as unknown as ArrayBuffer);
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    out = { bytes };
  } else if (typeof Blob !== "undefined" && input instanceof Blob) {
    if (input.size > maxBytes) throw tooLarge(maxBytes);
    out = { bytes: new Uint8Array(await input.arrayBuffer()) };
    const name = (input as Blob & { name?: unknown }).name;
    if (typeof name === "string" && name) out.filename = name;
  } else if (input instanceof Readable || isAsyncIterable(input)) {
    out = { bytes: await readStream(input as AsyncIterable<unknown>, maxBytes, signal) };
  } else if (input && typeof input === "object" && typeof (input as { url?: unknown }).url === "string") {
    // Lazy: undici is only loaded when a URL is actually fetched.
    const { fetchBounded } = await import("../net/fetch-bounded.js");
    const fetched = await fetchBounded((input as { url: string }).url, {
      policy: options.urlPolicy ?? {},
      maxBytes,
      ...(options.fetchTimeoutMs !== undefined ? { timeoutMs: options.fetchTimeoutMs } : {}),
      ...(signal ? { signal } : {}),
    });
    out = { bytes: fetched.bytes, sourceUrl: publicUrl(fetched.url) };
    if (fetched.filename) out.filename = fetched.filename;
    if (fetched.contentType) out.contentType = fetched.contentType;
  } else if (input === undefined || input === null) {
    throw noFile("the input is missing");
  } else {
    throw invalidOption("Expected the input to be a file path, a Uint8Array/Buffer, a Blob, a Readable stream or { url }");
  }
  if (options.filename !== undefined) out.filename = options.filename;
  if (out.bytes.byteLength === 0) throw noFile("the input is empty (0 bytes)");
  if (signal?.aborted) throw abortError(signal);
  return out;
}

// Results are stored and shown: keep user info (credentials) and the query (presigned
// tokens) of a fetched URL out of them.
function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.href;
  } catch {
    return "";
  }
}

async function readPath(path: string, maxBytes: number): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new DocParseError(40305, `No file at ${path}`, { cause: err });
    throw new DocParseError(40305, `Cannot open ${path}: ${code ?? "error"}`, { cause: err });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new DocParseError(40305, `${path} is not a regular file`);
    if (info.size > maxBytes) throw tooLarge(maxBytes);
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

async function readStream(stream: AsyncIterable<unknown>, maxBytes: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the for-await early (throw) calls return() on the iterator, which destroys a Readable.
  for await (const chunk of stream) {
    if (signal?.aborted) throw abortError(signal);
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk instanceof Uint8Array ? chunk : undefined;
    if (!bytes) throw invalidOption("The input stream must yield Buffers, Uint8Arrays or strings");
    total += bytes.byteLength;
    if (total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(bytes);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

function isAsyncIterable(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}
