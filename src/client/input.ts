import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { DocParseError, LocalErrorCode, invalidOption } from "../errors.js";
import type { ParseInput } from "../parser.js";

/** A document given by URL: the service fetches it (`file_url`). */
export interface UrlUpload {
  readonly kind: "url";
  readonly url: string;
}

/** A document uploaded as the `file` form field, streamed from its source. */
export interface FileUpload {
  readonly kind: "file";
  readonly filename: string;
  /** Bytes, when known up front (paths, bytes, Blobs); streams have none. */
  readonly size?: number;
  /** The bytes themselves when the input was already in memory (sent as one buffer). */
  readonly bytes?: Uint8Array;
  /** Whether {@link open} can be called again for a retry (false for a Readable). */
  readonly replayable: boolean;
  /** A fresh stream of the bytes. */
  open(): AsyncIterable<Uint8Array>;
}

export type Upload = UrlUpload | FileUpload;

/** Name sent for byte and stream inputs that were not given a `filename`. */
export const DEFAULT_UPLOAD_NAME = "document";

function isReadable(value: unknown): value is Readable {
  return value instanceof Readable || (typeof value === "object" && value !== null && typeof (value as Readable).pipe === "function" && typeof (value as Readable).read === "function");
}

const INPUT_HELP = "Expected exactly one source: a file path, a Buffer/Uint8Array, a Blob, a Readable stream, or { url }";

/**
 * Checks that `input` is exactly one source and turns it into something the multipart
 * writer can stream (a path is opened per attempt; nothing is read whole into memory).
 */
export async function resolveInput(input: ParseInput, filename?: string): Promise<Upload> {
  if (filename !== undefined && (typeof filename !== "string" || filename.trim() === "")) {
    throw invalidOption(`Expected \`filename\` to be a non-empty string, got ${JSON.stringify(filename)}`);
  }
  if (typeof input === "string") {
    if (input.trim() === "") throw invalidOption(`${INPUT_HELP}; got an empty string`);
    let size: number;
    try {
      const s = await stat(input);
      if (!s.isFile()) throw invalidOption(`Expected a file, but ${JSON.stringify(input)} is not a regular file`);
      size = s.size;
    } catch (cause) {
      if (DocParseError.isInstance(cause)) throw cause;
      const hint = /^https?:\/\//i.test(input) ? ` (to parse a URL pass { url: ${JSON.stringify(input)} })` : "";
      throw new DocParseError(LocalErrorCode.InvalidOption, `Cannot read file ${JSON.stringify(input)}${hint}`, { cause });
    }
    const path = input;
    return { kind: "file", filename: filename ?? basename(path), size, replayable: true, open: () => createReadStream(path, { highWaterMark: 256 * 1024 }) };
  }
  if (input instanceof Uint8Array) {
    const bytes = input;
    return { kind: "file", filename: filename ?? DEFAULT_UPLOAD_NAME, size: bytes.byteLength, bytes, replayable: true, open: () => one(bytes) };
  }
  if (typeof Blob !== "undefined" && input instanceof Blob) {
    const blob = input;
    const own = (blob as Blob & { name?: unknown }).name;
    const name = filename ?? (typeof own === "string" && own ? own : DEFAULT_UPLOAD_NAME);
    return { kind: "file", filename: name, size: blob.size, replayable: true, open: () => blobChunks(blob) };
  }
  if (isReadable(input)) {
    const stream = input;
    let opened = false;
    return {
      kind: "file",
      filename: filename ?? DEFAULT_UPLOAD_NAME,
      replayable: false,
      open: () => {
        // A stream can be read once; the retry loop checks `replayable` before asking again.
        if (opened) throw invalidOption("A Readable input can be sent only once; pass a path, bytes or a Blob to allow retries");
        opened = true;
        return stream as AsyncIterable<Uint8Array>;
      },
    };
  }
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    const keys = Object.keys(input);
    const url = (input as { url?: unknown }).url;
    if (keys.length !== 1 || typeof url !== "string") {
      throw invalidOption(`${INPUT_HELP}; got an object with keys ${JSON.stringify(keys)}`);
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalidOption(`Expected { url } to hold an absolute http(s) URL, got ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw invalidOption(`Expected { url } to use http or https, got ${parsed.protocol}`);
    }
    return { kind: "url", url: parsed.href };
  }
  throw invalidOption(`${INPUT_HELP}; got ${input === null ? "null" : typeof input}`);
}

async function* one(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

async function* blobChunks(blob: Blob): AsyncIterable<Uint8Array> {
  const reader = blob.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
