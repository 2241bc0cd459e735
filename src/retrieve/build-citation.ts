import type { Chunk } from "../chunk/chunk.js";
import type { PageSize } from "../chunk/rect.js";
import type { Citation, CitationRegion, PageSizeResolver } from "./citation.js";
import { boxesForRange, pageSizeFromMetadata } from "./chunk-geometry.js";
import { toPixelCoordinates } from "./highlight-geometry.js";
import { selectQuote, type SelectQuoteOptions } from "./select-quote.js";

/** Separator between chunks of one passage after small-to-big expansion. */
export const PASSAGE_SEPARATOR = "\n\n";

/** Several consecutive chunks read as one text. */
export interface Passage {
  chunks: Chunk[];
  text: string;
  /** Offset of each chunk's text in `text`. */
  offsets: number[];
}

/** Joins chunks (already in reading order) into one passage. */
export function toPassage(chunks: readonly Chunk[]): Passage {
  const offsets: number[] = [];
  let text = "";
  for (const c of chunks) {
    if (text) text += PASSAGE_SEPARATOR;
    offsets.push(text.length);
    text += c.text;
  }
  return { chunks: [...chunks], text, offsets };
}

/** Resolves every page size the passage needs: chunk metadata first, then the resolver. */
async function resolveSizes(passage: Passage, resolver: PageSizeResolver | undefined): Promise<Map<string, PageSize | undefined>> {
  const sizes = new Map<string, PageSize | undefined>();
  for (const chunk of passage.chunks) {
    for (const page of chunk.metadata.pages ?? []) {
      const key = `${chunk.id}\u0000${page}`;
      let size = pageSizeFromMetadata(chunk.metadata, page);
      if (!size && resolver) {
        const ref = { sourceId: chunk.metadata.sourceId, page, chunk, ...(chunk.metadata.fileId ? { fileId: chunk.metadata.fileId } : {}) };
        size = (await resolver(ref)) ?? undefined;
      }
      sizes.set(key, size);
    }
  }
  return sizes;
}

function region(page: number, elementId: string, coordinates: number[], size: PageSize | undefined, approximate: boolean): CitationRegion {
  const r: CitationRegion = { page, elementId, coordinates };
  if (size) {
    r.pixels = toPixelCoordinates(coordinates, size);
    r.pageSize = size;
  }
  if (approximate) r.approximate = true;
  return r;
}

/**
 * The citation of a passage for a query: where every part of it is, and the sentence(s)
 * best matching the query with their own boxes.
 */
export async function buildCitation(
  passage: Passage,
  query: string,
  options: { pageSizes?: PageSizeResolver; quote?: SelectQuoteOptions } = {},
): Promise<Citation> {
  const sizes = await resolveSizes(passage, options.pageSizes);
  const first = passage.chunks[0]!;
  const meta = first.metadata;
  const regions: CitationRegion[] = [];
  const pages = new Set<number>();
  for (const chunk of passage.chunks) {
    for (const p of chunk.metadata.pages ?? []) pages.add(p);
    for (const r of chunk.metadata.regions ?? []) {
      regions.push(region(r.page, r.elementId, [...r.coordinates], sizes.get(`${chunk.id}\u0000${r.page}`), r.approximate === true));
    }
  }
  const headings = passage.chunks.flatMap((c) => c.metadata.headingPath ?? []);
  const q = selectQuote(passage.text, query, { ...options.quote, avoid: [...(options.quote?.avoid ?? []), ...headings] });
  const quoteRegions: CitationRegion[] = [];
  passage.chunks.forEach((chunk, i) => {
    const offset = passage.offsets[i]!;
    const from = Math.max(q.start - offset, 0);
    const to = Math.min(q.end - offset, chunk.text.length);
    if (to <= from) return;
    const sizeOf = (page: number) => sizes.get(`${chunk.id}\u0000${page}`);
    for (const b of boxesForRange(chunk, from, to, sizeOf)) {
      quoteRegions.push(region(b.page, b.elementId, b.coordinates, sizeOf(b.page), b.approximate));
    }
  });
  const citation: Citation = {
    sourceId: meta.sourceId,
    chunkIds: passage.chunks.map((c) => c.id),
    pages: [...pages].sort((a, b) => a - b),
    headingPath: [...(meta.headingPath ?? [])],
    regions,
    quote: {
      text: q.text,
      start: q.start,
      end: q.end,
      score: q.score,
      regions: quoteRegions,
      approximate: quoteRegions.some((r) => r.approximate === true),
    },
  };
  if (meta.filename !== undefined) citation.filename = meta.filename;
  if (meta.url !== undefined) citation.url = meta.url;
  if (meta.fileId !== undefined) citation.fileId = meta.fileId;
  return citation;
}
