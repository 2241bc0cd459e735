import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { DOT_LEADER, FIGURE_CAPTION, TABLE_CAPTION, assignListLevels } from "./classify.js";
import type { Frame } from "./frame.js";
import { noteNumber } from "./row-joins.js";
import { joinTableHeads } from "./table-heads.js";
import { isCjk, lineCount, type Block, type BlockKind, type GridTable } from "./types.js";

/** One page after page-level layout: blocks already in reading order. */
export interface PageLayout {
  /** 1-based page number. */
  number: number;
  /** Size of the layout space (the frame's, when the page is read sideways). */
  width: number;
  height: number;
  /** Set when the page was laid out in a turned frame; boxes map back through it. */
  frame?: Frame;
  blocks: Block[];
}

/** An entry of the document outline (PDF bookmarks), depth 0 at the top. */
export interface OutlineEntry {
  title: string;
  depth: number;
  /** 1-based page the entry points to, when known: only a block on that page matches. */
  page?: number;
}

/** A block placed in the document, with links as indices into the returned list. */
export interface LaidElement {
  block: Block;
  page: number;
  continuationOf?: number;
  refIndex?: number;
}

/** Tuning for {@link finishDocument}. */
export interface DocumentOptions {
  /** Share of the page height at the top and bottom where running text lives. @default 0.1 */
  marginShare?: number;
}

const PAGE_NUMBER =
  /^(?:(?:page|p\.|seite|página)\s*)?[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–—]?(?:\s*(?:of|\/|von|de)\s*\d{1,4})?$|^第\s*\d{1,4}\s*页(?:\s*[,，/]?\s*共\s*\d{1,4}\s*页)?$|^\d{1,4}\s*\/\s*\d{1,4}$/i;
const NUMBERED_HEADING = /^(?:\d+(?:\.\d+)*\.?\s+\S|第[一二三四五六七八九十百千\d]+[章节部分篇条]|[一二三四五六七八九十]+、|(?:chapter|section|part|appendix)\s+[\dA-Z]+)/i;
const TERMINAL = /[.!?。！？:：;；؟؛۔"”’)）\]]$/;
/** Text wrapped in quotation marks, a full stop or the like after it. */
const QUOTED = /^["\u201c\u201e\u00ab].*["\u201d\u00bb][.!?]?$/su;
const normalise = (s: string): string => s.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").trim();
const outlineKey = (s: string): string => s.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, "");

/**
 * The document-wide decisions, made once every page is laid out: running headers,
 * footers and page numbers (text repeated in the margins across pages), heading levels
 * (font size and weight statistics, the outline when present), caption links and
 * continuations across page and column breaks. Returns the blocks in reading order.
 */
export function finishDocument(pages: readonly PageLayout[], outline: readonly OutlineEntry[] = [], options: DocumentOptions = {}): LaidElement[] {
  const { marginShare = 0.1 } = options;
  markRunning(pages, marginShare);
  joinTableHeads(pages);
  markPhotoCaptions(pages, bodySize(pages));
  markHeadings(pages, outline);
  joinChapterLabels(pages);
  // Numbered headings started out as list items: levels again, without them.
  for (const p of pages) assignListLevels(p.blocks);
  for (const p of pages) {
    // Running text goes to the page's ends whatever the column cuts made of it.
    const rank = (b: Block): number =>
      b.kind === "header" || (b.kind === "page-number" && b.y1 <= p.height / 2) ? 0 : b.kind === "footer" || b.kind === "page-number" ? 2 : 1;
    p.blocks = p.blocks.map((b, i) => ({ b, i })).sort((x, y) => rank(x.b) - rank(y.b) || x.i - y.i).map((x) => x.b);
  }
  const out: LaidElement[] = [];
  const indexOf = new Map<Block, number>();
  for (const p of pages) {
    for (const b of p.blocks) {
      indexOf.set(b, out.length);
      out.push({ block: b, page: p.number });
    }
  }
  linkCaptions(pages);
  for (const el of out) {
    if (el.block.ref) {
      const i = indexOf.get(el.block.ref);
      if (i !== undefined) el.refIndex = i;
    }
  }
  markContinuations(pages, out, indexOf);
  return out;
}

const flowKinds = new Set<BlockKind>(["text", "list", "title", "table", "code", "formula", "image", "figure-caption", "table-caption"]);

/**
 * The body text size: the most common font size of prose, list items and table cells, by
 * characters (on a slide of a title and a table, the table's text is the body).
 */
function bodySize(pages: readonly PageLayout[]): number {
  const sizes = new Map<number, number>();
  for (const p of pages) {
    for (const b of p.blocks) {
      const size = b.kind === "text" || b.kind === "list" ? b.fontSize : b.kind === "table" ? (b.cellSize ?? 0) : 0;
      if (size > 0) sizes.set(size, (sizes.get(size) ?? 0) + b.text.length);
    }
  }
  let body = 0;
  let best = -1;
  for (const [size, n] of sizes) if (n > best) [body, best] = [size, n];
  return body;
}

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
  const pageNo = (b: Block): RegExpExecArray | null => /^[-\u2013\u2014]?\s*(\d{1,4}|[ivxl]{1,6})\s*[-\u2013\u2014]?$/.exec(b.text.trim());
  for (const p of pages) {
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
        if (m) {
          const n = /^\d/.test(m[1]!) ? Number(m[1]) : (noteNumber(m[1]!) ?? NaN);
          collect(numbers, `${zone}|${n - p.number}`, { page: p.number, block: b });
          continue;
        }
        // A bold line, or a numbered one (`Chapter 2`, `Exercise 3`) with no page number
        // beside it, opens the page's content; running heads sit in one slot.
        if (b.bold || (!numbered && NUMBERED_HEADING.test(b.text.trim()))) continue;
        collect(texts, `${zone}|${Math.round(b.y0 / 2)}|${normalise(b.text)}`, { page: p.number, block: b });
        if (lineCount(b) === 1 && standsApart(b, zone, free)) collect(slots, `${zone}|${Math.round(b.y0 / 2)}|${Math.round(b.fontSize * 2)}`, { page: p.number, block: b });
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

/** Repeated text in the top/bottom margins → header / footer; lone numbers there → page number. */
function markRunning(pages: readonly PageLayout[], share: number): void {
  const counts = new Map<string, Set<number>>();
  // The texts under each key: digits aside alike, themselves alike or not.
  const wordings = new Map<string, Set<string>>();
  const zone = (p: PageLayout, b: Block): "top" | "bottom" | undefined =>
    b.y1 <= p.height * share ? "top" : b.y0 >= p.height * (1 - share) ? "bottom" : undefined;
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
      if (PAGE_NUMBER.test(text)) b.kind = "page-number";
      else if (body > 0 && b.fontSize >= 1.5 * body && (wordings.get(key)?.size ?? 0) > 1) continue;
      else if ((counts.get(key)?.size ?? 0) >= minPages) b.kind = z === "top" ? "header" : "footer";
    }
  }
  markDeepRunning(pages, minPages, body);
  // Running text whose wording changes (chapter titles in headers) still sits where the
  // confirmed running text sits, in the same size: same slot on 3+ pages → same kind. A
  // slot may lie lower than the zone (LaTeX's report class sets its head an eighth of the
  // page down), so one line in the page's outer quarter is enough: body text does not
  // start in the running head's exact place and size.
  const slot = (b: Block): string => `${Math.round(b.y0)}|${Math.round(b.fontSize * 2)}`;
  const slots = new Map<string, { kind: BlockKind; pages: Set<number> }>();
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind !== "header" && b.kind !== "footer") continue;
      const key = slot(b);
      let entry = slots.get(key);
      if (!entry) slots.set(key, (entry = { kind: b.kind, pages: new Set() }));
      entry.pages.add(p.number);
    }
  }
  for (const p of pages) {
    for (const b of p.blocks) {
      // A numbered section's head (`1.3. STORAGE TANKS`) may have been read as an item.
      if ((b.kind !== "text" && b.kind !== "list") || lineCount(b) !== 1 || (b.y1 > 0.25 * p.height && b.y0 < 0.75 * p.height)) continue;
      const entry = slots.get(slot(b));
      if (entry && entry.pages.size >= 3) b.kind = entry.kind;
    }
  }
}

/** Titles: larger or bold short blocks, levels by style rank; the outline overrides. */
function markHeadings(pages: readonly PageLayout[], outline: readonly OutlineEntry[]): void {
  const body = bodySize(pages);
  // Style rank: bigger first, then bold before regular.
  const styleKey = (b: Block): string => `${b.fontSize}|${b.bold ? 1 : 0}`;
  // Title key → the levels and pages the outline gives it. Matching on the entry's own
  // page keeps a table of contents line from being taken for the heading it lists.
  const outlineLevels = new Map<string, { level: number; page?: number }[]>();
  for (const o of outline) {
    const key = outlineKey(o.title);
    if (!key) continue;
    let list = outlineLevels.get(key);
    if (!list) outlineLevels.set(key, (list = []));
    list.push({ level: o.depth + 1, ...(o.page !== undefined ? { page: o.page } : {}) });
  }
  const outlineLevel = (text: string, page: number): number | undefined =>
    outlineLevels.size === 0 ? undefined : outlineLevels.get(outlineKey(text))?.find((e) => e.page === undefined || e.page === page)?.level;
  const candidates: Block[] = [];
  const styleLevel = new Map<string, number>();
  for (const p of pages) {
    // A table of contents (two dot leaders to a page number or more): its entries set
    // without leaders (chapters, in bold) end in their page number too, and are no more
    // headings than the dotted ones.
    let leaders = 0;
    for (const b of p.blocks) leaders += b.text.match(/(?:\.\s?){5,}\s*\d{1,4}\b/g)?.length ?? 0;
    const contents = leaders >= 2;
    for (const b of p.blocks) {
      if (b.kind !== "text" && b.kind !== "list") continue;
      const text = b.text.trim();
      if (contents && /\S\s+\d{1,4}$/.test(text)) continue;
      const fromOutline = outlineLevel(text, p.number);
      if (fromOutline !== undefined) {
        b.kind = "title";
        b.headingLevel = Math.min(fromOutline, 9);
        const key = styleKey(b);
        styleLevel.set(key, Math.min(styleLevel.get(key) ?? 99, b.headingLevel));
        continue;
      }
      const cjk = isCjk(text[0] ?? "");
      if (lineCount(b) > 3 || text.length > (cjk ? 60 : 160) || text.length === 0) continue;
      // A heading says something: not a bare number, not a table-of-contents line.
      if (!/[\p{L}]/u.test(text) || DOT_LEADER.test(text)) continue;
      if (/[,;，；、]$/.test(text)) continue;
      // A quotation set large (a pull quote) is the article's text, not its heading; a
      // bulleted item set large (a slide's one point) is an item.
      if (QUOTED.test(text) || (b.kind === "list" && BULLET.test(text))) continue;
      // Nor is an article's jump line (`Continued on page 2`, `Bridge, continued from page 1`),
      // a cover page's connective (`between`, `and`) or date (`Dated 12 March 2024`).
      // (A date is a heading in a diary or a monthly report: only one centred on the first
      // page, or one that says `Dated`, is the cover's.)
      const centred = Math.abs(b.x0 + b.x1 - p.width) <= 0.1 * p.width;
      const coverDate = DATE_LINE.test(text) && ((p === pages[0] && centred) || /^date/i.test(text));
      if (GOES_ON.test(text) || CAME_FROM.test(text) || CONNECTIVE.test(text) || coverDate) continue;
      // Nor is a form's row or a key and its value (`Total due⇥€20,046.48`, in bold).
      if (b.keyed) continue;
      const larger = body > 0 && b.fontSize >= body * 1.12;
      const boldShort = b.bold && text.length <= (cjk ? 40 : 100) && !/[.。]$/.test(text);
      const numbered = NUMBERED_HEADING.test(text) && (b.bold || larger);
      if (larger || boldShort || numbered) candidates.push(b);
    }
  }
  const styles = [...new Set(candidates.map(styleKey))].sort((a, b) => {
    const [sa, ba] = a.split("|").map(Number) as [number, number];
    const [sb, bb] = b.split("|").map(Number) as [number, number];
    return sb - sa || bb - ba;
  });
  // Outline headings' styles, ranked like `styles`, with their levels.
  const rank = (key: string): [number, number] => key.split("|").map(Number) as [number, number];
  const above = (a: string, b: string): boolean => {
    const [sa, ba] = rank(a);
    const [sb, bb] = rank(b);
    return sa > sb || (sa === sb && ba > bb);
  };
  for (const b of candidates) {
    b.kind = "title";
    const key = styleKey(b);
    // A heading the outline does not list takes the level of outline headings styled
    // alike, else the level under the deepest outline heading styled above it (a bold
    // label in a bookmarked report is no chapter), else its style's rank.
    let level = styleLevel.get(key);
    if (level === undefined) {
      let under = 0;
      for (const [k, l] of styleLevel) if (above(k, key)) under = Math.max(under, l);
      level = under > 0 ? under + 1 : styles.indexOf(key) + 1;
    }
    b.headingLevel = Math.min(level, 9);
  }
}

/** A word that joins a cover page's parties: no heading. */
const CONNECTIVE = /^(?:and|between|among|amongst|by|of|or|with|for|to|from|versus|vs\.?|v\.?|-and-|–and–)$/i;
/** A line that is a date (`Dated 12 March 2024`, `March 2024`, `2024-03-12`): no heading. */
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const DATE_LINE = new RegExp(String.raw`^(?:dated:?\s+|date:?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+${MONTH},?\s+\d{4}|${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|${MONTH}\s+\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})$`, "i");

/** A bullet glyph opening a list item (numbers and letters may number headings too). */
const BULLET = /^[\u2022\u25e6\u25aa\u25ab\u25cf\u25cb\u25a0\u25a1\u27a2\u25ba\u25b6\u2713\u2714\u00b7\uf0b7\uf0a7\u2013*-]/;

/** A section's number opening a heading: `A.1`, `3.2`, `2`. */
const SECTION_START = /^(?:[A-Z]|\d{1,3})(?:\.\d{1,3})*\.?\s/;
/** A chapter's label set on a line of its own: `Chapter 1`, `PART II`, `Appendix A`. */
const CHAPTER_LABEL = /^(?:chapter|part|appendix|book|section|chapitre|kapitel|cap[ií]tulo)\s+(?:\d{1,3}|[IVXLC]{1,7}|[A-Z])\.?$/i;

/**
 * A chapter's label over its title (LaTeX's report and book classes, Word's chapter
 * styles: `Chapter 1` and, larger, `Architecture Overview` under it) is one heading:
 * `Chapter 1 Architecture Overview`, at the title's level, so the chapter's sections
 * sit under it and the label under nothing else.
 */
function joinChapterLabels(pages: readonly PageLayout[]): void {
  const gone = new Set<number>();
  for (const p of pages) {
    for (let i = 0; i + 1 < p.blocks.length; i++) {
      const label = p.blocks[i]!;
      const title = p.blocks[i + 1]!;
      if (label.kind !== "title" || title.kind !== "title" || !CHAPTER_LABEL.test(label.text.trim())) continue;
      // The chapter's own title: no smaller than its label, not a numbered section of it
      // (`Appendix A` over `A.1 Raw data`) nor another label.
      if (title.fontSize < label.fontSize - 0.5 || SECTION_START.test(title.text) || CHAPTER_LABEL.test(title.text.trim())) continue;
      const em = Math.max(label.fontSize, title.fontSize);
      if (title.y0 < label.y1 - 1 || title.y0 - label.y1 > 3 * em || title.x1 < label.x0 || title.x0 > label.x1) continue;
      title.text = `${label.text.trim()} ${title.text}`;
      if (label.chars && title.chars) {
        const gap = { text: " ", x0: label.x1, x1: label.x1, y0: label.y0, y1: label.y1, confidence: 1 };
        title.chars = [...label.chars, gap, ...title.chars];
      }
      title.lineCount = lineCount(label) + lineCount(title);
      title.lines = [...label.lines, ...title.lines];
      title.x0 = Math.min(label.x0, title.x0);
      title.x1 = Math.max(label.x1, title.x1);
      title.y0 = label.y0;
      p.blocks.splice(i, 1);
      if (label.headingLevel !== undefined) gone.add(label.headingLevel);
    }
  }
  // Levels only the labels held close up: the chapter's sections come right under it.
  const titles = pages.flatMap((p) => p.blocks.filter((b) => b.kind === "title"));
  for (const b of titles) gone.delete(b.headingLevel ?? 0);
  // Deepest first, so each level still means what it did when it is closed up.
  for (const level of [...gone].sort((a, b) => b - a)) {
    for (const b of titles) if (b.headingLevel !== undefined && b.headingLevel > level) b.headingLevel--;
  }
}

/** A picture's caption without a number: `Photo: …`, `Pictured: …`, `Above — …`, `Credit: …` (not `Right-click …`). */
const PHOTO_CAPTION = /^(?:photo(?:graph)?|picture|pictured|image|illustration|credit|source|above|below|left|right|top|bottom)\s*(?::|\s[\u2013\u2014-]\s)/i;

/**
 * Captions without a number: a block of up to three lines right under or over a picture
 * (within 1.5 of its font sizes), no wider than it, that opens with a picture's label
 * (`Photo:`, `Pictured:`) or is set smaller than the body (a magazine's caption, a
 * `<figcaption>`).
 */
function markPhotoCaptions(pages: readonly PageLayout[], body: number): void {
  for (const p of pages) {
    for (const img of p.blocks) {
      if (img.kind !== "image") continue;
      const near = (b: Block): boolean => (b.y0 - img.y1 >= -1 && b.y0 - img.y1 <= 1.5 * b.fontSize) || (img.y0 - b.y1 >= -1 && img.y0 - b.y1 <= 1.5 * b.fontSize);
      // A numbered caption of its own already.
      if (p.blocks.some((b) => b.kind === "figure-caption" && near(b))) continue;
      for (const b of p.blocks) {
        if (b.kind !== "text" || lineCount(b) > 3) continue;
        const fs = b.fontSize;
        if (!near(b) || b.x0 < img.x0 - fs || b.x1 > img.x1 + fs) continue;
        if (PHOTO_CAPTION.test(b.text.trim()) || (body > 0 && fs <= 0.92 * body)) {
          b.kind = "figure-caption";
          break;
        }
      }
    }
  }
}

/** Links each caption to the nearest table / image on its page (both ways). */
function linkCaptions(pages: readonly PageLayout[]): void {
  for (const p of pages) {
    for (const c of p.blocks) {
      if (c.kind !== "figure-caption" && c.kind !== "table-caption") continue;
      const want = c.kind === "table-caption" ? "table" : "image";
      let best: Block | undefined;
      let bestD = Infinity;
      for (const t of p.blocks) {
        if (t.kind !== want || t.ref) continue;
        const d = Math.max(t.y0 - c.y1, c.y0 - t.y1, 0) + Math.max(t.x0 - c.x1, c.x0 - t.x1, 0);
        if (d < bestD && d < 0.25 * p.height) [best, bestD] = [t, d];
      }
      if (best) {
        best.ref = c;
        c.ref = best;
      }
    }
  }
}

/** Whether `b` reads as the rest of a sentence that `a` left open. */
function continuesText(a: Block, b: Block): boolean {
  if ((a.kind !== "text" && a.kind !== "list") || b.kind !== "text") return false;
  const end = a.text.trimEnd();
  const start = b.text.trimStart();
  if (!end || !start || TERMINAL.test(end)) return false;
  const first = start[0]!;
  // A note numbered in lower-case roman (`iv See the log book`) starts afresh.
  if (/^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})\s+\p{Lu}/u.test(start)) return false;
  // Scripts without case (CJK, Hebrew, Arabic): an open sentence is enough.
  // A word broken at its hyphen goes on in anything but a block all in capitals (a
  // running head not found as such: `CHAPTER 1. PUMPS`; `non-` + `EU citizens` goes on).
  return /\p{Ll}/u.test(first) || isCjk(first) || hasRtl(first) || /[,，、،]$/.test(end) || (end.endsWith("-") && /\p{Ll}/u.test(start));
}

/**
 * Whether `b` starts a new column after `a`: above where `a` ends, and to its right (to
 * its left when `a` reads right to left). A paragraph filling a whole column starts as
 * high as the next column does.
 */
function nextColumn(a: Block, b: Block): boolean {
  if (b.y0 >= a.y1 - a.fontSize) return false;
  if (b.x0 >= a.x1 - 2) return true;
  return b.x1 <= a.x0 + 2 && hasRtl(a.text) && rtlWins(countDirection(a.text));
}

/** A caption that says a table goes on: `Table 2 (continued)`, `Tabelle 2 (Fortsetzung)`. */
const CONTINUED = /continu|cont\.|fortsetzung|suite|segue|vervolg/i;

/** Whether a caption of its own (not a "continued" one) comes before a table on its page: a new table. */
function captionedAnew(p: PageLayout, table: Block): boolean {
  for (const b of p.blocks) {
    if (b === table) return false;
    if (b.kind === "table-caption" && !CONTINUED.test(b.text)) return true;
  }
  return false;
}

/** A table's row as text, to tell a repeated header. */
const rowText = (t: GridTable, row: number): string =>
  t.cells
    .filter((c) => c.row === row)
    .map((c) => c.text.trim())
    .join("\t");

/** A table's first three rows as text: where a header repeated overleaf may stand. */
const headRows = (t: GridTable): string[] => [1, 2, 3].filter((r) => r <= t.rows).map((r) => rowText(t, r));

function markContinuations(pages: readonly PageLayout[], out: LaidElement[], indexOf: Map<Block, number>): void {
  const body = bodySize(pages);
  // Blocks some later block already goes on from (at a column break).
  const continued = new Set<Block>();
  let tails: Block[] = [];
  let prevPage: PageLayout | undefined;
  for (const p of pages) {
    const flow = p.blocks.filter((b) => flowKinds.has(b.kind) && !FIGURE_CAPTION.test(b.text) && !TABLE_CAPTION.test(b.text));
    // Floats set at the top of the page (a full-width figure, a captioned table) and
    // margin notes come before the text that goes on from the last page.
    const first = flow.find((b) => !(b.note || CAME_FROM.test(b.text.trim()) || b.kind === "image" || b.kind === "figure-caption" || b.kind === "table-caption" || (b.kind === "table" && captionedAnew(p, b))));
    if (prevPage && first) {
      for (const prevLast of tails) {
        // A table goes on from one reaching the page's foot or saying it goes on (not from
        // another sheet's table, ending higher up, set like it).
        const tableGoesOn =
          prevLast.kind === "table" &&
          first.kind === "table" &&
          (prevLast.y1 >= 0.75 * prevPage.height || prevPage.blocks.some((b) => b.y0 >= prevLast.y1 && GOES_ON.test(b.text.trim()))) &&
          !captionedAnew(p, first) &&
          prevLast.table?.cols === first.table?.cols &&
          Math.abs(prevLast.x0 - first.x0) < 0.05 * p.width;
        // A listing cut at the page foot goes on at the next page's head, at its place.
        const codeGoesOn = prevLast.kind === "code" && first.kind === "code" && prevLast.y1 >= 0.75 * prevPage.height && first.y0 <= 0.25 * p.height && Math.abs(prevLast.x0 - first.x0) < 2 * first.fontSize;
        if (!tableGoesOn && !codeGoesOn && !continuesText(prevLast, first)) continue;
        out[indexOf.get(first)!]!.continuationOf = indexOf.get(prevLast)!;
        // A table going on without its header repeated starts with a body row. The header
        // may be the table's second or third row, under a title set in its grid.
        if (tableGoesOn && !headRows(prevLast.table!).includes(rowText(first.table!, 1))) first.table!.headerRows = 0;
        break;
      }
    }
    // Column breaks: the next block starts higher up, in the next column.
    for (let i = 0; i + 1 < flow.length; i++) {
      const a = flow[i]!;
      const b = flow[i + 1]!;
      if (nextColumn(a, b) && continuesText(a, b)) {
        out[indexOf.get(b)!]!.continuationOf = indexOf.get(a)!;
        continued.add(a);
      }
    }
    if (flow.length) {
      tails = pageTails(p, flow, body, continued);
      prevPage = p;
    }
  }
}

/** A note that a table or text goes on overleaf: `Continued on next page`, `(continued)`. */
const GOES_ON = /^\(?(?:continued(?: on (?:the )?next page| on page \d{1,4})?|continued overleaf|cont(?:inued|'d|\.)(?: on p(?:age|\.)? ?\d{1,4})?|(?:see|turn to) page \d{1,4}|suite au verso|fortsetzung (?:auf der )?n[aä]chste[nr]? seite)\)?[.…]*$/i;

/** A jump line opening the rest of an article: `Bridge, continued from page 1`, `From page 1`. */
const CAME_FROM = /^(?:.{0,60}?,?\s*)?(?:continued|cont(?:inued|'d|\.)) from (?:p(?:age|\.)? ?)?\d{1,4}[.…]*$|^from page \d{1,4}[.…]*$/i;

/**
 * The blocks a page's text may go on from, most likely first: the last in reading order
 * once footnotes (type smaller than the body's), a `Continued on next page` note, margin
 * notes and floats at the page foot are set aside; the text before a captioned table ending the
 * page (a bottom float); then the lowest block of text, when that is
 * another (the main column's paragraph, read before a sidebar ending higher up) and no
 * column break already goes on from it.
 */
function pageTails(p: PageLayout, flow: readonly Block[], body: number, continued: ReadonlySet<Block>): Block[] {
  let i = flow.length - 1;
  const aside = (b: Block): boolean =>
    b.note === true || b.kind === "image" || b.kind === "figure-caption" || b.kind === "table-caption" || GOES_ON.test(b.text.trim()) || ((b.kind === "text" || b.kind === "list") && body > 0 && b.fontSize <= 0.9 * body && b.y0 >= 0.5 * p.height);
  while (i > 0 && aside(flow[i]!)) i--;
  const tail = flow[i]!;
  const text = (b: Block): boolean => (b.kind === "text" || b.kind === "list") && !aside(b) && !continued.has(b);
  const tails = [tail];
  // A captioned table at the page foot is a float (LaTeX sets bottom floats under the
  // footnotes): the text read before it may go on overleaf as well as the table.
  if (tail.kind === "table" && captionedAnew(p, tail)) {
    let j = i - 1;
    while (j >= 0 && !text(flow[j]!)) j--;
    if (j >= 0) tails.push(flow[j]!);
  }
  let lowest: Block | undefined;
  for (const b of flow) if (text(b) && (!lowest || b.y1 > lowest.y1)) lowest = b;
  if (lowest && !tails.includes(lowest) && lowest.y1 > tail.y1) tails.push(lowest);
  return tails;
}
