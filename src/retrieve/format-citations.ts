import type { DocumentInterface } from "@langchain/core/documents";
import type { Citation, CitationRegion } from "./citation.js";

/** A citation as a UI wants it: numbered, with the quote and boxes. */
export interface CitationJson {
  /** 1-based; answers refer to it as [n]. */
  n: number;
  sourceId: string;
  filename?: string;
  url?: string;
  pages: number[];
  headingPath: string[];
  quote: string;
  quoteRegions: CitationRegion[];
  regions: CitationRegion[];
  chunkIds: string[];
}

export interface FormatCitationsOptions {
  /** `markdown`: a numbered source list; `json`: a JSON string of {@link CitationJson}[]. @default "markdown" */
  style?: "markdown" | "json";
  /** Longest quote shown in Markdown, in characters (longer ones end with …). @default 200 */
  maxQuoteLength?: number;
}

function citationOf(doc: DocumentInterface): Citation | undefined {
  const c = (doc.metadata as { citation?: Citation }).citation;
  return c && typeof c === "object" && typeof c.sourceId === "string" ? c : undefined;
}

function pagesLabel(pages: readonly number[]): string {
  if (pages.length === 0) return "";
  const first = pages[0]!;
  const last = pages[pages.length - 1]!;
  return first === last ? `p. ${first}` : `pp. ${first}–${last}`;
}

// Markdown special characters in document text would turn a quote into links or
// emphasis; escape them so the list shows the text as written.
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`).replace(/\s+/g, " ");
}

/** The citations of retrieved Documents as {@link CitationJson} objects (Documents without a citation are skipped but keep their number). */
export function citationsToJson(docs: readonly DocumentInterface[]): CitationJson[] {
  const out: CitationJson[] = [];
  docs.forEach((doc, i) => {
    const c = citationOf(doc);
    if (!c) return;
    const item: CitationJson = {
      n: i + 1,
      sourceId: c.sourceId,
      pages: c.pages,
      headingPath: c.headingPath,
      quote: c.quote.text,
      quoteRegions: c.quote.regions,
      regions: c.regions,
      chunkIds: c.chunkIds,
    };
    if (c.filename !== undefined) item.filename = c.filename;
    if (c.url !== undefined) item.url = c.url;
    out.push(item);
  });
  return out;
}

/**
 * Renders the citations of retrieved Documents, numbered in order ([1], [2], ...).
 *
 * Markdown: `[1] report.pdf, p. 3 — Intro › Scope: "quoted sentence"`, one line each.
 */
export function formatCitations(docs: readonly DocumentInterface[], options: FormatCitationsOptions = {}): string {
  const { style = "markdown", maxQuoteLength = 200 } = options;
  const items = citationsToJson(docs);
  if (style === "json") return JSON.stringify(items);
  return items
    .map((c) => {
      const name = escapeMarkdown(c.filename ?? c.sourceId);
      const parts = [`[${c.n}] ${c.url && /^https?:\/\//.test(c.url) ? `[${name}](<${c.url}>)` : name}`];
      const pages = pagesLabel(c.pages);
      if (pages) parts[0] += `, ${pages}`;
      if (c.headingPath.length) parts[0] += ` — ${escapeMarkdown(c.headingPath.join(" › "))}`;
      // Table quotes may be HTML rows: show their cell text, not the tags.
      const plain = /<\/?(?:table|thead|tbody|tr|td|th)\b[^>]*>/i.test(c.quote) ? c.quote.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim() : c.quote;
      const quote = plain.length > maxQuoteLength ? `${plain.slice(0, maxQuoteLength)}…` : plain;
      return quote ? `${parts[0]}: "${escapeMarkdown(quote)}"` : parts[0]!;
    })
    .join("\n");
}
