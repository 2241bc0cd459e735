/**
 * Splitting of oversized narrative text.
 *
 * This is LangChain's `RecursiveCharacterTextSplitter` algorithm (from
 * `@langchain/textsplitters`): take the first separator present, split on it, merge the
 * pieces up to `chunkSize` with `chunkOverlap`, recurse into pieces still too big with
 * the remaining separators. It is ported rather than called because the LangChain class
 * is async (the chunker is a sync pure function) and returns strings, while the chunker
 * needs offsets to narrow page regions. `test/chunk/split-text.test.ts` checks the port
 * against the real class. Differences, on purpose: separators may stay at the end of a
 * piece (sentence enders: `。` belongs to its sentence), `""` splits by code point (never
 * inside a surrogate pair), and every piece is checked with an exact count and cut
 * further if the summed estimate was wrong.
 */

/** A separator and which side of the split it stays on. */
export interface Separator {
  value: string;
  keep: "start" | "end";
}

/**
 * Paragraphs, lines, Chinese and Latin sentence enders, clause marks, spaces, then code
 * points.
 */
export const DEFAULT_SEPARATORS: readonly Separator[] = [
  { value: "\n\n", keep: "start" },
  { value: "\n", keep: "start" },
  { value: "。", keep: "end" },
  { value: "！", keep: "end" },
  { value: "？", keep: "end" },
  { value: "；", keep: "end" },
  { value: ". ", keep: "end" },
  { value: "! ", keep: "end" },
  { value: "? ", keep: "end" },
  { value: "; ", keep: "end" },
  { value: "，", keep: "end" },
  { value: "、", keep: "end" },
  { value: ", ", keep: "end" },
  { value: " ", keep: "start" },
  { value: "", keep: "start" },
];

/** Options of {@link splitTextRanges}. */
export interface SplitTextOptions {
  /** Most tokens (by `count`) in a piece. */
  chunkSize: number;
  /** Tokens shared by consecutive pieces. @default 0 */
  chunkOverlap?: number;
  /** @default DEFAULT_SEPARATORS */
  separators?: readonly Separator[];
  /** The length function: tokens of a string. */
  count: (text: string) => number;
}

/** A piece of the text: [start, end), trimmed of surrounding whitespace. */
export interface TextRange {
  start: number;
  end: number;
  /** One code point alone is over `chunkSize`. */
  oversized?: boolean;
}

/** Splits `text` into ranges of at most `chunkSize` tokens, on the best separators available. */
export function splitTextRanges(text: string, options: SplitTextOptions): TextRange[] {
  const chunkSize = options.chunkSize;
  const overlap = options.chunkOverlap ?? 0;
  const separators = options.separators ?? DEFAULT_SEPARATORS;
  const count = options.count;
  const len = (a: number, b: number) => count(text.slice(a, b));

  const merge = (splits: number[], lens: number[], out: TextRange[]) => {
    // splits: flat [a0, b0, a1, b1, ...]; the current doc is splits[head..] (pairs).
    let head = 0;
    let size = 0;
    let total = 0;
    const n = lens.length;
    const emit = (from: number, to: number) => {
      const r = trim(text, splits[from * 2]!, splits[to * 2 - 1]!);
      if (r) out.push(r);
    };
    for (let i = 0; i < n; i++) {
      const l = lens[i]!;
      if (total + l > chunkSize && size > 0) {
        emit(head, head + size);
        while (total > overlap || (total + l > chunkSize && total > 0)) {
          total -= lens[head]!;
          head++;
          size--;
        }
      }
      size++;
      total += l;
    }
    if (size > 0) emit(head, head + size);
  };

  const recurse = (start: number, end: number, seps: readonly Separator[], out: TextRange[]) => {
    let sep: Separator = { value: "", keep: "start" };
    let rest: readonly Separator[] | undefined;
    for (let i = 0; i < seps.length; i++) {
      const s = seps[i]!;
      if (s.value === "") {
        sep = s;
        break;
      }
      const at = text.indexOf(s.value, start);
      if (at >= 0 && at + s.value.length <= end) {
        sep = s;
        rest = seps.slice(i + 1);
        break;
      }
    }
    const splits = splitOn(text, start, end, sep);
    let good: number[] = [];
    let goodLens: number[] = [];
    for (let i = 0; i < splits.length; i += 2) {
      const a = splits[i]!;
      const b = splits[i + 1]!;
      const l = len(a, b);
      if (l < chunkSize) {
        good.push(a, b);
        goodLens.push(l);
        continue;
      }
      if (goodLens.length > 0) {
        merge(good, goodLens, out);
        good = [];
        goodLens = [];
      }
      if (!rest) {
        const r = trim(text, a, b);
        if (r) out.push(r);
      } else recurse(a, b, rest, out);
    }
    if (goodLens.length > 0) merge(good, goodLens, out);
  };

  const rough: TextRange[] = [];
  recurse(0, text.length, separators, rough);
  // The merge sums the counts of the parts; BPE counts of a join can differ a little.
  const exact: TextRange[] = [];
  for (const r of rough) {
    if (len(r.start, r.end) <= chunkSize) exact.push(r);
    else hardSplit(text, r.start, r.end, chunkSize, count, exact);
  }
  return exact;
}

function splitOn(text: string, start: number, end: number, sep: Separator): number[] {
  const out: number[] = [];
  if (sep.value === "") {
    for (let i = start; i < end; ) {
      const cp = text.codePointAt(i)!;
      const w = cp > 0xffff ? 2 : 1;
      out.push(i, Math.min(end, i + w));
      i += w;
    }
    return out;
  }
  let from = start;
  let at = text.indexOf(sep.value, start);
  while (at >= 0 && at + sep.value.length <= end) {
    const cut = sep.keep === "start" ? at : at + sep.value.length;
    if (cut > from) out.push(from, cut);
    from = cut;
    at = text.indexOf(sep.value, at + sep.value.length);
  }
  if (end > from) out.push(from, end);
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 0x3000 || c === 0xa0 || c === 12 || c === 11;
}

function trim(text: string, a: number, b: number): TextRange | undefined {
  while (a < b && isSpace(text.charCodeAt(a))) a++;
  while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
  return b > a ? { start: a, end: b } : undefined;
}

/** Longest prefixes that fit, found by bisection over code point boundaries. */
function hardSplit(text: string, start: number, end: number, budget: number, count: (t: string) => number, out: TextRange[]): void {
  const cuts: number[] = [];
  for (let i = start; i < end; ) {
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    cuts.push(Math.min(i, end));
  }
  let a = start;
  let k = 0; // first candidate cut after `a`
  while (k < cuts.length) {
    let lo = k - 1; // index into cuts of the best cut found (-1: none)
    let hi = cuts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (count(text.slice(a, cuts[mid])) <= budget) lo = mid;
      else hi = mid - 1;
    }
    const oversized = lo < k;
    const at = oversized ? k : lo;
    const b = cuts[at]!;
    const r = trim(text, a, b);
    if (r) out.push(oversized ? { ...r, oversized } : r);
    a = b;
    k = at + 1;
  }
}
