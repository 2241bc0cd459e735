import type { Chunk, ChunkRegion } from "../chunk/chunk.js";
import { lineDirection } from "../chunk/line-direction.js";
import { rectOf, rectToCoordinates, unionRects, type PageSize, type Rect } from "../chunk/rect.js";
import type { ChunkTextSpan } from "../chunk/text-span.js";
import { narrowBox, rectArea } from "./highlight-geometry.js";

// A page shape that makes any box hold exactly one line (for horizontal-only narrowing).
const ONE_LINE: PageSize = { width: 1e6, height: 1 };

/**
 * Reads the optional geometry a chunk may carry beyond `regions`, and maps offsets of a
 * chunk's text to boxes on its pages.
 *
 * Optional metadata read here (all validated, wrong shapes ignored):
 * - `pageSizes`: `{ [page]: { width, height } }` or `[{ page, width, height }]`, pixels of
 *   the page images; or flat `pageWidth` / `pageHeight` for every page.
 * - `textSpans`: `[{ start, end, page, elementId, coordinates, granularity }]`, pieces of
 *   `chunk.text` with their boxes; `granularity` is `char` (one character, from
 *   char_details), `run` (a measured piece of one line: exact for the whole piece),
 *   `line` (one text line) or `element` (a whole element's box). `addCitationGeometry`
 *   writes `run` and `element` spans.
 */

function isSize(v: unknown): v is PageSize {
  const s = v as PageSize;
  return typeof v === "object" && v !== null && s.width > 0 && s.height > 0;
}

/** The page size a chunk's metadata gives for `page`, if any. */
export function pageSizeFromMetadata(meta: Chunk["metadata"], page: number): PageSize | undefined {
  const sizes = meta["pageSizes"];
  if (Array.isArray(sizes)) {
    const hit = sizes.find((s: unknown) => (s as { page?: unknown })?.page === page);
    if (isSize(hit)) return { width: hit.width, height: hit.height };
  } else if (typeof sizes === "object" && sizes !== null) {
    const hit = (sizes as Record<string, unknown>)[String(page)];
    if (isSize(hit)) return { width: hit.width, height: hit.height };
  }
  const flat = { width: meta["pageWidth"], height: meta["pageHeight"] };
  if (typeof flat.width === "number" && typeof flat.height === "number" && isSize(flat)) return flat as PageSize;
  return undefined;
}

/** The validated `textSpans` of a chunk, or undefined. */
export function textSpansOf(chunk: Chunk): ChunkTextSpan[] | undefined {
  const raw = chunk.metadata["textSpans"];
  if (!Array.isArray(raw)) return undefined;
  const ok = raw.filter(
    (s: unknown): s is ChunkTextSpan =>
      typeof s === "object" &&
      s !== null &&
      Number.isInteger((s as ChunkTextSpan).start) &&
      Number.isInteger((s as ChunkTextSpan).end) &&
      Number.isInteger((s as ChunkTextSpan).page) &&
      Array.isArray((s as ChunkTextSpan).coordinates),
  );
  return ok.length > 0 ? ok : undefined;
}

/** A box of part of a chunk's text. */
export interface SpanBox {
  page: number;
  elementId: string;
  coordinates: number[];
  approximate: boolean;
}

/**
 * The chunk's paragraphs (split on newlines) paired one-to-one with its elements, in
 * order, when their counts agree; undefined otherwise (the pairing would be a guess).
 */
function elementParagraphs(chunk: Chunk): { start: number; end: number; regions: ChunkRegion[] }[] | undefined {
  const byElement = new Map<string, ChunkRegion[]>();
  for (const r of chunk.metadata.regions ?? []) {
    const list = byElement.get(r.elementId) ?? [];
    list.push(r);
    byElement.set(r.elementId, list);
  }
  const paragraphs: { start: number; end: number }[] = [];
  const re = /[^\n]+/g;
  for (let m = re.exec(chunk.text); m; m = re.exec(chunk.text)) paragraphs.push({ start: m.index, end: m.index + m[0].length });
  if (byElement.size === 0 || paragraphs.length !== byElement.size) return undefined;
  let i = 0;
  return [...byElement.values()].map((list) => ({ ...paragraphs[i++]!, regions: list }));
}

/**
 * Ids of the elements that `[start, end)` of the chunk's text lies in: from `textSpans`
 * when they cover the range, else from the paragraph-to-element pairing. Undefined when
 * neither can tell.
 */
function elementsForRange(chunk: Chunk, start: number, end: number): Set<string> | undefined {
  const spans = textSpansOf(chunk)?.filter((s) => s.end > start && s.start < end);
  if (spans && spans.length > 0) return new Set(spans.map((s) => s.elementId));
  const groups = elementParagraphs(chunk)?.filter((g) => g.end > start && g.start < end);
  if (groups && groups.length > 0) return new Set(groups.flatMap((g) => g.regions.map((r) => r.elementId)));
  // A Markdown table has a line per row, so paragraphs outnumber elements: table markup
  // in the range still says which element it is.
  const table = chunk.metadata.table?.elementId;
  const piece = chunk.text.slice(start, end).trimStart();
  if (table && (piece.startsWith("|") || /^<(?:table|thead|tbody|tr)[\s>]/i.test(piece))) return new Set([table]);
  return undefined;
}

/**
 * Without `textSpans`, guesses which part of the text each region holds: paragraphs
 * (split on newlines) map one-to-one onto elements when the counts agree; otherwise the
 * text is shared out over the regions in order, in proportion to their areas (a
 * region's area is roughly proportional to how much text it holds).
 */
export function estimateSpans(chunk: Chunk): ChunkTextSpan[] {
  const text = chunk.text;
  const regions = chunk.metadata.regions ?? [];
  if (regions.length === 0 || text.length === 0) return [];
  const groups = elementParagraphs(chunk) ?? [{ start: 0, end: text.length, regions }];
  const spans: ChunkTextSpan[] = [];
  for (const g of groups) {
    const areas = g.regions.map((r) => Math.max(rectArea(rectOf(r.coordinates)), 1e-9));
    const total = areas.reduce((a, b) => a + b, 0);
    let at = g.start;
    g.regions.forEach((r, i) => {
      const len = g.end - g.start;
      const end = i === g.regions.length - 1 ? g.end : Math.round(at + (len * areas[i]!) / total);
      spans.push({ start: at, end, page: r.page, elementId: r.elementId, coordinates: r.coordinates, granularity: "element" });
      at = end;
    });
  }
  return spans;
}

/** Whether a level piece's middle lies within the height of the line so far. */
function levelWith(line: Rect, r: Rect): boolean {
  const cy = (r.y0 + r.y1) / 2;
  return cy >= line.y0 && cy <= line.y1;
}

/** Whether a sideways piece's middle lies within the width of the column (line) so far. */
function inColumn(line: Rect, r: Rect): boolean {
  const cx = (r.x0 + r.x1) / 2;
  return cx >= line.x0 && cx <= line.x1;
}

/**
 * Boxes of `[start, end)` of `chunk.text`: per line from character geometry when the
 * chunk carries it (exact), by proportional narrowing of line or element boxes
 * otherwise (approximate). Tables are never narrowed: their text (HTML/Markdown) does
 * not follow the page layout, so the boxes of the elements the range lies in (the
 * table's, not its title's) are returned, marked approximate.
 */
export function boxesForRange(
  chunk: Chunk,
  start: number,
  end: number,
  pageSize: (page: number) => PageSize | undefined,
): SpanBox[] {
  if (end <= start) return [];
  if (chunk.metadata.kind === "table" || chunk.metadata.kind === "image") {
    // Only the elements the range lies in: a table chunk often starts with its title,
    // whose box is no part of a quoted row.
    const inRange = elementsForRange(chunk, start, end);
    return chunk.metadata.regions
      .filter((r) => !inRange || inRange.has(r.elementId))
      .map((r) => ({ page: r.page, elementId: r.elementId, coordinates: [...r.coordinates], approximate: true }));
  }
  const given = textSpansOf(chunk);
  // Spans that do not reach the range (text the helper could not place) → estimate.
  const spans = given && given.some((s) => s.end > start && s.start < end) ? given : estimateSpans(chunk);
  const out: SpanBox[] = [];
  const measured: (ChunkTextSpan & { partial: boolean })[] = [];
  for (const s of spans) {
    if (s.end <= start || s.start >= end) continue;
    const granularity = s.granularity ?? "element";
    const piece = chunk.text.slice(s.start, s.end);
    const from = Math.max(start, s.start) - s.start;
    const to = Math.min(end, s.end) - s.start;
    if (granularity === "char" || granularity === "run") {
      if (from === 0 && to === piece.length) measured.push({ ...s, partial: false });
      else {
        // A measured piece cut by the range: narrow it along its line, approximately.
        const [c] = narrowBox(s.coordinates, piece, from, to, ONE_LINE);
        if (c) measured.push({ ...s, start: s.start + from, end: s.start + to, coordinates: c, partial: true });
      }
      continue;
    }
    const approximateRegion = chunk.metadata.regions.some((r) => r.elementId === s.elementId && r.page === s.page && r.approximate);
    // A line box holds one line: narrowing it is horizontal only.
    const boxes = granularity === "line" ? narrowBox(s.coordinates, piece, from, to, ONE_LINE) : narrowBox(s.coordinates, piece, from, to, pageSize(s.page));
    // A region that covers a whole element while the chunk holds only part of it cannot
    // be narrowed meaningfully: keep the region.
    const use = approximateRegion ? [s.coordinates] : boxes;
    for (const c of use) out.push({ page: s.page, elementId: s.elementId, coordinates: c, approximate: true });
  }
  if (measured.length > 0) {
    const groups = new Map<string, (ChunkTextSpan & { partial: boolean })[]>();
    for (const c of measured) {
      const key = `${c.page}\u0000${c.elementId}`;
      const list = groups.get(key) ?? [];
      list.push(c);
      groups.set(key, list);
    }
    for (const list of groups.values()) {
      // Join measured pieces line by line; a line is approximate if any piece was cut.
      // Pieces of sideways text (a page turned by /Rotate) are columns: one line each. A
      // piece of several characters is taller than wide there; pieces of one character
      // each say which way the line runs by the steps between them.
      const rects = list.map((c) => rectOf(c.coordinates));
      const long = rects.filter((_, i) => list[i]!.end - list[i]!.start >= 2);
      const sideways = long.length > 0 ? long.every((r) => r.y1 - r.y0 > 1.5 * (r.x1 - r.x0)) : lineDirection(rects) !== "level";
      const lines: { rect: Rect; partial: boolean }[] = [];
      list.forEach((c, i) => {
        const r = rects[i]!;
        const line = lines[lines.length - 1];
        if (line && (sideways ? inColumn(line.rect, r) : levelWith(line.rect, r))) {
          line.rect = unionRects(line.rect, r);
          line.partial ||= c.partial;
        } else lines.push({ rect: r, partial: c.partial });
      });
      for (const l of lines) out.push({ page: list[0]!.page, elementId: list[0]!.elementId, coordinates: rectToCoordinates(l.rect), approximate: l.partial });
    }
    out.sort((a, b) => a.page - b.page || rectOf(a.coordinates).y0 - rectOf(b.coordinates).y0);
  }
  return out;
}
