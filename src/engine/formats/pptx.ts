import { DocParseError, abortError } from "../../errors.js";
import { inPageRange } from "../../wire/index.js";
import type { Box, DraftDocument, DraftElement, DraftPage, FormatContext, FormatHandler } from "../draft.js";
import { ENGINE_LIMIT_DEFAULTS } from "../limits.js";
import { imageSize } from "./image-size.js";
import { renderViaPdf } from "./office/pdf-geometry.js";
import { CHART_MIME, chartText } from "./office/chart.js";
import { officeOptions } from "./office/options.js";
import { buildTable, spanOf, tableText, type GridCell } from "./office/table-grid.js";
import { child, children, find, findAll, parseXml, readRels, textOf, type XNode } from "./office/xml.js";
import { OfficeZip } from "./office/zip.js";

/**
 * PPTX → one page per slide with real geometry: the slide size gives the page, shape
 * offsets (through group transforms, and through the layout and master for placeholders
 * that do not say where they are) give boxes. Title placeholders become Titles; other
 * paragraphs become ListItems (with their level) when bulleted, NarrativeText otherwise.
 * Hidden slides are skipped unless `engine_params.include_hidden`; speaker notes come
 * after a slide's content with `engine_params.include_speaker_notes`.
 *
 * Pages are numbered as in the source deck (a skipped hidden slide leaves a gap).
 * Boxes of single paragraphs inside a text shape are estimated from line counts; the
 * shape's box itself is exact.
 */

export const PPTX_MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

/** Pixel density of the pages this handler reports. @default 96 */
export const PPTX_DPI = 96;
const EMU_PER_INCH = 914_400;

/** The PPTX handler (`pptx`): one page per slide with real geometry. */
export const pptxFormat: FormatHandler = {
  id: "pptx",
  mimeType: PPTX_MIME,
  parse: parsePptx,
  // Page images need LibreOffice (40428 with an install hint without it).
  renderPage: renderSlide,
};

type Rels = Map<string, { target: string; type: string; external: boolean }>;

/** A rectangle in EMU. */
interface Rect {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

interface Placeholder {
  type: string;
  idx?: string;
  rect?: Rect;
}

interface SlideCtx {
  /** Charts found while walking; their parts are read after the (synchronous) walk. */
  charts: { rect: Rect; target: string }[];
  zip: OfficeZip;
  rels: Rels;
  layoutPh: Placeholder[];
  masterPh: Placeholder[];
  size: { cx: number; cy: number };
}

/** A shape's output before ordering: its elements, and where it starts. */
interface Block {
  rect: Rect;
  isTitle: boolean;
  elements: Omit<DraftElement, "page">[];
}

/** The deck's slide parts in show order and its slide size (EMU). */
async function readDeck(zip: OfficeZip): Promise<{ size: { cx: number; cy: number }; slidePaths: string[] }> {
  const rootRels = await readRels(zip.text("_rels/.rels"), "");
  let presPath = "ppt/presentation.xml";
  for (const r of rootRels.values()) if (r.type.endsWith("/officeDocument") && zip.has(r.target)) presPath = r.target;
  const presXml = zip.text(presPath);
  if (presXml === undefined) throw new DocParseError(40422, "The PPTX has no presentation part (ppt/presentation.xml)");
  const presDir = presPath.slice(0, presPath.lastIndexOf("/"));
  const pres = await parseXml(presXml, presPath);
  const presRels = await readRels(zip.text(`${presDir}/_rels/${presPath.slice(presDir.length + 1)}.rels`), presDir);
  const sz = find(pres, "p:sldSz");
  const size = { cx: Number(sz?.attrs.cx ?? 9_144_000) || 9_144_000, cy: Number(sz?.attrs.cy ?? 6_858_000) || 6_858_000 };
  const slidePaths = findAll(find(pres, "p:sldIdLst"), "p:sldId")
    .map((s) => presRels.get(s.attrs["r:id"] ?? "")?.target)
    .filter((t): t is string => t !== undefined && zip.has(t));
  return { size, slidePaths };
}

/**
 * A slide's page image: LibreOffice prints the deck to PDF (cached by content) and the
 * PDF page is rendered. LibreOffice leaves hidden slides out of the PDF, so the PDF page
 * of slide n is its position among the visible slides.
 */
async function renderSlide(bytes: Uint8Array, page: number, options: { dpi: number; signal?: AbortSignal }): Promise<Uint8Array> {
  const zip = OfficeZip.open(bytes, ENGINE_LIMIT_DEFAULTS);
  const { slidePaths } = await readDeck(zip);
  if (!Number.isInteger(page) || page < 1 || page > slidePaths.length) throw new DocParseError(40424, `The deck has no slide ${page}`);
  let printed = 0;
  for (let i = 0; i < page; i++) {
    const head = (zip.text(slidePaths[i]!) ?? "").slice(0, 4096);
    const hidden = /<p:sld\b[^>]*\bshow="(?:0|false)"/.test(head);
    if (i === page - 1 && hidden) throw new DocParseError(40425, `Slide ${page} is hidden and has no page image`);
    if (!hidden) printed++;
  }
  return renderViaPdf(bytes, "pptx", printed, options);
}

/** Parses a deck (also used by the legacy route for ppt/odp). */
export async function parsePptx(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  const options = officeOptions(ctx);
  const zip = OfficeZip.open(bytes, ctx.limits);
  const { size, slidePaths } = await readDeck(zip);
  const pageCount = slidePaths.length;
  if (ctx.pageRange && ctx.pageRange.some((s) => s.from > pageCount)) {
    throw new DocParseError(40424, `page_range goes beyond the presentation's ${pageCount} slide(s)`);
  }
  const width = Math.round((size.cx / EMU_PER_INCH) * PPTX_DPI);
  const height = Math.round((size.cy / EMU_PER_INCH) * PPTX_DPI);
  const pages: DraftPage[] = [];
  const elements: DraftElement[] = [];
  const phCache = new Map<string, Promise<{ ph: Placeholder[]; rels: Rels }>>();
  for (let i = 0; i < slidePaths.length; i++) {
    if (ctx.signal?.aborted) throw abortError(ctx.signal);
    const page = i + 1;
    if (!inPageRange(ctx.pageRange, page)) continue;
    const path = slidePaths[i]!;
    const dir = path.slice(0, path.lastIndexOf("/"));
    const slide = await parseXml(zip.text(path)!, path);
    const root = find(slide, "p:sld");
    if ((root?.attrs.show === "0" || root?.attrs.show === "false") && !options.include_hidden) continue;
    const rels = await readRels(zip.text(`${dir}/_rels/${path.slice(dir.length + 1)}.rels`), dir);
    const layoutPath = [...rels.values()].find((r) => r.type.endsWith("/slideLayout"))?.target;
    const layout = layoutPath ? await cachedPlaceholders(zip, layoutPath, phCache) : undefined;
    const masterPath = layout ? [...layout.rels.values()].find((r) => r.type.endsWith("/slideMaster"))?.target : undefined;
    const master = masterPath ? await cachedPlaceholders(zip, masterPath, phCache) : undefined;
    const sctx: SlideCtx = { charts: [], zip, rels, layoutPh: layout?.ph ?? [], masterPh: master?.ph ?? [], size };
    const blocks: Block[] = [];
    walkTree(find(root, "p:spTree"), identity, sctx, blocks);
    for (const c of sctx.charts) {
      const el = await chartElement(zip, c.target, c.rect, size);
      if (el) blocks.push({ rect: c.rect, isTitle: false, elements: [el] });
    }
    // Titles first, then top-to-bottom, left-to-right by where each shape starts.
    blocks.sort((a, b) => Number(b.isTitle) - Number(a.isTitle) || Math.round((a.rect.y / size.cy) * 50) - Math.round((b.rect.y / size.cy) * 50) || a.rect.x - b.rect.x);
    pages.push({ number: page, width, height, dpi: PPTX_DPI });
    for (const b of blocks) for (const e of b.elements) elements.push({ ...e, page });
    if (options.include_speaker_notes) {
      const notesPath = [...rels.values()].find((r) => r.type.endsWith("/notesSlide"))?.target;
      const notes = notesPath ? await notesText(zip, notesPath) : "";
      if (notes) elements.push({ type: "NarrativeText", subType: "speaker_notes", text: notes, page, metadata: { speaker_notes: true } });
    }
  }
  return { filetype: PPTX_MIME, pageCount, pages, elements };
}

function cachedPlaceholders(zip: OfficeZip, path: string, cache: Map<string, Promise<{ ph: Placeholder[]; rels: Rels }>>) {
  let hit = cache.get(path);
  if (!hit) {
    hit = (async () => {
      const xml = zip.text(path);
      const dir = path.slice(0, path.lastIndexOf("/"));
      const rels = await readRels(zip.text(`${dir}/_rels/${path.slice(dir.length + 1)}.rels`), dir);
      if (!xml) return { ph: [], rels };
      const root = await parseXml(xml, path);
      const ph: Placeholder[] = [];
      for (const sp of findAll(root, "p:sp")) {
        const p = find(child(sp, "p:nvSpPr"), "p:ph");
        if (!p) continue;
        const item: Placeholder = { type: p.attrs.type ?? "obj" };
        if (p.attrs.idx !== undefined) item.idx = p.attrs.idx;
        const r = xfrmRect(child(child(sp, "p:spPr"), "a:xfrm"));
        if (r) item.rect = r;
        ph.push(item);
      }
      return { ph, rels };
    })();
    cache.set(path, hit);
  }
  return hit;
}

function xfrmRect(x: XNode | undefined): Rect | undefined {
  const off = child(x, "a:off");
  const ext = child(x, "a:ext");
  if (!off || !ext) return undefined;
  return { x: Number(off.attrs.x ?? 0), y: Number(off.attrs.y ?? 0), cx: Number(ext.attrs.cx ?? 0), cy: Number(ext.attrs.cy ?? 0) };
}

type Transform = (r: Rect) => Rect;
const identity: Transform = (r) => r;

/** Group shapes place children in their own coordinate space (chOff/chExt → off/ext). */
function groupTransform(grpSpPr: XNode | undefined, outer: Transform): Transform {
  const x = child(grpSpPr, "a:xfrm");
  const off = child(x, "a:off");
  const ext = child(x, "a:ext");
  const chOff = child(x, "a:chOff");
  const chExt = child(x, "a:chExt");
  if (!off || !ext || !chOff || !chExt) return outer;
  const sx = Number(chExt.attrs.cx) ? Number(ext.attrs.cx) / Number(chExt.attrs.cx) : 1;
  const sy = Number(chExt.attrs.cy) ? Number(ext.attrs.cy) / Number(chExt.attrs.cy) : 1;
  return (r) =>
    outer({
      x: Number(off.attrs.x) + (r.x - Number(chOff.attrs.x)) * sx,
      y: Number(off.attrs.y) + (r.y - Number(chOff.attrs.y)) * sy,
      cx: r.cx * sx,
      cy: r.cy * sy,
    });
}

function walkTree(tree: XNode | undefined, tf: Transform, sctx: SlideCtx, out: Block[]): void {
  for (const node of tree?.children ?? []) {
    switch (node.name) {
      case "p:sp":
        shape(node, tf, sctx, out);
        break;
      case "p:grpSp":
        walkTree(node, groupTransform(child(node, "p:grpSpPr"), tf), sctx, out);
        break;
      case "p:graphicFrame":
        graphicFrame(node, tf, sctx, out);
        break;
      case "p:pic":
        picture(node, tf, sctx, out);
        break;
      case "mc:AlternateContent":
        walkTree(child(node, "mc:Choice") ?? child(node, "mc:Fallback"), tf, sctx, out);
        break;
      default:
        break;
    }
  }
}

function toBox(r: Rect, size: { cx: number; cy: number }): Box {
  const c = (v: number) => Math.min(1, Math.max(0, v));
  return { x0: c(r.x / size.cx), y0: c(r.y / size.cy), x1: c((r.x + r.cx) / size.cx), y1: c((r.y + r.cy) / size.cy) };
}

function placeholderRect(ph: XNode, sctx: SlideCtx): Rect | undefined {
  const type = ph.attrs.type ?? "obj";
  const idx = ph.attrs.idx;
  const sameType = (p: Placeholder) => p.type === type || (isTitleType(type) && isTitleType(p.type));
  const inLayout = (idx !== undefined ? sctx.layoutPh.find((p) => p.idx === idx) : undefined) ?? sctx.layoutPh.find(sameType);
  if (inLayout?.rect) return inLayout.rect;
  const masterType = isTitleType(type) ? "title" : ["obj", "body", "subTitle"].includes(type) || type === undefined ? "body" : type;
  return sctx.masterPh.find((p) => p.type === masterType || (masterType === "title" && isTitleType(p.type)))?.rect;
}

const isTitleType = (t: string) => t === "title" || t === "ctrTitle";

function shape(sp: XNode, tf: Transform, sctx: SlideCtx, out: Block[]): void {
  const nv = child(sp, "p:nvSpPr");
  const ph = find(child(nv, "p:nvPr"), "p:ph");
  const own = xfrmRect(child(child(sp, "p:spPr"), "a:xfrm"));
  const raw = own ?? (ph ? placeholderRect(ph, sctx) : undefined);
  const body = child(sp, "p:txBody");
  if (!body) return;
  const rect = tf(raw ?? { x: 0, y: 0, cx: sctx.size.cx, cy: sctx.size.cy });
  const phType = ph ? (ph.attrs.type ?? "obj") : undefined;
  const isTitle = phType !== undefined && isTitleType(phType);
  const textBox = child(nv, "p:cNvSpPr")?.attrs.txBox === "1";
  // Body placeholders inherit bullets from the master's body style; text boxes do not.
  const bulletsByDefault = phType !== undefined && ["obj", "body"].includes(phType) && !textBox;
  const paras = children(body, "a:p").map((p) => paragraph(p, bulletsByDefault)).filter((p) => p.text !== "");
  if (paras.length === 0) return;
  const elements: Omit<DraftElement, "page">[] = [];
  if (isTitle) {
    elements.push({ type: "Title", headingLevel: 1, text: paras.map((p) => p.text).join(" "), box: toBox(rect, sctx.size) });
  } else {
    const boxes = splitBoxes(rect, paras, sctx.size);
    paras.forEach((p, k) => {
      const el: Omit<DraftElement, "page"> = { type: "NarrativeText", text: p.text, box: boxes[k]! };
      if (phType === "ftr" || phType === "dt") el.type = "Footer";
      else if (phType === "sldNum") el.type = "PageNumber";
      else if (phType === "subTitle") el.subType = "subtitle";
      else if (p.bullet) {
        el.type = "ListItem";
        el.listLevel = p.level;
      }
      elements.push(el);
    });
  }
  out.push({ rect, isTitle, elements });
}

interface Para {
  text: string;
  level: number;
  bullet: boolean;
  /** Font size in points, for line estimates. */
  size: number;
}

function paragraph(p: XNode, bulletsByDefault: boolean): Para {
  const pPr = child(p, "a:pPr");
  const level = Number(pPr?.attrs.lvl ?? 0) || 0;
  let bullet = bulletsByDefault;
  if (child(pPr, "a:buNone")) bullet = false;
  else if (child(pPr, "a:buChar") || child(pPr, "a:buAutoNum") || child(pPr, "a:buBlip")) bullet = true;
  let text = "";
  let size = 18;
  for (const c of p.children) {
    if (c.name === "a:r" || c.name === "a:fld") {
      text += textOf(child(c, "a:t"));
      const sz = Number(child(c, "a:rPr")?.attrs.sz);
      if (sz) size = sz / 100;
    } else if (c.name === "a:br") text += "\n";
  }
  return { text: text.trim(), level, bullet, size };
}

/** Splits a text shape's box among its paragraphs by estimated line count (top-anchored). */
function splitBoxes(rect: Rect, paras: Para[], size: { cx: number; cy: number }): Box[] {
  const emuPerPt = 12_700;
  const heights = paras.map((p) => {
    const charsPerLine = Math.max(1, rect.cx / (p.size * emuPerPt * 0.55));
    const lines = p.text.split("\n").reduce((n, l) => n + Math.max(1, Math.ceil([...l].length / charsPerLine)), 0);
    return lines * p.size * 1.2 * emuPerPt;
  });
  const total = heights.reduce((a, b) => a + b, 0);
  // Text taller than its shape overflows it in PowerPoint too; scale down to stay inside.
  const scale = total > rect.cy ? rect.cy / total : 1;
  let y = rect.y;
  return heights.map((h) => {
    const r = { x: rect.x, y, cx: rect.cx, cy: h * scale };
    y += h * scale;
    return toBox(r, size);
  });
}

function graphicFrame(frame: XNode, tf: Transform, sctx: SlideCtx, out: Block[]): void {
  const tbl = find(frame, "a:tbl");
  const rect = tf(xfrmRect(child(frame, "p:xfrm")) ?? { x: 0, y: 0, cx: sctx.size.cx, cy: sctx.size.cy });
  if (!tbl) {
    const rid = find(frame, "c:chart")?.attrs["r:id"];
    const rel = rid ? sctx.rels.get(rid) : undefined;
    if (rel && !rel.external) sctx.charts.push({ rect, target: rel.target });
    return;
  }
  const widths = findAll(child(tbl, "a:tblGrid"), "a:gridCol").map((g) => Number(g.attrs.w ?? 0));
  const trs = children(tbl, "a:tr");
  const heights = trs.map((tr) => Number(tr.attrs.h ?? 0));
  // Scale grid sizes onto the frame (group transforms and autofit can differ from the grid).
  const sumW = widths.reduce((a, b) => a + b, 0) || 1;
  const sumH = heights.reduce((a, b) => a + b, 0) || 1;
  const sx = rect.cx / sumW;
  const sy = rect.cy / sumH;
  const rows: GridCell[][] = [];
  const boxes = new Map<string, Box>();
  trs.forEach((tr, r) => {
    const cells: GridCell[] = [];
    children(tr, "a:tc").forEach((tc, c) => {
      if (tc.attrs.hMerge === "1" || tc.attrs.vMerge === "1") return;
      const colSpan = spanOf(tc.attrs.gridSpan, Math.max(1, widths.length - c));
      const rowSpan = spanOf(tc.attrs.rowSpan, Math.max(1, trs.length - r));
      const text = children(child(tc, "a:txBody"), "a:p")
        .map((p) => paragraph(p, false).text)
        .filter(Boolean)
        .join("\n");
      cells.push({ col: c, text, colSpan, rowSpan });
      const x = rect.x + widths.slice(0, c).reduce((a, b) => a + b, 0) * sx;
      const y = rect.y + heights.slice(0, r).reduce((a, b) => a + b, 0) * sy;
      const w = widths.slice(c, c + colSpan).reduce((a, b) => a + b, 0) * sx;
      const h = heights.slice(r, r + rowSpan).reduce((a, b) => a + b, 0) * sy;
      boxes.set(`${r + 1},${c + 1}`, toBox({ x, y, cx: w, cy: h }, sctx.size));
    });
    rows.push(cells);
  });
  const table = buildTable(rows, 1);
  table.cols = Math.max(table.cols, widths.length);
  for (const cell of table.cells) {
    const b = boxes.get(`${cell.row},${cell.col}`);
    if (b) cell.box = b;
  }
  out.push({ rect, isTitle: false, elements: [{ type: "Table", text: tableText(table), table, box: toBox(rect, sctx.size) }] });
}

function picture(pic: XNode, tf: Transform, sctx: SlideCtx, out: Block[]): void {
  const rid = find(child(pic, "p:blipFill"), "a:blip")?.attrs["r:embed"];
  const raw = xfrmRect(child(child(pic, "p:spPr"), "a:xfrm"));
  if (!rid || !raw) return;
  const rect = tf(raw);
  const rel = sctx.rels.get(rid);
  const bytes = rel && !rel.external ? sctx.zip.read(rel.target) : undefined;
  const info = bytes ? imageSize(bytes) : undefined;
  const cNvPr = find(child(pic, "p:nvPicPr"), "p:cNvPr");
  const alt = (cNvPr?.attrs.descr || cNvPr?.attrs.title || "").trim();
  const w = info?.width ?? Math.round((rect.cx / EMU_PER_INCH) * PPTX_DPI);
  const h = info?.height ?? Math.round((rect.cy / EMU_PER_INCH) * PPTX_DPI);
  const el: Omit<DraftElement, "page"> = {
    type: "Image",
    text: alt,
    box: toBox(rect, sctx.size),
    image: { width: w, height: h, mimeType: info?.mimeType ?? "application/octet-stream" },
    metadata: { width: w, height: h },
  };
  if (bytes) el.image!.bytes = bytes;
  out.push({ rect, isTitle: false, elements: [el] });
}

async function notesText(zip: OfficeZip, path: string): Promise<string> {
  const xml = zip.text(path);
  if (!xml) return "";
  const root = await parseXml(xml, path);
  const parts: string[] = [];
  for (const sp of findAll(root, "p:sp")) {
    const ph = find(child(sp, "p:nvSpPr"), "p:ph");
    // Only the notes body; the slide image, header, date and number placeholders are not notes.
    if (!ph || (ph.attrs.type ?? "body") !== "body") continue;
    for (const p of children(child(sp, "p:txBody"), "a:p")) {
      const t = paragraph(p, false).text;
      if (t) parts.push(t);
    }
  }
  return parts.join("\n");
}

async function chartElement(zip: OfficeZip, path: string, rect: Rect, size: { cx: number; cy: number }): Promise<Omit<DraftElement, "page"> | undefined> {
  const text = await chartText(zip, path);
  if (text === undefined) return undefined;
  const w = Math.round((rect.cx / EMU_PER_INCH) * PPTX_DPI);
  const h = Math.round((rect.cy / EMU_PER_INCH) * PPTX_DPI);
  return { type: "Image", subType: "chart", text, box: toBox(rect, size), image: { width: w, height: h, mimeType: CHART_MIME }, metadata: { width: w, height: h } };
}
