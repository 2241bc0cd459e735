import { randomBytes } from "node:crypto";
import type { FileUpload } from "./input.js";

/** A multipart/form-data body ready for `undici.request`. */
export interface MultipartBody {
  /**
   * Streams the parts, the file pulled from its source as the socket drains. Bytes
   * already in memory are passed in place (never copied into a bigger buffer).
   */
  body: AsyncIterable<Uint8Array> | Uint8Array;
  /** `multipart/form-data; boundary=...` */
  contentType: string;
  /** Total length when every part's size is known (lets the server bound the upload early). */
  contentLength?: number;
}

// Per the WHATWG multipart encoding: quote-escape names, keep other UTF-8 as is.
function escapeName(name: string): string {
  return name.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/**
 * Encodes text fields and an optional file as multipart/form-data without buffering the
 * file. Written here rather than with `FormData` because a Node Readable is not a Blob,
 * and because a known `content-length` (for paths, bytes and Blobs) lets the server
 * refuse an oversized upload before it is sent.
 */
export function multipartBody(fields: ReadonlyArray<readonly [name: string, value: string]>, file?: FileUpload): MultipartBody {
  const boundary = `----docparse-${randomBytes(12).toString("hex")}`;
  const enc = new TextEncoder();
  const head = enc.encode(
    fields
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value}\r\n`)
      .join("") +
      (file
        ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${escapeName(file.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`
        : ""),
  );
  const tail = enc.encode(`${file ? "\r\n" : ""}--${boundary}--\r\n`);
  const out: MultipartBody = {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body:
      !file
        ? Buffer.concat([head, tail])
        : file.bytes
          ? // A plain array: undici iterates it like a stream, writing each part as is.
            ([head, file.bytes, tail] as unknown as AsyncIterable<Uint8Array>)
          : (async function* () {
            yield head;
            yield* file.open();
            yield tail;
          })(),
  };
  if (!file) out.contentLength = head.byteLength + tail.byteLength;
  else if (file.size !== undefined) out.contentLength = head.byteLength + file.size + tail.byteLength;
  return out;
}
