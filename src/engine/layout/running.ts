/**
 * Running text: headers, footers and page numbers, found as text repeated in the margins
 * across pages, in one slot page after page, or set a little further in than the margin.
 */
import { NUMBERED_HEADING } from "./classify.js";
import type { PageLayout } from "./document.js";
import { bodySize } from "./body-size.js";
import { frameSize, fromFrame, toFrame, type Frame } from "./frame.js";
import { digitsValue } from "./list-marker.js";
import { noteNumber } from "./row-joins.js";
import { lineCount, type Block, type BlockKind } from "./types.js";

/**
 * A page number, alone or with its words (`Page 3 of 12`, `Seite 3 von 12`, Arabic `صفحة ١
 * من ٢`, Persian `صفحه ۱ از ۲`, Hebrew `עמוד 1 מתוך 2`), in any script's digits.
 */
const PAGE_NUMBER =
  /^(?:(?:page|p\.|seite|página|صفحة|صفحه|עמוד)\s*)?[-–—]?\s*(?:\p{Nd}{1,4}|[ivxlcdm]{1,6})\s*[-–—]?(?:\s*(?:of|\/|von|de|من|از|מתוך)\s*\p{Nd}{1,4})?$|^第\s*\d{1,4}\s*页(?:\s*[,，/]?\s*共\s*\d{1,4}\s*页)?$|^\p{Nd}{1,4}\s*\/\s*\p{Nd}{1,4}$/iu;
/** Running text with its numbers, in any script's digits (Arabic-Indic `١`), made one. */
const normalise = (s: string): string => s.toLowerCase().replace(/\p{Nd}+/gu, "#").replace(/\s+/g, " ").trim();

/** Appends `value` to the list under `key`. */
function collect<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Running text set further in than the margin zone (LaTeX's article class puts the page
 * number a sixth of the page up, a report's running head and number an eighth down): the
 * first row of blocks of a page, or its last, in the outer quarter and no larger than
 * body text, unless running text was found nearer the edge. A lone number there that
 * counts up with the pages, or other text found again in the same slot (digits aside),
 * on `minPages` pages (two at least) is a page number, or a header or footer; so is one
 * line in one slot on most pages (three at least), whatever it says; in a
 * document of one or two pages, a lone number there that is its page's number is one. Chapter
 * titles that open pages are larger, bold or numbered (`Chapter 2` with no page number
 * beside it), so they stay titles.
 */
function markDeepRunning(pages: readonly PageLayout[], minPages: number, body: number): void {
  const numbers = new Map<string, { page: number; block: Block }[]>();
  const texts = new Map<string, { page: number; block: Block }[]>();
  const slots = new Map<string, { page: number; block: Block }[]>();
  // `12`, `- 12 -`, or a front matter's `v` (its value: `v` on page 5 counts with it).
  const pageNo = (b: Block): RegExpExecArray | null => /^[-\u2013\u2014]?\s*(\p{Nd}{1,4}|[ivxl]{1,6})\s*[-\u2013\u2014]?$/u.exec(b.text.trim());
  for (const page of pages) {
    // Judged as shown: a page laid out in a turned frame keeps its running text upright;
    // text set level on a sheet turned by /Rotate is judged on the sheet (`views`).
    for (const [p, original] of views(page)) {
      const free = p.blocks.filter((b) => b.kind === "text");
      if (free.length === 0) continue;
      const first = free.reduce((a, b) => (b.y0 < a.y0 ? b : a));
      const last = free.reduce((a, b) => (b.y1 > a.y1 ? b : a));
      // Running text already found nearer the edge: what follows it is the page's content.
      const furniture = p.blocks.filter((b) => b.kind === "header" || b.kind === "footer" || b.kind === "page-number");
      const rows = [
        ["top", furniture.some((b) => b.y1 <= first.y0) ? [] : free.filter((b) => b.y0 < first.y1 && b.y1 <= 0.25 * p.height)],
        ["bottom", furniture.some((b) => b.y0 >= last.y1) ? [] : free.filter((b) => b.y1 > last.y0 && b.y0 >= 0.75 * p.height)],
      ] as const;
      for (const [zone, row] of rows) {
        const numbered = row.some((b) => pageNo(b));
        for (const b of row) {
          if (b.fontSize > 1.05 * body) continue;
          const m = pageNo(b);
          if (m && hangsBeforeNote(b, row)) continue;
          if (m) {
            const n = /^\p{Nd}/u.test(m[1]!) ? digitsValue(m[1]!) : (noteNumber(m[1]!) ?? NaN);
            collect(numbers, `${zone}|${n - p.number}`, { page: p.number, block: original(b) });
            continue;
          }
          // A bold line, or a numbered one (`Chapter 2`, `Exercise 3`) with no page number
          // beside it, opens the page's content; running heads sit in one slot.
          if (b.bold || (!numbered && NUMBERED_HEADING.test(b.text.trim()))) continue;
          collect(texts, `${zone}|${Math.round(b.y0 / 2)}|${normalise(b.text)}`, { page: p.number, block: original(b) });
          if (lineCount(b) === 1 && standsApart(b, zone, free)) collect(slots, `${zone}|${Math.round(b.y0 / 2)}|${Math.round(b.fontSize * 2)}`, { page: p.number, block: original(b) });
        }
      }
    }
  }
  const enough = Math.max(2, minPages);
  const onPages = (found: readonly { page: number }[]): number => new Set(found.map((f) => f.page)).size;
  // A document of a page or two has no run to count: its own page's number, alone there, is enough.
  // Once the pages' own numbers are confirmed in one place, a lone one elsewhere (at the
  // foot of a chapter's first page, the others at the head) is one too.
  const own = [...numbers].some(([key, found]) => key.endsWith("|0") && onPages(found) >= enough);
  for (const [key, found] of numbers) if (onPages(found) >= ((pages.length <= 2 || own) && key.endsWith("|0") ? 1 : enough)) for (const f of found) f.block.kind = "page-number";
  for (const [key, found] of texts) {
    if (onPages(found) < enough) continue;
    for (const f of found) f.block.kind = key.startsWith("top") ? "header" : "footer";
  }
  // A running head whose wording changes with every chapter and side (`Introduction —
  // Revision 4`, `Pump Station Operator Manual — Introduction`): one line in one slot on
  // most pages.
  const most = Math.max(3, Math.ceil(0.6 * pages.length));
  for (const [key, found] of slots) {
    if (onPages(found) < most) continue;
    for (const f of found) if (f.block.kind === "text") f.block.kind = key.startsWith("top") ? "header" : "footer";
  }
}

/**
 * A page as shown: for one laid out in a turned frame, copies of its blocks with their
 * boxes in display space, and the way back from a copy to its block.
 */
function shown(p: PageLayout): [PageLayout, (b: Block) => Block] {
  const frame = p.frame;
  if (!frame || frame.angle === 0) return [p, (b) => b];
  const back = new Map<Block, Block>();
  const blocks = p.blocks.map((b) => {
    const copy = { ...b, ...fromFrame(b, frame) };
    back.set(copy, b);
    return copy;
  });
  return [{ ...p, width: frame.width, height: frame.height, blocks }, (b) => back.get(b) ?? b];
}

/**
 * The frame of a page's sheet as it lies unturned: display space turned back by a quarter
 * `/Rotate` (90 or 270; a sheet turned upside down keeps its margins where they were).
 */
function sheetFrame(p: PageLayout): Frame | undefined {
  const rotate = (((p.rotate ?? 0) % 360) + 360) % 360;
  if (rotate !== 90 && rotate !== 270) return undefined;
  const [width, height] = p.frame ? [p.frame.width, p.frame.height] : [p.width, p.height];
  return { angle: rotate === 90 ? 270 : 90, width, height };
}

/** Whether a block reads sideways as its page is shown: set sideways in its frame, or level in a frame turned sideways. */
function sidewaysShown(p: PageLayout, b: Block): boolean {
  const turned = p.frame?.angle === 90 || p.frame?.angle === 270;
  return (b.aside === "sideways") !== turned;
}

/**
 * The views a page's running text is judged in: the page as shown ({@link shown}), and,
 * for a sheet turned a quarter by `/Rotate` (pdflscape shows a landscape page so, its
 * body set upright as shown), the blocks sideways as shown on the sheet as it lies: set
 * level there, where the book's other pages have their running head and page number.
 */
function views(p: PageLayout): [PageLayout, (b: Block) => Block][] {
  const [asShown, back] = shown(p);
  const sheet = sheetFrame(p);
  if (!sheet) return [[asShown, back]];
  const level: Block[] = [];
  const onSheet: Block[] = [];
  const fromSheet = new Map<Block, Block>();
  for (const b of asShown.blocks) {
    if (!sidewaysShown(p, b)) {
      level.push(b);
      continue;
    }
    const copy = { ...b, ...toFrame(b, sheet) };
    fromSheet.set(copy, back(b));
    onSheet.push(copy);
  }
  const size = frameSize(sheet);
  return [
    [{ ...asShown, blocks: level }, back],
    [{ ...asShown, width: size.width, height: size.height, blocks: onSheet }, (b) => fromSheet.get(b) ?? b],
  ];
}

/**
 * Whether a block at the top (bottom) of its page stands apart from the text under (over)
 * it: a gap half as wide again as the usual gap between the page's other blocks (a
 * transcript's first line, one paragraph of many alike, does not).
 */
function standsApart(b: Block, zone: "top" | "bottom", blocks: readonly Block[]): boolean {
  const sorted = blocks.filter((o) => o !== b).sort((a, c) => a.y0 - c.y0);
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.y0 > sorted[i - 1]!.y1) gaps.push(sorted[i]!.y0 - sorted[i - 1]!.y1);
  gaps.sort((a, c) => a - c);
  const usual = gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 0;
  let gap = Infinity;
  for (const o of blocks) {
    if (o === b) continue;
    const d = zone === "top" ? o.y0 - b.y1 : b.y0 - o.y1;
    if (d > -1 && d < gap) gap = d;
  }
  return gap > 1.5 * usual && gap > 0.5 * (b.y1 - b.y0);
}

/**
 * Whether a lone number opens the first line of a block of two lines or more beside it,
 * within 3 em to its right: a footnote's number hanging a tab before its text, not a page
 * number (a running footer's `12⇥Annual report` is one line).
 */
function hangsBeforeNote(num: Block, blocks: readonly Block[]): boolean {
  // Blocks keep only their boxes here (lines are dropped): the block's top is its first line's.
  const h = num.y1 - num.y0;
  return blocks.some((o) => o !== num && lineCount(o) >= 2 && o.x0 > num.x1 && o.x0 - num.x1 <= 3 * num.fontSize && Math.abs(o.y0 - num.y0) <= 0.5 * h);
}

/**
 * Where a block stands in its page's margins, in display space (a page laid out in a
 * turned frame, a sideways table's, keeps its page number and running text upright):
 * the top or bottom band, a share of the page's height deep, or a strip up a side (a
 * publisher's `Downloaded from` line, a chapter's thumb tab) set sideways, a share of its
 * width wide. A page turned landscape among portrait ones keeps the margins it
 * had in points: its bands are as deep as the usual page's (`usual`, its height).
 */
function marginOf(p: PageLayout, b: Block, share: number, usual: number): Zone | undefined {
  const r = p.frame && p.frame.angle !== 0 ? fromFrame(b, p.frame) : b;
  const [w, h] = p.frame ? [p.frame.width, p.frame.height] : [p.width, p.height];
  // Set level on a sheet turned a quarter by /Rotate: in the sheet's margins (`views`).
  const sheet = sheetFrame(p);
  if (sheet && sidewaysShown(p, b)) {
    const s = toFrame(r, sheet);
    const sh = frameSize(sheet).height;
    const deep = share * Math.max(sh, usual);
    return s.y1 <= deep ? "top" : s.y0 >= sh - deep ? "bottom" : undefined;
  }
  const depth = share * Math.max(h, usual);
  if (r.y1 <= depth) return "top";
  if (r.y0 >= h - depth) return "bottom";
  if (sidewaysShown(p, b) && (r.x1 <= share * w || r.x0 >= (1 - share) * w)) return "side";
  return undefined;
}

type Zone = "top" | "bottom" | "side";

/** The median of the pages' display heights: the document's usual page. */
function usualHeight(pages: readonly PageLayout[]): number {
  const hs = pages.map((p) => p.frame?.height ?? p.height).sort((a, b) => a - b);
  return hs.length ? hs[Math.floor(hs.length / 2)]! : 0;
}

/**
 * Repeated text in the top/bottom margins → header / footer; lone numbers there → page
 * number. A strip up a side margin repeated on the pages is a footer (it runs beside
 * every page, as a footer does under it); a lone number there is no page number.
 */
export function markRunning(pages: readonly PageLayout[], share: number): void {
  const counts = new Map<string, Set<number>>();
  // The texts under each key: digits aside alike, themselves alike or not.
  const wordings = new Map<string, Set<string>>();
  const usual = usualHeight(pages);
  const zone = (p: PageLayout, b: Block): Zone | undefined => marginOf(p, b, share, usual);
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind === "table" || b.kind === "image") continue;
      const z = zone(p, b);
      if (!z) continue;
      const key = `${z}|${normalise(b.text)}`;
      let set = counts.get(key);
      if (!set) counts.set(key, (set = new Set()));
      set.add(p.number);
      let said = wordings.get(key);
      if (!said) wordings.set(key, (said = new Set()));
      said.add(b.text.trim());
    }
  }
  // Running text repeats on 40 % of pages, or on 3 (chapter headers change by chapter).
  const minPages = pages.length <= 2 ? 2 : Math.max(2, Math.min(3, Math.ceil(pages.length * 0.4)));
  // Set half as large again as the body and numbered apart, it is a title repeated (a
  // deck's slides titled alike but for a number), not running text; a letterhead says
  // the same on every page. (The body is measured before any running text is set aside:
  // on a slide of a title and a table, the footers are most of it.)
  const body = bodySize(pages);
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind === "table" || b.kind === "image") continue;
      const z = zone(p, b);
      if (!z) continue;
      const text = b.text.trim();
      const key = `${z}|${normalise(text)}`;
      if (PAGE_NUMBER.test(text)) {
        if (z !== "side" && !hangsBeforeNote(b, p.blocks)) b.kind = "page-number";
      } else if (body > 0 && b.fontSize >= 1.5 * body && (wordings.get(key)?.size ?? 0) > 1) continue;
      else if ((counts.get(key)?.size ?? 0) >= minPages) b.kind = z === "top" ? "header" : "footer";
    }
  }
  markDeepRunning(pages, minPages, body);
  // Running text whose wording changes (chapter titles in headers) still sits where the
  // confirmed running text sits, in the same size: same slot on 3+ pages → same kind. A
  // slot may lie lower than the zone (LaTeX's report class sets its head an eighth of the
  // page down), so one line in the page's outer quarter is enough: body text does not
  // start in the running head's exact place and size.
  // Blocks set level on a sheet turned by /Rotate are placed on the sheet (`views`).
  const placed = (p: PageLayout, b: Block): { y0: number; y1: number; height: number } => {
    const sheet = sheetFrame(p);
    if (!sheet || !sidewaysShown(p, b)) return { y0: b.y0, y1: b.y1, height: p.height };
    const r = toFrame(p.frame && p.frame.angle !== 0 ? fromFrame(b, p.frame) : b, sheet);
    return { y0: r.y0, y1: r.y1, height: frameSize(sheet).height };
  };
  const slot = (p: PageLayout, b: Block): string => `${Math.round(placed(p, b).y0)}|${Math.round(b.fontSize * 2)}`;
  const slots = new Map<string, { kind: BlockKind; pages: Set<number> }>();
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind !== "header" && b.kind !== "footer") continue;
      const key = slot(p, b);
      let entry = slots.get(key);
      if (!entry) slots.set(key, (entry = { kind: b.kind, pages: new Set() }));
      entry.pages.add(p.number);
    }
  }
  for (const p of pages) {
    for (const b of p.blocks) {
      // A numbered section's head (`1.3. STORAGE TANKS`) may have been read as an item.
      const at = placed(p, b);
      if ((b.kind !== "text" && b.kind !== "list") || lineCount(b) !== 1 || (at.y1 > 0.25 * at.height && at.y0 < 0.75 * at.height)) continue;
      const entry = slots.get(slot(p, b));
      if (entry && entry.pages.size >= 3) b.kind = entry.kind;
    }
  }
}
