import type { Readable } from "node:stream";
import type { ParseConfig, ParseResult } from "./wire/index.js";

/**
 * What can be parsed: a file path, bytes, a Blob, a Readable stream, or a URL that the
 * parser (or the remote service) fetches itself. Exactly one source per call.
 */
export type ParseInput = string | Uint8Array | Blob | Readable | { url: string };

export interface ParseOptions {
  /** Names a byte, Blob or stream input (used for type detection and metadata). */
  filename?: string;
  /** The parse configuration, as on the wire. */
  config?: ParseConfig;
  /** Cancels the parse. */
  signal?: AbortSignal;
}

/**
 * A parse result plus what the transport learned about it. `partial` is true when the
 * service answered 50207 (some pages failed): the result is kept, not thrown away.
 */
export type ParsedDocument = ParseResult & {
  /** docparse-rag extension: set when some pages failed (code 50207). */
  partial?: boolean;
};

/**
 * The parse port. `DocParseClient` (remote, HTTP) and `LocalParser` (in process)
 * implement it; everything downstream sees only this type.
 */
export interface Parser {
  /** A short name for logs and manifests, e.g. `local` or `remote:api.textin.com`. */
  readonly name: string;
  /**
   * Parses one document into the validated `data` object of the contract.
   * Rejects with a `DocParseError` carrying the service code on failure.
   */
  parse(input: ParseInput, options?: ParseOptions): Promise<ParsedDocument>;
}
