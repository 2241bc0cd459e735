import { lineCount, type Block } from "./types.js";

/*
 * A definitions clause laid out in two columns without rules (a contract's `"Affiliate"`
 * beside `means, in relation to a party, …`): each term stands level with the first line
 * of its definition. Read by columns, every term would come before every definition; the
 * pairs are joined instead, the term opening its definition's paragraph.
 */

/** Up to five words for a term (`"Business Day"`, `Effective Date`). */
const TERM_WORDS = 5;

/**
 * Joins each term to the definition beside it, where two pairs or more line up: terms of
 * one line and up to five words starting at one place, definitions starting at another
 * to their right, a term's top level (within 0.3 em) with its definition's first line.
 * Returns the blocks with each pair made one (the definition's block, taking the term's
 * line first).
 */
export function joinTerms(blocks: Block[]): Block[] {
  const terms = blocks.filter((b) => (b.kind === "text" || b.kind === "title") && lineCount(b) === 1 && b.text.trim().split(/\s+/).length <= TERM_WORDS && b.text.length <= 48);
  if (terms.length < 2) return blocks;
  const pairs = new Map<Block, Block>();
  for (const t of terms) {
    const em = t.fontSize;
    const beside = blocks.find((d) => d !== t && (d.kind === "text" || d.kind === "list") && d.x0 >= t.x1 + em && Math.abs(d.y0 - t.y0) <= 0.3 * em && Math.abs(d.fontSize - em) <= 0.15 * em);
    if (!beside || terms.includes(beside)) continue;
    // A side heading (`Installation`, a capitalised word in bold beside a section opening
    // with a capital) is a heading, not a term: a term is quoted, marked (`−a`), a name
    // (`PS1`, `posix`), or its definition goes on in lower case (`means …`).
    const heading = /^\p{Lu}\p{Ll}/u.test(t.text.trim());
    if (heading && (t.bold || t.fontSize > 1.05 * beside.fontSize) && !beside.bold && /^\p{Lu}/u.test(beside.text.trim())) continue;
    pairs.set(t, beside);
  }
  // Two pairs or more, terms at one place and definitions at one place.
  const byPlace = new Map<string, Block[]>();
  for (const [t, d] of pairs) {
    const key = `${Math.round(t.x0 / 2)}|${Math.round(d.x0 / 2)}`;
    const list = byPlace.get(key);
    if (list) list.push(t);
    else byPlace.set(key, [t]);
  }
  const joined = new Map<Block, Block>();
  for (const list of byPlace.values()) {
    if (list.length < 2) continue;
    // The terms' column holds nothing else over their stretch (a page's left column of
    // prose, a heading in it level with the right column's paragraph, is no such list).
    const [top, bottom, at] = [Math.min(...list.map((t) => t.y0)), Math.max(...list.map((t) => pairs.get(t)!.y1)), list[0]!.x0];
    if (blocks.some((b) => !list.includes(b) && Math.abs(b.x0 - at) <= 2 && b.y0 < bottom && b.y1 > top && b.x1 <= pairs.get(list[0]!)!.x0)) continue;
    // One definition to a term: a column holding more between most two terms is a
    // section's text beside its side heading.
    const sorted = [...list].sort((a, b) => a.y0 - b.y0);
    const defAt = pairs.get(list[0]!)!.x0;
    const defs = new Set(list.map((t) => pairs.get(t)!));
    const sections = sorted.filter((t, i) => {
      const end = sorted[i + 1]?.y0 ?? Infinity;
      return blocks.some((b) => !defs.has(b) && Math.abs(b.x0 - defAt) <= 2 && b.y0 > pairs.get(t)!.y1 - 1 && b.y0 < end);
    });
    if (sections.length * 2 > sorted.length) continue;
    // Definitions run wider than the terms' column by half again (two columns of an
    // index, or of a page, are as wide as each other).
    const start = pairs.get(list[0]!)!.x0;
    if (Math.max(...list.map((t) => pairs.get(t)!.x1)) - start < 1.5 * (start - at)) continue;
    for (const t of list) {
      const d = pairs.get(t)!;
      joined.set(t, d);
      d.lines = [...t.lines, ...d.lines];
      if (d.lineCount !== undefined) d.lineCount += lineCount(t);
      d.text = `${t.text.trim()} ${d.text}`;
      d.x0 = Math.min(d.x0, t.x0);
      d.y0 = Math.min(d.y0, t.y0);
      d.y1 = Math.max(d.y1, t.y1);
    }
  }
  return joined.size ? blocks.filter((b) => !joined.has(b)) : blocks;
}
