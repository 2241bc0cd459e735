// Han, Hiragana, Katakana, Hangul: scripts written without spaces between words.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORDISH = /[\p{L}\p{N}]/u;

// Words so common in English questions that matching them says nothing.
const STOP = new Set(
  "a an the of to in on at by for with and or is are was were be been do does did what which who whom whose when where why how that this these those it its from as into about than then there their can could should would will may might shall not no i me my you your we our have has had get many much".split(
    " ",
  ),
);

/**
 * Terms for overlap scoring: lower-cased words of space-separated scripts (stop words
 * dropped), and for CJK runs their character bigrams (or the single character of a
 * one-character run). Works on mixed text such as `PDF解析的坐标`.
 */
export function matchTerms(text: string): string[] {
  const terms: string[] = [];
  let word = "";
  let cjk = "";
  const flushWord = () => {
    if (word) {
      const w = word.toLowerCase();
      if (!STOP.has(w)) terms.push(w);
      word = "";
    }
  };
  const flushCjk = () => {
    if (cjk.length === 1) terms.push(cjk);
    for (let i = 0; i + 1 < cjk.length; i++) terms.push(cjk.slice(i, i + 2));
    cjk = "";
  };
  for (const ch of text) {
    if (CJK.test(ch)) {
      flushWord();
      cjk += ch;
    } else if (WORDISH.test(ch)) {
      flushCjk();
      word += ch;
    } else {
      flushWord();
      flushCjk();
    }
  }
  flushWord();
  flushCjk();
  return terms;
}

/** True when the character is written without spaces between words (CJK). */
export function isCjkChar(ch: string): boolean {
  return CJK.test(ch);
}
