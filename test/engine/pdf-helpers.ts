import type { DraftDocument, DraftElement, FormatContext } from "../../src/engine/draft.js";
import { expect } from "vitest";
import { pdfFormat } from "../../src/engine/formats/pdf.js";
import { resolveLimits } from "../../src/engine/limits.js";
import { parsePageRange, resolveCapabilities, type Capabilities, type PageSpan, type ParseMode } from "../../src/wire/index.js";

/** Runs the PDF handler directly, with the defaults LocalParser would use. */
export function parsePdf(
  bytes: Uint8Array,
  options: {
    capabilities?: Capabilities;
    pageRange?: string;
    password?: string;
    parseMode?: ParseMode;
    limits?: Parameters<typeof resolveLimits>[0];
    signal?: AbortSignal;
    engineParams?: Record<string, unknown>;
  } = {},
): Promise<DraftDocument> {
  const config = { capabilities: options.capabilities ?? {}, ...(options.engineParams ? { config: { engine_params: options.engineParams } } : {}) };
  const ctx: FormatContext = {
    config,
    capabilities: resolveCapabilities(config),
    parseMode: options.parseMode ?? "auto",
    limits: resolveLimits(options.limits),
  };
  if (options.pageRange) ctx.pageRange = parsePageRange(options.pageRange) as PageSpan[];
  if (options.password !== undefined) ctx.password = options.password;
  if (options.signal) ctx.signal = options.signal;
  return pdfFormat.parse(bytes, ctx);
}

/** Elements of a type. */
export const ofType = (doc: DraftDocument, type: string): DraftElement[] => doc.elements.filter((e) => e.type === type);

/** Whether box `outer` contains `inner` within `tol` (fractions of the page). */
export function boxContains(outer: NonNullable<DraftElement["box"]>, inner: { x0: number; y0: number; x1: number; y1: number }, tol = 0.006): boolean {
  return inner.x0 >= outer.x0 - tol && inner.y0 >= outer.y0 - tol && inner.x1 <= outer.x1 + tol && inner.y1 <= outer.y1 + tol;
}

/**
 * A word poppler reads from one glyph of TeX's math extension font without a ToUnicode
 * map: the glyph code's own letter (∑ as `X`, ∫ as `Z`, √ as `s`, a big bracket as `h`),
 * which the engine reads as the symbol or as blank (`mathExtensionText`).
 */
export const TEX_EXTENSION_LETTER = /^[P-Zb-s]$/;

/**
 * Poppler's words that no element holds: none on the word's page contains the word's
 * horizontal extent and vertical centre (poppler boxes Type 3 and TeX glyphs by the
 * font's generous bbox) and has it in its text. `skip` leaves words out of the check.
 */
export function wordsNotHeld(
  doc: DraftDocument,
  oracle: { pages: { width: number; height: number }[]; words: { page: number; text: string; x0: number; y0: number; x1: number; y1: number }[] },
  skip: (text: string) => boolean = () => false,
): string[] {
  return oracle.words
    .filter((w) => {
      if (skip(w.text)) return false;
      const size = oracle.pages[w.page - 1]!;
      const cy = (w.y0 + w.y1) / 2 / size.height;
      const box = { x0: w.x0 / size.width, y0: cy, x1: w.x1 / size.width, y1: cy };
      return !doc.elements.some((e) => e.page === w.page && e.box && boxContains(e.box, box, 0.01) && e.text.replace(/\s/g, "").includes(w.text));
    })
    .map((w) => w.text);
}

/** Text each part of TWO_COLUMN_PAPER's first page starts with, or holds, in reading order. */
export const PAPER_READING_ORDER = ["Introduction", "Most documents people ingest", "Method", "Parsing", "Each page is read as a stream", "Chunks are built along", "Results", "Table 1: Retrieval quality"];

/** Expects elements holding each needle (spaces normalised), the first of each in the needles' order. */
export function expectInReadingOrder(doc: Pick<DraftDocument, "elements">, needles: readonly string[]): void {
  const texts = doc.elements.map((e) => e.text.replace(/\s+/g, " "));
  const at = needles.map((n) => texts.findIndex((t) => t.includes(n)));
  expect(needles.filter((_, i) => at[i]! < 0), "needles no element holds").toEqual([]);
  expect(at, "element indices in the needles' order").toEqual([...at].sort((a, b) => a - b));
}
