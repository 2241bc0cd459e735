import { createRequire } from "node:module";

/**
 * The tokenizer port: how the chunker measures text against `maxTokens`.
 *
 * Implement it to match the embedding model you use; the chunker never needs more than
 * a count.
 */
export interface Tokenizer {
  /** Number of tokens in `text`. Must be pure: the same text always gives the same count. */
  count(text: string): number;
  /** Stable name; it is part of every chunk id, so changing tokenizers changes ids. */
  readonly name: string;
}

/** Names of the built-in tokenizers. */
export type TokenizerName = "cl100k_base" | "approximate";

interface TiktokenLike {
  encode(text: string, allowedSpecial?: string[] | "all", disallowedSpecial?: string[] | "all"): number[];
}

interface TiktokenRanks {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

// Pieces are cached by their text. Natural text repeats words constantly, so after the
// first few pages almost every piece is a Map hit instead of a byte-pair merge (which
// js-tiktoken does with string-joined keys, quadratic in the piece length).
const PIECE_CACHE_LIMIT = 500_000;

let cl100k: Tokenizer | undefined;

/**
 * The default tokenizer: OpenAI's `cl100k_base` through js-tiktoken, exact.
 *
 * The 1 MB rank table is loaded synchronously on the first `count` (through
 * `createRequire`), so importing the chunker stays light and `chunkDocument` stays sync.
 * Special-token strings such as `<|endoftext|>` in the text are counted as plain text
 * instead of throwing.
 */
export function cl100kTokenizer(): Tokenizer {
  cl100k ??= createPieceCachedTokenizer("cl100k_base", () => {
    const require = createRequire(import.meta.url);
    const { Tiktoken } = require("js-tiktoken/lite") as { Tiktoken: new (ranks: TiktokenRanks) => TiktokenLike };
    const ranks = require("js-tiktoken/ranks/cl100k_base") as TiktokenRanks | { default: TiktokenRanks };
    const table = "pat_str" in ranks ? ranks : ranks.default;
    return { encoder: new Tiktoken(table), pattern: table.pat_str };
  });
  return cl100k;
}

function createPieceCachedTokenizer(
  name: string,
  load: () => { encoder: TiktokenLike; pattern: string },
): Tokenizer {
  let encoder: TiktokenLike | undefined;
  let pattern: RegExp | undefined;
  const cache = new Map<string, number>();
  const countPiece = (piece: string): number => {
    const hit = cache.get(piece);
    if (hit !== undefined) return hit;
    // `[]`, `[]`: no special token is allowed or disallowed, so they encode as text.
    const n = encoder!.encode(piece, [], []).length;
    if (cache.size >= PIECE_CACHE_LIMIT) cache.clear();
    cache.set(piece, n);
    return n;
  };
  return {
    name,
    count(text: string): number {
      if (text.length === 0) return 0;
      if (!encoder) {
        const loaded = load();
        encoder = loaded.encoder;
        pattern = new RegExp(loaded.pattern, "gu");
      }
      // The same pre-tokenisation js-tiktoken does; BPE never merges across pieces, so
      // the sum of per-piece counts is the exact count.
      const re = pattern!;
      re.lastIndex = 0;
      let total = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) {
        const piece = m[0];
        if (piece.length === 0) {
          re.lastIndex++;
          continue;
        }
        total += countPiece(piece);
      }
      return total;
    },
  };
}

/** True for a code point counted as one token by the approximate tokenizer (CJK, kana, hangul). */
export function isCjkCodePoint(cp: number): boolean {
  return (
    (cp >= 0x3040 && cp <= 0x30ff) || // hiragana, katakana
    (cp >= 0x3400 && cp <= 0x4dbf) || // CJK ext A
    (cp >= 0x4e00 && cp <= 0x9fff) || // CJK unified
    (cp >= 0xac00 && cp <= 0xd7af) || // hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) || // compatibility ideographs
    (cp >= 0x3000 && cp <= 0x303f) || // CJK punctuation (。、「」)
    (cp >= 0xff00 && cp <= 0xffef) || // full-width forms (！？；，)
    (cp >= 0x20000 && cp <= 0x2fa1f) // ext B..F, compatibility supplement
  );
}

const approximate: Tokenizer = {
  name: "approximate",
  count(text: string): number {
    // One token per CJK character (what cl100k gives on average for Chinese is 1-1.5),
    // one per ~4 characters of any other run between spaces, one per lone symbol.
    let total = 0;
    let run = 0;
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        i++;
      }
      if (cp === 32 || cp === 10 || cp === 9 || cp === 13) {
        if (run > 0) total += Math.ceil(run / 4);
        run = 0;
        if (cp === 10) total += 1;
      } else if (isCjkCodePoint(cp)) {
        if (run > 0) total += Math.ceil(run / 4);
        run = 0;
        total += 1;
      } else {
        run++;
      }
    }
    if (run > 0) total += Math.ceil(run / 4);
    return total;
  },
};

/**
 * A cheap tokenizer with no table to load: 1 token per CJK character and about 1 per 4
 * characters elsewhere. Good enough for budgeting when the embedding model's tokenizer
 * is unknown; about 20x faster than `cl100k_base` on a cold cache.
 */
export function approximateTokenizer(): Tokenizer {
  return approximate;
}

/** Resolves a tokenizer option: a built-in name or your own {@link Tokenizer}. */
export function resolveTokenizer(value: TokenizerName | Tokenizer): Tokenizer {
  if (typeof value !== "string") return value;
  return value === "approximate" ? approximateTokenizer() : cl100kTokenizer();
}
