import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { chineseNumberRank } from "./heading-numbers.js";
import { distinct } from "./segments.js";
import type { Block } from "./types.js";

/**
 * List levels from the indentation of a page's list items (call again after
 * reclassifying). Right-to-left items are indented from the right edge.
 */
export function assignListLevels(blocks: readonly Block[]): void {
  const lists = blocks.filter((b) => b.kind === "list");
  if (lists.length === 0) return;
  const em = lists.reduce((s, b) => s + b.fontSize, 0) / lists.length;
  const rtl = lists.filter((b) => hasRtl(b.text) && rtlWins(countDirection(b.text)));
  // Each direction on its own scale: where an item starts, a distance growing with nesting.
  const level = (items: readonly Block[], start: (b: Block) => number): void => {
    const levels = distinct(items.map(start), 0.6 * em);
    for (const b of items) b.listLevel = Math.max(0, levels.findIndex((x) => Math.abs(x - start(b)) <= 0.6 * em));
  };
  // Nesting shows where an item's words start: markers may be set at the margin for
  // every level (Word's legal numbering), or right-aligned (`I.`, `II.` in a browser).
  // Each list ranks its own levels: another list on the page, set further in, does not
  // push this one's down.
  for (const list of listsOf(blocks, new Set(rtl))) if (!levelByChineseNumbers(list, em)) level(list, (b) => b.textX ?? b.x0);
  level(rtl, (b) => -b.x1);
  nestAcrossDirections(blocks, new Set(rtl), em);
}

/**
 * Levels of a Chinese list whose items all start at one place (every paragraph set in two
 * characters, number and all: `（一）…` and `1. …` alike) from their numbers' ranks
 * (`heading-numbers.ts`): `（一）` over `1.`, though `1.`'s words start further left. Only
 * when every item is so numbered and two ranks or more are found; true when it set them.
 */
function levelByChineseNumbers(items: readonly Block[], em: number): boolean {
  const ranks = items.map((b) => chineseNumberRank(b.text));
  if (ranks.some((r) => r === 0)) return false;
  const starts = items.map((b) => b.markerX ?? b.x0);
  if (Math.max(...starts) - Math.min(...starts) > 0.6 * em) return false;
  const order = [...new Set(ranks)].sort((a, b) => a - b);
  if (order.length < 2) return false;
  items.forEach((b, i) => (b.listLevel = order.indexOf(ranks[i]!)));
  return true;
}

/**
 * A page's left-to-right lists, in the order of `blocks` (reading order once the page is
 * laid out): items one after another, with what is set in under them (an item's second
 * paragraph, a note) between; a block back at the list's margin ends it, and so does one
 * in another column.
 */
function listsOf(blocks: readonly Block[], rtl: ReadonlySet<Block>): Block[][] {
  const lists: Block[][] = [];
  let current: Block[] = [];
  let margin = Infinity;
  let right = -Infinity;
  for (const b of blocks) {
    // A block higher up than the last item, or clear of the items to their right, is in
    // another column: a list there (a comparison slide's second one) is a list of its own.
    const last = current[current.length - 1];
    if (last && (b.y1 <= last.y0 || b.x0 >= right)) {
      lists.push(current);
      current = [];
      margin = Infinity;
      right = -Infinity;
    }
    if (b.kind === "list" && !rtl.has(b)) {
      current.push(b);
      right = Math.max(right, b.x1);
      margin = Math.min(margin, b.x0);
    } else if (current.length && (rtl.has(b) || b.x0 <= margin + 0.5 * b.fontSize || b.kind === "header" || b.kind === "footer" || b.kind === "page-number")) {
      lists.push(current);
      current = [];
      margin = Infinity;
      right = -Infinity;
    }
  }
  if (current.length) lists.push(current);
  return lists;
}

/**
 * A list nested in an item of the other direction (an English list inside a Hebrew item)
 * is indented from its own side, where nothing of the outer list stands: measured alone,
 * its items were level 0. A run of such items, in reading order between two items of
 * the other direction that start at the same edge (the outer list going on), clear of
 * that edge and set tight against both (no list margin between), is nested one level
 * under the item before it. Two separate lists one after the other, or an English line
 * set in a Hebrew list (aligned with it), do not match. A nested list ending the outer
 * list has no item after it and stays at its level.
 */
function nestAcrossDirections(blocks: readonly Block[], rtl: ReadonlySet<Block>, em: number): void {
  const start = (b: Block): number => (rtl.has(b) ? b.x1 : b.x0);
  for (let i = 0; i < blocks.length; i++) {
    const outer = blocks[i]!;
    if (outer.kind !== "list") continue;
    const outerRtl = rtl.has(outer);
    let end = i + 1;
    while (end < blocks.length && blocks[end]!.kind === "list" && rtl.has(blocks[end]!) !== outerRtl) end++;
    const next = blocks[end];
    if (end === i + 1 || next?.kind !== "list" || Math.abs(start(next) - start(outer)) > 0.6 * em) continue;
    const run = blocks.slice(i + 1, end);
    // Clear of the outer item's start edge: its right edge for a right-to-left item.
    if (!run.every((b) => (outerRtl ? b.x1 < outer.x1 - 2 * em : b.x0 > outer.x0 + 2 * em))) continue;
    // Set tight against the items around it: separate lists stand apart (their margins).
    if (run[0]!.y0 - outer.y1 > 0.8 * em || next.y0 - run[run.length - 1]!.y1 > 0.8 * em) continue;
    const base = (outer.listLevel ?? 0) + 1;
    const own = Math.min(...run.map((b) => b.listLevel ?? 0));
    for (const b of run) b.listLevel = base + (b.listLevel ?? 0) - own;
    // The outer list goes on at `next`: the nested items are no outer item themselves.
    i = end - 1;
  }
}
