/*
 * The list markers every stage of the layout knows: the block builder starts items at
 * them, the row cuts keep a marker with the words a tab after it, bullets drawn as shapes
 * become one of them. Its own module, so those stages need not import one another.
 */

/**
 * A list marker at the start of a line: bullets, `1.`, `1)`, `(a)`, `iv.`, `①`, `一、`. An
 * em dash opens a quotation's attribution (`— CTO, regional bank`), not an item. Numbers
 * in any script's digits (`१.`, `๑.`); letters of the Cyrillic, Greek and Thai alphabets
 * with a bracket (`а)`, `β)`, `(ก)`), which no sentence opens with; Chinese and Japanese
 * full-width forms (`（一）`, `（1）`, `1．`, `1.优化`: no space after them). A line of
 * nothing but two or more such signs (`* * *`, `• • •`, `- - -`) is a novel's scene break
 * or an ornament, not an item; one sign alone is still a marker (set a tab before its words).
 */
export const LIST_MARKER =
  /^(?!(?:[*\u2022\u00b7\u2013-]\s*){2,}$)(?:[\u2022\u25e6\u25aa\u25ab\u25cf\u25cb\u25a0\u25a1\u27a2\u25ba\u25b6\u2713\u2714\u00b7\uf0b7\uf0a7]\s*|[-\u2013*]\s+|\(?\p{Nd}{1,3}[.)]\s+|\p{Nd}{1,3}(?:\.\p{Nd}{1,3}){1,3}\.\s+|\(\p{Nd}{1,3}\)\s*|\(?[a-zA-Z]\)\s+|\([a-zA-Z]\)\s*|\(?[\u0430-\u044f\u0410-\u042f\u03b1-\u03c9\u0391-\u03a9\u0e01-\u0e2e]\)\s+|\([\u0430-\u044f\u0410-\u042f\u03b1-\u03c9\u0391-\u03a9\u0e01-\u0e2e]\)\s*|\(?[ivxIVX]{1,4}[.)]\s+|[\u2460-\u2473]\s*|\p{Nd}{1,3}[\u3001\uff0e]|\p{Nd}{1,3}\.(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])|[（(](?:\p{Nd}{1,3}|[一二三四五六七八九十]{1,3})[）)]\s*|[一二三四五六七八九十]+\u3001)/u;

/**
 * The orders lists are lettered in, besides Latin: Russian (no ё, й, ъ, ы, ь), Greek
 * (final sigma aside), Thai (the obsolete ฃ and ฅ aside) and Korean (`가.`, `나.`, `다.`:
 * the syllables of the consonants in dictionary order).
 */
const ALPHABETS = ["абвгдежзиклмнопрстуфхцчшщэюя", "αβγδεζηθικλμνξοπρστυφχψω", "กขคงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรลวศษสหฬอฮ", "가나다라마바사아자차카타파하"];

/**
 * A letter's place in its list order (`b` = 98, `в` = 1002), so that two items lettered one
 * apart are found in any alphabet; undefined for a character no list is lettered with.
 */
export function letterOrder(letter: string): number | undefined {
  if (/^[a-zA-Z]$/.test(letter)) return letter.charCodeAt(0);
  const lower = letter.toLowerCase();
  for (let i = 0; i < ALPHABETS.length; i++) {
    const at = ALPHABETS[i]!.indexOf(lower);
    if (at >= 0) return 1000 * (i + 1) + at;
  }
  return undefined;
}

/** The value of a number in any script's decimal digits (`१२` = 12, `๓` = 3). */
export function digitsValue(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    // Unicode sets every script's digits zero to nine in a row (some scripts' sets of ten
    // one after another): a digit's value is its distance from the run's start, modulo 10.
    let from = cp;
    if (cp < 48 || cp > 57) while (NUMERAL.test(String.fromCodePoint(from - 1))) from--;
    n = 10 * n + (cp <= 57 ? cp - 48 : (cp - from) % 10);
  }
  return n;
}

const NUMERAL = /^\p{Nd}$/u;
