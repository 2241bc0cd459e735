import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { invalidOption } from "../errors.js";
import { textTerms } from "./text-terms.js";

/** Options of {@link HashEmbeddings}. */
export interface HashEmbeddingsOptions extends EmbeddingsParams {
  /**
   * Length of every vector. 384 matches common small sentence-embedding models, so a
   * store created with the default can later hold such a model's vectors too.
   * @default 384
   */
  dimensions?: number;
  /**
   * Feature-hashing seed. Vectors made with different seeds are not comparable.
   * @default 0
   */
  seed?: number;
}

/** The defaults of {@link HashEmbeddings}, pinned by a test. */
export const HASH_EMBEDDINGS_DEFAULTS = { dimensions: 384, seed: 0 } as const;

/**
 * The embedded default embedder: deterministic feature hashing, no model, no network.
 *
 * Features are normalised (NFKC, lower-cased) word unigrams and word bigrams, and for
 * Chinese/Japanese/Korean text character unigrams and bigrams. Each feature is hashed to
 * a signed slot, weighted by `1 + ln(tf)`, and the vector is L2-normalised, so cosine
 * similarity measures lexical overlap. Good for lexical retrieval, tests and offline
 * demos; it knows no synonyms — semantic quality needs a real model (see docs/embeddings.md).
 */
export class HashEmbeddings extends Embeddings {
  /** Length of every vector. */
  readonly dimensions: number;
  /** Feature-hashing seed. */
  readonly seed: number;

  constructor(options: HashEmbeddingsOptions = {}) {
    const { dimensions = HASH_EMBEDDINGS_DEFAULTS.dimensions, seed = HASH_EMBEDDINGS_DEFAULTS.seed, ...params } = options;
    super(params);
    if (!Number.isInteger(dimensions) || dimensions < 2) {
      throw invalidOption(`Expected \`dimensions\` to be an integer >= 2, got ${String(dimensions)}`);
    }
    if (!Number.isInteger(seed) || seed < 0) {
      throw invalidOption(`Expected \`seed\` to be a non-negative integer, got ${String(seed)}`);
    }
    this.dimensions = dimensions;
    this.seed = seed;
  }

  /** Embeds many texts; synchronous work, so no batching is needed. */
  override async embedDocuments(documents: string[]): Promise<number[][]> {
    return documents.map((text) => this.embedSync(text));
  }

  /** Embeds one query the same way as a document (the model is symmetric). */
  override async embedQuery(document: string): Promise<number[]> {
    return this.embedSync(document);
  }

  /**
   * The vector of one text, synchronously. An empty or punctuation-only text gives the
   * zero vector (it has no features; cosine similarity with it is 0 or undefined).
   */
  embedSync(text: string): number[] {
    const counts = new Map<string, number>();
    for (const term of textTerms(text, { wordBigrams: true })) counts.set(term, (counts.get(term) ?? 0) + 1);
    const vector = new Float64Array(this.dimensions);
    for (const [term, tf] of counts) {
      const h = fnv1a(term, this.seed);
      // A second, mixed hash decides the sign, so collisions cancel out on average
      // instead of always adding up (the "hashing trick" of Weinberger et al.).
      const sign = (mix32(h) & 1) === 0 ? 1 : -1;
      vector[h % this.dimensions]! += sign * (1 + Math.log(tf));
    }
    let norm = 0;
    for (const x of vector) norm += x * x;
    norm = Math.sqrt(norm);
    const out = new Array<number>(this.dimensions);
    for (let i = 0; i < vector.length; i++) out[i] = norm === 0 ? 0 : vector[i]! / norm;
    return out;
  }
}

/** 32-bit FNV-1a over UTF-16 code units, seeded through the offset basis. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** MurmurHash3's finaliser: spreads the bits of a 32-bit hash. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
