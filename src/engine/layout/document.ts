/**
 * The document-wide pass over laid-out pages ({@link finishDocument}), with headings and
 * caption links; running text is in `running.ts`, continuations in `continuations.ts`.
 */
import { DOT_LEADER, NUMBERED_HEADING } from "./classify.js";
import { assignListLevels } from "./list-levels.js";
import { bodySize } from "./body-size.js";
import { CAME_FROM, GOES_ON, markContinuations } from "./continuations.js";
import type { Frame } from "./frame.js";
import { markRunning } from "./running.js";
import { chineseNumberRank } from "./heading-numbers.js";
import { joinTableHeads } from "./table-heads.js";
import { joinTableTails } from "./table-tails.js";
import { isCjk, isSolidCjk, lineCount, type Block } from "./types.js";

/** One page after page-level layout: blocks already in reading order. */
export interface PageLayout {
  /** 1-based page number. */
  number: number;
  /** Size of the layout space (the frame's, when the page is read sideways). */
  width: number;
  height: number;
  /** Set when the page was laid out in a turned frame; boxes map back through it. */
  frame?: Frame;
  /**
   * The page's `/Rotate` (0, 90, 180, 270): how its sheet is turned to be shown. Text set
   * level on a sheet turned a quarter (pdflscape's running head) is sideways as shown.
   */
  rotate?: number;
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

/** Text wrapped in quotation marks, a full stop or the like after it. */
const QUOTED = /^["\u201c\u201e\u00ab].*["\u201d\u00bb][.!?]?$/su;
/**
 * Two sentences or more, the last ended: `…my work address. I will be travelling in March.`,
 * `（一）强化责任落实。各区要…。` (a run-in heading set in bold with its paragraph).
 */
const SENTENCES = /\p{Ll}[.!?]\s+\p{Lu}.*[.!?]$|[。！？]\s*\S.*[。！？]$/su;
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
  joinTableTails(pages);
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
/** Titles: larger or bold short blocks, levels by style rank; the outline overrides. */
function markHeadings(pages: readonly PageLayout[], outline: readonly OutlineEntry[]): void {
  const body = bodySize(pages);
  const face = bodyFace(pages);
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
      // Text drawn aside (a watermark, a margin stamp) heads nothing: see `Block.aside`.
      if (b.aside === "slanted" || (b.aside === "sideways" && !p.frame?.angle)) continue;
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
      // Nor are two sentences or more set large (a statement, a flattened form's value).
      if (SENTENCES.test(text)) continue;
      // Nor is an article's jump line (`Continued on page 2`, `Bridge, continued from page 1`),
      // a cover page's connective (`between`, `and`) or date (`Dated 12 March 2024`).
      // (A date is a heading in a diary or a monthly report: only one centred on the first
      // page, or one that says `Dated`, is the cover's.)
      const centred = Math.abs(b.x0 + b.x1 - p.width) <= 0.1 * p.width;
      const coverDate = DATE_LINE.test(text) && ((p === pages[0] && centred) || /^date/i.test(text));
      if (GOES_ON.test(text) || CAME_FROM.test(text) || CONNECTIVE.test(text) || coverDate) continue;
      // Nor is a form's row or a key and its value (`Total due⇥€20,046.48`, in bold), nor
      // what was typed into a form's field (its font grown to fill the field).
      if (b.keyed || b.annotation) continue;
      const larger = body > 0 && b.fontSize >= body * 1.12;
      const boldShort = b.bold && text.length <= (cjk ? 40 : 100) && !/[.。]$/.test(text);
      const numbered = NUMBERED_HEADING.test(text) && (b.bold || larger);
      // A Chinese notice's headings are set in the body's size and weight, in a typeface
      // of their own (黑体 一、, 楷体 （一） over 仿宋 text): a numbered line or two, in
      // another face than the body's, that ends in no colon (an item leading into what
      // follows) and stands alone (its sentence, if it has one, is all of it).
      const faced = face !== undefined && b.face !== undefined && b.face !== face && lineCount(b) <= 2 && chineseNumberRank(text) > 0 && !/[:：]$/.test(text);
      if (larger || boldShort || numbered || faced) candidates.push(b);
    }
  }
  // Headings of one style rank by their Chinese numbers (`一、` over `（一）`: a notice
  // sets both in bold 三号); an unnumbered one ranks with the style's outermost number.
  const outermost = new Map<string, number>();
  for (const b of candidates) {
    const n = chineseNumberRank(b.text);
    if (n > 0) outermost.set(styleKey(b), Math.min(outermost.get(styleKey(b)) ?? n, n));
  }
  const levelKey = (b: Block): string => `${styleKey(b)}|${chineseNumberRank(b.text) || (outermost.get(styleKey(b)) ?? 0)}`;
  // Bigger first; at one size, numbered headings by their numbers whatever their weight
  // (a notice's bold 仿宋 1. is under its regular 黑体 一、), after the bold unnumbered
  // ones and before the regular unnumbered ones (bold over regular, as before).
  const order = (key: string): number[] => {
    const [size, bold, n] = key.split("|").map(Number) as [number, number, number];
    return [-size, n > 0 ? 1 : bold ? 0 : 2, n, -bold];
  };
  const styles = [...new Set(candidates.map(levelKey))].sort((a, b) => {
    const [oa, ob] = [order(a), order(b)];
    return oa[0]! - ob[0]! || oa[1]! - ob[1]! || oa[2]! - ob[2]! || oa[3]! - ob[3]!;
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
    // A docs page's permalink after its heading (Sphinx, MkDocs: `Configuration ¶`) is no word of it.
    if (b.text.endsWith("\u00b6")) b.text = b.text.slice(0, -1).trimEnd();
    const key = styleKey(b);
    // A heading the outline does not list takes the level of outline headings styled
    // alike, else the level under the deepest outline heading styled above it (a bold
    // label in a bookmarked report is no chapter), else its style's rank.
    let level = styleLevel.get(key);
    if (level === undefined) {
      let under = 0;
      for (const [k, l] of styleLevel) if (above(k, key)) under = Math.max(under, l);
      level = under > 0 ? under + 1 : styles.indexOf(levelKey(b)) + 1;
    }
    b.headingLevel = Math.min(level, 9);
  }
}

/**
 * The face the Chinese body is set in: the one most characters of the document's text
 * blocks of Chinese or Japanese (half their characters or more) are set in, when the
 * format knows faces (undefined when it does not). Only Chinese text counts: a
 * document mostly in English sets its Chinese words in another font than its body.
 */
function bodyFace(pages: readonly PageLayout[]): string | undefined {
  const counts = new Map<string, number>();
  for (const p of pages) {
    for (const b of p.blocks) {
      if ((b.kind !== "text" && b.kind !== "list") || !b.face) continue;
      let cjk = 0;
      for (const ch of b.text) if (isSolidCjk(ch)) cjk++;
      if (2 * cjk >= b.text.length) counts.set(b.face, (counts.get(b.face) ?? 0) + b.text.length);
    }
  }
  let face: string | undefined;
  let best = 0;
  for (const [f, n] of counts) if (n > best) [face, best] = [f, n];
  return face;
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
