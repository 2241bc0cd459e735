import { createHash } from "node:crypto";
import { DocParseError } from "../../../errors.js";
import { inPageRange } from "../../../wire/index.js";
import type { Box, DraftDocument, DraftElement, FormatContext } from "../../draft.js";
import { convertWithLibreOffice, findSoffice } from "./libreoffice.js";
import type { OfficeOptions } from "./options.js";

/** Whether a document should be aligned onto LibreOffice's printed pages. */
export function wantsPrintedGeometry(geometry: OfficeOptions["office_geometry"]): boolean {
  return geometry === "libreoffice" || (geometry === "auto" && findSoffice() !== undefined);
}

/**
 * Real geometry for flowing formats (DOCX, HTML): LibreOffice prints the document to
 * PDF, the PDF handler reads that PDF, and the source's elements (whose structure is
 * exact) are aligned onto the PDF's characters (whose positions are exact).
 *
 * Alignment is monotonic over the text with whitespace removed: each source element is
 * searched from where the previous one ended, by a prefix (and a suffix for long
 * elements), and takes the page of its first character and the union of its
 * characters' boxes on that page. Images pair with the PDF's images in order. An
 * element that cannot be found keeps its order, takes the page of its predecessor and
 * no box (the assembler marks it `coordinates_estimated`).
 */

/** How far ahead (in characters without whitespace) a match may start. */
const SEARCH_WINDOW = 20_000;
const PROBE = 24;
/** How far from a table's start its cells may print (characters without whitespace). */
const CELL_WINDOW = 5_000;

interface StreamChar {
  page: number;
  box: Box;
}

/** The converted PDF of recent sources, so page images do not convert again. */
const pdfCache = new Map<string, Promise<Uint8Array>>();
const CACHE_SIZE = 8;

/** The source printed to PDF by LibreOffice (cached by content hash). */
export function printToPdf(bytes: Uint8Array, fromExt: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<Uint8Array> {
  const key = `${fromExt}:${createHash("sha256").update(bytes).digest("hex")}`;
  let hit = pdfCache.get(key);
  if (!hit) {
    const convert: Parameters<typeof convertWithLibreOffice>[1] = { fromExt, to: "pdf", timeoutMs: options.timeoutMs };
    // Writer/Web (LibreOffice's default for HTML) prints oddly paged output; reading the
    // HTML as a Writer document gives ordinary A4 pages.
    if (fromExt === "html") convert.infilter = "HTML (StarWriter)";
    if (options.signal) convert.signal = options.signal;
    hit = convertWithLibreOffice(bytes, convert);
    pdfCache.set(key, hit);
    hit.catch(() => pdfCache.delete(key));
    while (pdfCache.size > CACHE_SIZE) pdfCache.delete(pdfCache.keys().next().value!);
  }
  return hit;
}

/** Renders page `page` of the source through its LibreOffice PDF (for page images). */
export async function renderViaPdf(bytes: Uint8Array, fromExt: string, page: number, options: { dpi: number; signal?: AbortSignal }): Promise<Uint8Array> {
  const print: { timeoutMs: number; signal?: AbortSignal } = { timeoutMs: 120_000 };
  if (options.signal) print.signal = options.signal;
  const pdf = await printToPdf(bytes, fromExt, print);
  const { renderPdfPage } = await import("../pdf-render.js");
  const render: { dpi: number; signal?: AbortSignal } = { dpi: options.dpi };
  if (options.signal) render.signal = options.signal;
  return renderPdfPage(pdf, page, render);
}

const strip = (s: string) => s.replace(/\s+/g, "");

/** Replaces the estimated layout of `draft` with pages and boxes from the LibreOffice PDF. */
export async function alignWithPdf(draft: DraftDocument, bytes: Uint8Array, fromExt: string, ctx: FormatContext): Promise<DraftDocument> {
  const print: { timeoutMs: number; signal?: AbortSignal } = { timeoutMs: Math.min(ctx.limits.timeoutMs, 300_000) };
  if (ctx.signal) print.signal = ctx.signal;
  const pdf = await printToPdf(bytes, fromExt, print);
  const { pdfFormat } = await import("../pdf.js");
  const pdfCtx: FormatContext = { ...ctx, capabilities: { ...ctx.capabilities, include_char_details: true } };
  delete pdfCtx.pageRange;
  const printed = await pdfFormat.parse(pdf, pdfCtx);

  // The printed text as one string without whitespace, each code unit with its place.
  let text = "";
  const at: StreamChar[] = [];
  const images: { page: number; box: Box }[] = [];
  for (const el of printed.elements) {
    if (el.type === "Image" && el.box) images.push({ page: el.page, box: el.box });
    if (el.chars?.length) {
      for (const c of el.chars) {
        const t = strip(c.text);
        for (let k = 0; k < t.length; k++) at.push({ page: el.page, box: c.box });
        text += t;
      }
    } else if (el.box) {
      const t = strip(el.text);
      for (let k = 0; k < t.length; k++) at.push({ page: el.page, box: el.box });
      text += t;
    }
  }

  let cursor = 0;
  // Where the previous element's search began: a retry point when printing put the
  // previous element's end after this one (a borderless table read into the next line).
  let previousStart = 0;
  let imageCursor = 0;
  let lastPage = 1;
  const elements: DraftElement[] = draft.elements.map((source) => {
    const el: DraftElement = { ...source };
    delete el.box;
    if (el.type === "Image") {
      const img = images[imageCursor];
      if (img) {
        imageCursor++;
        el.page = img.page;
        el.box = img.box;
        lastPage = img.page;
        return el;
      }
    }
    const pieces = el.table ? el.table.cells.map((c) => strip(c.text)).filter(Boolean) : [strip(el.text)];
    let spans = findAll(pieces, text, cursor);
    let from = cursor;
    if (spans.length === 0 && previousStart < cursor) {
      spans = findAll(pieces, text, previousStart);
      from = previousStart;
    }
    if (spans.length === 0) {
      el.page = lastPage;
      return el;
    }
    previousStart = from;
    cursor = Math.max(...spans.map((sp) => sp.end));
    const page = at[spans[0]!.start]!.page;
    let box: Box | undefined;
    for (const sp of spans) {
      for (let i = sp.start; i < sp.end; i++) {
        const c = at[i]!;
        if (c.page !== page) continue;
        box = box ? union(box, c.box) : { ...c.box };
      }
    }
    el.page = page;
    if (box) el.box = box;
    lastPage = page;
    return el;
  });

  const pageCount = printed.pageCount;
  if (ctx.pageRange && ctx.pageRange.some((s) => s.from > pageCount)) {
    throw new DocParseError(40424, `page_range goes beyond the document's ${pageCount} printed page(s)`);
  }
  return {
    ...draft,
    pageCount,
    pages: printed.pages.filter((p) => inPageRange(ctx.pageRange, p.number)),
    elements: elements.filter((e) => inPageRange(ctx.pageRange, e.page)),
    estimatedLayout: false,
    fixedPages: false,
  };
}

/**
 * Spans of each piece (a table's cells; or the one text of an element), searched in
 * order, each from the end of the one before; a cell printing elsewhere is searched again
 * from the element's start.
 */
function findAll(pieces: string[], hay: string, from: number): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let at = from;
  for (const piece of pieces) {
    const span = locate(piece, hay, at) ?? (at > from ? locate(piece, hay, from) : undefined);
    // A short cell ("1") matches almost anywhere: a table's cells must print near its start.
    if (!span || (pieces.length > 1 && span.start > from + CELL_WINDOW)) continue;
    spans.push(span);
    at = Math.max(at, span.end);
  }
  return spans;
}

/** Where `needle` (no whitespace) sits in `hay` at or after `from`: [start, end). */
function locate(needle: string, hay: string, from: number): { start: number; end: number } | undefined {
  if (!needle) return undefined;
  const limit = from + SEARCH_WINDOW;
  const found = (s: number) => s >= 0 && s <= limit;
  const whole = hay.indexOf(needle, from);
  if (found(whole)) return { start: whole, end: whole + needle.length };
  // Printing may change the text inside (numbering, hyphenation, a table read in another
  // order): anchor on the beginning and the end instead.
  const head = needle.slice(0, Math.min(PROBE, needle.length));
  const start = hay.indexOf(head, from);
  if (!found(start)) return undefined;
  const tail = needle.slice(-Math.min(PROBE, needle.length));
  const tailAt = hay.indexOf(tail, start + head.length);
  const end = tailAt >= 0 && tailAt - start <= needle.length * 2 ? tailAt + tail.length : start + head.length;
  return { start, end };
}

function union(a: Box, b: Box): Box {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}
