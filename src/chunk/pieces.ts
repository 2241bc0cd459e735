import type { Block } from "./blocks.js";
import type { Section } from "./sections.js";
import { splitTextRanges } from "./split-text.js";
import { splitTable } from "./tables.js";
import type { Tokenizer } from "./tokenizer.js";

/** An atomic piece of content: chunks are made of whole pieces. */
export interface Piece {
  block: Block;
  section: Section;
  kind: Block["kind"];
  text: string;
  /** Tokens of `text` alone. */
  tokens: number;
  /** [start, end) in `block.text` (text, heading and image pieces). */
  start: number;
  end: number;
  /** Table pieces: body rows [from, to) of the block's table model. */
  rows?: { from: number; to: number };
  /** Table pieces: the caption is at the top of this piece. */
  withCaption: boolean;
  /** Later table pieces: the caption, added to the embedding context instead. */
  captionContext?: string;
  /** A table's caption cut as text of its own (too long to sit on the table); ranges are in the caption's text. */
  captionOnly?: boolean;
  /** A heading with no content of its own, carried into the chunk of its first sub-section. */
  carried?: boolean;
  /** The first piece of its block. */
  first: boolean;
  /** May share a chunk with other pieces (split table pieces may not). */
  mergeable: boolean;
  oversized: boolean;
}

/** The options pieces are cut with. */
export interface PieceSettings {
  tokenizer: Tokenizer;
  overlapTokens: number;
  tableFormat: "html" | "markdown";
}

/**
 * Cuts a block into pieces of at most `budget` tokens each (when it can be cut). `lead`
 * is room to leave in the first piece for a heading just before the block, so that a
 * heading is not left alone in a chunk when the block has to be cut.
 */
export function blockPieces(block: Block, section: Section, budget: number, s: PieceSettings, lead = 0): Piece[] {
  if (block.kind === "table") return tablePieces(block, section, budget, s, lead);
  return textPieces(block, section, block.text, 0, block.text.length, budget, s, lead);
}

/** Pieces of a text stretch [start, end) of a block; re-used to re-cut a piece. */
export function textPieces(
  block: Block,
  section: Section,
  text: string,
  start: number,
  end: number,
  budget: number,
  s: PieceSettings,
  lead = 0,
): Piece[] {
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
  const tokens = s.tokenizer.count(slice);
  // A heading above (lead) that cannot share a chunk with a large block takes the start
  // of the block with it instead of standing alone; a small block stays whole.
  const keepWithHeading = lead > 0 && lead * 2 < budget && tokens + lead > budget && tokens * 2 > budget;
  if (tokens <= budget && !keepWithHeading) return [textPiece(block, section, slice, tokens, start, end, start === 0, false)];
  // Every piece gets the first piece's smaller budget: the splitter has one size.
  if (lead > 0 && lead * 2 < budget) budget -= lead;
  const ranges = splitTextRanges(slice, {
    chunkSize: budget,
    chunkOverlap: Math.min(s.overlapTokens, Math.floor(budget / 2)),
    count: (t) => s.tokenizer.count(t),
  });
  return ranges.map((r, i) => {
    const t = slice.slice(r.start, r.end);
    return textPiece(block, section, t, s.tokenizer.count(t), start + r.start, start + r.end, start === 0 && i === 0, r.oversized === true);
  });
}

// One shape for every piece (no spreads): the chunker makes one per paragraph.
function textPiece(block: Block, section: Section, text: string, tokens: number, start: number, end: number, first: boolean, oversized: boolean): Piece {
  return { block, section, kind: block.kind, text, tokens, start, end, withCaption: false, first, mergeable: true, oversized };
}

function tablePieces(block: Block, section: Section, budget: number, s: PieceSettings, lead: number): Piece[] {
  const { model, caption } = block.table!;
  const captionText = caption?.text.trim() ?? "";
  let captionTokens = captionText === "" ? 0 : s.tokenizer.count(captionText) + 1;
  const out: Piece[] = [];
  let inline = captionText !== "";
  if (captionTokens * 2 > budget) {
    // A caption as long as the table budget is text in its own right.
    inline = false;
    captionTokens = 0;
  }
  const rest = Math.max(1, budget - captionTokens);
  const first = lead > 0 && lead * 2 < rest ? rest - lead : rest;
  const rows = splitTable(model, s.tableFormat, s.tokenizer, rest, first);
  // Pieces of a split table stand alone, except that the first may join a heading above.
  const base = { block, section, kind: block.kind, start: 0, end: 0 };
  rows.forEach((r, i) => {
    const withCaption = inline && i === 0;
    const text = withCaption ? `${captionText}\n\n${r.text}` : r.text;
    out.push({
      ...base,
      text,
      tokens: withCaption ? s.tokenizer.count(text) : r.tokens,
      rows: { from: r.from, to: r.to },
      withCaption,
      ...(inline && i > 0 ? { captionContext: captionText } : {}),
      first: i === 0,
      mergeable: rows.length === 1 || (i === 0 && first < rest),
      oversized: r.oversized,
    });
  });
  if (captionText !== "" && !inline) {
    const cap = caption!;
    const capPieces = textPieces(block, section, cap.text, 0, cap.text.length, budget, s).map((p) => ({ ...p, kind: "text" as const, captionOnly: true }));
    return [...capPieces, ...out];
  }
  return out;
}
