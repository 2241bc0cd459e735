/** The document's body text size, which running text, headings, captions and continuations measure against. */
import type { PageLayout } from "./document.js";

/**
 * The body text size: the most common font size of prose, list items and table cells, by
 * characters (on a slide of a title and a table, the table's text is the body).
 */
export function bodySize(pages: readonly PageLayout[]): number {
  const sizes = new Map<number, number>();
  for (const p of pages) {
    for (const b of p.blocks) {
      const size = b.kind === "text" || b.kind === "list" ? b.fontSize : b.kind === "table" ? (b.cellSize ?? 0) : 0;
      if (size > 0) sizes.set(size, (sizes.get(size) ?? 0) + b.text.length);
    }
  }
  let body = 0;
  let best = -1;
  for (const [size, n] of sizes) if (n > best) [body, best] = [size, n];
  return body;
}
