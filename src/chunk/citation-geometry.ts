import type { Element, ParseResult } from "../wire/index.js";
import type { Chunk } from "./chunk.js";
import { continuesLine, lineDirection } from "./line-direction.js";
import { rectOf, rectToCoordinates, unionRects, type PageSize, type Rect } from "./rect.js";
import type { ChunkTextSpan } from "./text-span.js";

/**
 * Adds what tight highlights need to chunks, from the parse result they were made of:
 *
 * - `textSpans`: pieces of `chunk.text` with their boxes. From `char_details`, one span
 *   per sentence fragment per text line (`granularity: "run"`): runs break at line ends
 *   and after sentence punctuation, so a quote (whole sentences) is always a union of
 *   whole runs and its boxes are exact. Elements without `char_details` get one span with
 *   the element's box (`granularity: "element"`).
 * - `pageSizes`: `{ [page]: { width, height } }` of the chunk's pages, for pixel boxes.
 * - `pageImageUrls`: `{ [page]: url }` of http(s) `page_image_url`s, for the viewer.
 *
 * Pure: returns new chunks, leaves ids and text alone. A paragraph joined from several
 * elements (cut by a page or column break) is matched piece by piece. Other text the
 * chunker produced that is not found verbatim in an element (tables, rewritten text) gets
 * no span; quotes there fall back to estimated boxes.
 */
export function addCitationGeometry(result: ParseResult, chunks: readonly Chunk[]): Chunk[] {
  const elements = new Map<string, Element>();
  for (const e of result.elements ?? []) elements.set(e.element_id, e);
  const sizes = new Map<number, PageSize>();
  const urls = new Map<number, string>();
  for (const p of result.pages ?? []) {
    if (p.page_width > 0 && p.page_height > 0) sizes.set(p.page_number, { width: p.page_width, height: p.page_height });
    if (p.page_image_url && /^https?:\/\//i.test(p.page_image_url)) urls.set(p.page_number, p.page_image_url);
  }
  return chunks.map((chunk) => {
    const meta = { ...chunk.metadata };
    const pageSizes: Record<string, PageSize> = {};
    const pageImageUrls: Record<string, string> = {};
    for (const page of meta.pages ?? []) {
      const size = sizes.get(page);
      if (size) pageSizes[String(page)] = size;
      const url = urls.get(page);
      if (url) pageImageUrls[String(page)] = url;
    }
    if (Object.keys(pageSizes).length) meta["pageSizes"] = pageSizes;
    if (Object.keys(pageImageUrls).length) meta["pageImageUrls"] = pageImageUrls;
    if (meta.kind === "text" || meta.kind === "mixed") {
      const spans = spansFor(chunk, elements);
      if (spans.length) meta["textSpans"] = spans;
    }
    return { ...chunk, metadata: meta };
  });
}

/**
 * Wraps a chunker (`(result, ...rest) => chunks`, e.g. ingest's `chunker` option) so its
 * chunks carry citation geometry.
 *
 * @example
 * ```ts
 * await ingest({ sources, store, chunker: withCitationGeometry((result, ctx) => chunkDocument(result, { sourceId: ctx.sourceId })) });
 * ```
 */
export function withCitationGeometry<A extends unknown[]>(
  chunker: (result: ParseResult, ...rest: A) => Chunk[] | Promise<Chunk[]>,
): (result: ParseResult, ...rest: A) => Promise<Chunk[]> {
  const wrapped = async (result: ParseResult, ...rest: A) => addCitationGeometry(result, await chunker(result, ...rest));
  // Ingest names a custom chunker by its function name in the options hash.
  Object.defineProperty(wrapped, "name", { value: `withCitationGeometry(${chunker.name || "chunker"})` });
  return wrapped;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;
const SENTENCE_END = /[。！？；.!?;…]/;

/** Blocks of the chunk text (split on blank lines, then on single newlines if needed). */
function blocks(text: string): { start: number; text: string }[] {
  const out: { start: number; text: string }[] = [];
  const re = /[^\n]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ start: m.index, text: m[0] });
  return out;
}

function spansFor(chunk: Chunk, elements: ReadonlyMap<string, Element>): ChunkTextSpan[] {
  const ids = chunk.metadata.elementIds ?? [];
  const candidates = ids.map((id) => elements.get(id)).filter((e): e is Element => e !== undefined && e.type !== "Table" && e.type !== "Image");
  const spans: ChunkTextSpan[] = [];
  let from = 0;
  for (const block of blocks(chunk.text)) {
    const needle = block.text.trim();
    if (!needle) continue;
    const lead = block.text.indexOf(needle);
    // Reading order: look from the element last matched onwards, then anywhere.
    const order = [...candidates.slice(from), ...candidates.slice(0, from)];
    let found = false;
    for (const element of order) {
      const at = element.text.indexOf(needle);
      if (at < 0) continue;
      from = candidates.indexOf(element);
      spans.push(...elementSpans(element, at, at + needle.length, block.start + lead));
      found = true;
      break;
    }
    if (found) continue;
    const pieces = acrossElements(needle, candidates, from) ?? acrossElements(needle, candidates, 0);
    if (!pieces) continue;
    for (const p of pieces) spans.push(...elementSpans(p.element, p.start, p.end, block.start + lead + p.offset));
    from = candidates.indexOf(pieces[pieces.length - 1]!.element);
  }
  return spans;
}

/**
 * A paragraph the chunker joined from several elements (a paragraph cut by a page or
 * column break: `continuation_of`), matched piece by piece: the end of one element, then
 * the start of the next, with the joiner (a space, or nothing between CJK characters or
 * after a broken word's hyphen) between them. Undefined unless every piece is found, in
 * order, in consecutive candidates from `from`.
 */
function acrossElements(
  needle: string,
  candidates: readonly Element[],
  from: number,
): { element: Element; start: number; end: number; offset: number }[] | undefined {
  const out: { element: Element; start: number; end: number; offset: number }[] = [];
  let p = 0;
  for (let k = from; k < candidates.length && p < needle.length; k++) {
    const text = candidates[k]!.text;
    const rest = needle.slice(p);
    if (out.length > 0) {
      // Every piece after the first starts its element.
      if (text.length === 0) continue;
      if (rest.startsWith(text)) {
        out.push({ element: candidates[k]!, start: 0, end: text.length, offset: p });
        p += text.length;
      } else {
        const head = commonPrefix(rest, text);
        if (head === 0) return undefined;
        out.push({ element: candidates[k]!, start: 0, end: head, offset: p });
        p += head;
        if (p < needle.length) return undefined;
      }
    } else {
      // The first piece is a tail of its element (the chunk may start inside it).
      const at = tailStart(text, rest);
      if (at < 0) continue;
      out.push({ element: candidates[k]!, start: at, end: text.length, offset: 0 });
      p = text.length - at;
    }
    while (p < needle.length && /\s/.test(needle[p]!)) p++;
  }
  return out.length > 1 && p >= needle.length ? out : undefined;
}

/** Where in `text` the longest tail starts that `rest` begins with, or -1. */
function tailStart(text: string, rest: string): number {
  if (rest.length === 0) return -1;
  for (let at = text.indexOf(rest[0]!, Math.max(0, text.length - rest.length)); at >= 0; at = text.indexOf(rest[0]!, at + 1)) {
    if (rest.startsWith(text.slice(at))) return at;
  }
  return -1;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Spans of element text [s, e), placed at chunk offset `base`. */
function elementSpans(element: Element, s: number, e: number, base: number): ChunkTextSpan[] {
  const page = element.page_number;
  const elementId = element.element_id;
  const chars = (element.char_details ?? [])
    .map((c, i) => ({ at: typeof c.index === "number" ? c.index : i, text: c.text, rect: rectOf(c.coordinates) }))
    .filter((c) => c.at >= s && c.at < e && c.rect.x1 > c.rect.x0)
    .sort((a, b) => a.at - b.at);
  if (chars.length === 0) {
    return [{ start: base, end: base + (e - s), page, elementId, coordinates: element.coordinates.map(round), granularity: "element" }];
  }
  // Sideways text (a page turned by /Rotate) runs down or up: its lines are columns.
  const direction = lineDirection(chars.filter((c) => !/^\s*$/.test(c.text)).map((c) => c.rect));
  const out: ChunkTextSpan[] = [];
  let run: { start: number; end: number; rect: Rect; last: Rect } | undefined;
  const flush = () => {
    if (run) out.push({ start: base + run.start - s, end: base + run.end - s, page, elementId, coordinates: rectToCoordinates(run.rect).map(round), granularity: "run" });
    run = undefined;
  };
  let prevEndsSentence = false;
  for (const c of chars) {
    // Whitespace neither starts nor widens a run: quotes never begin or end with it.
    if (/^\s*$/.test(c.text)) {
      if (prevEndsSentence) flush();
      continue;
    }
    const sameLine = run !== undefined && continuesLine(direction, run.rect, run.last, c.rect);
    if (!sameLine || (prevEndsSentence && !SENTENCE_END.test(c.text))) flush();
    if (!run) run = { start: c.at, end: c.at + Math.max(1, c.text.length), rect: c.rect, last: c.rect };
    else {
      run.end = c.at + Math.max(1, c.text.length);
      run.rect = unionRects(run.rect, c.rect);
      run.last = c.rect;
    }
    prevEndsSentence = SENTENCE_END.test(c.text);
  }
  flush();
  return out;
}
