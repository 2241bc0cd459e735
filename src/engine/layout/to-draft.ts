import type { Box, DraftElement } from "../draft.js";
import type { LaidElement, PageLayout } from "./document.js";
import { fromFrame } from "./frame.js";
import type { BlockKind, Rect } from "./types.js";

const TYPE: Record<BlockKind, string> = {
  text: "NarrativeText",
  title: "Title",
  list: "ListItem",
  code: "CodeSnippet",
  formula: "Formula",
  table: "Table",
  image: "Image",
  "figure-caption": "FigureCaption",
  "table-caption": "TableCaption",
  header: "Header",
  footer: "Footer",
  "page-number": "PageNumber",
};

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

/** A rectangle in page units → a box in fractions of the page. */
export function normaliseBox(r: Rect, width: number, height: number): Box {
  return { x0: clamp01(r.x0 / width), y0: clamp01(r.y0 / height), x1: clamp01(r.x1 / width), y1: clamp01(r.y1 / height) };
}

/** Options for {@link toDraftElements}. */
export interface ToDraftOptions {
  /** Encoded image bytes by block image (PNG), when image data was asked for. */
  imageBytes?: (image: NonNullable<LaidElement["block"]["image"]>) => Uint8Array | undefined;
}

/** Turns laid-out blocks into the engine's draft elements (normalised boxes). */
export function toDraftElements(laid: readonly LaidElement[], pages: readonly Pick<PageLayout, "number" | "width" | "height" | "frame">[], options: ToDraftOptions = {}): DraftElement[] {
  const size = new Map(pages.map((p) => [p.number, p]));
  return laid.map((el) => {
    const b = el.block;
    const p = size.get(el.page)!;
    const frame = p.frame;
    const nb = frame && frame.angle !== 0 ? (r: Rect): Box => normaliseBox(fromFrame(r, frame), frame.width, frame.height) : (r: Rect): Box => normaliseBox(r, p.width, p.height);
    const out: DraftElement = { type: TYPE[b.kind], text: b.text, page: el.page, box: nb(b) };
    if (b.kind === "title" && b.headingLevel) out.headingLevel = b.headingLevel;
    if (b.kind === "list") out.listLevel = b.listLevel ?? 0;
    if (b.table) {
      out.table = {
        rows: b.table.rows,
        cols: b.table.cols,
        headerRows: b.table.headerRows ?? 1,
        cells: b.table.cells.map((c) => ({ row: c.row, col: c.col, rowSpan: c.rowSpan, colSpan: c.colSpan, text: c.text, box: nb(c) })),
      };
    }
    if (b.image) {
      const bytes = options.imageBytes?.(b.image);
      out.image = { width: b.image.width, height: b.image.height, mimeType: "image/png", ...(bytes ? { bytes } : {}) };
    }
    if (b.chars) {
      out.chars = b.chars.map((c) => ({
        text: c.text,
        box: nb(c),
        confidence: c.confidence,
        ...(c.candidates ? { candidates: c.candidates } : {}),
      }));
    }
    if (b.objects?.length) {
      out.objects = b.objects.map((o) => ({ type: o.type, text: o.text, start: o.start, end: o.end, box: nb(o), displayMode: "inline" }));
    }
    if (b.ocrConfidence !== undefined) out.metadata = { ...out.metadata, ocr_confidence: Math.round(b.ocrConfidence * 100) / 100 };
    if (el.continuationOf !== undefined) out.continuationOf = el.continuationOf;
    if (el.refIndex !== undefined) out.refIndex = el.refIndex;
    return out;
  });
}
