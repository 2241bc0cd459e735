import type { TableView } from "../wire/index.js";
import type { DraftElement } from "./draft.js";
import { tableToHtml, tableToMarkdown } from "./render-table.js";
import { joinSeparator } from "./text-width.js";

export interface MarkdownItem {
  element: DraftElement;
  /** True when this element continues the previous item (a split paragraph): joined back. */
  continues?: boolean;
  /** URL of the element's image, when one was produced. */
  imageUrl?: string;
}

// Page furniture is not document content: it would repeat on every page of the Markdown.
const SKIPPED = new Set(["Header", "Footer", "PageNumber", "PageBreak"]);
// A list item opening with a marker of its own (Markdown's, or the document's bullet glyph) keeps it; others get `- `.
const LIST_MARKER = /^(?:[-*+•·▪◦●○■□▫◆◇➢►▶‣⁃∙✓✔–\uf0a7\uf0b7\uf076\uf0d8\uf0fc]|\d{1,3}[.)]|[a-zA-Z][.)]|\(\d{1,3}\)|（\d{1,3}）|[①-⑳])\s/u;

/** The whole document as Markdown; tables as HTML unless `tableView` is `markdown`. */
export function renderMarkdown(items: readonly MarkdownItem[], tableView: TableView): string {
  const blocks: { text: string; list: boolean; type: string }[] = [];
  for (const { element: el, continues, imageUrl } of items) {
    if (SKIPPED.has(el.type)) continue;
    const prev = blocks[blocks.length - 1];
    if (continues && prev && prev.type === el.type && el.type !== "Table" && el.type !== "Title") {
      // A paragraph split over pages is one paragraph again in the Markdown.
      prev.text = el.type === "CodeSnippet" ? `${prev.text.replace(/\n```$/, "")}\n${el.text}\n\`\`\`` : prev.text + joinSeparator(prev.text, el.text) + el.text;
      continue;
    }
    const text = renderBlock(el, tableView, imageUrl);
    if (text === undefined) continue;
    blocks.push({ text, list: el.type === "ListItem", type: el.type });
  }
  let out = "";
  blocks.forEach((b, i) => {
    if (i > 0) out += b.list && blocks[i - 1]!.list ? "\n" : "\n\n";
    out += b.text;
  });
  return out ? `${out}\n` : "";
}

function renderBlock(el: DraftElement, tableView: TableView, imageUrl: string | undefined): string | undefined {
  const text = el.text.trim();
  switch (el.type) {
    case "Title": {
      const level = Math.min(6, Math.max(1, el.headingLevel ?? 1));
      return `${"#".repeat(level)} ${text.replace(/\s*\n\s*/g, " ")}`;
    }
    case "ListItem": {
      const indent = "  ".repeat(Math.max(0, el.listLevel ?? 0));
      const body = text.replace(/\n/g, `\n${indent}  `);
      return LIST_MARKER.test(text) ? `${indent}${body}` : `${indent}- ${body}`;
    }
    case "Table":
      if (el.table && el.table.rows > 0) return tableView === "markdown" ? tableToMarkdown(el.table) : tableToHtml(el.table);
      return text || undefined;
    case "CodeSnippet": {
      const fence = el.text.includes("```") ? "````" : "```";
      return `${fence}\n${el.text.replace(/\n+$/, "")}\n${fence}`;
    }
    case "Formula":
      return `$$\n${text.replace(/^\$\$|\$\$$/g, "").trim()}\n$$`;
    case "Image":
      if (imageUrl) return `![${text.replace(/[[\]\n]/g, " ")}](${imageUrl})`;
      return text || undefined;
    default:
      return text || undefined;
  }
}
