/**
 * Language-neutral term extraction shared by the hash embedder and full-text search.
 *
 * Chinese, Japanese and Korean text has no spaces between words, so a whitespace
 * tokenizer would see a whole sentence as one "word". CJK runs are cut into character
 * unigrams and bigrams instead (the usual n-gram approach of CJK search engines);
 * other scripts are split into lower-cased words.
 */

// Han, kana and Hangul: scripts written without spaces between words.
const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}";
const TOKEN = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, "gu");
const CJK_RUN = new RegExp(`^[${CJK}]`, "u");

/** One run of the text: a word, or a run of CJK characters. */
export interface TextRun {
  text: string;
  cjk: boolean;
}

/** NFKC-normalised, lower-cased runs of letters and digits; punctuation is dropped. */
export function textRuns(text: string): TextRun[] {
  const normal = text.normalize("NFKC").toLowerCase();
  const runs: TextRun[] = [];
  for (const match of normal.matchAll(TOKEN)) {
    runs.push({ text: match[0], cjk: CJK_RUN.test(match[0]) });
  }
  return runs;
}

export interface TermOptions {
  /**
   * Add bigrams of consecutive non-CJK words (`new york` → `new_york`).
   * @default false
   */
  wordBigrams?: boolean;
  /**
   * Emit single CJK characters. Documents need them (so a one-character query matches);
   * queries are more precise and much cheaper without them, because common characters
   * (的, 是) match nearly every document. When false, a one-character run still gives
   * its character.
   * @default true
   */
  cjkUnigrams?: boolean;
}

/**
 * The terms of a text: words, CJK character unigrams and bigrams, and optionally word
 * bigrams. Repeats are kept (term frequency matters to callers).
 */
export function textTerms(text: string, { wordBigrams = false, cjkUnigrams = true }: TermOptions = {}): string[] {
  const terms: string[] = [];
  let previousWord: string | undefined;
  for (const run of textRuns(text)) {
    if (run.cjk) {
      // Array.from splits by code point, so characters outside the BMP stay whole.
      const chars = Array.from(run.text);
      for (let i = 0; i < chars.length; i++) {
        if (cjkUnigrams || chars.length === 1) terms.push(chars[i]!);
        if (i + 1 < chars.length) terms.push(chars[i]! + chars[i + 1]!);
      }
      previousWord = undefined;
    } else {
      terms.push(run.text);
      if (wordBigrams && previousWord !== undefined) terms.push(`${previousWord}_${run.text}`);
      previousWord = run.text;
    }
  }
  return terms;
}
