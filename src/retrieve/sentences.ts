/** One sentence of a text, with its [start, end) offsets in that text. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
  /**
   * Set on table rows: `header` for a header row (HTML `<th>` cells only, or a Markdown
   * row above a `| --- |` line), `row` for a body row. A header names the columns but
   * answers nothing on its own.
   */
  tableRow?: "header" | "row";
}

// Chinese ends sentences with full-width marks and no space after them; English ends
// with . ! ? followed by a space. A semicolon (；/;) does NOT end a sentence: it joins
// clauses of one statement, and the clause after it often qualifies the one before
// ("退货运费由顾客承担；商品有质量问题时由本店承担。"), so a quote cut there answers wrongly.
const HARD_END = new Set(["。", "！", "？", "!", "?", "…"]);
const CLOSERS = new Set(["”", "’", "」", "』", "）", ")", "\"", "'", "】", "》"]);
// Markdown table rows and their `| --- | :-: |` separator line.
const MD_ROW = /^\s*\|.*\|\s*$/;
const MD_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
// Nothing but markup (`<table>`, `</tbody></table>`): not quotable.
const ONLY_TAGS = /^(?:<\/?[a-z][^>]*>\s*)+$/i;

/**
 * Splits text into sentences for quoting. Works without spaces between words
 * (Chinese: 。！？) and with them (English: `. ` but not `3.5` or `e.g.x`); a newline
 * is always a break, so list items are their own "sentences". Semicolons join clauses
 * and never break. Table rows are sentences of their own, whole (punctuation inside a
 * cell does not split them), marked with {@link Sentence.tableRow}: HTML `<tr>…</tr>`
 * and Markdown `| … |` lines. Pure markup and `| --- |` lines are left out.
 * Whitespace around a sentence is not part of it.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const add = (s: number, e: number, tableRow?: Sentence["tableRow"]) => {
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    const piece = text.slice(s, e);
    if (e > s && !ONLY_TAGS.test(piece)) out.push({ text: piece, start: s, end: e, ...(tableRow ? { tableRow } : {}) });
  };
  const lines: { start: number; end: number; text: string }[] = [];
  for (let at = 0; at <= text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl < 0 ? text.length : nl;
    lines.push({ start: at, end, text: text.slice(at, end) });
    at = end + 1;
  }
  lines.forEach((line, n) => {
    if (MD_SEPARATOR.test(line.text) && line.text.includes("-")) return;
    if (MD_ROW.test(line.text)) {
      // A Markdown table line: whole, never split inside.
      add(line.start, line.end, MD_SEPARATOR.test(lines[n + 1]?.text ?? "") ? "header" : "row");
      return;
    }
    splitLine(text, line.start, line.end, add);
  });
  return out;
}

/** Sentences of one line, `text.slice(from, to)`, each passed to `add`. */
function splitLine(text: string, from: number, to: number, add: (s: number, e: number, tableRow?: Sentence["tableRow"]) => void): void {
  let start = from;
  for (let i = from; i < to; i++) {
    const ch = text[i]!;
    if (ch === "<" && text.startsWith("<tr", i) && /[\s>]/.test(text[i + 3] ?? "")) {
      // An HTML row: one sentence from <tr> to </tr>, whatever its cells hold.
      const close = text.indexOf("</tr>", i);
      const end = close < 0 || close >= to ? to : close + "</tr>".length;
      add(start, i);
      const row = text.slice(i, end);
      add(i, end, /<td[\s>]/i.test(row) || !/<th[\s>]/i.test(row) ? "row" : "header");
      start = end;
      i = end - 1;
      continue;
    }
    const isDot = ch === "." || ch === "．";
    if (!HARD_END.has(ch) && !isDot) continue;
    let j = i + 1;
    while (j < to && (HARD_END.has(text[j]!) || CLOSERS.has(text[j]!))) j++;
    if (isDot && ch === ".") {
      // An ASCII dot ends a sentence only before whitespace or the end of the line.
      if (j < to && !/\s/.test(text[j]!)) continue;
    } else if (ch === "!" || ch === "?") {
      if (j < to && !/\s/.test(text[j]!)) continue;
    }
    add(start, j);
    start = j;
    i = j - 1;
  }
  add(start, to);
}
