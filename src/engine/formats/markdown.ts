import MarkdownIt from "markdown-it";
import type { DraftElement, DraftInlineObject, DraftTableCell, FormatContext, FormatHandler } from "../draft.js";
import { decodeText, normalizeText } from "../text-decode.js";
import { joinSeparator } from "../text-width.js";
import { imageSize } from "./image-size.js";

type Token = ReturnType<InstanceType<typeof MarkdownIt>["parse"]>[number];

/**
 * Markdown (CommonMark + GFM tables, via markdown-it): ATX/Setext headings → Title with
 * their level; paragraphs → NarrativeText (inline `$…$` math as inline formula objects);
 * list items → ListItem with nesting level (ordered items keep their number); GFM tables
 * → Table with a header row; fenced/indented code → CodeSnippet; `$$ … $$` blocks and
 * ```math fences → Formula; a paragraph that is only an image → Image (alt text); an
 * HTML block with a table → what the HTML handler finds in it (tables with spans).
 * Front matter is skipped. No geometry: the assembler lays the elements out.
 */
export const markdownFormat: FormatHandler = {
  id: "markdown",
  mimeType: "text/markdown",
  async parse(bytes, ctx) {
    const decoded = decodeText(bytes);
    const elements = await withHtmlBlocks(markdownToElements(normalizeText(decoded.text)), ctx);
    return {
      filetype: "text/markdown",
      pageCount: 1,
      pages: [],
      elements,
      estimatedLayout: true,
      metadata: { encoding: decoded.encoding },
    };
  },
};

// HTML blocks holding a table (Markdown written by converters, including this
// service's own `markdown`, carries tables as HTML) → their source, for the HTML handler.
const HTML_BLOCKS = new WeakMap<DraftElement, string>();

/**
 * Replaces the placeholders of HTML tables by what the HTML handler finds in them
 * (tables with their row/col spans). On any failure the placeholder (the block's text)
 * stays.
 */
async function withHtmlBlocks(elements: DraftElement[], ctx: FormatContext): Promise<DraftElement[]> {
  if (!elements.some((e) => HTML_BLOCKS.has(e))) return elements;
  let html: FormatHandler;
  try {
    html = (await import("./html.js")).htmlFormat;
  } catch {
    return elements;
  }
  const out: DraftElement[] = [];
  for (const el of elements) {
    const source = HTML_BLOCKS.get(el);
    if (source === undefined) {
      out.push(el);
      continue;
    }
    try {
      // Plain HTML parsing (no page_range, no office geometry): the block is a fragment.
      const draft = await html.parse(new TextEncoder().encode(source), { ...ctx, config: {}, pageRange: undefined } as FormatContext);
      const found = draft.elements.filter((e) => e.type !== "PageBreak").map((e) => ({ ...e, page: 1 }));
      out.push(...(found.length ? found : [el]));
    } catch {
      out.push(el);
    }
  }
  return out;
}

const MATH_INFO = new Set(["math", "latex", "tex", "katex"]);

/** Parses Markdown source into draft elements (exported for tests and other formats). */
export function markdownToElements(source: string): DraftElement[] {
  const md = new MarkdownIt({ html: true });
  const tokens = md.parse(mathBlocksToFences(stripFrontMatter(source)), {});
  const out: DraftElement[] = [];
  interface Item {
    level: number;
    marker: string;
    parts: string[];
    emitted: boolean;
  }
  const items: Item[] = [];
  let listDepth = 0;
  const emitItem = (item: Item) => {
    if (item.emitted || item.parts.length === 0) return;
    out.push({ type: "ListItem", text: item.marker + item.parts.join("\n"), page: 1, listLevel: item.level });
    item.emitted = true;
    item.parts = [];
    item.marker = "";
  };
  const emitOpenItems = () => items.forEach(emitItem);

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    switch (t.type) {
      case "heading_open": {
        const text = inlineText(tokens[i + 1]).text;
        if (text) out.push({ type: "Title", text, page: 1, headingLevel: Number(t.tag.slice(1)) });
        i += 2;
        break;
      }
      case "bullet_list_open":
      case "ordered_list_open":
        emitOpenItems();
        listDepth++;
        break;
      case "bullet_list_close":
      case "ordered_list_close":
        listDepth--;
        break;
      case "list_item_open":
        items.push({ level: listDepth - 1, marker: t.info ? `${t.info}${t.markup} ` : "", parts: [], emitted: false });
        break;
      case "list_item_close": {
        const item = items.pop();
        if (item) emitItem(item);
        break;
      }
      case "paragraph_open": {
        const inline = tokens[i + 1];
        i += 2;
        const item = items[items.length - 1];
        const { text, objects, onlyImage, imageSrc } = inlineText(inline);
        if (!text && !onlyImage) break;
        if (item) {
          // A paragraph after a nested list starts a new item at the same level.
          if (item.emitted) item.emitted = false;
          item.parts.push(text);
          break;
        }
        if (onlyImage) {
          out.push(imageElement(text, imageSrc ?? ""));
          break;
        }
        const el: DraftElement = { type: "NarrativeText", text, page: 1 };
        if (objects.length) el.objects = objects;
        out.push(el);
        break;
      }
      case "fence":
      case "code_block": {
        emitOpenItems();
        const code = t.content.replace(/\n$/, "");
        const lang = t.info.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
        if (t.type === "fence" && MATH_INFO.has(lang)) out.push({ type: "Formula", text: code.trim(), page: 1 });
        else if (code.trim()) {
          const el: DraftElement = { type: "CodeSnippet", text: code, page: 1 };
          if (lang) el.metadata = { code_language: lang };
          out.push(el);
        }
        break;
      }
      case "table_open": {
        emitOpenItems();
        let end = i + 1;
        while (end < tokens.length && tokens[end]!.type !== "table_close") end++;
        out.push(tableElement(tokens.slice(i, end)));
        i = end;
        break;
      }
      case "html_block": {
        if (/^\s*<!--[\s\S]*-->\s*$/.test(t.content)) break;
        const text = t.content.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
        if (!text) break;
        const el: DraftElement = { type: "NarrativeText", text, page: 1 };
        if (/<table[\s>]/i.test(t.content)) HTML_BLOCKS.set(el, t.content);
        out.push(el);
        break;
      }
      default:
        break;
    }
  }
  return out;
}

function tableElement(tokens: Token[]): DraftElement {
  const cells: DraftTableCell[] = [];
  let row = 0;
  let col = 0;
  let headerRows = 0;
  let inHead = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.type === "thead_open") inHead = true;
    else if (t.type === "thead_close") inHead = false;
    else if (t.type === "tr_open") {
      row++;
      col = 0;
      if (inHead) headerRows++;
    } else if (t.type === "th_open" || t.type === "td_open") {
      col++;
      cells.push({ row, col, text: inlineText(tokens[k + 1]).text });
    }
  }
  const cols = cells.reduce((m, c) => Math.max(m, c.col), 0);
  const table = { rows: row, cols, cells, headerRows };
  const text = Array.from({ length: row }, (_, r) => cells.filter((c) => c.row === r + 1).map((c) => c.text).filter(Boolean).join(" ")).join("\n");
  return { type: "Table", text, page: 1, table };
}

interface InlineResult {
  text: string;
  objects: DraftInlineObject[];
  onlyImage: boolean;
  /** `src` of the (last) image in the inline content. */
  imageSrc?: string;
}

/**
 * An image paragraph. `data:` URIs give the bytes (and the real size); other sources are
 * kept as `metadata.src` and never fetched, like the HTML handler does.
 */
function imageElement(alt: string, src: string): DraftElement {
  let bytes: Uint8Array | undefined;
  let mimeType = "application/octet-stream";
  const data = /^data:([\w/+.-]+)?(;base64)?,(.*)$/s.exec(src);
  if (data) {
    mimeType = data[1] ?? mimeType;
    try {
      bytes = data[2] ? new Uint8Array(Buffer.from(data[3]!, "base64")) : new TextEncoder().encode(decodeURIComponent(data[3]!));
    } catch {
      bytes = undefined;
    }
  } else {
    const ext = /\.(png|jpe?g|gif|webp|bmp|svg|tiff?)(?:[?#]|$)/i.exec(src)?.[1]?.toLowerCase();
    if (ext) mimeType = ext === "svg" ? "image/svg+xml" : ext === "jpg" ? "image/jpeg" : ext.startsWith("tif") ? "image/tiff" : `image/${ext}`;
  }
  const info = bytes ? imageSize(bytes) : undefined;
  const el: DraftElement = { type: "Image", text: alt, page: 1, image: { width: info?.width ?? 0, height: info?.height ?? 0, mimeType: info?.mimeType ?? mimeType } };
  if (bytes && bytes.byteLength > 0) el.image!.bytes = bytes;
  if (src && !data) el.metadata = { src };
  return el;
}

/** Plain text of an inline token: markup dropped, links keep their text, images their alt. */
function inlineText(token: Token | undefined): InlineResult {
  let text = "";
  let pendingBreak = false;
  let images = 0;
  let other = false;
  let imageSrc: string | undefined;
  const append = (s: string) => {
    if (!s) return;
    if (pendingBreak) text += joinSeparator(text, s);
    pendingBreak = false;
    text += s;
  };
  for (const c of token?.children ?? []) {
    switch (c.type) {
      case "text":
      case "code_inline":
        if (c.content.trim()) other = true;
        append(c.content);
        break;
      case "softbreak":
        pendingBreak = true;
        break;
      case "hardbreak":
        text += "\n";
        pendingBreak = false;
        break;
      case "image":
        images++;
        {
          const src = c.attrGet("src");
          imageSrc = typeof src === "string" ? src : undefined;
        }
        append((c.children ?? []).map((x) => x.content).join(""));
        break;
      default:
        break;
    }
  }
  text = text.trim();
  const result: InlineResult = { text, objects: inlineFormulas(text), onlyImage: images === 1 && !other };
  if (imageSrc !== undefined) result.imageSrc = imageSrc;
  return result;
}

/**
 * `$…$` inline math as formula objects. Pandoc's rule keeps prices out: no space after the
 * opening `$`, none before the closing one, and no digit right after it.
 */
function inlineFormulas(text: string): DraftInlineObject[] {
  const out: DraftInlineObject[] = [];
  const re = /(?<![\\$])\$(?![\s$])([^$\n]*?[^\s\\$])\$(?![\d$])/g;
  for (const m of text.matchAll(re)) {
    const start = m.index + 1;
    out.push({ type: "formula", text: m[1]!, start, end: start + m[1]!.length, displayMode: "inline" });
  }
  return out;
}

function stripFrontMatter(source: string): string {
  const m = /^---\n[\s\S]*?\n(?:---|\.\.\.)\n/.exec(source);
  return m && /^---\n[\w-]+\s*:/.test(m[0]) ? source.slice(m[0].length) : source;
}

/** `$$ … $$` display math (own lines, outside code fences) → a ```math fence markdown-it keeps intact. */
function mathBlocksToFences(source: string): string {
  const lines = source.split("\n");
  const out: string[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (line.trim().startsWith(fence)) fence = undefined;
      out.push(line);
      continue;
    }
    const trimmed = line.trim();
    if (!fence && trimmed.startsWith("$$")) {
      if (trimmed.length > 4 && trimmed.endsWith("$$")) {
        out.push("```math", trimmed.slice(2, -2).trim(), "```");
        continue;
      }
      const end = lines.findIndex((l, k) => k > i && l.trim().endsWith("$$"));
      if (end > 0) {
        const body = [trimmed.slice(2), ...lines.slice(i + 1, end), lines[end]!.trim().slice(0, -2)].filter((l) => l.trim());
        out.push("```math", ...body, "```");
        i = end;
        continue;
      }
    }
    out.push(line);
  }
  return out.join("\n");
}
