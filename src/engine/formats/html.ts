import { DocParseError } from "../../errors.js";
import type { DraftDocument, DraftElement, FormatContext, FormatHandler } from "../draft.js";
import { decodeText, normalizeText } from "../text-decode.js";
import { imageSize } from "./image-size.js";
import { linkCaptions } from "./office/captions.js";
import { officeOptions } from "./office/options.js";
import { alignWithPdf, renderViaPdf, wantsPrintedGeometry } from "./office/pdf-geometry.js";
import { MAX_TABLE_CELLS, buildTable, spanOf, tableText, type GridCell } from "./office/table-grid.js";

/**
 * HTML → draft elements with parse5 (the WHATWG parser browsers use, so broken markup
 * ends as a browser would show it). Headings become Titles; paragraphs, lists (with
 * levels), tables (with spans), `<pre>` code and images (alt text; bytes only from
 * `data:` URIs — nothing is fetched) follow in document order. Scripts, styles,
 * templates and hidden elements are dropped; `<nav>`, `<footer>`, `<aside>` and a
 * page-level `<header>` are demoted (Header/Footer/UncategorizedText, never Titles) so
 * boilerplate does not enter the outline. The charset comes from a BOM, then
 * `<meta charset>` / `http-equiv`, then content sniffing.
 */

export const HTML_MIME = "text/html";

/** Deepest element nesting accepted; deeper documents are refused with 40425. @default 1024 */
export const MAX_HTML_DEPTH = 1024;

/** The HTML handler (`html`): structure from parse5; real pages with `office_geometry`. */
export const htmlFormat: FormatHandler = {
  id: "html",
  mimeType: HTML_MIME,
  async parse(bytes, ctx) {
    const draft = await parseHtml(bytes, ctx);
    if (!wantsPrintedGeometry(officeOptions(ctx).office_geometry)) return draft;
    return alignWithPdf(draft, bytes, "html", ctx);
  },
  // Called only for documents parsed with real pages (office_geometry: "libreoffice").
  renderPage: (bytes, page, options) => renderViaPdf(bytes, "html", page, options),
};

type P5Node = import("parse5").DefaultTreeAdapterMap["node"];
type P5Element = import("parse5").DefaultTreeAdapterMap["element"];

const SKIP = new Set(["script", "style", "noscript", "template", "head", "iframe", "object", "embed", "svg", "math", "canvas", "select", "option", "input", "button", "textarea", "audio", "video", "source", "track", "map", "dialog"]);
const BLOCK = new Set([
  "address", "article", "blockquote", "body", "center", "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figure", "form",
  "hgroup", "hr", "html", "li", "main", "ol", "p", "section", "summary", "ul", "caption", "figcaption", "legend", "menu", "search",
]);
const DEMOTE: Record<string, Demote> = { nav: "nav", footer: "footer", aside: "aside", header: "header" };
type Demote = "nav" | "footer" | "aside" | "header";

interface Scope {
  depth: number;
  demote?: Demote;
  listLevel?: number;
  /** Inside <article>/<main>/<section>: a <header> there is content, not page chrome. */
  inContent: boolean;
}

interface State {
  elements: DraftElement[];
  buffer: string;
  bufferScope?: Scope;
}

/** Finds the declared charset in the first bytes (`<meta charset>` or http-equiv). */
export function sniffCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return m?.[1]?.toLowerCase();
}

/** Decodes HTML bytes: BOM first, then the declared charset, then sniffing. */
export function decodeHtml(bytes: Uint8Array): string {
  return decodeHtmlWithEncoding(bytes).text;
}

function decodeHtmlWithEncoding(bytes: Uint8Array): { text: string; encoding: string } {
  const bom = (bytes[0] === 0xef && bytes[1] === 0xbb) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const declared = bom ? undefined : sniffCharset(bytes);
  if (declared && !/^utf-?16/.test(declared)) {
    try {
      const decoder = new TextDecoder(declared);
      return { text: decoder.decode(bytes), encoding: decoder.encoding };
    } catch {
      // An unknown label: fall through to sniffing.
    }
  }
  const d = decodeText(bytes);
  return { text: d.text, encoding: d.encoding };
}

async function parseHtml(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  if (bytes.length === 0) throw new DocParseError(40422, "The file is empty");
  officeOptions(ctx); // a bad option is 40004 before any work
  const { parse } = await import("parse5");
  const { text, encoding } = decodeHtmlWithEncoding(bytes);
  const doc = parse(normalizeText(text));
  const st: State = { elements: [], buffer: "" };
  walk(doc, { depth: 0, inContent: false }, st);
  flush(st);
  linkCaptions(st.elements);
  const metadata: Record<string, unknown> = { encoding };
  const title = documentTitle(doc);
  if (title) metadata.title = title;
  return { filetype: HTML_MIME, pageCount: 1, pages: [], elements: st.elements, estimatedLayout: true, metadata };
}

/** The <title> in <head> (breadth-first over the first levels: it is never deep). */
function documentTitle(doc: P5Node): string | undefined {
  let level: P5Node[] = [doc];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: P5Node[] = [];
    for (const n of level) {
      for (const c of childNodes(n)) {
        if (isElement(c) && c.tagName === "title") return collapse(rawText(c, 0)) || undefined;
        if (isElement(c) && (c.tagName === "html" || c.tagName === "head")) next.push(c);
      }
    }
    level = next;
  }
  return undefined;
}

const attr = (el: P5Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const isElement = (n: P5Node): n is P5Element => "tagName" in n;

function hidden(el: P5Element): boolean {
  if (attr(el, "hidden") !== undefined || attr(el, "aria-hidden") === "true") return true;
  const style = attr(el, "style");
  return style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

function childNodes(n: P5Node): P5Node[] {
  return "childNodes" in n ? (n.childNodes as P5Node[]) : [];
}

function walk(node: P5Node, scope: Scope, st: State): void {
  if (scope.depth > MAX_HTML_DEPTH) {
    throw new DocParseError(40425, `The HTML nests elements deeper than ${MAX_HTML_DEPTH} levels`);
  }
  for (const c of childNodes(node)) {
    if (c.nodeName === "#text") {
      append(st, (c as { value: string }).value, scope);
      continue;
    }
    if (!isElement(c)) continue;
    const tag = c.tagName;
    if (SKIP.has(tag) || hidden(c)) continue;
    const inner: Scope = { ...scope, depth: scope.depth + 1 };
    if (/^h[1-6]$/.test(tag)) {
      flush(st);
      const text = collapse(inlineText(c, inner.depth));
      if (text) {
        const demoted = scope.demote !== undefined || scope.listLevel !== undefined;
        const el: DraftElement = demoted ? { type: demotedType(scope), text, page: 1 } : { type: "Title", text, page: 1, headingLevel: Number(tag[1]) };
        if (el.type === "ListItem") el.listLevel = scope.listLevel ?? 0;
        st.elements.push(el);
      }
      continue;
    }
    switch (tag) {
      case "br":
        st.buffer += "\n";
        continue;
      case "img":
        flush(st);
        st.elements.push(image(c, scope));
        continue;
      case "pre": {
        flush(st);
        const text = rawText(c, inner.depth).replace(/^\n/, "").replace(/\s+$/, "");
        if (text) st.elements.push({ type: "CodeSnippet", text, page: 1 });
        continue;
      }
      case "table":
        flush(st);
        table(c, inner, st);
        continue;
      case "ul":
      case "ol":
      case "menu":
        flush(st);
        for (const li of childNodes(c)) {
          if (!isElement(li) || hidden(li)) continue;
          if (li.tagName === "li") {
            walk(li, { ...inner, depth: inner.depth + 1, listLevel: scope.listLevel === undefined ? 0 : scope.listLevel + 1 }, st);
            flush(st);
          } else walk({ childNodes: [li] } as unknown as P5Node, { ...inner, listLevel: scope.listLevel ?? 0 }, st);
        }
        continue;
      case "figcaption":
      case "caption": {
        flush(st);
        const text = collapse(inlineText(c, inner.depth));
        if (text) st.elements.push({ type: "NarrativeText", subType: "caption", text, page: 1 });
        continue;
      }
    }
    if (tag in DEMOTE && !(tag === "header" && scope.inContent)) {
      flush(st);
      walk(c, { ...inner, demote: DEMOTE[tag] }, st);
      flush(st);
      continue;
    }
    if (tag === "article" || tag === "main" || tag === "section") inner.inContent = true;
    // Inside a list item, block children (a <p> in an <li>) stay part of the item.
    const block = BLOCK.has(tag) && scope.listLevel === undefined;
    if (block) flush(st);
    walk(c, inner, st);
    if (block) flush(st);
  }
}

function demotedType(scope: Scope): string {
  if (scope.listLevel !== undefined && scope.demote === undefined) return "ListItem";
  switch (scope.demote) {
    case "header":
      return "Header";
    case "footer":
      return "Footer";
    default:
      return "UncategorizedText";
  }
}

function append(st: State, text: string, scope: Scope): void {
  if (st.buffer === "" && text.trim() === "") return;
  if (st.buffer === "") st.bufferScope = scope;
  st.buffer += text;
}

function flush(st: State): void {
  const text = collapse(st.buffer);
  const scope = st.bufferScope;
  st.buffer = "";
  st.bufferScope = undefined;
  if (!text || !scope) return;
  const el: DraftElement = { type: "NarrativeText", text, page: 1 };
  if (scope.demote) {
    el.type = demotedType(scope);
    if (scope.demote === "nav") el.subType = "navigation";
  } else if (scope.listLevel !== undefined) {
    el.type = "ListItem";
    el.listLevel = scope.listLevel;
  }
  st.elements.push(el);
}

/** Collapses HTML whitespace; keeps explicit <br> newlines. */
function collapse(s: string): string {
  return s
    .split("\n")
    .map((l) => l.replace(/[ \t\f\r\u00a0]+/g, " ").trim())
    .filter((l, i, all) => l !== "" || (i > 0 && i < all.length - 1 && all[i - 1] !== ""))
    .join("\n")
    .replace(/\n{2,}/g, "\n")
    .trim()
    .replace(/[ \t]*\n[ \t]*/g, "\n");
}

/** Text of an element as inline content: whitespace runs become spaces, <br> newlines. */
function inlineText(el: P5Node, depth: number): string {
  if (depth > MAX_HTML_DEPTH) throw new DocParseError(40425, `The HTML nests elements deeper than ${MAX_HTML_DEPTH} levels`);
  let s = "";
  for (const c of childNodes(el)) {
    if (c.nodeName === "#text") s += (c as { value: string }).value.replace(/\s+/g, " ");
    else if (isElement(c)) {
      if (SKIP.has(c.tagName) || hidden(c)) continue;
      if (c.tagName === "br") s += "\n";
      else if (c.tagName === "img") s += attr(c, "alt") ?? "";
      else {
        const block = BLOCK.has(c.tagName) || c.tagName === "tr";
        s += (block ? "\n" : c.tagName === "td" || c.tagName === "th" ? " " : "") + inlineText(c, depth + 1) + (block ? "\n" : "");
      }
    }
  }
  return s;
}

/** Text with whitespace preserved (for <pre>). */
function rawText(el: P5Node, depth: number): string {
  if (depth > MAX_HTML_DEPTH) throw new DocParseError(40425, `The HTML nests elements deeper than ${MAX_HTML_DEPTH} levels`);
  let s = "";
  for (const c of childNodes(el)) {
    if (c.nodeName === "#text") s += (c as { value: string }).value;
    else if (isElement(c)) s += c.tagName === "br" ? "\n" : rawText(c, depth + 1);
  }
  return s;
}

function image(el: P5Element, scope: Scope): DraftElement {
  const src = attr(el, "src") ?? "";
  const alt = collapse(attr(el, "alt") ?? "");
  let bytes: Uint8Array | undefined;
  let mimeType = "application/octet-stream";
  const data = /^data:([\w/+.-]+)?(;base64)?,(.*)$/s.exec(src);
  if (data) {
    mimeType = data[1] ?? mimeType;
    bytes = data[2] ? new Uint8Array(Buffer.from(data[3]!, "base64")) : new TextEncoder().encode(decodeURIComponent(data[3]!));
  } else {
    const ext = /\.(png|jpe?g|gif|webp|bmp|svg|tiff?)(?:[?#]|$)/i.exec(src)?.[1]?.toLowerCase();
    if (ext) mimeType = ext === "svg" ? "image/svg+xml" : ext === "jpg" ? "image/jpeg" : ext.startsWith("tif") ? "image/tiff" : `image/${ext}`;
  }
  const info = bytes ? imageSize(bytes) : undefined;
  const width = info?.width ?? (Number.parseInt(attr(el, "width") ?? "", 10) || 0);
  const height = info?.height ?? (Number.parseInt(attr(el, "height") ?? "", 10) || 0);
  const out: DraftElement = { type: "Image", text: alt, page: 1, image: { width, height, mimeType: info?.mimeType ?? mimeType } };
  if (bytes) out.image!.bytes = bytes;
  out.metadata = { width, height };
  if (src && !data) out.metadata.src = src;
  if (scope.demote) out.subType = scope.demote;
  return out;
}

function table(el: P5Element, scope: Scope, st: State): void {
  const rows: P5Element[] = [];
  let headRows = 0;
  let captionText = "";
  for (const c of childNodes(el)) {
    if (!isElement(c)) continue;
    if (c.tagName === "caption") captionText = collapse(inlineText(c, scope.depth + 1));
    else if (c.tagName === "tr") rows.push(c);
    else if (["thead", "tbody", "tfoot"].includes(c.tagName)) {
      const trs = childNodes(c).filter((r): r is P5Element => isElement(r) && r.tagName === "tr");
      if (c.tagName === "thead") headRows += trs.length;
      rows.push(...trs);
    }
  }
  if (rows.length === 0) return;
  // Grid positions taken by row spans from above; numeric keys (row × 2^21 + col) keep
  // the set small, and the budget keeps hostile spans from filling memory.
  const occupied = new Set<number>();
  const key = (r: number, c: number) => r * 2_097_152 + c;
  const grid: GridCell[][] = [];
  let leadingTh = 0;
  let thRun = true;
  let truncated = false;
  for (let r = 0; r < rows.length && !truncated; r++) {
    const cells: GridCell[] = [];
    let col = 0;
    let allTh = true;
    for (const td of childNodes(rows[r]!)) {
      if (!isElement(td) || (td.tagName !== "td" && td.tagName !== "th")) continue;
      if (td.tagName === "td") allTh = false;
      while (occupied.has(key(r, col))) col++;
      const colSpan = spanOf(attr(td, "colspan"));
      // rowspan=0 means "to the end of the section"; the rows left is the honest reading.
      const rawRow = attr(td, "rowspan");
      const rowSpan = rawRow === "0" ? rows.length - r : spanOf(rawRow, rows.length - r);
      if (occupied.size + rowSpan * colSpan > MAX_TABLE_CELLS || col + colSpan >= 2_097_152) {
        truncated = true;
        break;
      }
      for (let dr = 0; dr < rowSpan; dr++) for (let dc = 0; dc < colSpan; dc++) occupied.add(key(r + dr, col + dc));
      const cell: GridCell = { col, text: collapse(inlineText(td, scope.depth + 2)), colSpan };
      if (rowSpan > 1) cell.rowSpan = rowSpan;
      cells.push(cell);
      col += colSpan;
    }
    if (thRun && allTh && cells.length > 0) leadingTh++;
    else thRun = false;
    grid.push(cells);
  }
  if (truncated) {
    // Spans from kept rows must not reach into rows that were cut.
    for (const [r, row] of grid.entries()) for (const c of row) if (c.rowSpan && r + c.rowSpan > grid.length) c.rowSpan = grid.length - r;
  }
  const t = buildTable(grid, headRows || leadingTh || 1);
  const element: DraftElement = { type: "Table", text: tableText(t), page: 1, table: t };
  if (truncated) element.metadata = { truncated: true };
  if (captionText) {
    // <caption> belongs to this table by markup: link it directly, no guessing.
    const at = st.elements.length;
    st.elements.push({ type: "TableCaption", text: captionText, page: 1, refIndex: at + 1 });
    element.refIndex = at;
  }
  if (scope.demote) element.subType = scope.demote;
  st.elements.push(element);
}
