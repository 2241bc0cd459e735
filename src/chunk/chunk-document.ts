import { DocParseError, LocalErrorCode } from "../errors.js";
import type { ParseResult } from "../wire/index.js";
import { draftChunk, finishChunk, sectionPiece, type DocumentInfo, type DraftChunk } from "./assemble.js";
import { buildBlocks } from "./blocks.js";
import type { Chunk } from "./chunk.js";
import { buildDocumentTree } from "./document-tree.js";
import { EmbedText } from "./embed-text.js";
import { uniqueIds } from "./ids.js";
import { toNodes } from "./nodes.js";
import { optionsFingerprint, resolveChunkOptions, type ChunkOptions, type ChunkWarning, type ResolvedChunkOptions } from "./options.js";
import { blockPieces, textPieces, type Piece, type PieceSettings } from "./pieces.js";
import { RegionFinder } from "./regions.js";
import { groupRuns, SectionIndex, type Run } from "./sections.js";

const RESERVED_KEYS = new Set([
  "sourceId", "filename", "filetype", "fileId", "jobId", "url", "schemaVersion", "headingPath", "pageStart", "pageEnd",
  "pages", "regions", "elementIds", "elementTypes", "kind", "table", "image", "chunkIndex", "chunkCount", "prevId",
  "nextId", "sectionId", "tokens", "contentHash", "inlineObjects", "oversized",
]);

/** Chunks and the problems the chunker worked around. */
export interface ChunkReport {
  chunks: Chunk[];
  warnings: ChunkWarning[];
}

// "\n\n" between pieces is one token in cl100k; the exact count of each chunk is checked
// at the end anyway, this only keeps the first plan close.
const SEPARATOR_TOKENS = 1;
// Room left for tokens that form where the heading prefix meets the body.
const BOUNDARY_MARGIN = 2;

/**
 * Turns a parse result into citation-ready chunks. Pure and deterministic: no I/O, no
 * clock, no randomness; the same result and options give byte-identical chunks and ids.
 *
 * Never throws on an odd document (missing hierarchy, dangling links, bad ranges): it
 * works around it and reports a warning through `options.onWarning`. Throws a
 * `DocParseError` (`DOCPARSE_INVALID_OPTION`) on invalid options, and
 * (`DOCPARSE_INVALID_RESPONSE`) when `result` has no `elements` array.
 *
 * @example
 * ```ts
 * const chunks = chunkDocument(await parser.parse("report.pdf"), { maxTokens: 400 });
 * ```
 */
export function chunkDocument(result: ParseResult, options: ChunkOptions = {}): Chunk[] {
  return chunkDocumentWithReport(result, options).chunks;
}

/** {@link chunkDocument}, also returning every warning. */
export function chunkDocumentWithReport(result: ParseResult, options: ChunkOptions = {}): ChunkReport {
  const o = resolveChunkOptions(options);
  if (typeof result !== "object" || result === null || !Array.isArray((result as { elements?: unknown }).elements)) {
    throw new DocParseError(LocalErrorCode.InvalidResponse, "chunkDocument expects a parse result with an `elements` array");
  }
  const warnings: ChunkWarning[] = [];
  const warn = (w: ChunkWarning) => {
    warnings.push(w);
    o.onWarning?.(w);
  };
  const nodes = toNodes(result.elements, warn);
  const tree = buildDocumentTree(nodes, result.title_tree, warn);
  const drop = new Set(o.dropTypes);
  const kept = nodes.map((n) => !drop.has(n.type));
  const blocks = buildBlocks(nodes, kept, warn);
  const sections = new SectionIndex(nodes, tree, o.headingLevel);
  const runs = groupRuns(blocks, sections, o.strategy);
  const embed = new EmbedText(o);

  const doc = documentInfo(result, o);
  const finder = new RegionFinder();
  const chunks: Chunk[] = [];
  // Each chunk is finished as soon as it is drafted, so pieces and drafts die young
  // (cheap for the garbage collector) instead of all living until the end.
  pack(runs, o, embed, { push: (d) => chunks.push(finishChunk(d, doc, nodes, finder)) });
  const ids = uniqueIds(chunks.map((c) => c.id));
  chunks.forEach((c, i) => {
    c.id = ids[i]!;
    c.metadata.chunkIndex = i;
    c.metadata.chunkCount = chunks.length;
  });
  chunks.forEach((c, i) => {
    if (i > 0) c.metadata.prevId = chunks[i - 1]!.id;
    if (i + 1 < chunks.length) c.metadata.nextId = chunks[i + 1]!.id;
  });
  return { chunks, warnings };
}

function documentInfo(result: ParseResult, o: ResolvedChunkOptions): DocumentInfo {
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const meta = typeof result.metadata === "object" && result.metadata !== null ? result.metadata : {};
  // The chunker's own keys win, including those it sets only sometimes (`oversized`,
  // `table`, ...): a caller's value for them would be a false signal on other chunks.
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o.metadata)) if (!RESERVED_KEYS.has(k)) extra[k] = v;
  const info: DocumentInfo = {
    sourceId: o.sourceId ?? str(result.file_id) ?? str(meta.filename) ?? "document",
    extra,
    options: optionsFingerprint(o),
  };
  const set = (key: "filename" | "filetype" | "fileId" | "jobId" | "url" | "schemaVersion", v: unknown) => {
    const s = str(v);
    if (s !== undefined) info[key] = s;
  };
  set("filename", meta.filename);
  set("filetype", meta.filetype);
  set("fileId", result.file_id);
  set("jobId", result.job_id);
  set("url", meta.data_source?.url);
  set("schemaVersion", result.schema_version);
  return info;
}

/** Where drafted chunks go. */
interface DraftSink {
  push(draft: DraftChunk): void;
}

/**
 * Packs pieces into chunks run by run. A chunk closes when the next piece would not fit,
 * when a second table or image would join it, at a split table piece, at a sub-heading
 * once it holds `minTokens` (hierarchy), and at every block (by_element).
 */
function pack(runs: Run[], o: ResolvedChunkOptions, embed: EmbedText, drafts: DraftSink): void {
  const settings: PieceSettings = { tokenizer: o.tokenizer, overlapTokens: o.overlapTokens, tableFormat: o.tableFormat };
  const budgetOf = (p: { tokens: number }) => Math.max(1, o.maxTokens - p.tokens - BOUNDARY_MARGIN);
  let carry: Piece[] = [];

  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    const pieces: Piece[] = carry;
    carry = [];
    run.blocks.forEach((block, i) => {
      const section = run.sections[i]!;
      // Leave room for a heading right above, so it goes with the start of its content.
      const above = pieces[pieces.length - 1];
      const lead = o.strategy !== "by_element" && above?.kind === "heading" && above.block === run.blocks[i - 1] ? above.tokens + SEPARATOR_TOKENS : 0;
      // A loop, not push(...): one huge element can make more pieces than a call takes arguments.
      for (const piece of blockPieces(block, section, budgetOf(embed.prefix(section)), settings, lead)) pieces.push(piece);
    });
    // A heading with nothing under it but deeper sections goes down with the first of them.
    const next = runs[r + 1];
    if (
      o.strategy === "hierarchy" &&
      next &&
      run.blocks.length === 1 &&
      run.blocks[0]!.kind === "heading" &&
      run.sections[0]!.id === run.blocks[0]!.anchor.id &&
      next.sections[0]!.titleIds.includes(run.blocks[0]!.anchor.id) &&
      pieces.every((p) => p.kind === "heading")
    ) {
      carry = pieces.map((p) => ({ ...p, carried: true }));
      continue;
    }
    let current: Piece[] = [];
    let used = 0;
    const flush = () => {
      if (current.length > 0) emit(current, drafts, o, embed, settings);
      current = [];
      used = 0;
    };
    for (const p of pieces) {
      if (current.length > 0) {
        const last = current[current.length - 1]!;
        const prefix = embed.prefix(sectionPiece(current).section).tokens;
        // Pieces of one text that meet in a chunk again become one stretch of the source:
        // no paragraph break inserted mid-sentence, no overlap (overlapTokens) repeated
        // inside a chunk.
        if (p.block === last.block && !p.rows && !last.rows && p.captionOnly === last.captionOnly) {
          const source = p.captionOnly ? p.block.table!.caption!.text : p.block.text;
          const text = source.slice(last.start, p.end);
          const tokens = o.tokenizer.count(text);
          if (prefix + used - last.tokens + tokens + BOUNDARY_MARGIN <= o.maxTokens) {
            current[current.length - 1] = { ...last, text, tokens, end: p.end, oversized: last.oversized || p.oversized };
            used += tokens - last.tokens;
            continue;
          }
          flush();
        }
        const fits = prefix + used + SEPARATOR_TOKENS + p.tokens + BOUNDARY_MARGIN <= o.maxTokens;
        const special = (p.kind === "table" || p.kind === "image") && current.some((c) => c.kind === "table" || c.kind === "image");
        const subsection = o.strategy === "hierarchy" && p.kind === "heading" && p.first && used >= o.minTokens;
        const perElement = o.strategy === "by_element" && p.block !== last.block;
        if (current.length > 0 && (!fits || special || subsection || perElement || !p.mergeable || !last.mergeable)) flush();
      }
      used += (current.length > 0 ? SEPARATOR_TOKENS : 0) + p.tokens;
      current.push(p);
    }
    flush();
  }
  if (carry.length > 0) emit(carry, drafts, o, embed, settings);
}

/**
 * Drafts a chunk and checks its exact token count: when the plan was off, the last
 * pieces move to a chunk of their own, and a lone text piece is cut again with a budget
 * reduced by the excess. Only what cannot be cut stays over, flagged `oversized`.
 */
function emit(pieces: Piece[], drafts: DraftSink, o: ResolvedChunkOptions, embed: EmbedText, s: PieceSettings): void {
  const draft = draftChunk(pieces, embed, o.tokenizer);
  if (draft.tokens <= o.maxTokens) {
    drafts.push(draft);
    return;
  }
  if (pieces.length > 1) {
    let cut = pieces.length - 1;
    while (cut > 1 && draftChunk(pieces.slice(0, cut), embed, o.tokenizer).tokens > o.maxTokens) cut--;
    emit(pieces.slice(0, cut), drafts, o, embed, s);
    emit(pieces.slice(cut), drafts, o, embed, s);
    return;
  }
  const p = pieces[0]!;
  const excess = draft.tokens - o.maxTokens;
  const budget = p.tokens - excess - 1;
  if (p.rows || p.oversized || budget < 1 || p.end - p.start <= 1) {
    drafts.push(p.oversized ? draft : { ...draft, pieces: [{ ...p, oversized: true }] });
    return;
  }
  const source = p.captionOnly ? p.block.table!.caption!.text : p.block.text;
  const again = textPieces(p.block, p.section, source, p.start, p.end, budget, s).map((q) => ({
    ...q,
    first: p.first && q.start === p.start,
    kind: p.kind,
    ...(p.captionOnly ? { captionOnly: true } : {}),
  }));
  if (again.length <= 1) {
    drafts.push({ ...draft, pieces: [{ ...p, oversized: true }] });
    return;
  }
  for (const q of again) emit([q], drafts, o, embed, s);
}
