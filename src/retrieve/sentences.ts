/** One sentence of a text, with its [start, end) offsets in that text. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
}

// Chinese ends sentences with full-width marks and no space after them; English ends
// with . ! ? followed by a space. A semicolon (；/;) does NOT end a sentence: it joins
// clauses of one statement, and the clause after it often qualifies the one before
// ("退货运费由顾客承担；商品有质量问题时由本店承担。"), so a quote cut there answers wrongly.
const HARD_END = new Set(["。", "！", "？", "!", "?", "…"]);
const CLOSERS = new Set(["”", "’", "」", "』", "）", ")", "\"", "'", "】", "》"]);

/**
 * Splits text into sentences for quoting. Works without spaces between words
 * (Chinese: 。！？) and with them (English: `. ` but not `3.5` or `e.g.x`); a newline
 * is always a break, so list items and table rows are their own "sentences". Semicolons
 * join clauses and never break.
 * Whitespace around a sentence is not part of it.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  const push = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e > s) out.push({ text: text.slice(s, e), start: s, end: e });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\n") {
      push(i);
      continue;
    }
    const isDot = ch === "." || ch === "．";
    if (!HARD_END.has(ch) && !isDot) continue;
    let j = i + 1;
    while (j < text.length && (HARD_END.has(text[j]!) || CLOSERS.has(text[j]!))) j++;
    if (isDot && ch === ".") {
      // An ASCII dot ends a sentence only before whitespace or the end of the text.
      if (j < text.length && !/\s/.test(text[j]!)) continue;
    } else if (ch === "!" || ch === "?") {
      if (j < text.length && !/\s/.test(text[j]!)) continue;
    }
    push(j);
    i = j - 1;
  }
  push(text.length);
  return out;
}
