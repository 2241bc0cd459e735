import type { Chunk, ChunkKind, ChunkMetadata, ChunkRegion, ChunkTableInfo } from "./chunk.js";
import type { EmbedText } from "./embed-text.js";
import { chunkId, sha256Hex } from "./ids.js";
import { toSourceRange, type ChunkInlineObject } from "./inline-objects.js";
import { nodeIndex, type DocNode } from "./nodes.js";
import type { Piece } from "./pieces.js";
import { boundingQuad, mergeRegions, type RegionFinder } from "./regions.js";
import type { Tokenizer } from "./tokenizer.js";

/** Document-level values every chunk carries. */
export type DocumentInfo = Pick<ChunkMetadata, "sourceId" | "filename" | "filetype" | "fileId" | "jobId" | "url" | "schemaVersion"> & {
  /** Caller's flat metadata. */
  extra: Record<string, unknown>;
  /** Options fingerprint, part of ids. */
  options: string;
};

/** Joins pieces the way chunk text is written. */
export const PIECE_SEPARATOR = "\n\n";

/** A chunk before ids and neighbours are known. */
export interface DraftChunk {
  text: string;
  embedText: string;
  tokens: number;
  pieces: Piece[];
}

/** Text and embedText of a list of pieces, with the exact token count. */
export function draftChunk(pieces: Piece[], embed: EmbedText, tokenizer: Tokenizer): DraftChunk {
  const text = pieces.length === 1 ? pieces[0]!.text : pieces.map((p) => p.text).join(PIECE_SEPARATOR);
  const first = sectionPiece(pieces);
  let path = embed.prefix(first.section).path;
  // Titles whose text is already in the body are not repeated in front of it.
  const inBody = new Set<string>();
  for (const p of pieces) if (p.kind === "heading" && p.first) inBody.add(p.block.anchor.id);
  if (inBody.size > 0) {
    const titles = first.section.titleIds;
    const offset = titles.length - path.length;
    let keep = path.length;
    while (keep > 0 && inBody.has(titles[offset + keep - 1]!)) keep--;
    path = path.slice(0, keep);
  }
  const caption = first.captionContext;
  const embedText = embed.render(text, path, caption);
  // Counts of the pieces are known; joining them only changes tokens at the seams, which
  // the tokenizer can tell without reading everything again (when it offers countJoined).
  let bodyTokens: number | undefined = pieces[0]!.tokens;
  if (tokenizer.countJoined) {
    for (let i = 1; i < pieces.length && bodyTokens !== undefined; i++) {
      const prev = pieces[i - 1]!;
      const next = pieces[i]!;
      const seam = tokenizer.countJoined(prev.text, prev.tokens, PIECE_SEPARATOR, next.text, next.tokens);
      // The seam count covers prev + separator + next; prev is already in the total.
      bodyTokens = seam === undefined ? undefined : bodyTokens + seam - prev.tokens;
    }
  } else if (pieces.length > 1) bodyTokens = undefined;
  const tokens = (bodyTokens !== undefined ? embed.tokensAround(text, bodyTokens, path, caption) : undefined) ?? tokenizer.count(embedText);
  return { text, embedText, tokens, pieces };
}

/** Everything about a chunk except its neighbours. */
export function finishChunk(
  draft: DraftChunk,
  doc: DocumentInfo,
  nodes: readonly DocNode[],
  finder: RegionFinder,
): Chunk {
  const regions: ChunkRegion[] = [];
  const elementIds: string[] = [];
  // Most chunks have a handful of elements: `includes` until there are many, then a Set.
  let seen: Set<string> | undefined;
  const addId = (id: string) => {
    if (seen) {
      if (seen.has(id)) return;
      seen.add(id);
    } else if (elementIds.includes(id)) return;
    elementIds.push(id);
    if (!seen && elementIds.length > 64) seen = new Set(elementIds);
  };
  const inlineObjects: ChunkInlineObject[] = [];
  const kinds = new Set<ChunkKind>();
  let table: ChunkTableInfo | undefined;
  let image: ChunkMetadata["image"];
  let oversized = false;
  const locator: string[] = [];
  let offset = 0;
  for (const p of draft.pieces) {
    oversized ||= p.oversized;
    if (p.rows) {
      kinds.add("table");
      const t = p.block.table!;
      locator.push(`${t.root.id}:r${p.rows.from}-${p.rows.to}`);
      if (p.withCaption && t.caption) {
        addId(t.caption.node.id);
        regions.push(finder.whole(t.caption.node));
      }
      tableRegions(p, nodes, finder, regions, addId);
      table ??= {
        elementId: t.root.id,
        rowStart: p.rows.from + 1,
        rowEnd: p.rows.to,
        headerRows: t.model.headerRows,
        rows: t.model.rows.length,
      };
    } else {
      // A heading above a table or image does not make the chunk "mixed".
      if (p.kind !== "heading") kinds.add(p.kind === "image" ? "image" : "text");
      locator.push(`${p.block.anchor.id}:${p.captionOnly ? "c" : ""}${p.start}-${p.end}`);
      const parts = p.captionOnly ? [p.block.table!.caption!] : p.block.parts;
      for (const part of parts) {
        if (part.end <= p.start || part.start >= p.end) continue;
        addId(part.node.id);
        const a = Math.max(p.start, part.start) - part.start;
        const b = Math.min(p.end, part.end) - part.start;
        if (a <= 0 && b >= part.end - part.start) regions.push(finder.whole(part.node));
        else {
          const [s, e] = toSourceRange(part.rendered, a, b);
          regions.push(finder.part(part.node, s, e));
        }
        for (const seg of part.rendered.segments) {
          if (!seg.object || seg.rStart < a || seg.rEnd > b) continue;
          const at = offset + part.start + seg.rStart - p.start;
          const found: ChunkInlineObject = { elementId: part.node.id, type: seg.object.type, textRange: [at, at + seg.rEnd - seg.rStart] };
          if (seg.object.objectId !== undefined) found.objectId = seg.object.objectId;
          inlineObjects.push(found);
        }
      }
      if (p.kind === "image" && !image) image = imageInfo(p.block.image!);
    }
    offset += p.text.length + PIECE_SEPARATOR.length;
  }
  // A piece cut mid-line gets a box per line group, so it does not cover its neighbours'.
  const merged = mergeRegions(regions).flatMap((r) => finder.lines(r));
  const pages: number[] = [];
  for (const r of merged) if (!pages.includes(r.page)) pages.push(r.page);
  pages.sort((a, b) => a - b);
  const elementTypes: string[] = [];
  const byId = nodeIndex(nodes);
  for (const id of elementIds) {
    const at = byId.get(id);
    const type = at === undefined ? undefined : nodes[at]!.type;
    if (type !== undefined && !elementTypes.includes(type)) elementTypes.push(type);
  }
  const first = sectionPiece(draft.pieces);
  const contentHash = sha256Hex(draft.text);
  // Assigned one by one in a fixed order (object spreads cost more than the rest of this
  // function on 100k-element documents); the order is the JSON order.
  const metadata = { ...doc.extra } as ChunkMetadata;
  metadata.sourceId = doc.sourceId;
  if (doc.filename !== undefined) metadata.filename = doc.filename;
  if (doc.filetype !== undefined) metadata.filetype = doc.filetype;
  if (doc.fileId !== undefined) metadata.fileId = doc.fileId;
  if (doc.jobId !== undefined) metadata.jobId = doc.jobId;
  if (doc.url !== undefined) metadata.url = doc.url;
  if (doc.schemaVersion !== undefined) metadata.schemaVersion = doc.schemaVersion;
  metadata.headingPath = first.section.headingPath.slice();
  metadata.pageStart = pages[0] ?? first.block.anchor.page;
  metadata.pageEnd = pages[pages.length - 1] ?? first.block.anchor.page;
  metadata.pages = pages.length > 0 ? pages : [first.block.anchor.page];
  metadata.regions = merged;
  metadata.elementIds = elementIds;
  metadata.elementTypes = elementTypes;
  metadata.kind = kinds.size === 0 ? "text" : kinds.size === 1 ? kinds.values().next().value! : "mixed";
  if (table) metadata.table = table;
  if (image) metadata.image = image;
  metadata.chunkIndex = 0;
  metadata.chunkCount = 0;
  metadata.sectionId = first.section.id;
  metadata.tokens = draft.tokens;
  metadata.contentHash = contentHash;
  if (inlineObjects.length > 0) metadata.inlineObjects = inlineObjects;
  if (oversized) metadata.oversized = true;
  const id = chunkId({ sourceId: doc.sourceId, elementIds, contentHash, locator: locator.join(","), options: doc.options });
  return { id, text: draft.text, embedText: draft.embedText, metadata };
}

/** The piece whose section the chunk belongs to: carried parent headings do not count. */
export function sectionPiece(pieces: readonly Piece[]): Piece {
  return pieces.find((p) => !p.carried) ?? pieces[0]!;
}

function tableRegions(
  p: Piece,
  nodes: readonly DocNode[],
  finder: RegionFinder,
  regions: ChunkRegion[],
  addId: (id: string) => void,
): void {
  const { model } = p.block.table!;
  const { from, to } = p.rows!;
  const whole = from === model.headerRows && to === model.rows.length;
  // Rows of each element in this piece, in order.
  const groups = new Map<number, { count: number; boxes: number[][] | null }>();
  // The header rows travel with the first piece (and are the table's own on a whole one).
  for (let r = p.first ? 0 : from; r < to; r++) {
    const row = model.rows[r]!;
    let g = groups.get(row.node);
    if (!g) {
      g = { count: 0, boxes: [] };
      groups.set(row.node, g);
    }
    g.count++;
    if (g.boxes) {
      if (row.box) g.boxes.push(row.box);
      else g.boxes = null;
    }
  }
  for (const [index, g] of groups) {
    const node = nodes[index]!;
    addId(node.id);
    const rowsOfNode = countRows(model.rows, index);
    if (whole || g.count >= rowsOfNode) {
      regions.push(finder.whole(node));
    } else if (g.boxes && g.boxes.length > 0) {
      regions.push({ page: node.page, coordinates: boundingQuad(g.boxes)!, elementId: node.id });
    } else {
      const r = finder.whole(node);
      r.approximate = true;
      regions.push(r);
    }
  }
}

const rowCounts = new WeakMap<readonly unknown[], Map<number, number>>();

function countRows(rows: readonly { node: number }[], node: number): number {
  let counts = rowCounts.get(rows);
  if (!counts) {
    counts = new Map();
    for (const r of rows) counts.set(r.node, (counts.get(r.node) ?? 0) + 1);
    rowCounts.set(rows, counts);
  }
  return counts.get(node) ?? 0;
}

function imageInfo(node: DocNode): ChunkMetadata["image"] {
  const data = node.element.image_data;
  const info: NonNullable<ChunkMetadata["image"]> = {};
  if (typeof data?.image_url === "string") info.url = data.image_url;
  if (typeof data?.mime_type === "string") info.mimeType = data.mime_type;
  if (typeof node.meta.width === "number") info.width = node.meta.width;
  if (typeof node.meta.height === "number") info.height = node.meta.height;
  return info;
}
