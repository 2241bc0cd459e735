import { stat } from "node:fs/promises";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { invalidOption } from "../errors.js";
import { hashFile, sha256 } from "./content-hash.js";
import { downloadUrl, urlValidators, type DownloadLimits } from "./fetch-url.js";
import type { IngestSource, IngestSources, SourceDocument, SourceRef } from "./source.js";
import { walkDirectory, type WalkOptions } from "./walk-directory.js";

/** How sources become documents. */
export interface ResolveOptions extends WalkOptions {
  /** File sourceIds are paths relative to this directory. @default process.cwd() */
  root?: string | undefined;
  downloadLimits?: DownloadLimits | undefined;
}

/**
 * Turns what the caller gave into documents, lazily: directories are walked as the
 * consumer pulls, so a million files never sit in memory at once.
 */
export async function* resolveSources(sources: IngestSources, options: ResolveOptions = {}): AsyncGenerator<SourceDocument> {
  for await (const source of topLevelSources(sources)) yield* resolveSource(source, options);
}

/** The individual sources of what the caller gave (one, a list, or an async iterable). */
export async function* topLevelSources(sources: IngestSources): AsyncGenerator<IngestSource> {
  if (typeof sources === "string" || sources instanceof URL || !isIterable(sources)) {
    yield sources as IngestSource;
    return;
  }
  for await (const s of sources as AsyncIterable<IngestSource>) yield s;
}

function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return false;
  return Symbol.iterator in value || Symbol.asyncIterator in value;
}

const URL_PATTERN = /^https?:\/\//i;

/** The documents of one source: one for a file, URL or bytes; every file for a directory. */
export async function* resolveSource(source: IngestSource, options: ResolveOptions): AsyncGenerator<SourceDocument> {
  const root = resolve(options.root ?? process.cwd());
  if (source instanceof URL) source = source.href;
  if (typeof source === "string") {
    if (URL_PATTERN.test(source)) {
      yield urlDocument(source, undefined, undefined, options.downloadLimits);
      return;
    }
    const path = resolve(source);
    const info = await stat(path).catch((cause: unknown) => {
      throw invalidOption(`Source ${JSON.stringify(source)} is not a readable file, directory or http(s) URL (${(cause as Error).message})`);
    });
    if (info.isDirectory()) yield* directoryDocuments(path, root, options);
    else yield fileDocument(path, sourceIdFor(path, root));
    return;
  }
  if ("dir" in source) {
    yield* directoryDocuments(resolve(source.dir), root, {
      include: source.include ?? options.include,
      exclude: source.exclude ?? options.exclude,
    });
  } else if ("path" in source) {
    const path = resolve(source.path);
    yield fileDocument(path, source.sourceId ?? sourceIdFor(path, root));
  } else if ("url" in source) {
    yield urlDocument(source.url, source.sourceId, source.filename, options.downloadLimits);
  } else if ("data" in source) {
    if (!source.sourceId) throw invalidOption("A bytes source needs a sourceId");
    yield bytesDocument(source.data, source.sourceId, source.filename);
  } else {
    throw invalidOption(`Unknown source ${JSON.stringify(source)}: expected a path, URL, { path }, { dir }, { url } or { data, sourceId }`);
  }
}

async function* directoryDocuments(dir: string, root: string, walk: WalkOptions): AsyncGenerator<SourceDocument> {
  for await (const rel of walkDirectory(dir, walk)) {
    const path = join(dir, rel);
    yield fileDocument(path, sourceIdFor(path, root));
  }
}

/** The path relative to root with forward slashes; absolute (still forward slashes) when outside root. */
export function sourceIdFor(path: string, root: string): string {
  const rel = relative(root, path);
  const id = rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
  return id.split(sep).join("/");
}

/** A document read from a file path. */
export function fileDocument(path: string, sourceId: string): SourceDocument {
  return {
    sourceId,
    filename: basename(path),
    ref: { kind: "file", path },
    async load(signal) {
      const { hash, size } = await hashFile(path, signal);
      return { contentHash: hash, input: path, size };
    },
  };
}

/** A document downloaded from a URL (hashed on its bytes, so an unchanged page is skipped). */
export function urlDocument(url: string, sourceId?: string, filename?: string, limits?: DownloadLimits): SourceDocument {
  const name = filename ?? (decodeURIComponent(new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "") || "index.html");
  const byParser = limits?.mode === "parser";
  return {
    sourceId: sourceId ?? url,
    filename: name,
    ref: byParser ? { kind: "url", url, byParser } : { kind: "url", url },
    async load(signal) {
      if (byParser) {
        return { contentHash: sha256(await urlValidators(url, limits?.timeoutMs, signal)), input: { url }, size: 0, url };
      }
      const bytes = await downloadUrl(url, limits, signal);
      return { contentHash: sha256(bytes), input: bytes, size: bytes.length, url };
    },
  };
}

/** A document already in memory. */
export function bytesDocument(data: Uint8Array, sourceId: string, filename?: string): SourceDocument {
  return {
    sourceId,
    filename: filename ?? sourceId.split("/").at(-1) ?? sourceId,
    // Encoded only when asked (distributed jobs): a local run never pays for base64.
    get ref(): SourceRef {
      return { kind: "bytes", base64: Buffer.from(data).toString("base64") };
    },
    async load() {
      return { contentHash: sha256(data), input: data, size: data.length };
    },
  };
}

/** Rebuilds a document from its JSON reference (what a distributed job carries). */
export function documentFromRef(ref: SourceRef, sourceId: string, filename: string, limits?: DownloadLimits): SourceDocument {
  switch (ref.kind) {
    case "file":
      return { ...fileDocument(ref.path, sourceId), filename };
    case "url":
      return urlDocument(ref.url, sourceId, filename, ref.byParser ? { ...limits, mode: "parser" } : { ...limits, mode: "download" });
    case "bytes":
      return bytesDocument(Buffer.from(ref.base64, "base64"), sourceId, filename);
  }
}
