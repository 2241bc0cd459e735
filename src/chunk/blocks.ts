import { linkCaptions } from "./captions.js";
import { continuationJoiner, continuationRoots } from "./continuations.js";
import { renderText, type RenderedText } from "./inline-objects.js";
import type { DocNode } from "./nodes.js";
import type { ChunkWarning } from "./options.js";
import { appendTable, tableModel, type TableModel } from "./table-model.js";

/** One element's stretch of a block's text. */
export interface BlockPart {
  node: DocNode;
  /** [start, end) in `block.text`. */
  start: number;
  end: number;
  rendered: RenderedText;
}

/**
 * A unit of content in reading order: one element, or several joined (a paragraph or
 * table continued across pages, a table or image with its caption).
 */
export interface Block {
  kind: "text" | "heading" | "table" | "image";
  /** The element that decides the block's place and section. */
  anchor: DocNode;
  /** Text of text, heading and image blocks (caption first for images). */
  text: string;
  parts: BlockPart[];
  /** Table blocks: rows, and the caption kept with them. */
  table?: { model: TableModel; root: DocNode; caption?: BlockPart & { text: string } };
  /** Image blocks: the image element. */
  image?: DocNode;
}

/** Builds blocks from the kept elements: continuations joined, captions attached. */
export function buildBlocks(
  nodes: readonly DocNode[],
  kept: readonly boolean[],
  warn: (w: ChunkWarning) => void,
): Block[] {
  const root = continuationRoots(nodes, kept, warn);
  const captionOf = linkCaptions(nodes, kept, root);
  const captionTaken = new Set(captionOf.values());
  const blocks: Block[] = [];
  const blockOfRoot = new Map<number, Block>();
  const rendered = (n: DocNode) => renderText(n, warn);

  for (const n of nodes) {
    if (!kept[n.index] || captionTaken.has(n.index)) continue;
    const r = root[n.index]!;
    if (r !== n.index) {
      const into = blockOfRoot.get(r);
      if (into) {
        extend(into, n, warn);
        continue;
      }
    }
    const block = startBlock(n, captionOf, nodes, rendered, warn);
    if (!block) continue;
    blockOfRoot.set(n.index, block);
    blocks.push(block);
  }
  return blocks.filter((b) => b.kind === "table" ? b.table!.model.rows.length > 0 : b.text.trim() !== "");
}

function startBlock(
  n: DocNode,
  captionOf: Map<number, number>,
  nodes: readonly DocNode[],
  rendered: (n: DocNode) => RenderedText,
  warn: (w: ChunkWarning) => void,
): Block | undefined {
  const captionIndex = captionOf.get(n.index);
  const caption = captionIndex === undefined ? undefined : nodes[captionIndex]!;
  if (n.type === "Table") {
    const model = tableModel(n, warn);
    const block: Block = { kind: "table", anchor: n, text: "", parts: [], table: { model, root: n } };
    if (caption) {
      const r = rendered(caption);
      const text = r.text.trim();
      if (text !== "") block.table!.caption = { node: caption, start: 0, end: r.text.length, rendered: r, text: r.text };
    }
    if (caption && caption.index < n.index) block.anchor = caption;
    return block;
  }
  if (n.type === "Image") {
    const parts: BlockPart[] = [];
    let text = "";
    const add = (node: DocNode) => {
      const r = rendered(node);
      if (r.text.trim() === "") return;
      if (text !== "") text += "\n\n";
      parts.push({ node, start: text.length, end: text.length + r.text.length, rendered: r });
      text += r.text;
    };
    if (caption) add(caption);
    add(n);
    return { kind: "image", anchor: caption && caption.index < n.index ? caption : n, text, parts, image: n };
  }
  const r = rendered(n);
  return {
    kind: n.type === "Title" ? "heading" : "text",
    anchor: n,
    text: r.text,
    parts: [{ node: n, start: 0, end: r.text.length, rendered: r }],
  };
}

function extend(block: Block, n: DocNode, warn: (w: ChunkWarning) => void): void {
  if (block.kind === "table") {
    block.table!.model = appendTable(block.table!.model, tableModel(n, warn));
    return;
  }
  const r = renderText(n, warn);
  if (r.text === "") return;
  const joiner = continuationJoiner(block.text, r.text);
  const start = block.text.length + joiner.length;
  block.text += joiner + r.text;
  block.parts.push({ node: n, start, end: start + r.text.length, rendered: r });
}
