import type { OutlineEntry } from "../layout/index.js";
import type { PdfDocument } from "./pdf-load.js";

/**
 * The PDF outline (bookmarks) flattened with depths and target pages: heading levels
 * and numbering come from it when a document has one.
 */

/** Outline entries read at most (a hostile outline can be huge). */
const MAX_OUTLINE = 10_000;

/** Outline entries whose destination page is resolved, at most; the rest match any page. */
const MAX_OUTLINE_DESTS = 2_000;

/** The outline entries of `doc`, depth 0 at the top; [] when it has none or it is broken. */
export async function readOutline(doc: PdfDocument): Promise<OutlineEntry[]> {
  let items: Awaited<ReturnType<PdfDocument["getOutline"]>>;
  try {
    items = await doc.getOutline();
  } catch {
    return [];
  }
  const flat: { title: string; depth: number; dest: unknown }[] = [];
  const walk = (list: typeof items, depth: number): void => {
    for (const item of list ?? []) {
      if (flat.length >= MAX_OUTLINE || depth > 12) return;
      if (item.title?.trim()) flat.push({ title: item.title, depth, dest: item.dest });
      walk(item.items as typeof items, depth + 1);
    }
  };
  walk(items, 0);
  const out: OutlineEntry[] = [];
  for (const [i, e] of flat.entries()) {
    const entry: OutlineEntry = { title: e.title, depth: e.depth };
    if (i < MAX_OUTLINE_DESTS) {
      const page = await destinationPage(doc, e.dest);
      if (page !== undefined) entry.page = page;
    }
    out.push(entry);
  }
  return out;
}

/** The 1-based page an outline destination points to, or undefined. */
async function destinationPage(doc: PdfDocument, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === "string" ? await doc.getDestination(dest) : dest;
    const ref = Array.isArray(explicit) ? explicit[0] : undefined;
    if (ref && typeof ref === "object") return (await doc.getPageIndex(ref as Parameters<PdfDocument["getPageIndex"]>[0])) + 1;
    if (typeof ref === "number") return ref + 1;
  } catch {
    // A broken destination: the entry matches on any page.
  }
  return undefined;
}
