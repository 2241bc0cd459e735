import { contentToFrame, dominantAngle, frameSize, isCjk, markVerticalWriting, toFrame, uprightLinesAsRuns, type BulletShape, type Frame, type Drawing, type PlacedImage, type Segment, type TextRun } from "../layout/index.js";
import { pageRotation, type PdfPage } from "./pdf-load.js";
import { fontInfo, walkOperators, type FontInfo, type Matrix } from "./pdf-ops.js";
import { taggedCells, type StructNode } from "./pdf-struct.js";
import { pdfjsWorkerModule } from "./pdfjs-patch.js";
import type { RawImage } from "./pdf-png.js";

/**
 * Pulls positioned text, ruling lines and images out of one pdfjs page (one operator
 * list, no second parse for text), in the page's reading frame: points, origin
 * top-left, turned so the dominant text direction runs left to right.
 */

/** What {@link extractPage} returns. */
export interface ExtractedPage {
  /** Size of the layout frame (display size, swapped when text runs sideways). */
  width: number;
  height: number;
  /** The reading frame: display size and dominant text direction. */
  frame: Frame;
  /** Page rotation in degrees (0, 90, 180, 270). */
  rotate: number;
  runs: TextRun[];
  segments: Segment[];
  images: (PlacedImage & { raw?: RawImage })[];
  /** Characters in the text layer (0 means a scanned page). */
  textChars: number;
  /** Small closed shapes that may be list bullets drawn as paths (layout decides). */
  bullets: BulletShape[];
  /** Boxes of the painted paths (vector figures are found from them). */
  drawings: Drawing[];
}

/** Options for {@link extractPage}. */
export interface ExtractOptions {
  /** Per-glyph positions on runs. @default false */
  chars?: boolean;
  /** Drop rotated, transparent or very light large text. @default false */
  removeWatermark?: boolean;
  /** Fetch decoded pixels of images (for image_data). @default false */
  imagePixels?: boolean;
  /** Ruling segments kept per page at most (hostile PDFs draw millions). @default 20000 */
  maxSegments?: number;
}

/** Fonts seen in a document: pdfjs font id → facts, filled lazily from `commonObjs`. */
export type FontCache = Map<string, FontInfo>;

export async function extractPage(page: PdfPage, fonts: FontCache, options: ExtractOptions = {}): Promise<ExtractedPage> {
  const { chars = false, removeWatermark = false, imagePixels = false, maxSegments = 20_000 } = options;
  const viewport = page.getViewport({ scale: 1 });
  const base = viewport.transform as unknown as Matrix;
  // Image pixels come as page objects, which pdfjs' API keeps only for a page it is
  // rendering or streaming an operator list for: with image data, the stream.
  const ops = imagePixels ? await page.getOperatorList() : await pageOperatorList(page);
  const font = (id: string): FontInfo => {
    let info = fonts.get(id);
    if (!info) {
      let obj: unknown;
      try {
        obj = page.commonObjs.has(id) ? page.commonObjs.get(id) : undefined;
      } catch {
        // A font pdfjs failed to load: default metrics, plain style.
      }
      info = fontInfo(obj);
      fonts.set(id, info);
    }
    return info;
  };
  const cropBox = { x0: 0, y0: 0, x1: viewport.width, y1: viewport.height };
  const walked = walkOperators(ops.fnArray, ops.argsArray, base, { chars, removeWatermark, maxSegments, font, page: cropBox });
  let tagged = false;
  for (const r of walked.runs) {
    // CJK fonts are fixed-pitch too: monospace only means code for non-CJK text.
    if (r.mono && isCjk(r.text[0] ?? "")) r.mono = false;
    if (r.mcid !== undefined) tagged = true;
  }
  // A tagged page's table cells, from its structure tree (read only when its text is marked).
  if (tagged) await markTableCells(page, walked.runs);
  const images: ExtractedPage["images"] = [];
  for (const img of walked.images) {
    const raw = imagePixels ? (img.inline ?? (img.ref ? await objectData(page, img.ref) : undefined)) : undefined;
    const placed: PlacedImage & { raw?: RawImage } = { ...img.box, width: raw?.width ?? img.width, height: raw?.height ?? img.height };
    if (img.ref) placed.ref = img.ref;
    if (raw) placed.raw = raw;
    images.push(placed);
  }
  // Sideways text (rotated pages, landscape tables) is laid out in its own frame; so is
  // vertical CJK set glyph by glyph with an upright font (its columns become lines).
  const runs = markVerticalWriting(walked.runs) ? uprightLinesAsRuns(walked.runs) : walked.runs;
  const frame: Frame = { angle: dominantAngle(runs), width: viewport.width, height: viewport.height };
  const inFrame = contentToFrame(frame, runs, walked.segments, images);
  if (chars && frame.angle !== 0) {
    // Glyph boxes turn with their runs (contentToFrame), save a line of vertical CJK made
    // one run (uprightLinesAsRuns): its glyphs all hold the line's box until shared out here.
    for (const r of inFrame.runs) if (r.chars && r.chars.length > 1 && r.chars.every((c) => c.x0 === r.x0 && c.x1 === r.x1)) r.chars = spread(r);
  }
  const size = frameSize(frame);
  return {
    width: size.width,
    height: size.height,
    frame,
    rotate: pageRotation(page),
    runs: inFrame.runs,
    segments: inFrame.segments,
    images: inFrame.images as ExtractedPage["images"],
    textChars: walked.textChars,
    bullets: frame.angle === 0 ? walked.markers : walked.markers.map((m) => ({ ...m, ...toFrame(m, frame) })),
    drawings: frame.angle === 0 ? walked.drawings : walked.drawings.map((d) => ({ ...d, ...toFrame(d, frame) })),
  };
}

/** pdfjs' `AnnotationMode.ENABLE`: `page.getOperatorList()`'s default. */
const ANNOTATIONS_ENABLED = 1;

interface PageInternals {
  _pageIndex: number;
  _transport: {
    messageHandler: { sendWithPromise(action: string, data: unknown): Promise<{ fnArray: number[]; argsArray: unknown[] }> };
    getRenderingIntent(intent: string, annotationMode: number, printStorage: null, isEditing: boolean, isOpList: boolean): { renderingIntent: number; cacheKey: string; annotationStorageSerializable: { map: unknown }; modifiedIds: unknown };
  };
}

/**
 * The page's operator list as `page.getOperatorList()` gives it (display intent,
 * annotations on), asked for in one answer when this thread's worker module is patched
 * for it (pdfjs-patch-oplist.ts): no stream, no chunk messages. The page index is the
 * page id: nothing here reorders pages. The page's own objects (image pixels) are dropped
 * by the API on this path (it keeps them only for pages it renders or streams): callers
 * that read `page.objs` use `page.getOperatorList()`.
 */
export async function pageOperatorList(page: PdfPage): Promise<{ fnArray: number[]; argsArray: unknown[] }> {
  const worker = (globalThis as { pdfjsWorker?: { WorkerMessageHandler?: { wholeOperatorList?: boolean } } }).pdfjsWorker;
  const internals = page as unknown as Partial<PageInternals>;
  const transport = internals._transport;
  if (worker?.WorkerMessageHandler?.wholeOperatorList !== true || typeof internals._pageIndex !== "number" || typeof transport?.getRenderingIntent !== "function") return page.getOperatorList();
  const intent = transport.getRenderingIntent("display", ANNOTATIONS_ENABLED, null, false, true);
  return transport.messageHandler.sendWithPromise("GetOperatorListWhole", {
    pageId: internals._pageIndex,
    pageIndex: internals._pageIndex,
    intent: intent.renderingIntent,
    cacheKey: intent.cacheKey,
    annotationStorage: intent.annotationStorageSerializable.map,
    modifiedIds: intent.modifiedIds,
  });
}

/** Puts each run shown in a tagged table cell's marked content in that cell (`TextRun.cell`). */
async function markTableCells(page: PdfPage, runs: TextRun[]): Promise<void> {
  // Unpatched, pdfjs builds the whole structure tree around each page (its cost grows
  // with the document): tables are read only from our tables-only tree.
  if (!pdfjsWorkerModule().patched) return;
  let tree: StructNode | null = null;
  try {
    tree = (await page.getStructTree()) as StructNode | null;
  } catch {
    // A broken structure tree: the page is read from its drawing alone.
    return;
  }
  const ref = page.ref;
  if (!tree?.tablesOnly || !ref) return;
  const cells = taggedCells(tree, ref.gen === 0 ? `${ref.num}R` : `${ref.num}R${ref.gen}`);
  if (cells.size === 0) return;
  for (const r of runs) {
    const cell = r.mcid === undefined ? undefined : cells.get(r.mcid);
    if (cell) r.cell = cell;
  }
}

function spread(r: TextRun): NonNullable<TextRun["chars"]> {
  const n = r.chars?.length ?? 0;
  const w = (r.x1 - r.x0) / Math.max(1, n);
  return (r.chars ?? []).map((c, i) => ({ text: c.text, x0: r.x0 + i * w, x1: r.x0 + (i + 1) * w }));
}

async function objectData(page: PdfPage, id: string): Promise<RawImage | undefined> {
  const objs = id.startsWith("g_") ? page.commonObjs : page.objs;
  try {
    const data = await new Promise<unknown>((resolve) => objs.get(id, resolve));
    const d = data as Partial<RawImage> | null;
    if (d && typeof d.width === "number" && typeof d.height === "number" && d.data && typeof d.kind === "number") return d as RawImage;
  } catch {
    // Missing image data: the element keeps its geometry, without pixels.
  }
  return undefined;
}
