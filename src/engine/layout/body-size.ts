/** The document's body text size, which running text, headings, captions and continuations measure against. */
import type { Block } from "./types.js";
import type { PageLayout } from "./document.js";

/** A footnote's opening: its number or reference sign (`1 See…`, `* Professor…`). */
const NOTE_MARK = /^(?:\d{1,3}|[*†‡§¶])\s*\S/u;

/**
 * The body text size: the most common font size of prose, list items and table cells, by
 * characters (on a slide of a title and a table, the table's text is the body). A size
 * found mostly in footnotes is not the body's: in a law review the notes outweigh the
 * text they annotate, and measured against them every short paragraph would be a heading.
 */
export function bodySize(pages: readonly PageLayout[]): number {
  const sizes = new Map<number, number>();
  for (const p of pages) {
    for (const b of p.blocks) {
      const size = blockSize(b);
      if (size > 0) sizes.set(size, (sizes.get(size) ?? 0) + b.text.length);
    }
  }
  const body = mostCommon(sizes);
  // Most documents: the most common size is the body's, its footnotes (if any) few.
  let inNotes = 0;
  for (const p of pages) inNotes += noteChars(p, body);
  if (inNotes <= 0.5 * (sizes.get(body) ?? 0)) return body;
  for (const p of pages) {
    for (const b of footnotes(p)) {
      const size = blockSize(b);
      if (size > 0) sizes.set(size, sizes.get(size)! - b.text.length);
    }
  }
  return mostCommon(sizes);
}

/** The size a block counts at: its type size for text and list items, its cells' for a table. */
const blockSize = (b: Block): number => (b.kind === "text" || b.kind === "list" ? b.fontSize : b.kind === "table" ? (b.cellSize ?? 0) : 0);

/** Characters of a page's footnotes set in `size` (as {@link footnotes} finds them, for one size). */
function noteChars(p: PageLayout, size: number): number {
  let deepest = -Infinity;
  for (const b of p.blocks) if ((b.kind === "text" || b.kind === "list" || b.kind === "title") && b.fontSize > size && b.y1 > deepest && /\p{L}/u.test(b.text)) deepest = b.y1;
  if (deepest === -Infinity) return 0;
  let chars = 0;
  let marked = false;
  for (const b of p.blocks) {
    if ((b.kind !== "text" && b.kind !== "list") || b.fontSize !== size || b.y0 < deepest) continue;
    if (b.y0 < 0.5 * p.height) return 0;
    chars += b.text.length;
    marked ||= NOTE_MARK.test(b.text);
  }
  return marked ? chars : 0;
}

function mostCommon(sizes: ReadonlyMap<number, number>): number {
  let body = 0;
  let best = -1;
  for (const [size, n] of sizes) if (n > best) [body, best] = [size, n];
  return body;
}

/**
 * A page's footnotes: for each type size, the blocks in it below the last block of
 * larger type (a page number, no letter in it, aside: it may stand under the notes), all
 * in the page's lower half and one of them opening with a note's mark.
 */
function footnotes(p: PageLayout): Set<Block> {
  const foot = new Set<Block>();
  const prose = p.blocks.filter((b) => b.kind === "text" || b.kind === "list" || b.kind === "title");
  // The lowest bottom of the blocks larger than each size: sizes largest first, a running maximum.
  const lowest = new Map<number, number>();
  for (const b of prose) if (/\p{L}/u.test(b.text)) lowest.set(b.fontSize, Math.max(lowest.get(b.fontSize) ?? 0, b.y1));
  const sizes = [...lowest.keys()].sort((a, b) => b - a);
  const below = new Map<number, number>();
  let deepest = -Infinity;
  for (const s of sizes) {
    if (deepest > -Infinity) below.set(s, deepest);
    deepest = Math.max(deepest, lowest.get(s)!);
  }
  const under = new Map<number, Block[]>();
  for (const b of prose) {
    if (b.kind === "title" || !(b.y0 >= (below.get(b.fontSize) ?? Infinity))) continue;
    let list = under.get(b.fontSize);
    if (!list) under.set(b.fontSize, (list = []));
    list.push(b);
  }
  for (const blocks of under.values()) {
    if (blocks.every((b) => b.y0 >= 0.5 * p.height) && blocks.some((b) => NOTE_MARK.test(b.text))) for (const b of blocks) foot.add(b);
  }
  return foot;
}
