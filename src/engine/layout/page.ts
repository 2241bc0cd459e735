import { findAlignedTables } from "./aligned-tables.js";
import { buildBlocks } from "./blocks.js";
import { chartGrids, findFigures } from "./figures.js";
import { bulletRuns, ocrBullets, withoutControlDots, type BulletShape } from "./bullets.js";
import { blockChars, classifyBlocks, inlineFormulas } from "./classify.js";
import { dropLineNumbers } from "./line-numbers.js";
import { buildLines } from "./lines.js";
import { readingOrder } from "./reading-order.js";
import { findTables } from "./tables.js";
import { taggedTables } from "./tagged-tables.js";
import { joinTerms, splitAtLabels } from "./terms.js";
import type { Block, Drawing, GridTable, PlacedImage, Rect, Segment, TextRun } from "./types.js";
import { mayBeTableTail } from "./table-tails.js";

/** What a format extracted from one page, in display space (top-left origin). */
export interface PageContent {
  width: number;
  height: number;
  runs: TextRun[];
  /** Ruling lines (for tables). */
  segments?: Segment[];
  images?: PlacedImage[];
  /** Small shapes that may be list bullets drawn as paths (see `bullets.ts`). */
  bullets?: BulletShape[];
  /** Boxes of the paths the page paints: vector figures are found from them (see `figures.ts`). */
  drawings?: Drawing[];
}

/** Tuning for {@link layoutPage}. */
export interface PageLayoutOptions {
  /** Compute per-character boxes (`char_details`). @default false */
  chars?: boolean;
  /**
   * Images narrower or shorter than this share of the page are dropped as strips; images
   * covering 85 % of a page that has text are dropped as backgrounds. @default 0.01
   */
  minImageShare?: number;
  /** Keep hyphens at line ends (a writer that does not hyphenate). @default false */
  keepLineEndHyphens?: boolean;
}

/** Table text as the contract has it: cells of a row joined by spaces, rows by newlines. */
export function tableText(t: GridTable): string {
  const rows: string[][] = Array.from({ length: t.rows }, () => []);
  for (const c of t.cells) if (c.text) rows[c.row - 1]?.push(c.text);
  return rows.map((r) => r.join(" ")).join("\n");
}

/**
 * Lays out one page: tables from ruling lines, then lines, blocks and local kinds for
 * the remaining text, images, and finally reading order. Runs are dropped from the
 * returned blocks (their lines keep geometry and style) so a long document holds only
 * what it will output.
 */
export function layoutPage(content: PageContent, options: PageLayoutOptions = {}): Block[] {
  const { chars = false, minImageShare = 0.01 } = options;
  const page = { x0: 0, y0: 0, x1: content.width, y1: content.height };
  // Bullets drawn as shapes, or misread by OCR, become marker characters before anything reads them.
  // Line numbers (a pleading's, a patent's) are apparatus, no text to read.
  const read = dropLineNumbers(ocrBullets(content.runs));
  const runs = content.bullets?.length ? [...read, ...bulletRuns(withoutControlDots(content.bullets, content.drawings ?? []), read)] : read;
  const found = findTables(content.segments ?? [], runs, page, { keepLineEndHyphens: options.keepLineEndHyphens === true });
  // A chart's gridlines read as a sparse ruled table: its text goes back to the chart.
  const charts = content.drawings?.length ? chartGrids(found.tables, content.drawings) : new Set<GridTable>();
  const tables = charts.size ? found.tables.filter((t) => !charts.has(t)) : found.tables;
  const used = charts.size ? new Set([...found.used].filter((r) => tables.some((t) => inside(r, t)))) : found.used;
  // The tables a tagged PDF declares where no rules drew them: its tags place the cells.
  if (runs.some((r) => r.cell !== undefined)) tables.push(...taggedTables(runs, used, options.keepLineEndHyphens === true));
  const free = used.size ? runs.filter((r) => !used.has(r)) : runs;
  const all = buildLines(free);
  // Charts and diagrams drawn as vectors take their labels out of the text.
  const { figures, used: labels } = findFigures(content.drawings ?? [], all, page, tables);
  const lines = labels.size ? all.filter((l) => !labels.has(l)) : all;
  // Tables without rules, from column alignment of the remaining lines.
  const aligned = findAlignedTables(lines, { panels: content.drawings ?? [], keepLineEndHyphens: options.keepLineEndHyphens === true });
  tables.push(...aligned.tables);
  // Labels beside a block's later lines (a field list's `Returns:`) cut it; terms beside their definitions join them.
  const blocks = joinTerms(splitAtLabels(buildBlocks(aligned.used.size ? lines.filter((l) => !aligned.used.has(l)) : lines, { keepLineEndHyphens: options.keepLineEndHyphens === true })));
  classifyBlocks(blocks);
  // Figures carry their labels' lines, for their characters and confidence like any text.
  for (const f of figures) blocks.push({ ...rect(f), lines: f.lines, text: f.text, fontSize: 0, bold: false, mono: false, kind: "image", image: f.image });
  // OCR confidence only where OCR read the text (a text layer has none to average).
  const ocr = runs.some((r) => r.confidence !== undefined);
  for (const b of blocks) {
    if (chars) b.chars = blockChars(b);
    const confidence = ocr ? ocrConfidence(b) : undefined;
    if (confidence !== undefined) b.ocrConfidence = confidence;
    if ((b.kind === "text" || b.kind === "list") && b.lines.some((l) => l.runs.some((r) => r.math))) {
      const objects = inlineFormulas(b);
      if (objects.length) b.objects = objects;
    }
    // (A short block opening the page keeps its runs: a table's last rows carried over
    // are cut from them by its columns, `table-tails.ts`.)
    if (!mayBeTableTail(b, content.height)) b.lines = b.lines.map((l) => ({ ...l, runs: [] }));
  }
  for (const t of tables) {
    const block: Block = { ...rect(t), lines: [], text: tableText(t), fontSize: 0, bold: false, mono: false, kind: "table", table: t };
    const cells = runs.filter((r) => inside(r, t));
    const size = commonSize(cells);
    if (size > 0) block.cellSize = size;
    if (ocr) {
      const confidence = meanConfidence(cells);
      if (confidence !== undefined) block.ocrConfidence = confidence;
    }
    blocks.push(block);
  }
  for (const img of content.images ?? []) {
    const w = img.x1 - img.x0;
    const h = img.y1 - img.y0;
    if (w < minImageShare * content.width || h < minImageShare * content.height) continue;
    // A picture inside a vector figure is part of it.
    if (figures.some((f) => inside(img, f))) continue;
    if (w / h > 30 || h / w > 30) continue;
    // A page-sized image under text is a background or the scan behind a text layer.
    if (w * h >= 0.85 * content.width * content.height && content.runs.length > 0) continue;
    blocks.push({ ...rect(img), lines: [], text: "", fontSize: 0, bold: false, mono: false, kind: "image", image: img });
  }
  // Text inside a drawn frame (a boxed summary, a sidebar) is read together.
  return notesAfterText(readingOrder(blocks, { frames: content.drawings ?? [] }));
}

/**
 * Margin notes read after the text beside them: each moves to just after the last block
 * of the page's text it stands level with (a note in the left margin, read by columns,
 * came before the page's running head and the paragraph it annotates).
 */
function notesAfterText(order: Block[]): Block[] {
  if (!order.some((b) => b.note)) return order;
  const out = order.filter((b) => !b.note);
  for (const note of order.filter((b) => b.note)) {
    let at = -1;
    out.forEach((b, i) => {
      if (!b.note && b.y0 < note.y1 && b.y1 > note.y0) at = i;
    });
    if (at < 0) at = out.findLastIndex((b) => b.y0 < note.y0);
    out.splice(at + 1, 0, note);
  }
  return out;
}

const rect = (r: { x0: number; y0: number; x1: number; y1: number }) => ({ x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1 });

/** Mean OCR confidence of a block's runs, weighted by their characters; undefined without OCR. */
function ocrConfidence(b: Block): number | undefined {
  return meanConfidence(b.lines.flatMap((l) => l.runs));
}

const meanConfidence = (runs: readonly TextRun[]): number | undefined => confidenceByChars(runs, (r) => r.confidence);

/** The mean OCR confidence of pieces of text, weighted by their characters; undefined when none has one. */
export function confidenceByChars<T extends { text: string }>(items: readonly T[], confidence: (item: T) => number | undefined): number | undefined {
  let sum = 0;
  let n = 0;
  for (const item of items) {
    const c = confidence(item);
    if (c === undefined) continue;
    sum += c * item.text.length;
    n += item.text.length;
  }
  return n > 0 ? sum / n : undefined;
}

/** Whether a run's centre lies in a rectangle. */
/** The type size most of `runs`' characters are set in (0 for none). */
function commonSize(runs: readonly TextRun[]): number {
  const sizes = new Map<number, number>();
  for (const r of runs) {
    const size = Math.round(r.fontSize * 2) / 2; // as lines round theirs
    sizes.set(size, (sizes.get(size) ?? 0) + r.text.length);
  }
  let size = 0;
  let best = 0;
  for (const [s, n] of sizes) if (n > best) [size, best] = [s, n];
  return size;
}

const inside = (r: Rect, t: Rect): boolean => {
  const cx = (r.x0 + r.x1) / 2;
  const cy = (r.y0 + r.y1) / 2;
  return cx >= t.x0 && cx <= t.x1 && cy >= t.y0 && cy <= t.y1;
};

/** Blocks of a page's body: not running text (captions and headings count). */
export const inBody = (b: Block): boolean => b.kind !== "header" && b.kind !== "footer" && b.kind !== "page-number";

/**
 * Replaces the blocks a table was read from by one table block, in reading order where
 * the first of them stood (the document pass's table heads and tails).
 */
export function replaceByTable(blocks: readonly Block[], taken: ReadonlySet<Block>, grid: GridTable): Block[] {
  const at = blocks.findIndex((b) => taken.has(b));
  const { x0, y0, x1, y1 } = grid;
  const table: Block = { x0, y0, x1, y1, lines: [], text: tableText(grid), fontSize: 0, bold: false, mono: false, kind: "table", table: grid };
  const confidence = confidenceByChars([...taken], (b) => b.ocrConfidence);
  if (confidence !== undefined) table.ocrConfidence = confidence;
  return [...blocks.slice(0, at).filter((b) => !taken.has(b)), table, ...blocks.slice(at).filter((b) => !taken.has(b))];
}
