import type { DraftDocument, FormatHandler } from "../../src/engine/draft.js";
import { DocParseError } from "../../src/errors.js";
import { inPageRange } from "../../src/wire/index.js";

/** 1×1 transparent PNG. */
export const TINY_PNG = new Uint8Array(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
);

/**
 * A format handler with real pages, for testing the assembler and the page-image path
 * through the FormatHandler port (it stands in for PDF until that handler is merged).
 * Three pages; page 2 has a table continued on page 3 and a captioned image.
 */
export function pagedFormat(options: { failPage?: number } = {}): FormatHandler & { renders: number[]; passwords: (string | undefined)[] } {
  const renders: number[] = [];
  const passwords: (string | undefined)[] = [];
  return {
    id: "pdf",
    mimeType: "application/pdf",
    renders,
    passwords,
    async parse(_bytes, ctx) {
      const pageCount = 3;
      const beyond = ctx.pageRange?.find((s) => s.from > pageCount);
      if (beyond) throw new DocParseError(40424, "page_range beyond the document");
      const table = { rows: 2, cols: 2, headerRows: 1, cells: [
        { row: 1, col: 1, text: "k", box: { x0: 0.1, y0: 0.5, x1: 0.3, y1: 0.55 } },
        { row: 1, col: 2, text: "v" },
        { row: 2, col: 1, text: "a", colSpan: 2 },
      ] };
      const all: DraftDocument["elements"] = [
        { type: "Title", text: "Report", page: 1, box: { x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.15 }, headingLevel: 1 },
        { type: "NarrativeText", text: "Intro text", page: 1, box: { x0: 0.1, y0: 0.2, x1: 0.9, y1: 0.3 }, chars: [...("Intro text")].map((c, i) => ({ text: c, box: { x0: 0.1 + i * 0.01, y0: 0.2, x1: 0.11 + i * 0.01, y1: 0.22 }, confidence: 0.9 })) },
        { type: "Title", text: "Data", page: 2, box: { x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.15 }, headingLevel: 2 },
        { type: "Table", text: "k v\na", page: 2, box: { x0: 0.1, y0: 0.5, x1: 0.9, y1: 0.9 }, table },
        { type: "Image", text: "", page: 2, box: { x0: 0.1, y0: 0.9, x1: 0.5, y1: 0.95 }, image: { width: 1, height: 1, mimeType: "image/png", bytes: TINY_PNG }, refIndex: 5 },
        { type: "FigureCaption", text: "Figure 1", page: 2, box: { x0: 0.1, y0: 0.95, x1: 0.5, y1: 0.97 }, refIndex: 4 },
        { type: "Table", text: "b", page: 3, box: { x0: 0.1, y0: 0.1, x1: 0.9, y1: 0.2 }, table: { rows: 1, cols: 2, headerRows: 0, cells: [{ row: 1, col: 1, text: "b", colSpan: 2 }] }, continuationOf: 3 },
        { type: "NarrativeText", text: "No box here", page: 3 },
      ];
      const pages = [1, 2, 3]
        .filter((n) => n !== options.failPage)
        .map((n) => ({ number: n, width: 1190, height: 1684, dpi: 144 }));
      const draft: DraftDocument = {
        filetype: "application/pdf",
        pageCount,
        pages: pages.filter((p) => inPageRange(ctx.pageRange, p.number)),
        elements: all.filter((e) => e.page !== options.failPage && inPageRange(ctx.pageRange, e.page)),
      };
      if (options.failPage) draft.failedPages = [options.failPage];
      return draft;
    },
    async renderPage(_bytes, page, renderOptions) {
      renders.push(page);
      passwords.push(renderOptions.password);
      if (page > 3) throw new DocParseError(40424, "no such page");
      return TINY_PNG;
    },
  };
}

/** A handler that never finishes (for timeouts and aborts). */
export const hangingFormat: FormatHandler = {
  id: "txt",
  mimeType: "text/plain",
  parse: () => new Promise(() => {}),
};

/** A handler that throws what a format library throws on bad bytes. */
export const throwingFormat: FormatHandler = {
  id: "txt",
  mimeType: "text/plain",
  async parse() {
    throw new TypeError("Invalid structure at offset 12");
  },
};

/** A handler that blocks the event loop (CPU-bound work that never yields), then answers. */
export const busyFormat: FormatHandler = {
  id: "txt",
  mimeType: "text/plain",
  async parse() {
    const end = Date.now() + 120;
    while (Date.now() < end) {
      // spin
    }
    return { filetype: "text/plain", pageCount: 1, pages: [], elements: [], estimatedLayout: true };
  },
};
