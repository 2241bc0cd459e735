import { finishBlock } from "./blocks.js";
import { LIST_MARKER } from "./list-marker.js";
import { lineCount, type Block, type Line } from "./types.js";

/*
 * A definitions clause laid out in two columns without rules (a contract's `"Affiliate"`
 * beside `means, in relation to a party, …`): each term stands level with the first line
 * of its definition. Read by columns, every term would come before every definition; the
 * pairs are joined instead, the term opening its definition's paragraph.
 */

/** Up to five words for a term (`"Business Day"`, `Effective Date`). */
const TERM_WORDS = 5;

/** A block that can be a term or a label: one line of up to five words. */
const termLike = (b: Block): boolean => (b.kind === "text" || b.kind === "title") && lineCount(b) === 1 && b.text.trim().split(/\s+/).length <= TERM_WORDS && b.text.length <= 48;

/** A line that finishes its sentence (or leads into what follows: `:`). */
const FINISHED = /[.!?:;]["”’)]?$/;

/**
 * Joins each term to the definition beside it, where two pairs or more line up: terms of
 * one line and up to five words starting at one place, definitions starting at another
 * to their right, a term's top level (within 0.3 em) with its definition's first line.
 * Returns the blocks with each pair made one (the definition's block, taking the term's
 * line first).
 */
export function joinTerms(input: Block[]): Block[] {
  // Marks beside the parts they score are joined first: they are no terms.
  const blocks = joinMarks(input);
  const terms = blocks.filter(termLike);
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

/**
 * An exam's mark, alone on its line: `[5 marks]`, `(5 marks)`, `[10]`, `5 marks`, `[2 pts]`,
 * `[Total: 20 marks]`. A figure alone in round brackets (`(5)`) is one only beside a list
 * item: beside prose or a formula it is an equation's number.
 */
const MARK = /^(?:\[\s*(?:Total:?\s*)?\d{1,3}(?:\s*(?:marks?|pts?|points?))?\s*\]|\(\s*(?:Total:?\s*)?\d{1,3}\s*(?:marks?|pts?|points?)\s*\)|\d{1,3}\s*(?:marks?|pts?|points?))$/i;
const BARE_MARK = /^\(\s*\d{1,3}\s*\)$/;

/**
 * Joins each mark of an exam paper's marks column to the part it scores: a mark alone on
 * its line ({@link MARK}) out to the right of a block, 1 em or more past it, level (within
 * 0.3 em) with that block's first or last line (a part's mark stands by its first line, or
 * by its last when set flush right after the text), the block the nearest to its left on
 * that row, in type of about its size; two marks at least so placed, their right or left
 * edges lined up (within 2 pt). Read as a column, every mark came after every part (and a
 * column of marks made one paragraph); each mark ends its part's text instead.
 */
export function joinMarks(blocks: Block[]): Block[] {
  const markBlocks = blocks.filter((b) => b.kind === "text" && b.lines.length > 0 && b.lines.every((l) => MARK.test(l.text.trim()) || BARE_MARK.test(l.text.trim())));
  const marks = markBlocks.flatMap((b) => b.lines);
  if (marks.length < 2) return blocks;
  const owner = new Map<Line, Block>();
  for (const m of marks) {
    const em = m.fontSize;
    let best: Block | undefined;
    for (const b of blocks) {
      if (b.kind !== "text" && b.kind !== "list" && b.kind !== "title") continue;
      if (b.lines.length === 0 || b.x1 > m.x0 - em || b.y0 > m.y1 || b.y1 < m.y0 || (best && b.x1 <= best.x1)) continue;
      if (markBlocks.includes(b)) continue;
      best = b;
    }
    if (!best || Math.abs(best.fontSize - em) > 0.25 * em) continue;
    const [first, last] = [best.lines[0]!, best.lines[best.lines.length - 1]!];
    if (Math.abs(first.y0 - m.y0) > 0.3 * em && Math.abs(last.y0 - m.y0) > 0.3 * em) continue;
    if (BARE_MARK.test(m.text.trim()) && best.kind !== "list") continue;
    owner.set(m, best);
  }
  // A column of marks: two at least with an edge lined up.
  const placed = [...owner.keys()];
  const lined = (m: Line): boolean => placed.some((o) => o !== m && (Math.abs(o.x1 - m.x1) <= 2 || Math.abs(o.x0 - m.x0) <= 2));
  const joined = new Set(placed.filter(lined));
  if (joined.size < 2) return blocks;
  for (const m of [...joined].sort((a, b) => a.y0 - b.y0)) {
    const b = owner.get(m)!;
    b.lines = [...b.lines, m];
    b.text = `${b.text.trimEnd()} ${m.text.trim()}`;
    [b.x1, b.y0, b.y1] = [Math.max(b.x1, m.x1), Math.min(b.y0, m.y0), Math.max(b.y1, m.y1)];
  }
  // The marks' blocks keep what no part took.
  return blocks.flatMap((b) => {
    if (!markBlocks.includes(b)) return [b];
    const rest = b.lines.filter((l) => !joined.has(l));
    return rest.length ? [blockOf(b, rest, "text")] : [];
  });
}

/**
 * Splits a block where a label in the column to its left stands level with one of its
 * later lines: a Sphinx field list set as a table (`Parameters:` beside its list, then
 * `Returns:` beside one line, set back at the list's edge, that the last item took in).
 * Two labels at least at one place, each of one line and up to five words, level (within
 * 0.3 em) with a line of a block of their size at least 1 em to their right; a block is
 * cut only before a line level with a label and after a line that finished its sentence.
 * Read whole, the value came after every label and ran on from the last parameter.
 */
export function splitAtLabels(blocks: Block[]): Block[] {
  const labels = blocks.filter((b) => termLike(b) && !b.note);
  if (labels.length < 2) return blocks;
  // label → the block beside it and the index of the line level with it.
  const beside = new Map<Block, { block: Block; at: number }>();
  for (const t of labels) {
    const em = t.fontSize;
    for (const d of blocks) {
      if (d === t || d.x0 < t.x1 + em || d.y0 > t.y0 + 0.3 * em || d.y1 < t.y0 || Math.abs(d.fontSize - em) > 0.15 * em || labels.includes(d)) continue;
      const at = d.lines.findIndex((l) => Math.abs(l.y0 - t.y0) <= 0.3 * em);
      if (at >= 0) {
        beside.set(t, { block: d, at });
        break;
      }
    }
  }
  // Labels at one place, two at least; a lone one beside a paragraph's line is no field.
  const byPlace = new Map<number, Block[]>();
  for (const t of beside.keys()) {
    const key = Math.round(t.x0 / 2);
    byPlace.set(key, [...(byPlace.get(key) ?? []), t]);
  }
  const cuts = new Map<Block, Set<number>>();
  for (const list of byPlace.values()) {
    if (list.length < 2) continue;
    for (const t of list) {
      const { block, at } = beside.get(t)!;
      if (at === 0 || !FINISHED.test(block.lines[at - 1]!.text.trimEnd())) continue;
      cuts.set(block, (cuts.get(block) ?? new Set()).add(at));
    }
  }
  if (cuts.size === 0) return blocks;
  return blocks.flatMap((b) => {
    const at = cuts.get(b);
    if (!at) return [b];
    const parts: Block[] = [];
    let from = 0;
    for (const i of [...at].sort((x, y) => x - y)) {
      parts.push(blockOf(b, b.lines.slice(from, i), from === 0 ? b.kind : undefined));
      from = i;
    }
    parts.push(blockOf(b, b.lines.slice(from)));
    return parts;
  });
}

/** A block of `lines` cut from `b`, its kind `kind` or, for a later part, a list item's or text's by its first line. */
function blockOf(b: Block, lines: Line[], kind = LIST_MARKER.test(lines[0]!.text) ? "list" : "text"): Block {
  const part: Block = {
    lines,
    text: "",
    x0: Math.min(...lines.map((l) => l.x0)),
    y0: Math.min(...lines.map((l) => l.y0)),
    x1: Math.max(...lines.map((l) => l.x1)),
    y1: Math.max(...lines.map((l) => l.y1)),
    fontSize: b.fontSize,
    bold: b.bold,
    mono: b.mono,
    kind: kind as Block["kind"],
    ...(b.keepHyphens ? { keepHyphens: true } : {}),
  };
  finishBlock(part);
  return part;
}
