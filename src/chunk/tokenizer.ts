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
  /**
   * Optional: the exact count of `a + separator + b`, given `countA = count(a)` and
   * `countB = count(b)`, reading only the end of `a` and the start of `b` — or undefined
   * when that cannot be told cheaply. The chunker then adds up counts it already has
   * instead of counting every chunk's `embedText` again. Leave it out when unsure: a
   * wrong answer breaks the `maxTokens` guarantee.
   */
  countJoined?(a: string, countA: number, separator: string, b: string, countB: number): number | undefined;
}

/** Names of the built-in tokenizers. */
export type TokenizerName = "cl100k_base" | "approximate";

interface TiktokenRanks {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

// Pieces are cached by their text. Natural text repeats words constantly, so after the
// first pages most pieces are a Map hit instead of a byte-pair merge.
const PIECE_CACHE_LIMIT = 500_000;

let cl100k: Tokenizer | undefined;

/**
 * The default tokenizer: OpenAI's `cl100k_base`, exact, from js-tiktoken's rank table
 * (`js-tiktoken/ranks/cl100k_base`).
 *
 * The 1 MB table is loaded synchronously on the first `count` (through `createRequire`),
 * so importing the chunker stays light and `chunkDocument` stays sync. Only a count is
 * needed, so the byte-pair merge runs here on byte strings (no token ids, no
 * comma-joined keys): about 5x faster than `Tiktoken#encode` on a cold cache, and
 * checked against it by a property test. Special-token strings such as `<|endoftext|>`
 * count as plain text instead of throwing.
 */
export function cl100kTokenizer(): Tokenizer {
  cl100k ??= createBpeCounter("cl100k_base", () => {
    const require = createRequire(import.meta.url);
    const ranks = require("js-tiktoken/ranks/cl100k_base") as TiktokenRanks | { default: TiktokenRanks };
    return "pat_str" in ranks ? ranks : ranks.default;
  });
  return cl100k;
}

/** Rank table keyed by "byte strings" (one char per byte, latin1), as tiktoken stores it. */
function loadRanks(table: TiktokenRanks): Map<string, number> {
  const ranks = new Map<string, number>();
  // js-tiktoken's compressed form: lines of "<name> <first rank> <base64 token>...".
  for (const line of table.bpe_ranks.split("\n")) {
    if (line === "") continue;
    const fields = line.split(" ");
    const offset = Number.parseInt(fields[1]!, 10);
    for (let i = 2; i < fields.length; i++) ranks.set(Buffer.from(fields[i]!, "base64").toString("latin1"), offset + i - 2);
  }
  return ranks;
}

const encoder = new TextEncoder();

function byteString(piece: string): string {
  // ASCII is its own byte string; anything else goes through UTF-8.
  for (let i = 0; i < piece.length; i++) {
    if (piece.charCodeAt(i) > 0x7f) return Buffer.from(encoder.encode(piece)).toString("latin1");
  }
  return piece;
}

/**
 * Tokens of one pre-tokenised piece: tiktoken's byte-pair merge (repeatedly merge the
 * adjacent pair with the lowest rank, leftmost on ties), counting the parts left.
 */
function bpeCount(bytes: string, ranks: Map<string, number>): number {
  const n = bytes.length;
  if (n <= 1 || ranks.has(bytes)) return 1;
  const pos: number[] = new Array(n + 1);
  for (let i = 0; i <= n; i++) pos[i] = i;
  const rank = (i: number): number => (i + 2 < pos.length ? ranks.get(bytes.slice(pos[i], pos[i + 2])) ?? Infinity : Infinity);
  const r: number[] = new Array(n - 1);
  for (let i = 0; i < n - 1; i++) r[i] = rank(i);
  while (r.length > 0) {
    let min = Infinity;
    let at = -1;
    for (let i = 0; i < r.length; i++) {
      if (r[i]! < min) {
        min = r[i]!;
        at = i;
      }
    }
    if (at === -1) break;
    // Parts at and at+1 become one: the pair after them goes, the pairs touching the
    // new part get new ranks.
    pos.splice(at + 1, 1);
    if (at + 1 < r.length) r.splice(at + 1, 1);
    else r.pop();
    if (at < r.length) r[at] = rank(at);
    if (at > 0) r[at - 1] = rank(at - 1);
  }
  return pos.length - 1;
}

const LETTER = /^\p{L}$/u;
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const SPACE = /^\s$/u;
// How far back from the end of `a` a join looks for a place where a piece surely starts.
const JOIN_WINDOW = 256;

/**
 * A position in `text` where cl100k's pre-tokeniser surely starts a piece, found by
 * scanning back at most JOIN_WINDOW characters; -1 when none is found. Pieces before it
 * do not depend on what follows the text (the pattern looks ahead one character at
 * most, and only inside whitespace runs), so the text from there on can be counted
 * again together with what is appended.
 */
function pieceStartNearEnd(text: string): number {
  const stop = Math.max(0, text.length - JOIN_WINDOW);
  for (let q = text.length - 1; q > stop; q--) {
    const c = text.charAt(q);
    const next = text.charAt(q + 1);
    const prev = text.charAt(q - 1);
    // After a newline, at a non-space: newline runs end their piece.
    if ((prev === "\n" || prev === "\r") && !SPACE.test(c)) return q;
    if (next === "" || !LETTER.test(next)) continue;
    // " word": the space is the prefix of the word's piece.
    if (c === " ") return q;
    // "。下" after a letter or digit: the mark is the prefix of the next word's piece.
    if (!SPACE.test(c) && !LETTER_OR_NUMBER.test(c) && LETTER_OR_NUMBER.test(prev)) return q;
  }
  return stop === 0 ? 0 : -1;
}

function createBpeCounter(name: string, load: () => TiktokenRanks): Tokenizer {
  let ranks: Map<string, number> | undefined;
  let pattern: RegExp | undefined;
  const cache = new Map<string, number>();
  const countPiece = (piece: string): number => {
    const hit = cache.get(piece);
    if (hit !== undefined) return hit;
    const n = bpeCount(byteString(piece), ranks!);
    if (cache.size >= PIECE_CACHE_LIMIT) cache.clear();
    cache.set(piece, n);
    return n;
  };
  const tokenizer: Tokenizer = {
    name,
    countJoined(a: string, countA: number, separator: string, b: string, countB: number): number | undefined {
      const before = separator !== "" ? separator : a;
      if (before === "") return countB;
      if (b !== "") {
        // `b` starts a fresh piece when what precedes it ends with a newline and it does
        // not start with whitespace (a newline run never reaches into non-space text).
        const last = before.charAt(before.length - 1);
        if ((last !== "\n" && last !== "\r") || SPACE.test(b.charAt(0))) return undefined;
      }
      let left: number;
      if (a === "") left = tokenizer.count(separator);
      else if (separator === "") left = countA;
      else {
        const q = pieceStartNearEnd(a);
        if (q < 0) return undefined;
        const tail = a.slice(q);
        left = countA - tokenizer.count(tail) + tokenizer.count(tail + separator);
      }
      return left + (b === "" ? 0 : countB);
    },
    count(text: string): number {
      if (text.length === 0) return 0;
      if (!ranks) {
        const table = load();
        ranks = loadRanks(table);
        pattern = new RegExp(table.pat_str, "gu");
      }
      // The same pre-tokenisation tiktoken does; BPE never merges across pieces, so the
      // sum of per-piece counts is the exact count.
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
  return tokenizer;
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
  countJoined(a: string, countA: number, separator: string, b: string, countB: number): number | undefined {
    // Runs end at whitespace, so counts add up unless a run crosses a seam.
    const parts = [a, separator, b].filter((x) => x !== "");
    for (let i = 1; i < parts.length; i++) {
      const left = parts[i - 1]!;
      if (!/\s/.test(left.charAt(left.length - 1)) && !/\s/.test(parts[i]!.charAt(0))) return undefined;
    }
    return countA + approximate.count(separator) + countB;
  },
  count(text: string): number {
    // One token per CJK character (what cl100k gives on average for Chinese is 1-1.5),
    // one per ~4 characters of any other run between spaces; a newline is one token.
    let total = 0;
    let run = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        if (c > 32) run++;
        else {
          if (run > 0) total += (run + 3) >> 2;
          run = 0;
          if (c === 10) total++;
        }
      } else if (c < 0x3000) {
        run++;
      } else if (c >= 0xd800 && c <= 0xdbff) {
        const cp = text.codePointAt(i)!;
        i++;
        if (isCjkCodePoint(cp)) {
          if (run > 0) total += (run + 3) >> 2;
          run = 0;
          total++;
        } else run++;
      } else if (isCjkCodePoint(c)) {
        if (run > 0) total += (run + 3) >> 2;
        run = 0;
        total++;
      } else {
        run++;
      }
    }
    if (run > 0) total += (run + 3) >> 2;
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
