import type { Element, ElementMetadata, Page, PageSpan, ParseResult, ResolvedCapabilities, TitleNode } from "../wire/index.js";
import { LOCAL_SCHEMA_VERSION, inPageRange } from "../wire/index.js";
import { DocParseError, LocalErrorCode } from "../errors.js";
import type { Box, DraftChar, DraftDocument } from "./draft.js";
import { boxToCoordinates, FULL_PAGE } from "./coordinates.js";
import { ElementIdAllocator } from "./element-ids.js";
import { FLOW_PAGE, flowLayout, type LaidElement, type PaintItem } from "./flow-layout.js";
import { layoutAssetName, type FlowPageSnapshot } from "./flow-render.js";
import { tablePlainText } from "./render-table.js";
import { buildHierarchy } from "./hierarchy.js";
import { imageExtension } from "./assets.js";
import { renderMarkdown, type MarkdownItem } from "./render-markdown.js";
import { buildTitleTree } from "./title-tree.js";

/**
 * DraftDocument → wire ParseResult: the one place where element ids, hierarchy,
 * continuation links, markdown, pages, title_tree, asset URLs and capability gating are
 * decided, for every format. Pure: no I/O, no clock. Asset bytes to store are returned
 * beside the result; the caller writes them.
 */

export interface AssembleOptions {
  /** sha256 hex of the source bytes. */
  fileId: string;
  filename?: string;
  capabilities: ResolvedCapabilities;
  /** Pages to keep (1-based, merged); undefined keeps all. */
  pageRange?: readonly PageSpan[];
  /** `url` (default) stores element images as assets; `base64` inlines them. */
  imageOutputType?: "url" | "base64";
  /** URL of an asset by name (`page-1.png`, `img-0.png`). */
  assetUrl: (name: string) => string;
  /** Whether the format can render page images (the handler has `renderPage`). */
  canRenderPages: boolean;
  /**
   * Whether estimated pages get page images (drawn later from `layout-N.json` snapshots
   * returned as assets). @default false
   */
  paintEstimatedPages?: boolean;
  /** Written to `summary.duration_ms`. @default 0 */
  durationMs?: number;
  /** Most estimated pages a result may have (after page_range) → DOCPARSE_LIMIT_EXCEEDED. @default Infinity */
  maxPages?: number;
}

/** An asset the caller must store for the result's URLs to resolve. */
export interface AssetWrite {
  name: string;
  bytes: Uint8Array;
}

export interface Assembled {
  result: ParseResult;
  assets: AssetWrite[];
  /** True when some pages failed (code 50207 semantics). */
  partial: boolean;
}

interface PageInfo {
  number: number;
  width: number;
  height: number;
  dpi: number;
  angle: number;
  status: string;
}

export function assemble(draft: DraftDocument, options: AssembleOptions): Assembled {
  const caps = options.capabilities;
  const range = options.pageRange;
  const estimated = draft.estimatedLayout === true || draft.pages.length === 0;

  let laid: LaidElement[];
  let pages: PageInfo[];
  let pageCount: number;
  if (estimated) {
    const fixed = draft.fixedPages === true;
    const paint = caps.pages && options.paintEstimatedPages === true;
    // Character boxes also give inline objects (formulas in Markdown) their coordinates.
    const chars = caps.include_char_details || (caps.include_inline_objects && draft.elements.some((e) => e.objects?.length));
    const flow = flowLayout(draft.elements, { chars, fixedPages: fixed, paint });
    pageCount = fixed ? Math.max(draft.pageCount, flow.pageCount) : flow.pageCount;
    checkRange(range, pageCount);
    laid = flow.elements.filter((l) => inPageRange(range, l.element.page));
    pages = [];
    for (let n = 1; n <= pageCount; n++) {
      if (!inPageRange(range, n)) continue;
      const size = flow.pageSizes.get(n) ?? FLOW_PAGE;
      pages.push({ number: n, width: size.width, height: size.height, dpi: FLOW_PAGE.dpi, angle: 0, status: "Success" });
    }
    // The same bound a paginated format has (the PDF handler applies it to its pages).
    if (options.maxPages !== undefined && pages.length > options.maxPages) {
      throw new DocParseError(
        LocalErrorCode.LimitExceeded,
        `The document lays out to ${pages.length} pages to parse; the limit is ${options.maxPages} (use page_range to parse part of it)`,
      );
    }
  } else {
    pageCount = draft.pageCount;
    checkRange(range, pageCount);
    // Handlers with real pages apply page_range themselves; filtering again is a cheap guard.
    laid = draft.elements.map((element, source) => ({ element, source })).filter((l) => inPageRange(range, l.element.page));
    pages = draft.pages
      .filter((p) => inPageRange(range, p.number))
      .map((p) => ({ number: p.number, width: p.width, height: p.height, dpi: p.dpi, angle: p.angle ?? 0, status: p.status ?? "Success" }));
    for (const n of draft.failedPages ?? []) {
      if (inPageRange(range, n) && !pages.some((p) => p.number === n)) {
        pages.push({ number: n, width: 0, height: 0, dpi: 0, angle: 0, status: "Failed" });
      }
    }
    pages.sort((a, b) => a.number - b.number);
  }

  // Ids, in reading order.
  const ids = new ElementIdAllocator(options.fileId);
  const elementIds = laid.map((l) => ids.next(l.element.page));
  // Draft index → first / last laid piece (for refIndex / continuationOf).
  const firstPiece = new Map<number, number>();
  const lastPiece = new Map<number, number>();
  laid.forEach((l, i) => {
    if (!firstPiece.has(l.source)) firstPiece.set(l.source, i);
    lastPiece.set(l.source, i);
  });
  const hierarchy = buildHierarchy(
    laid.map((l, i) => {
      const from = l.element.continuationOf !== undefined && firstPiece.get(l.source) === i ? lastPiece.get(l.element.continuationOf) : undefined;
      return from === undefined ? l.element : { ...l.element, continues: from };
    }),
  );

  const assets: AssetWrite[] = [];
  const imageUrls = new Map<number, string>();
  let imageCount = 0;
  const elements: Element[] = laid.map((l, i) => {
    const el = l.element;
    const metadata: ElementMetadata = { ...(el.metadata ?? {}) };
    if (caps.include_hierarchy) {
      metadata.category_depth = hierarchy.depth[i]!;
      const p = hierarchy.parent[i]!;
      if (p >= 0) metadata.parent_id = elementIds[p]!;
      if (el.type === "Title") metadata.children_ids = hierarchy.children[i]!.map((c) => elementIds[c]!);
    }
    // A split piece continues the piece before it; a handler's continuationOf points at
    // the last piece of the element it continues.
    let continued: number | undefined = l.continues;
    if (continued === undefined && el.continuationOf !== undefined && firstPiece.get(l.source) === i) {
      continued = lastPiece.get(el.continuationOf);
    }
    if (continued !== undefined && continued < i) {
      metadata.is_continuation = true;
      metadata.continuation_of = elementIds[continued]!;
    }
    if (el.refIndex !== undefined) {
      const ref = firstPiece.get(el.refIndex);
      if (ref !== undefined) metadata.ref_element_id = elementIds[ref]!;
    }
    if (el.image && el.image.width > 0 && el.image.height > 0) {
      metadata.width ??= el.image.width;
      metadata.height ??= el.image.height;
    }
    // An image the source only links to (HTML/Markdown `src`): its address is its URL.
    const linked = typeof metadata.src === "string" && /^https?:\/\//i.test(metadata.src) ? metadata.src : undefined;
    if (el.type === "Image" && linked) imageUrls.set(i, linked);
    const box: Box | undefined = el.box;
    if (estimated || !box) metadata.coordinates_estimated = true;

    const wire: Element = {
      element_id: elementIds[i]!,
      type: el.type,
      text: el.type === "Table" && !el.text && el.table ? tablePlainText(el.table) : el.text,
      page_number: el.page,
      coordinates: boxToCoordinates(box ?? FULL_PAGE),
      metadata,
    };
    if (el.subType !== undefined) wire.sub_type = el.subType;

    if (caps.include_table_structure && el.table) {
      wire.table_structure = {
        rows: el.table.rows,
        cols: el.table.cols,
        cells: el.table.cells.map((c, k) => {
          const cell: Record<string, unknown> = {
            cell_id: `${elementIds[i]}-c${k}`,
            row: c.row,
            col: c.col,
            row_span: c.rowSpan ?? 1,
            col_span: c.colSpan ?? 1,
            content_type: c.contentType ?? "text",
            text: c.text,
          };
          const cellBox = c.box ?? l.cellBoxes?.[k];
          if (cellBox) cell.coordinates = boxToCoordinates(cellBox);
          return cell as NonNullable<Element["table_structure"]>["cells"][number];
        }),
      };
    }

    if (caps.include_image_data && el.image) {
      const mime = el.image.mimeType;
      const data: NonNullable<Element["image_data"]> = { mime_type: mime };
      if (el.image.bytes && el.image.bytes.byteLength > 0) {
        if (options.imageOutputType === "base64") {
          data.base64 = Buffer.from(el.image.bytes).toString("base64");
        } else {
          const name = `img-${imageCount++}.${imageExtension(mime)}`;
          assets.push({ name, bytes: el.image.bytes });
          data.image_url = options.assetUrl(name);
          imageUrls.set(i, data.image_url);
        }
      } else if (linked) {
        data.image_url = linked;
      }
      wire.image_data = data;
    }

    if (caps.include_inline_objects && el.objects && el.objects.length > 0) {
      metadata.has_inline_objects = true;
      metadata.inline_object_types = [...new Set(el.objects.map((o) => o.type))];
      wire.objects = el.objects.map((o, k) => {
        const obj: NonNullable<Element["objects"]>[number] = {
          object_id: `${elementIds[i]}-o${k}`,
          type: o.type,
          text: o.text,
          text_range: [o.start, o.end],
          metadata: o.displayMode ? { display_mode: o.displayMode } : {},
        };
        const objectBox = o.box ?? unionOfChars(el.chars, o.start, o.end);
        if (objectBox) obj.coordinates = boxToCoordinates(objectBox);
        return obj;
      });
    }

    if (caps.include_char_details && el.chars && el.chars.length > 0) {
      wire.char_details = el.chars.map((c, k) => ({
        index: k,
        text: c.text,
        coordinates: boxToCoordinates(c.box),
        recognition: c.candidates ? { confidence: c.confidence ?? 1, candidates: c.candidates } : { confidence: c.confidence ?? 1 },
      }));
    }
    return wire;
  });

  // A continuation joins the previous block only when nothing but page furniture
  // (running headers, footers, page numbers) stands between them.
  let previousContent = -1;
  // A table the layout split over pages is one table in the Markdown again, when every
  // piece is in the result: its first piece renders the whole table, the others nothing.
  const splitRows = new Map<number, { pieces: number; rows: number }>();
  if (estimated) {
    for (const l of laid) {
      if (l.element.type !== "Table" || !l.element.table) continue;
      const seen = splitRows.get(l.source) ?? { pieces: 0, rows: 0 };
      splitRows.set(l.source, { pieces: seen.pieces + 1, rows: seen.rows + l.element.table.rows });
    }
  }
  const wholeTable = (l: LaidElement) => {
    const original = draft.elements[l.source];
    const seen = splitRows.get(l.source);
    return seen && seen.pieces > 1 && original?.table && original.table.rows === seen.rows ? original : undefined;
  };
  const markdownItems: MarkdownItem[] = laid.flatMap((l, i): MarkdownItem[] => {
    let element = l.element;
    const whole = l.element.type === "Table" ? wholeTable(l) : undefined;
    if (whole) {
      if (firstPiece.get(l.source) !== i) return [];
      element = whole;
    }
    const item: MarkdownItem = { element };
    const continued = l.continues ?? (l.element.continuationOf !== undefined ? lastPiece.get(l.element.continuationOf) : undefined);
    if (continued !== undefined && continued === previousContent) item.continues = true;
    if (!FURNITURE.has(l.element.type)) previousContent = i;
    const url = imageUrls.get(i);
    if (url) item.imageUrl = url;
    return [item];
  });

  const result: ParseResult = {
    schema_version: LOCAL_SCHEMA_VERSION,
    file_id: options.fileId,
    success_count: pages.filter((p) => p.status === "Success").length,
    metadata: {
      ...(draft.metadata ?? {}),
      ...(options.filename !== undefined ? { filename: options.filename } : {}),
      filetype: draft.filetype,
      page_count: pageCount,
    },
    markdown: renderMarkdown(markdownItems, caps.table_view),
    elements,
  };
  if (caps.title_tree) {
    const tree: TitleNode[] = buildTitleTree(
      laid.map((l, i) => ({ id: elementIds[i]!, type: l.element.type, text: l.element.text, page: l.element.page })),
      hierarchy,
    );
    result.title_tree = tree;
  }
  if (caps.pages) {
    const idsByPage = new Map<number, string[]>();
    laid.forEach((l, i) => {
      const list = idsByPage.get(l.element.page);
      if (list) list.push(elementIds[i]!);
      else idsByPage.set(l.element.page, [elementIds[i]!]);
    });
    result.pages = pages.map((p): Page => {
      const page: Page = {
        page_number: p.number,
        page_width: p.width,
        page_height: p.height,
        dpi: p.dpi,
        angle: p.angle,
        status: p.status,
        element_ids: idsByPage.get(p.number) ?? [],
      };
      if (options.canRenderPages && !estimated && p.status === "Success") page.page_image_url = options.assetUrl(`page-${p.number}.png`);
      if (estimated && options.paintEstimatedPages) page.page_image_url = options.assetUrl(`page-${p.number}.png`);
      return page;
    });
    if (estimated && options.paintEstimatedPages) {
      const items = new Map<number, PaintItem[]>();
      for (const l of laid) for (const item of l.paint ?? []) {
        const list = items.get(l.element.page);
        if (list) list.push(item);
        else items.set(l.element.page, [item]);
      }
      for (const p of pages) {
        const snapshot: FlowPageSnapshot = { v: 1, width: p.width, height: p.height, items: items.get(p.number) ?? [] };
        assets.push({ name: layoutAssetName(p.number), bytes: new TextEncoder().encode(JSON.stringify(snapshot)) });
      }
    }
  }
  result.summary = { duration_ms: Math.max(0, Math.round(options.durationMs ?? 0)) };
  return { result, assets, partial: (draft.failedPages?.length ?? 0) > 0 };
}

/** The box around characters [start, end) (their first line's part, when they wrap). */
function unionOfChars(chars: DraftChar[] | undefined, start: number, end: number): Box | undefined {
  const first = chars?.[start];
  if (!chars || !first || end <= start) return undefined;
  const out: Box = { ...first.box };
  for (let k = start + 1; k < end && k < chars.length; k++) {
    const b = chars[k]!.box;
    if (b.y0 >= out.y1) break; // next line: keep the box tight
    out.x0 = Math.min(out.x0, b.x0);
    out.x1 = Math.max(out.x1, b.x1);
    out.y1 = Math.max(out.y1, b.y1);
  }
  return out;
}

const FURNITURE = new Set(["Header", "Footer", "PageNumber", "PageBreak"]);

function checkRange(range: readonly PageSpan[] | undefined, pageCount: number): void {
  if (!range) return;
  const beyond = range.find((s) => s.from > pageCount);
  if (beyond) {
    throw new DocParseError(40424, `page_range starts at page ${beyond.from} but the document has ${pageCount} page${pageCount === 1 ? "" : "s"}`);
  }
}
