import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { DOT_LEADER, FIGURE_CAPTION, TABLE_CAPTION, assignListLevels } from "./classify.js";
import type { Frame } from "./frame.js";
import { isCjk, lineCount, type Block, type BlockKind } from "./types.js";

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
  markHeadings(pages, outline);
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
 * Page numbers set further in than the margin zone (LaTeX's article class leaves a sixth
 * of the page under the text): the last block of a page, or its first, in the outer
 * quarter, a lone number that counts up with the pages, on two pages or more.
 */
function markDeepPageNumbers(pages: readonly PageLayout[]): void {
  const found = new Map<string, Block[]>();
  for (const p of pages) {
    const text = p.blocks.filter((b) => b.kind === "text" || b.kind === "page-number");
    if (text.length < 2) continue;
    const last = text.reduce((a, b) => (b.y1 > a.y1 ? b : a));
    const first = text.reduce((a, b) => (b.y0 < a.y0 ? b : a));
    for (const [zone, b] of [["bottom", last], ["top", first]] as const) {
      const m = /^[-\u2013\u2014]?\s*(\d{1,4})\s*[-\u2013\u2014]?$/.exec(b.text.trim());
      const outer = zone === "bottom" ? b.y0 >= 0.75 * p.height : b.y1 <= 0.25 * p.height;
      if (!m || !outer) continue;
      const key = `${zone}|${Number(m[1]) - p.number}`;
      found.set(key, [...(found.get(key) ?? []), b]);
    }
  }
  for (const blocks of found.values()) if (blocks.length >= 2) for (const b of blocks) b.kind = "page-number";
}

/** Repeated text in the top/bottom margins → header / footer; lone numbers there → page number. */
function markRunning(pages: readonly PageLayout[], share: number): void {
  const counts = new Map<string, Set<number>>();
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
    }
  }
  // Running text repeats on 40 % of pages, or on 3 (chapter headers change by chapter).
  const minPages = pages.length <= 2 ? 2 : Math.max(2, Math.min(3, Math.ceil(pages.length * 0.4)));
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind === "table" || b.kind === "image") continue;
      const z = zone(p, b);
      if (!z) continue;
      const text = b.text.trim();
      if (PAGE_NUMBER.test(text)) b.kind = "page-number";
      else if ((counts.get(`${z}|${normalise(text)}`)?.size ?? 0) >= minPages) b.kind = z === "top" ? "header" : "footer";
    }
  }
  markDeepPageNumbers(pages);
  // Running text whose wording changes (chapter titles in headers) still sits where the
  // confirmed running text sits, in the same size: same slot on 3+ pages → same kind.
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
      if (b.kind !== "text" || !zone(p, b)) continue;
      const entry = slots.get(slot(b));
      if (entry && entry.pages.size >= 3) b.kind = entry.kind;
    }
  }
}

/** Titles: larger or bold short blocks, levels by style rank; the outline overrides. */
function markHeadings(pages: readonly PageLayout[], outline: readonly OutlineEntry[]): void {
  const sizes = new Map<number, number>();
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind !== "text" && b.kind !== "list") continue;
      sizes.set(b.fontSize, (sizes.get(b.fontSize) ?? 0) + b.text.length);
    }
  }
  let body = 0;
  let best = -1;
  for (const [size, n] of sizes) if (n > best) [body, best] = [size, n];
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
    for (const b of p.blocks) {
      if (b.kind !== "text" && b.kind !== "list") continue;
      const text = b.text.trim();
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
  for (const b of candidates) {
    b.kind = "title";
    // A heading the outline does not list takes the level of outline headings styled alike.
    b.headingLevel = Math.min(styleLevel.get(styleKey(b)) ?? styles.indexOf(styleKey(b)) + 1, 9);
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
  if (a.kind !== "text" || b.kind !== "text") return false;
  const end = a.text.trimEnd();
  const start = b.text.trimStart();
  if (!end || !start || TERMINAL.test(end)) return false;
  const first = start[0]!;
  // Scripts without case (CJK, Hebrew, Arabic): an open sentence is enough.
  return /\p{Ll}/u.test(first) || isCjk(first) || hasRtl(first) || /[-,，、،]$/.test(end);
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

function markContinuations(pages: readonly PageLayout[], out: LaidElement[], indexOf: Map<Block, number>): void {
  let prevLast: Block | undefined;
  for (const p of pages) {
    const flow = p.blocks.filter((b) => flowKinds.has(b.kind) && !FIGURE_CAPTION.test(b.text) && !TABLE_CAPTION.test(b.text));
    const first = flow[0];
    if (prevLast && first) {
      const tableGoesOn =
        prevLast.kind === "table" &&
        first.kind === "table" &&
        prevLast.table?.cols === first.table?.cols &&
        Math.abs(prevLast.x0 - first.x0) < 0.05 * p.width;
      if (tableGoesOn || continuesText(prevLast, first)) out[indexOf.get(first)!]!.continuationOf = indexOf.get(prevLast)!;
    }
    // Column breaks: the next block starts higher up, in the next column.
    for (let i = 0; i + 1 < flow.length; i++) {
      const a = flow[i]!;
      const b = flow[i + 1]!;
      if (nextColumn(a, b) && continuesText(a, b)) {
        out[indexOf.get(b)!]!.continuationOf = indexOf.get(a)!;
      }
    }
    if (flow.length) prevLast = flow[flow.length - 1];
  }
}
