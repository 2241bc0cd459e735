import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { DocParseError } from "../errors.js";

/** The parse request's form, with the upload spooled to a temp file. */
export interface ParsedForm {
  /** Text fields (`config`, `file_url`, `webhook`, ...); the last value of a repeated name wins. */
  fields: Record<string, string>;
  file?: SpooledFile;
}

export interface SpooledFile {
  /** Temp file holding the upload; the caller deletes it (see {@link discardForm}). */
  path: string;
  /** The name the client sent (may be empty). */
  filename: string;
  size: number;
}

export interface ReadFormOptions {
  maxFileBytes: number;
  tempDir: string;
  /** Largest text field (the config JSON), in bytes. @default 1048576 */
  maxFieldBytes?: number;
  /**
   * Bytes past the limit still read (and thrown away) so that the client, still
   * uploading, receives the 40302 answer instead of a reset connection. Beyond this
   * the connection is cut. @default 8388608 (8 MiB)
   */
  drainBytes?: number;
}

/** A form failure; `close` means the rest of the request was not read and the socket must close. */
export class FormError extends DocParseError {
  constructor(
    code: number,
    message: string,
    readonly close = false,
  ) {
    super(code, message, { isRetryable: false });
  }
}

/** Deletes a form's temp file (safe to call twice). */
export async function discardForm(form: ParsedForm | undefined): Promise<void> {
  if (form?.file) await rm(form.file.path, { force: true });
}

/**
 * Reads a multipart (or urlencoded) parse request with busboy, streaming the `file`
 * part to a temp file under a size cap, so memory stays flat whatever the upload size.
 * Rejects with a {@link FormError}: 40302 over the cap, 40004 for a malformed form,
 * a second file, or an oversized field.
 */
export function readForm(req: IncomingMessage, options: ReadFormOptions): Promise<ParsedForm> {
  const { maxFileBytes, tempDir, maxFieldBytes = 1024 * 1024, drainBytes = 8 * 1024 * 1024 } = options;
  return new Promise<ParsedForm>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // Browsers and undici send UTF-8 filenames raw; busboy's default would read them as latin1.
        defParamCharset: "utf8",
        limits: { fileSize: maxFileBytes, files: 1, fields: 32, fieldSize: maxFieldBytes, parts: 64 },
      });
    } catch {
      // busboy throws at once for a missing or non-form content type.
      req.resume();
      return reject(new FormError(40004, "Expected a multipart/form-data body with `file` or `file_url`"));
    }
    const fields: Record<string, string> = {};
    let file: SpooledFile | undefined;
    let writing: Promise<void> = Promise.resolve();
    let failure: FormError | undefined;
    let settled = false;
    let received = 0;

    const finish = async (error?: FormError) => {
      if (settled) return;
      settled = true;
      await writing.catch(() => {});
      const form: ParsedForm = { fields, ...(file ? { file } : {}) };
      const err = error ?? failure;
      if (err) {
        await discardForm(form);
        reject(err);
      } else resolve(form);
    };

    // Count raw bytes so an over-limit upload is drained only so far, then cut.
    const hardCap = maxFileBytes + maxFieldBytes + drainBytes;
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > hardCap && !settled) {
        req.unpipe(bb);
        void finish(new FormError(40302, `The file is larger than the limit of ${maxFileBytes} bytes`, true));
      }
    });
    const cut = () => void finish(new FormError(40004, "The client closed the connection before the form was complete", true));
    req.on("aborted", cut);
    req.on("error", cut);

    bb.on("field", (name, value, info) => {
      if (info.valueTruncated) failure ??= new FormError(40004, `The form field \`${name}\` is larger than ${maxFieldBytes} bytes`);
      else fields[name] = value;
    });
    bb.on("file", (name, stream, info) => {
      if (name !== "file" || file) {
        if (name === "file") failure ??= new FormError(40004, "Only one `file` part is accepted");
        stream.resume();
        return;
      }
      const path = join(tempDir, `docparse-upload-${randomUUID()}`);
      const spooled: SpooledFile = { path, filename: info.filename ?? "", size: 0 };
      file = spooled;
      stream.on("data", (c: Buffer) => {
        spooled.size += c.length;
      });
      stream.on("limit", () => {
        failure ??= new FormError(40302, `The file is larger than the limit of ${maxFileBytes} bytes`);
      });
      writing = pipeline(stream, createWriteStream(path)).catch((cause: unknown) => {
        failure ??= new FormError(500, "Could not store the upload");
        (failure as { cause?: unknown }).cause ??= cause;
      });
    });
    bb.on("filesLimit", () => {
      failure ??= new FormError(40004, "Only one `file` part is accepted");
    });
    bb.on("partsLimit", () => {
      failure ??= new FormError(40004, "Too many form parts");
    });
    bb.on("fieldsLimit", () => {
      failure ??= new FormError(40004, "Too many form fields");
    });
    bb.on("error", () => void finish(new FormError(40004, "The multipart body is malformed", true)));
    bb.on("close", () => void finish());
    req.pipe(bb);
  });
}
