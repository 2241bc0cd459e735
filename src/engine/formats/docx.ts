import { DocParseError, abortError } from "../../errors.js";
import type { DraftDocument, DraftElement, FormatContext, FormatHandler } from "../draft.js";
import { linkCaptions } from "./office/captions.js";
import { CHART_MIME, chartText } from "./office/chart.js";
import { officeOptions } from "./office/options.js";
import { alignWithPdf, renderViaPdf, wantsPrintedGeometry } from "./office/pdf-geometry.js";
import { imageSize } from "./image-size.js";
import { MAX_SPAN, buildTable, spanOf, tableText, type GridCell } from "./office/table-grid.js";
import { child, children, find, findAll, parseXml, readRels, textOf, type XNode } from "./office/xml.js";
import { OfficeZip } from "./office/zip.js";

/**
 * DOCX → draft elements, read straight from the WordprocessingML.
 *
 * mammoth is the usual tool, but its HTML drops exactly what this engine needs (outline
 * levels on non-heading styles, list levels of custom numbering, page and section
 * breaks, caption links, vMerge spans as the grid gives them), and aligning its output
 * back onto the XML is fragile. One pass over the XML keeps everything in one order.
 * Word has no fixed geometry: `estimatedLayout` is set and page numbers count hard page
 * and section breaks only — unless `engine_params.office_geometry` is `libreoffice`, which
 * aligns the elements onto the pages LibreOffice prints.
 */

export const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

interface StyleInfo {
  name: string;
  basedOn?: string;
  outline?: number;
  numId?: string;
  ilvl?: number;
}

interface WalkState {
  elements: DraftElement[];
  page: number;
  /** Field nesting: `true` while inside a field's instruction (hidden), `false` in its result. */
  fields: boolean[];
  noteRefs: { kind: "footnote" | "endnote"; id: string; n: number }[];
  /** Chart elements waiting for their text (chart parts are parsed after the walk). */
  charts: { element: DraftElement; target: string }[];
  styles: Map<string, StyleInfo>;
  rels: Map<string, { target: string; type: string; external: boolean }>;
  zip: OfficeZip;
  signal?: AbortSignal;
}

const attr = (n: XNode | undefined, name = "w:val") => n?.attrs[name];
const on = (n: XNode | undefined) => n !== undefined && !["0", "false", "off"].includes(n.attrs["w:val"] ?? "true");

/** The DOCX handler (`docx`): structure from the XML; real pages with `office_geometry`. */
export const docxFormat: FormatHandler = {
  id: "docx",
  mimeType: DOCX_MIME,
  async parse(bytes, ctx) {
    const draft = await parseDocx(bytes, ctx);
    // Real pages only on request: printing through LibreOffice costs seconds per document.
    if (!wantsPrintedGeometry(officeOptions(ctx).office_geometry)) return draft;
    return alignWithPdf(draft, bytes, "docx", ctx);
  },
  // Called only for documents parsed with real pages (office_geometry: "libreoffice").
  renderPage: (bytes, page, options) => renderViaPdf(bytes, "docx", page, options),
};

/** Parses a DOCX into an estimated-layout draft (structure only). */
export async function parseDocx(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  const zip = OfficeZip.open(bytes, ctx.limits);
  const mainPart = await mainDocumentPath(zip);
  const xml = zip.text(mainPart);
  if (xml === undefined) throw new DocParseError(40422, "The DOCX has no main document part (word/document.xml)");
  const dir = mainPart.slice(0, mainPart.lastIndexOf("/"));
  // Every part is read (which can throw) before any parse starts: a parse already under
  // way when a later read throws would reject with nobody listening.
  const stylesXml = zip.text(`${dir}/styles.xml`);
  const relsXml = zip.text(`${dir}/_rels/${mainPart.slice(dir.length + 1)}.rels`);
  const [root, styles, rels] = await Promise.all([parseXml(xml, mainPart), readStyles(stylesXml), readRels(relsXml, dir)]);
  const body = find(root, "w:body");
  if (!body) throw new DocParseError(40422, "The DOCX main part has no body");
  const st: WalkState = { elements: [], page: 1, fields: [], noteRefs: [], charts: [], styles, rels, zip, signal: ctx.signal };
  // Page furniture once, not per page: the header before the body, the footer after it.
  const header = await furniture(body, st, "header");
  if (header) st.elements.push(header);
  walkBlocks(body, st);
  for (const c of st.charts) c.element.text = (await chartText(zip, c.target)) ?? "";
  await appendNotes(st, dir);
  const footer = await furniture(body, st, "footer");
  if (footer) st.elements.push({ ...footer, page: st.page });
  linkCaptions(st.elements);
  return { filetype: DOCX_MIME, pageCount: st.page, pages: [], elements: st.elements, estimatedLayout: true };
}

async function mainDocumentPath(zip: OfficeZip): Promise<string> {
  const rels = await readRels(zip.text("_rels/.rels"), "");
  for (const r of rels.values()) if (r.type.endsWith("/officeDocument") && zip.has(r.target)) return r.target;
  return "word/document.xml";
}

async function readStyles(xml: string | undefined): Promise<Map<string, StyleInfo>> {
  const map = new Map<string, StyleInfo>();
  if (!xml) return map;
  const root = await parseXml(xml, "word/styles.xml");
  for (const s of findAll(root, "w:style")) {
    const id = s.attrs["w:styleId"];
    if (!id) continue;
    const pPr = child(s, "w:pPr");
    const numPr = child(pPr, "w:numPr");
    const info: StyleInfo = { name: attr(child(s, "w:name")) ?? id };
    const basedOn = attr(child(s, "w:basedOn"));
    if (basedOn) info.basedOn = basedOn;
    const outline = attr(child(pPr, "w:outlineLvl"));
    if (outline !== undefined) info.outline = Number(outline);
    const numId = attr(child(numPr, "w:numId"));
    if (numId !== undefined) info.numId = numId;
    const ilvl = attr(child(numPr, "w:ilvl"));
    if (ilvl !== undefined) info.ilvl = Number(ilvl);
    map.set(id, info);
  }
  return map;
}

/** A style's property, following `basedOn` (bounded: style chains may loop in bad files). */
function styleProp<K extends keyof StyleInfo>(styles: Map<string, StyleInfo>, id: string | undefined, key: K): StyleInfo[K] | undefined {
  let cur = id ? styles.get(id) : undefined;
  for (let hops = 0; cur && hops < 20; hops++) {
    if (cur[key] !== undefined) return cur[key];
    cur = cur.basedOn ? styles.get(cur.basedOn) : undefined;
  }
  return undefined;
}

function walkBlocks(container: XNode, st: WalkState): void {
  for (const node of container.children) {
    if (st.signal?.aborted) throw abortError(st.signal);
    switch (node.name) {
      case "w:p":
        paragraph(node, st);
        break;
      case "w:tbl":
        table(node, st);
        break;
      case "w:sdt":
        walkBlocks(child(node, "w:sdtContent") ?? node, st);
        break;
      case "w:customXml":
      case "w:ins":
      case "w:moveTo":
      case "w:txbxContent":
        walkBlocks(node, st);
        break;
      default:
        break;
    }
  }
}

interface Inline {
  text: string;
  images: DraftElement[];
  breakBefore: boolean;
  breakAfter: boolean;
  textBoxes: XNode[];
}

function paragraph(p: XNode, st: WalkState): void {
  const pPr = child(p, "w:pPr");
  const styleId = attr(child(pPr, "w:pStyle"));
  const styleName = (styleProp(st.styles, styleId, "name") ?? styleId ?? "").toLowerCase();
  if (on(child(pPr, "w:pageBreakBefore"))) st.page++;
  const inl: Inline = { text: "", images: [], breakBefore: false, breakAfter: false, textBoxes: [] };
  inline(p, st, inl);
  if (inl.breakBefore) st.page++;
  const text = inl.text.replace(/[ \t]+\n/g, "\n").trim();
  if (text) {
    const el = classify(text, pPr, styleId, styleName, st);
    const prev = st.elements.at(-1);
    if (el.type === "CodeSnippet") {
      // Code keeps its indentation, and Word's one-paragraph-per-line code joins up.
      el.text = inl.text.replace(/\s+$/, "").replace(/^\n+/, "");
      if (prev?.type === "CodeSnippet" && prev.page === st.page && inl.images.length === 0) prev.text += `\n${el.text}`;
      else st.elements.push(el);
    } else st.elements.push(el);
  }
  // The same objects, not copies: chart elements get their text after the walk.
  for (const img of inl.images) {
    img.page = st.page;
    st.elements.push(img);
  }
  for (const box of inl.textBoxes) walkBlocks(box, st);
  if (inl.breakAfter) st.page++;
  // A section break stored in this paragraph starts a new page unless it is continuous.
  const sect = child(pPr, "w:sectPr");
  if (sect && attr(child(sect, "w:type")) !== "continuous") st.page++;
}

function classify(text: string, pPr: XNode | undefined, styleId: string | undefined, styleName: string, st: WalkState): DraftElement {
  const el: DraftElement = { type: "NarrativeText", text, page: st.page };
  // Word writes built-in style names in English whatever the UI language; WPS and some
  // converters write localised ones.
  const heading = /^(?:heading|标题|標題|見出し|überschrift|titre)\s*([1-9])$/.exec(styleName);
  const outlineRaw = attr(child(pPr, "w:outlineLvl")) ?? styleProp(st.styles, styleId, "outline");
  const outline = outlineRaw === undefined ? undefined : Number(outlineRaw);
  const numPr = child(pPr, "w:numPr");
  const numId = attr(child(numPr, "w:numId")) ?? styleProp(st.styles, styleId, "numId");
  const ilvl = Number(attr(child(numPr, "w:ilvl")) ?? styleProp(st.styles, styleId, "ilvl") ?? 0);
  if (styleName === "title" || styleName === "标题" || styleName === "標題") {
    el.type = "Title";
    el.headingLevel = 1;
  } else if (outline !== undefined && outline >= 0 && outline < 9) {
    // Outline level 9 means "body text" in Word.
    el.type = "Title";
    el.headingLevel = outline + 1;
  } else if (heading) {
    el.type = "Title";
    el.headingLevel = Number(heading[1]);
  } else if (styleName === "caption") {
    el.type = "FigureCaption";
    el.subType = "caption";
  } else if (numId !== undefined && numId !== "0") {
    el.type = "ListItem";
    el.listLevel = Number.isFinite(ilvl) ? ilvl : 0;
  } else if (/code|preformatted|source/.test(styleName)) {
    el.type = "CodeSnippet";
  }
  return el;
}

/** Collects a paragraph's visible text: field instructions, deletions and properties never leak. */
function inline(node: XNode, st: WalkState, out: Inline): void {
  for (const c of node.children) {
    switch (c.name) {
      case "w:r":
        run(c, st, out);
        break;
      case "w:fldSimple":
      case "w:hyperlink":
      case "w:ins":
      case "w:moveTo":
      case "w:smartTag":
      case "w:customXml":
      case "w:bdo":
      case "w:dir":
        inline(c, st, out);
        break;
      case "w:sdt":
        inline(child(c, "w:sdtContent") ?? c, st, out);
        break;
      case "m:oMathPara":
      case "m:oMath":
        if (!hidden(st)) out.text += findAll(c, "m:t").map((t) => textOf(t)).join("");
        break;
      default:
        // w:pPr, w:del, w:moveFrom, bookmarks, proofing marks: nothing visible.
        break;
    }
  }
}

const hidden = (st: WalkState) => st.fields.includes(true);

function run(r: XNode, st: WalkState, out: Inline): void {
  if (on(child(child(r, "w:rPr"), "w:vanish"))) return;
  for (const c of r.children) {
    switch (c.name) {
      case "w:fldChar": {
        const type = c.attrs["w:fldCharType"];
        if (type === "begin") st.fields.push(true);
        else if (type === "separate" && st.fields.length) st.fields[st.fields.length - 1] = false;
        else if (type === "end") st.fields.pop();
        break;
      }
      case "w:t":
        if (!hidden(st)) out.text += textOf(c);
        break;
      case "w:tab":
        if (!hidden(st)) out.text += "\t";
        break;
      case "w:br":
      case "w:cr":
        if (c.attrs["w:type"] === "page") {
          if (out.text.trim() === "" && out.images.length === 0) out.breakBefore = true;
          else out.breakAfter = true;
        } else if (!hidden(st)) out.text += "\n";
        break;
      case "w:noBreakHyphen":
        if (!hidden(st)) out.text += "-";
        break;
      case "w:footnoteReference":
      case "w:endnoteReference": {
        const id = c.attrs["w:id"];
        if (!id) break;
        const kind = c.name === "w:footnoteReference" ? "footnote" : "endnote";
        const n = st.noteRefs.filter((x) => x.kind === kind).length + 1;
        st.noteRefs.push({ kind, id, n });
        out.text += kind === "footnote" ? `[${n}]` : `[e${n}]`;
        break;
      }
      case "w:drawing":
        drawing(c, st, out);
        break;
      case "w:pict":
        vml(c, st, out);
        break;
      case "mc:AlternateContent": {
        // Choice holds the modern drawing; Fallback repeats it as VML. Read one of them.
        const pick = child(c, "mc:Choice") ?? child(c, "mc:Fallback");
        if (pick) run({ ...r, children: pick.children }, st, out);
        break;
      }
      default:
        break;
    }
  }
}

function drawing(d: XNode, st: WalkState, out: Inline): void {
  const frame = child(d, "wp:inline") ?? child(d, "wp:anchor");
  const txbx = find(d, "w:txbxContent");
  if (txbx) out.textBoxes.push(txbx);
  const blip = find(frame, "a:blip");
  const rid = blip?.attrs["r:embed"];
  const doc = child(frame, "wp:docPr");
  const ext = child(frame, "wp:extent");
  const chartRid = find(frame, "c:chart")?.attrs["r:id"];
  const chartRel = chartRid ? st.rels.get(chartRid) : undefined;
  if (frame && chartRel && !chartRel.external) {
    // The chart's text is read after the (synchronous) walk; the element holds its place.
    const w = Math.round(Number(ext?.attrs.cx ?? 0) / 9525);
    const h = Math.round(Number(ext?.attrs.cy ?? 0) / 9525);
    const el: DraftElement = { type: "Image", subType: "chart", text: "", page: st.page, image: { width: w, height: h, mimeType: CHART_MIME }, metadata: { width: w, height: h } };
    st.charts.push({ element: el, target: chartRel.target });
    out.images.push(el);
    return;
  }
  if (!frame || !rid) return;
  const alt = (doc?.attrs.descr || doc?.attrs.title || "").trim();
  pushImage(rid, alt, Number(ext?.attrs.cx ?? 0) / 9525, Number(ext?.attrs.cy ?? 0) / 9525, st, out);
}

function vml(p: XNode, st: WalkState, out: Inline): void {
  const img = find(p, "v:imagedata");
  const rid = img?.attrs["r:id"];
  const txbx = find(p, "w:txbxContent");
  if (txbx) out.textBoxes.push(txbx);
  if (rid) pushImage(rid, (img?.attrs["o:title"] ?? "").trim(), 0, 0, st, out);
}

function pushImage(rid: string, alt: string, wPx: number, hPx: number, st: WalkState, out: Inline): void {
  const rel = st.rels.get(rid);
  const bytes = rel && !rel.external ? st.zip.read(rel.target) : undefined;
  const info = bytes ? imageSize(bytes) : undefined;
  const ext = (rel?.target.split(".").pop() ?? "").toLowerCase();
  const mimeType = info?.mimeType ?? (ext === "emf" ? "image/emf" : ext === "wmf" ? "image/wmf" : ext === "svg" ? "image/svg+xml" : "application/octet-stream");
  const el: DraftElement = {
    type: "Image",
    text: alt,
    page: st.page,
    image: { width: info?.width ?? Math.round(wPx), height: info?.height ?? Math.round(hPx), mimeType },
  };
  if (bytes) el.image!.bytes = bytes;
  el.metadata = { width: el.image!.width, height: el.image!.height };
  out.images.push(el);
}

function table(tbl: XNode, st: WalkState): void {
  const rows: GridCell[][] = [];
  let headerRows = 0;
  let stillHeader = true;
  for (const tr of children(tbl, "w:tr")) {
    const trPr = child(tr, "w:trPr");
    // Grid columns skipped before the first cell (0 when absent; bounded like a span).
    let col = Math.min(MAX_SPAN, Math.max(0, Number.parseInt(attr(child(trPr, "w:gridBefore")) ?? "0", 10) || 0));
    const cells: GridCell[] = [];
    for (const tc of cellsOf(tr)) {
      const tcPr = child(tc, "w:tcPr");
      const span = spanOf(attr(child(tcPr, "w:gridSpan")));
      const vMerge = child(tcPr, "w:vMerge");
      const cell: GridCell = { col, text: cellText(tc, st), colSpan: span };
      if (vMerge && attr(vMerge) !== "restart") cell.continuesAbove = true;
      cells.push(cell);
      col += span;
    }
    if (stillHeader && on(child(trPr, "w:tblHeader"))) headerRows++;
    else stillHeader = false;
    rows.push(cells);
  }
  if (rows.length === 0) return;
  const t = buildTable(rows, headerRows || 1);
  st.elements.push({ type: "Table", text: tableText(t), page: st.page, table: t });
}

/** Cells of a row, looking through content controls and custom XML wrappers. */
function cellsOf(tr: XNode): XNode[] {
  const out: XNode[] = [];
  for (const c of tr.children) {
    if (c.name === "w:tc") out.push(c);
    else if (c.name === "w:sdt") out.push(...cellsOf(child(c, "w:sdtContent") ?? c));
    else if (c.name === "w:customXml") out.push(...cellsOf(c));
  }
  return out;
}

function cellText(tc: XNode, st: WalkState): string {
  const parts: string[] = [];
  const walk = (n: XNode) => {
    for (const c of n.children) {
      if (c.name === "w:p") {
        const inl: Inline = { text: "", images: [], breakBefore: false, breakAfter: false, textBoxes: [] };
        inline(c, st, inl);
        const t = inl.text.trim();
        if (t) parts.push(t);
      } else if (c.name === "w:tbl") {
        // A nested table flattens into its parent cell's text, row by row.
        for (const tr of children(c, "w:tr")) parts.push(cellsOf(tr).map((x) => cellText(x, st)).join(" "));
      } else if (c.name === "w:sdt" || c.name === "w:customXml" || c.name === "w:sdtContent") {
        walk(c.name === "w:sdt" ? (child(c, "w:sdtContent") ?? c) : c);
      }
    }
  };
  walk(tc);
  return parts.join("\n");
}

async function appendNotes(st: WalkState, dir: string): Promise<void> {
  for (const kind of ["footnote", "endnote"] as const) {
    const refs = st.noteRefs.filter((r) => r.kind === kind);
    if (refs.length === 0) continue;
    const xml = st.zip.text(`${dir}/${kind}s.xml`);
    if (!xml) continue;
    const root = await parseXml(xml, `${dir}/${kind}s.xml`);
    const byId = new Map<string, XNode>();
    for (const n of findAll(root, `w:${kind}`)) if (n.attrs["w:id"]) byId.set(n.attrs["w:id"], n);
    for (const ref of refs) {
      const note = byId.get(ref.id);
      if (!note) continue;
      const saved = st.fields;
      st.fields = [];
      const text = children(note, "w:p")
        .map((p) => {
          const inl: Inline = { text: "", images: [], breakBefore: false, breakAfter: false, textBoxes: [] };
          inline(p, st, inl);
          return inl.text.trim();
        })
        .filter(Boolean)
        .join("\n");
      st.fields = saved;
      if (!text) continue;
      const marker = kind === "footnote" ? `[${ref.n}]` : `[e${ref.n}]`;
      st.elements.push({ type: "NarrativeText", subType: kind, text: `${marker} ${text}`, page: st.page, metadata: { note_id: ref.id } });
    }
  }
}

/** The document's default header or footer text (last section), as one Header/Footer element. */
async function furniture(body: XNode, st: WalkState, kind: "header" | "footer"): Promise<DraftElement | undefined> {
  const refs = children(child(body, "w:sectPr"), `w:${kind}Reference`);
  const ref = refs.find((r) => r.attrs["w:type"] === "default") ?? refs[0];
  const rel = ref ? st.rels.get(ref.attrs["r:id"] ?? "") : undefined;
  const xml = rel && !rel.external ? st.zip.text(rel.target) : undefined;
  if (!xml) return undefined;
  const root = await parseXml(xml, rel!.target);
  const saved = st.fields;
  st.fields = [];
  const text = findAll(root, "w:p")
    .map((p) => {
      const inl: Inline = { text: "", images: [], breakBefore: false, breakAfter: false, textBoxes: [] };
      inline(p, st, inl);
      return inl.text.replace(/\s+/g, " ").trim();
    })
    .filter(Boolean)
    .join(" ");
  st.fields = saved;
  return text ? { type: kind === "header" ? "Header" : "Footer", text, page: 1 } : undefined;
}
