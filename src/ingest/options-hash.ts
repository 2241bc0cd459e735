import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { ParseConfig } from "../wire/index.js";
import { sha256, stableStringify } from "./content-hash.js";
import type { IngestChunkOptions } from "./ingest-options.js";

/**
 * A name for an embedder: its class and the fields that change its vectors. Two
 * embedders with the same identity must produce the same vectors.
 */
export function describeEmbeddings(embeddings: EmbeddingsInterface): string {
  const e = embeddings as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of ["model", "modelName", "dimensions", "seed"]) {
    const v = e[key];
    if (typeof v === "string" || typeof v === "number") fields[key] = v;
  }
  return `${embeddings.constructor?.name ?? "Embeddings"}${stableStringify(fields)}`;
}

/** What decides whether stored chunks are still right for unchanged bytes. */
export interface OptionsIdentity {
  parser: string;
  parseConfig: ParseConfig | undefined;
  chunk: IngestChunkOptions | undefined;
  /** A custom chunker changes the output; it is named by its function name. */
  chunker: string | undefined;
  embedder: string;
}

/** sha256 of the options identity: a change re-processes every document. */
export function optionsHash(identity: OptionsIdentity): string {
  return sha256(stableStringify({ v: 1, ...identity }));
}
