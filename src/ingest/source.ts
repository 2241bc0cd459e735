import type { ParseInput } from "../parser.js";

/** A file on disk. `sourceId` defaults to the path relative to the run's `root`. */
export interface FileSource {
  path: string;
  sourceId?: string;
}

/** A directory, walked recursively. Files are filtered by picomatch globs on their relative path. */
export interface DirectorySource {
  dir: string;
  /** Globs a file's path (relative to `dir`) must match. @default every file */
  include?: string | string[];
  /** Globs that drop a file. @default dot-files and dot-directories are skipped */
  exclude?: string | string[];
}

/** A document on the web. `sourceId` defaults to the URL. */
export interface UrlSource {
  url: string;
  sourceId?: string;
  /** Names the document for type detection. @default the last path segment of the URL */
  filename?: string;
}

/** Bytes already in memory. They need a `sourceId` because nothing else identifies them. */
export interface BytesSource {
  data: Uint8Array;
  sourceId: string;
  /** Names the document for type detection. @default the sourceId's last segment */
  filename?: string;
}

/**
 * What `ingest({ sources })` accepts: a path (file or directory) or `http(s)://` URL as a
 * string, a `URL`, one of the source objects, or a (possibly async) iterable of those.
 */
export type IngestSource = string | URL | FileSource | DirectorySource | UrlSource | BytesSource;
export type IngestSources = IngestSource | Iterable<IngestSource> | AsyncIterable<IngestSource>;

/**
 * Where a document's bytes live, as plain JSON: what a distributed job carries so that a
 * worker on another machine can read the document itself.
 */
export type SourceRef =
  | { kind: "file"; path: string }
  | { kind: "url"; url: string; byParser?: boolean }
  | { kind: "bytes"; base64: string };

/** One resolved document, ready for the pipeline. Nothing is read until asked. */
export interface SourceDocument {
  /** Stable id: the path relative to the root (forward slashes), the URL, or the given id. */
  sourceId: string;
  /** The name the parser sees (type detection) and chunks carry. */
  filename: string;
  ref: SourceRef;
  /** Reads (or downloads) the document once and returns its hash and what the parser takes. */
  load(signal?: AbortSignal): Promise<LoadedDocument>;
}

export interface LoadedDocument {
  /** sha256 hex of the bytes. */
  contentHash: string;
  /** What `Parser.parse` gets: a path for files (read again by the parser), bytes otherwise. */
  input: ParseInput;
  /** Size in bytes. */
  size: number;
  /** The URL, for URL sources (goes into chunk metadata). */
  url?: string;
}
