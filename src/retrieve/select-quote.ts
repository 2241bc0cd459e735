import { matchTerms } from "./match-terms.js";
import { splitSentences, type Sentence } from "./sentences.js";

/** The part of a text that best answers a query. */
export interface QuoteSpan {
  text: string;
  /** Offset of the first character in the text. */
  start: number;
  /** Offset after the last character (exclusive). */
  end: number;
  /** Share of the query's distinct terms the quote contains, 0..1. */
  score: number;
}

export interface SelectQuoteOptions {
  /** Most consecutive sentences joined into one quote. @default 2 */
  maxSentences?: number;
  /**
   * Sentences to quote only when nothing else matches, e.g. the chunk's heading titles
   * (a heading repeats the query's topic but answers nothing). @default []
   */
  avoid?: readonly string[];
}

function termMatches(a: string, b: string): boolean {
  if (a === b) return true;
  // Cheap stemming for space-separated scripts: "parsing" ~ "parse", "boxes" ~ "boxed".
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  return p >= 4 && p >= Math.min(a.length, b.length) - 2;
}

function matched(queryTerms: readonly string[], sentenceTerms: ReadonlySet<string>): Set<string> {
  const hit = new Set<string>();
  for (const q of queryTerms) {
    if (sentenceTerms.has(q)) hit.add(q);
    else for (const s of sentenceTerms) if (termMatches(q, s)) {
      hit.add(q);
      break;
    }
  }
  return hit;
}

/**
 * Share (0..1) of the query's distinct terms found in `text`, with the same matching as
 * quotes (words with light stemming, CJK bigrams). Used to score heading titles.
 */
export function termCoverage(text: string, query: string): number {
  const queryTerms = [...new Set(matchTerms(query))];
  if (queryTerms.length === 0) return 0;
  return matched(queryTerms, new Set(matchTerms(text))).size / queryTerms.length;
}

/**
 * Matches of table rows read with their header: a body row that matches the query on its
 * own also counts its header's matches (a cell means what its column header says), so
 * the best-matching body row beats the header, and a table answer is scored like
 * "header + row". A header counts only when no row of its table matches on its own.
 */
function tableContext(sentences: readonly Sentence[], own: readonly Set<string>[]): Set<string>[] {
  const out = own.map((h) => new Set(h));
  let header = -1;
  let rows: number[] = [];
  const close = () => {
    if (header >= 0 && rows.some((r) => own[r]!.size > 0)) {
      for (const r of rows) if (own[r]!.size > 0) for (const t of own[header]!) out[r]!.add(t);
      out[header] = new Set();
    }
    header = -1;
    rows = [];
  };
  sentences.forEach((s, i) => {
    if (s.tableRow === "header") {
      close();
      header = i;
    } else if (s.tableRow === "row") rows.push(i);
    else close();
  });
  close();
  return out;
}

/**
 * Picks the sentence(s) of `text` that best match `query`, by overlap of words
 * (space-separated scripts) and character bigrams (CJK). A following or preceding
 * sentence is added only when it brings query terms the quote lacks. Table rows are
 * read with their header row (see {@link splitSentences}): the best body row is quoted,
 * never a header alone. With no overlap at all, the first sentence is the quote
 * (score 0). An empty text gives an empty quote.
 */
export function selectQuote(text: string, query: string, options: SelectQuoteOptions = {}): QuoteSpan {
  const { maxSentences = 2, avoid = [] } = options;
  const sentences = splitSentences(text);
  if (sentences.length === 0) return { text: "", start: 0, end: 0, score: 0 };
  const queryTerms = [...new Set(matchTerms(query))];
  const termSets = sentences.map((s) => new Set(matchTerms(s.text)));
  const avoided = new Set(avoid.map((a) => a.trim()).filter(Boolean));
  const isAvoided = sentences.map((s) => avoided.has(s.text));
  const own = termSets.map((t, i) => (isAvoided[i] ? new Set<string>() : matched(queryTerms, t)));
  const hits = tableContext(sentences, own);
  const total = Math.max(queryTerms.length, 1);

  // With no match at all, the first sentence that is not avoided (or the first one).
  let best = Math.max(0, isAvoided.indexOf(false));
  // Exact matches are stronger evidence than stemmed ones ("damaged" vs "item" ~ "items").
  const exact = own.map((h, i) => [...h].filter((t) => termSets[i]!.has(t)).length);
  for (let i = 0; i < sentences.length; i++) {
    const a = hits[i]!.size;
    const b = hits[best]!.size;
    if (a > b || (a === b && a > 0 && exact[i]! > exact[best]!)) best = i;
    // Tie: the denser (shorter) sentence is the sharper quote.
    else if (a === b && a > 0 && exact[i] === exact[best] && sentences[i]!.text.length < sentences[best]!.text.length) best = i;
  }
  let first = best;
  let last = best;
  // A header row names columns and answers nothing: quote it with the row below.
  if (sentences[best]!.tableRow === "header" && sentences[best + 1]?.tableRow === "row") last = best + 1;
  const got = new Set([...hits[best]!, ...hits[last]!]);
  // Table rows are separate records: a neighbouring row is never joined to the answer row.
  while (got.size > 0 && last - first + 1 < maxSentences && !sentences[best]!.tableRow) {
    const gain = (i: number) => (i < 0 || i >= sentences.length ? 0 : [...hits[i]!].filter((t) => !got.has(t)).length);
    const after = gain(last + 1);
    const before = gain(first - 1);
    if (after === 0 && before === 0) break;
    const take = after >= before ? last + 1 : first - 1;
    for (const t of hits[take]!) got.add(t);
    if (take > last) last = take;
    else first = take;
  }
  const start = (sentences[first] as Sentence).start;
  const end = (sentences[last] as Sentence).end;
  return { text: text.slice(start, end), start, end, score: got.size / total };
}
