import { Document } from "@langchain/core/documents";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import type { Chunk } from "../chunk/chunk.js";
import { rectOf } from "../chunk/rect.js";
import { DocParseError, LocalErrorCode, invalidOption } from "../errors.js";
import type { ChunkFilter, ChunkStore, ScoredChunk } from "../store/chunk-store.js";
import { buildCitation, toPassage } from "./build-citation.js";
import type { Citation, PageSizeResolver } from "./citation.js";
import { intersectRects, rectArea } from "./highlight-geometry.js";
import { maximalMarginalRelevance } from "./mmr.js";
import { selectQuote, termCoverage, type SelectQuoteOptions } from "./select-quote.js";

/** Metadata of a Document the retriever returns. Flat keys stay top-level for filters. */
export interface CitedMetadata {
  /** Id of the chunk that matched (the passage may hold more after expansion). */
  chunkId: string;
  sourceId: string;
  filename?: string;
  fileId?: string;
  url?: string;
  pageStart: number;
  pageEnd: number;
  kind: Chunk["metadata"]["kind"];
  headingPath: string[];
  /** The store's score of the matching chunk (higher is better). */
  score: number;
  citation: Citation;
  [key: string]: unknown;
}

/** A retrieved passage with its citation. */
export type CitedDocument = Document<CitedMetadata>;

/** A returned Document and the chunks it was made of. */
export interface CitedPassage {
  document: CitedDocument;
  chunks: Chunk[];
}

/** How far a hit grows before it is returned. */
export type ExpandMode = "none" | "neighbors" | "section";

/** Per-call settings; each overrides the retriever's own. */
export interface CitationSearchOptions {
  /** Passages returned. @default 4 */
  k?: number;
  /** Metadata filter passed to the store (ANDed with the retriever's filter). */
  filter?: ChunkFilter;
  /** Max-marginal-relevance: false, true (lambda 0.5) or `{ lambda }`. @default false */
  mmr?: boolean | { lambda?: number };
  /** Small-to-big expansion. @default "none" */
  expand?: ExpandMode;
}

export interface CitationRetrieverOptions extends BaseRetrieverInput, CitationSearchOptions {
  /** Where the chunks are. */
  store: ChunkStore;
  /** The embedder the chunks were embedded with. */
  embeddings: EmbeddingsInterface;
  /** Send the query text too, so stores with full-text search fuse it with vectors. @default true */
  hybrid?: boolean;
  /** Candidates fetched before dedup/MMR narrow them to `k`. @default max(4 × k, 20) */
  fetchK?: number;
  /** `neighbors` expansion: chunks added on each side of a hit. @default 1 */
  window?: number;
  /** `section` expansion: most chunks in one passage. @default 8 */
  maxPassageChunks?: number;
  /** Drop hits whose boxes another, better hit already covers. @default true */
  dedup?: boolean;
  /**
   * Reorder the `fetchK` candidates by their best quote's score (share of the query's
   * terms in one sentence), then the match of their heading path, the store's rank
   * breaking ties (hits the store scored equally share a rank): exact word / CJK-bigram
   * evidence sharpens weak embeddings such as the hash default. Not applied with MMR.
   * @default true
   */
  rerank?: boolean;
  /** Page sizes for pixel boxes when chunk metadata lacks them. */
  pageSizes?: PageSizeResolver;
  /** Quote selection settings. */
  quote?: SelectQuoteOptions;
  /** Longest accepted query, in characters. @default 4000 */
  maxQueryLength?: number;
}

/** The option defaults, pinned by a test so the TSDoc above cannot drift. */
export const CITATION_RETRIEVER_DEFAULTS = Object.freeze({
  k: 4,
  hybrid: true,
  mmr: false as boolean | { lambda?: number },
  expand: "none" as ExpandMode,
  window: 1,
  maxPassageChunks: 8,
  dedup: true,
  rerank: true,
  maxQueryLength: 4000,
});

function sameTablePiece(a: Chunk, b: Chunk): boolean {
  const ta = a.metadata.table;
  const tb = b.metadata.table;
  if (!ta || !tb) return true;
  return ta.elementId === tb.elementId && ta.rowStart === tb.rowStart && ta.rowEnd === tb.rowEnd;
}

/**
 * True when `later` adds nothing to `earlier`: the same chunk, the same content of the
 * same elements, or every measured box of `later` lies (≥ 90 %) inside a measured box of
 * the same element in `earlier` (overlapping chunks from a chunker's overlap, or the
 * same text indexed twice). Approximate boxes prove nothing and never count.
 */
export function isDuplicateHit(earlier: Chunk, later: Chunk): boolean {
  if (earlier.id === later.id) return true;
  const a = earlier.metadata;
  const b = later.metadata;
  if (a.sourceId !== b.sourceId || !sameTablePiece(earlier, later)) return false;
  if (a.contentHash && a.contentHash === b.contentHash && a.elementIds.join("\u0000") === b.elementIds.join("\u0000")) return true;
  const regions = b.regions ?? [];
  if (regions.length === 0 || regions.some((r) => r.approximate)) return false;
  return regions.every((r) => {
    const rr = rectOf(r.coordinates);
    const area = rectArea(rr);
    if (area === 0) return false;
    return a.regions.some(
      (x) => !x.approximate && x.page === r.page && x.elementId === r.elementId && rectArea(intersectRects(rectOf(x.coordinates), rr)) / area >= 0.9,
    );
  });
}

/** Weight of the heading path's match in the rerank key (see {@link rerankByQuote}). */
const HEADING_WEIGHT = 0.25;

/**
 * Reorders candidates by
 * `quote coverage + 0.25 × heading coverage + 0.5 × (1 − storeRank / candidates)`.
 * The share of the query's terms in a candidate's best sentence decides; the share
 * found in its heading path (what the section is about: "Returns" vs "Shipping" for
 * "return a product") comes next; the store's order breaks ties and keeps a strong
 * vector hit ahead of a slightly better lexical one. Hits the store scored equally
 * share one rank: RRF fusion of two swapped rankings ties exactly, and the order a
 * store lists tied hits in says nothing. (Plain RRF of the rankings is too weak: two
 * swapped lists always tie.)
 */
function rerankByQuote(hits: ScoredChunk[], query: string): ScoredChunk[] {
  const n = hits.length;
  const ranks: number[] = [];
  hits.forEach((h, i) => ranks.push(i > 0 && h.score === hits[i - 1]!.score ? ranks[i - 1]! : i));
  return hits
    .map((h, i) => {
      const headings = h.chunk.metadata.headingPath ?? [];
      const quote = selectQuote(h.chunk.text, query, { avoid: headings }).score;
      const heading = headings.length > 0 ? termCoverage(headings.join("\n"), query) : 0;
      return { h, i, key: quote + HEADING_WEIGHT * heading + 0.5 * (1 - ranks[i]! / n) };
    })
    .sort((a, b) => b.key - a.key || a.i - b.i)
    .map((x) => x.h);
}

function mergeFilters(a: ChunkFilter | undefined, b: ChunkFilter | undefined): ChunkFilter | undefined {
  if (!a) return b;
  if (!b) return a;
  const merged: ChunkFilter = { ...a, ...b };
  if (a.metadata || b.metadata) merged.metadata = { ...a.metadata, ...b.metadata };
  return merged;
}

function checkK(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw invalidOption(`Expected \`${name}\` to be an integer >= 1, got ${value}`);
}

/**
 * A LangChain retriever over any {@link ChunkStore} whose Documents carry
 * `metadata.citation`: the source, pages, heading path, boxes (normalised and in pixels
 * when page sizes are known) and the quote best matching the query with its own boxes.
 *
 * @example
 * ```ts
 * const retriever = new CitationRetriever({ store, embeddings: new HashEmbeddings(), k: 3 });
 * const docs = await retriever.invoke("What is the refund period?");
 * console.log(formatCitations(docs));
 * ```
 */
export class CitationRetriever extends BaseRetriever<CitedMetadata> {
  static override lc_name(): string {
    return "CitationRetriever";
  }
  lc_namespace = ["docparse_rag", "retrievers"];

  readonly store: ChunkStore;
  readonly embeddings: EmbeddingsInterface;
  readonly k: number;
  readonly filter: ChunkFilter | undefined;
  readonly hybrid: boolean;
  readonly fetchK: number | undefined;
  readonly mmr: boolean | { lambda?: number };
  readonly expand: ExpandMode;
  readonly window: number;
  readonly maxPassageChunks: number;
  readonly dedup: boolean;
  readonly rerank: boolean;
  readonly pageSizes: PageSizeResolver | undefined;
  readonly quote: SelectQuoteOptions | undefined;
  readonly maxQueryLength: number;

  constructor(options: CitationRetrieverOptions) {
    super(options);
    const {
      store,
      embeddings,
      k = CITATION_RETRIEVER_DEFAULTS.k,
      filter,
      hybrid = CITATION_RETRIEVER_DEFAULTS.hybrid,
      fetchK,
      mmr = CITATION_RETRIEVER_DEFAULTS.mmr,
      expand = CITATION_RETRIEVER_DEFAULTS.expand,
      window = CITATION_RETRIEVER_DEFAULTS.window,
      maxPassageChunks = CITATION_RETRIEVER_DEFAULTS.maxPassageChunks,
      dedup = CITATION_RETRIEVER_DEFAULTS.dedup,
      rerank = CITATION_RETRIEVER_DEFAULTS.rerank,
      pageSizes,
      quote,
      maxQueryLength = CITATION_RETRIEVER_DEFAULTS.maxQueryLength,
    } = options;
    if (!store || typeof store.query !== "function") throw invalidOption("Expected `store` to be a ChunkStore");
    if (!embeddings || typeof embeddings.embedQuery !== "function") throw invalidOption("Expected `embeddings` to be a LangChain Embeddings");
    checkK("k", k);
    if (fetchK !== undefined) checkK("fetchK", fetchK);
    checkK("window", window);
    checkK("maxPassageChunks", maxPassageChunks);
    checkK("maxQueryLength", maxQueryLength);
    if (!["none", "neighbors", "section"].includes(expand)) throw invalidOption(`Expected \`expand\` to be none | neighbors | section, got ${String(expand)}`);
    this.store = store;
    this.embeddings = embeddings;
    this.k = k;
    this.filter = filter;
    this.hybrid = hybrid;
    this.fetchK = fetchK;
    this.mmr = mmr;
    this.expand = expand;
    this.window = window;
    this.maxPassageChunks = maxPassageChunks;
    this.dedup = dedup;
    this.rerank = rerank;
    this.pageSizes = pageSizes;
    this.quote = quote;
    this.maxQueryLength = maxQueryLength;
  }

  /** LangChain entry point; use `invoke(query)`. */
  override async _getRelevantDocuments(query: string): Promise<CitedDocument[]> {
    return this.search(query);
  }

  /** Retrieval with per-call overrides (the viewer's search API uses this). */
  async search(query: string, options: CitationSearchOptions = {}): Promise<CitedDocument[]> {
    return (await this.searchPassages(query, options)).map((p) => p.document);
  }

  /** Like {@link search}, with the chunks behind each Document (in reading order). */
  async searchPassages(query: string, options: CitationSearchOptions = {}): Promise<CitedPassage[]> {
    if (typeof query !== "string" || query.trim() === "") throw invalidOption("Expected a non-empty query string");
    if (query.length > this.maxQueryLength) throw invalidOption(`Expected the query to be at most ${this.maxQueryLength} characters, got ${query.length}`);
    const k = options.k ?? this.k;
    checkK("k", k);
    const mmr = options.mmr ?? this.mmr;
    const expand = options.expand ?? this.expand;
    const filter = mergeFilters(this.filter, options.filter);
    const useMmr = mmr !== false;
    const fetchK = Math.max(this.fetchK ?? Math.max(4 * k, 20), k);

    const vector = await this.embeddings.embedQuery(query);
    const raw = await this.store.query({ vector, k: useMmr || this.dedup || this.rerank ? fetchK : k, ...(this.hybrid ? { text: query } : {}), ...(filter ? { filter } : {}) });

    let hits: ScoredChunk[] = [];
    for (const h of raw) {
      if (this.dedup ? hits.some((e) => isDuplicateHit(e.chunk, h.chunk)) : hits.some((e) => e.chunk.id === h.chunk.id)) continue;
      hits.push(h);
    }
    if (useMmr) {
      const lambda = typeof mmr === "object" && mmr.lambda !== undefined ? mmr.lambda : 0.5;
      if (!(lambda >= 0 && lambda <= 1)) throw invalidOption(`Expected \`mmr.lambda\` to be in [0, 1], got ${lambda}`);
      const missing = hits.filter((h) => !h.vector);
      const vectors = missing.length ? await this.embeddings.embedDocuments(missing.map((h) => h.chunk.embedText)) : [];
      let j = 0;
      const all = hits.map((h) => h.vector ?? vectors[j++]!);
      hits = maximalMarginalRelevance(vector, all, k, lambda).map((i) => hits[i]!);
    } else {
      if (this.rerank) hits = rerankByQuote(hits, query);
      hits = hits.slice(0, k);
    }

    const groups = await this.expandHits(hits.map((h) => h.chunk), expand);
    const docs: CitedPassage[] = [];
    const seen = new Map<string, number>();
    const passages: { hit: ScoredChunk; chunks: Chunk[] }[] = [];
    groups.forEach((chunks, i) => {
      // Two hits of one section grow into the same passage: keep it once, under the better hit.
      const overlapping = chunks.map((c) => seen.get(c.id)).find((x) => x !== undefined);
      if (overlapping !== undefined) {
        const into = passages[overlapping]!;
        const ids = new Set(into.chunks.map((c) => c.id));
        for (const c of chunks) if (!ids.has(c.id)) into.chunks.push(c);
        into.chunks.sort((a, b) => a.metadata.chunkIndex - b.metadata.chunkIndex);
        for (const c of chunks) seen.set(c.id, overlapping);
        return;
      }
      for (const c of chunks) seen.set(c.id, passages.length);
      passages.push({ hit: hits[i]!, chunks });
    });
    for (const { hit, chunks } of passages) {
      const passage = toPassage(chunks);
      const citation = await buildCitation(passage, query, {
        ...(this.pageSizes ? { pageSizes: this.pageSizes } : {}),
        ...(this.quote ? { quote: this.quote } : {}),
      });
      const m = hit.chunk.metadata;
      const metadata: CitedMetadata = {
        chunkId: hit.chunk.id,
        sourceId: m.sourceId,
        pageStart: Math.min(...chunks.map((c) => c.metadata.pageStart)),
        pageEnd: Math.max(...chunks.map((c) => c.metadata.pageEnd)),
        kind: m.kind,
        headingPath: [...(m.headingPath ?? [])],
        score: hit.score,
        citation,
      };
      if (m.filename !== undefined) metadata.filename = m.filename;
      if (m.fileId !== undefined) metadata.fileId = m.fileId;
      if (m.url !== undefined) metadata.url = m.url;
      docs.push({ document: new Document<CitedMetadata>({ pageContent: passage.text, metadata, id: hit.chunk.id }), chunks: passage.chunks });
    }
    return docs;
  }

  /**
   * Small-to-big: grows each hit along prevId/nextId, one step per round for all hits at
   * once (one `getByIds` per round), never leaving the hit's source or section.
   */
  private async expandHits(hits: Chunk[], mode: ExpandMode): Promise<Chunk[][]> {
    const groups = hits.map((hit) => ({ hit, chunks: [hit], prevOpen: true, nextOpen: true }));
    if (mode === "none") return groups.map((g) => g.chunks);
    const limit = mode === "neighbors" ? 2 * this.window + 1 : this.maxPassageChunks;
    for (let round = 0; round < limit; round++) {
      const want: { g: (typeof groups)[number]; side: "prev" | "next"; id: string }[] = [];
      for (const g of groups) {
        const sideLimit = mode === "neighbors" ? this.window : limit;
        const before = g.chunks.indexOf(g.hit);
        const after = g.chunks.length - before - 1;
        let room = limit - g.chunks.length;
        const head = g.chunks[0]!.metadata.prevId;
        const tail = g.chunks[g.chunks.length - 1]!.metadata.nextId;
        if (g.prevOpen && head && before < sideLimit && room > 0) {
          want.push({ g, side: "prev", id: head });
          room--;
        } else g.prevOpen = false;
        if (g.nextOpen && tail && after < sideLimit && room > 0) want.push({ g, side: "next", id: tail });
        else g.nextOpen = false;
      }
      if (want.length === 0) break;
      let found: Chunk[];
      try {
        found = await this.store.getByIds([...new Set(want.map((w) => w.id))]);
      } catch (error) {
        // A store that cannot fetch by id (some LangChain vector stores): no expansion.
        if (DocParseError.isInstance(error) && error.code === LocalErrorCode.Unsupported) break;
        throw error;
      }
      const fetched = new Map(found.map((c) => [c.id, c]));
      for (const { g, side, id } of want) {
        const c = fetched.get(id);
        const hm = g.hit.metadata;
        const fits = c && c.metadata.sourceId === hm.sourceId && (c.metadata.sectionId === hm.sectionId || hm.sectionId === undefined);
        if (!c || !fits || g.chunks.some((x) => x.id === c.id)) {
          if (side === "prev") g.prevOpen = false;
          else g.nextOpen = false;
          continue;
        }
        if (side === "prev") g.chunks.unshift(c);
        else g.chunks.push(c);
      }
    }
    return groups.map((g) => g.chunks);
  }
}
