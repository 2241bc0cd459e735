import type { DraftElement, DraftTable, FormatHandler } from "../draft.js";
import { decodeText, normalizeText } from "../text-decode.js";
import { hasWide, joinLines } from "../text-width.js";
import { CJK_KINDS, documentTitleCandidate, headingCandidate, levelsFromRanks, type HeadingCandidate } from "./text-headings.js";

/**
 * Plain text. The encoding is detected (BOM, UTF-8, UTF-16, GB18030, windows-1252), then
 * blank lines split blocks and each block becomes Titles (conservative numbering
 * patterns, see text-headings.ts), ListItems (bullets and numbers, nesting from
 * indentation), Tables (tab-separated or pipe rows), Formulas (`$$ … $$`), CodeSnippets
 * (``` or ~~~ fences, blank lines inside kept) or paragraphs.
 * Form feeds become PageBreaks. Text has no geometry: the assembler lays it out.
 */
export const textFormat: FormatHandler = {
  id: "txt",
  mimeType: "text/plain",
  async parse(bytes) {
    const decoded = decodeText(bytes);
    return {
      filetype: "text/plain",
      pageCount: 1,
      pages: [],
      elements: textToElements(normalizeText(decoded.text)),
      estimatedLayout: true,
      metadata: { encoding: decoded.encoding },
    };
  },
};

interface Block {
  lines: string[];
  /** A fenced code block (``` or ~~~): its content, verbatim. */
  code?: string;
  /** A heading line split out of a block (see splitInlineHeadings). */
  heading?: HeadingCandidate;
}

const BULLET = /^(\s*)([-*+•·▪◦●○■□➢➤►])\s+(.*)$/u;
const NUMBERED = /^(\s*)(\d{1,3}[.)]|[a-zA-Z][.)]|\(\d{1,3}\)|（\d{1,3}）|[①-⑳]|\([a-z]\))\s+(.*)$/u;
const CN_NUMBERED = /^(\s*)([一二三四五六七八九十]{1,3}、|[（(][一二三四五六七八九十]{1,3}[)）])\s*(.+)$/u;

interface ListLine {
  indent: number;
  /** The marker to keep in the text (numbers are content; bullets are not). */
  keep: string;
  text: string;
}

function listLine(line: string): ListLine | undefined {
  const b = BULLET.exec(line);
  if (b) return { indent: indentWidth(b[1]!), keep: "", text: b[3]! };
  const n = NUMBERED.exec(line) ?? CN_NUMBERED.exec(line);
  // Numbers are content (a reader cites "item 3"); CJK markers take no space after them.
  if (n) return { indent: indentWidth(n[1]!), keep: hasWide(n[2]!) ? n[2]! : `${n[2]!} `, text: n[3]! };
  return undefined;
}

function indentWidth(ws: string): number {
  let w = 0;
  for (const ch of ws) w += ch === "\t" ? 4 : ch === "\u3000" ? 2 : 1;
  return w;
}

/** Splits text into elements (exported for tests and for other text-like formats). */
export function textToElements(text: string): DraftElement[] {
  const elements: DraftElement[] = [];
  const ranks: number[] = [];
  const sections = text.split("\f");
  sections.forEach((section, s) => {
    if (s > 0) elements.push({ type: "PageBreak", text: "", page: 1 });
    const blocks = splitInlineHeadings(splitBlocks(section));
    const headingRank = classifyHeadings(blocks, s === 0);
    blocks.forEach((block, i) => {
      if (block.code !== undefined) {
        if (block.code.trim()) elements.push({ type: "CodeSnippet", text: block.code, page: 1 });
        return;
      }
      const rank = headingRank.get(i);
      if (rank !== undefined) {
        ranks.push(rank);
        elements.push({ type: "Title", text: block.lines[0]!.trim(), page: 1, headingLevel: rank });
        if (block.lines.length > 1) blockElements(block.lines.slice(1), elements);
        return;
      }
      blockElements(block.lines, elements);
    });
  });
  // Ranks → levels, now that every heading of the document is known.
  const levels = levelsFromRanks(ranks);
  for (const el of elements) if (el.type === "Title") el.headingLevel = levels.get(el.headingLevel!) ?? 1;
  return elements;
}

function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let current: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      // Fenced code keeps its blank lines and indentation; an unclosed fence runs to the end.
      const marker = fence[1]!;
      let end = i + 1;
      while (end < lines.length && !lines[end]!.trim().startsWith(marker)) end++;
      if (current.length) blocks.push({ lines: current });
      current = [];
      blocks.push({ lines: [], code: lines.slice(i + 1, end).join("\n").replace(/\s+$/, "") });
      i = end;
      continue;
    }
    if (line.trim() === "") {
      if (current.length) blocks.push({ lines: current });
      current = [];
    } else current.push(line.replace(/\s+$/, ""));
  }
  if (current.length) blocks.push({ lines: current });
  return blocks;
}

/**
 * Chinese documents often put a heading on the line right above its text, with no blank
 * line ("二、重点任务" / "（一）开展隐患排查" / "　　各部门要……"). Such a line becomes its
 * own block when it is a strong heading, when an indented paragraph or a heading of
 * another kind follows it, or when it is short Chinese numbering at the top or bottom of
 * its block. Lines next to one of the same kind form a list and stay.
 */
function splitInlineHeadings(blocks: Block[]): Block[] {
  const out: Block[] = [];
  blocks.forEach((block, b) => {
    if (block.code !== undefined || block.lines.length < 2) {
      out.push(block);
      return;
    }
    const cands = block.lines.map((l) => (listLine(l) && !CN_NUMBERED.test(l) ? undefined : headingCandidate(l)));
    let current: string[] = [];
    block.lines.forEach((line, i) => {
      const c = cands[i];
      const next = block.lines[i + 1];
      const nextCand = cands[i + 1];
      const run = c && (cands[i - 1]?.kind === c.kind || nextCand?.kind === c.kind);
      const short = line.trim().length <= 20;
      const edge = i === 0 || (i === block.lines.length - 1 && b + 1 < blocks.length);
      const split =
        c !== undefined &&
        !run &&
        (c.strong ||
          (next !== undefined && (/^\u3000/.test(next) || (nextCand !== undefined && nextCand.kind !== c.kind))) ||
          (CJK_KINDS.has(c.kind) && short && edge));
      if (!split) {
        current.push(line);
        return;
      }
      if (current.length) out.push({ lines: current });
      current = [];
      out.push({ lines: [line], heading: { ...c, strong: true } });
    });
    if (current.length) out.push({ lines: current });
  });
  return out;
}

/** Block index → heading rank, for blocks that start with a heading. */
function classifyHeadings(blocks: Block[], documentStart: boolean): Map<number, number> {
  const out = new Map<number, number>();
  const candidates = blocks.map((b) => {
    if (b.code !== undefined) return undefined;
    if (b.heading) return b.heading;
    // Setext-style underline: "Title" over "=====" / "-----".
    if (b.lines.length === 2 && /^\s*(=+|-+)\s*$/.test(b.lines[1]!) && b.lines[1]!.trim().length >= 3 && !listLine(b.lines[0]!)) {
      const underline = b.lines.pop()!.trim();
      return { rank: underline.startsWith("=") ? 25 : 33, strong: true, kind: "setext" };
    }
    const c = headingCandidate(b.lines[0]!);
    if (!c) return undefined;
    if (b.lines.length > 1 && !c.strong) return undefined;
    return c;
  });
  // A run of two or more single-line blocks with the same weak numbering is a list
  // ("1. Milk", blank, "2. Eggs"), not a series of empty sections. (ALL-CAPS lines in a
  // row are a title over a section heading, not a list.)
  for (let i = 0; i < blocks.length; i++) {
    const c = candidates[i];
    if (!c) continue;
    if (!c.strong && c.kind !== "caps") {
      const sameAsNext = candidates[i + 1]?.kind === c.kind && blocks[i + 1]!.lines.length === 1;
      const sameAsPrev = candidates[i - 1]?.kind === c.kind && blocks[i - 1]!.lines.length === 1;
      if (sameAsNext || sameAsPrev) continue;
    }
    out.set(i, c.rank);
  }
  // A short first line standing alone above the text is the document's title, also when
  // it looks like a heading itself but a heading of the same or a higher rank follows at
  // once ("USER MANUAL" over "GETTING STARTED").
  const first = blocks[0];
  if (documentStart && first && first.code === undefined && first.lines.length === 1 && blocks.length > 1 && !listLine(first.lines[0]!) && documentTitleCandidate(first.lines[0]!)) {
    const own = out.get(0);
    const next = out.get(1);
    if (own === undefined || (next !== undefined && next <= own && !candidates[0]?.strong)) out.set(0, 10);
  }
  return out;
}

/** Turns the lines of one block (no heading) into elements. */
function blockElements(lines: string[], out: DraftElement[]): void {
  const joined = lines.map((l) => l.trim()).join("\n");
  if (joined.startsWith("$$") && joined.endsWith("$$") && joined.length > 4) {
    out.push({ type: "Formula", text: joined.slice(2, -2).trim(), page: 1 });
    return;
  }
  // An indented block (4 spaces or a tab on every line) that reads like code, not prose.
  if (lines.every((l) => /^( {4}|\t)/.test(l)) && !hasWide(joined) && !lines.some((l) => listLine(l)) && /[{}();=<>$\\/[\]]|--|^\s*#/m.test(joined)) {
    const indent = Math.min(...lines.map((l) => /^[ \t]*/.exec(l)![0].length));
    out.push({ type: "CodeSnippet", text: lines.map((l) => l.slice(indent)).join("\n"), page: 1 });
    return;
  }
  const table = tableOf(lines);
  if (table) {
    out.push({ type: "Table", text: "", page: 1, table });
    return;
  }
  let paragraph: string[] = [];
  const indents: number[] = [];
  let item: (DraftElement & { indent: number }) | undefined;
  const flushParagraph = () => {
    for (const p of paragraphs(paragraph)) out.push({ type: "NarrativeText", text: p, page: 1 });
    paragraph = [];
  };
  const flushItem = () => {
    if (item) {
      const { indent: _indent, ...el } = item;
      void _indent;
      out.push(el);
    }
    item = undefined;
  };
  for (const line of lines) {
    const li = listLine(line);
    if (li) {
      flushParagraph();
      flushItem();
      // Nesting: a deeper indent than the enclosing items opens a level.
      while (indents.length && indents[indents.length - 1]! > li.indent) indents.pop();
      if (!indents.length || indents[indents.length - 1]! < li.indent) indents.push(li.indent);
      item = { type: "ListItem", text: li.keep + li.text.trim(), page: 1, listLevel: indents.length - 1, indent: li.indent };
      continue;
    }
    if (item && indentWidth(/^\s*/.exec(line)![0]) > item.indent) {
      // An indented line under an item continues it.
      item.text = joinLines([item.text, line]);
      continue;
    }
    flushItem();
    indents.length = 0;
    paragraph.push(line);
  }
  flushItem();
  flushParagraph();
}

/**
 * Lines of one block → paragraphs. Hard-wrapped prose is joined; a block of only short
 * lines keeps them apart; a line is its own paragraph when it starts indented (the Chinese convention of two full-width spaces),
 * when the previous line is long (text written one paragraph per line), or when the
 * previous CJK line ended a sentence.
 */
function paragraphs(lines: string[]): string[] {
  // Only short lines (an address, a signature, a verse): each is its own line, not
  // hard-wrapped prose (which fills its lines).
  // A line ending mid-sentence (comma, colon, hyphen) is wrapped prose all the same.
  if (lines.length > 1 && lines.every((l) => visualLength(l.trim()) <= 32) && !lines.slice(0, -1).some((l) => /[，、,；;：:\-–]$/.test(l.trim()))) {
    return lines.map((l) => l.trim()).filter(Boolean);
  }
  const out: string[] = [];
  let current: string[] = [];
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    const breakBefore =
      prev !== undefined &&
      (/^(\s{2,}|\u3000|\t)/.test(line) || visualLength(prev) > 100 || (hasWide(prev) && /[。！？」』”]$/.test(prev.trim())));
    if (breakBefore && current.length) {
      out.push(joinLines(current));
      current = [];
    }
    current.push(line);
  });
  if (current.length) out.push(joinLines(current));
  return out.filter(Boolean);
}

function visualLength(line: string): number {
  let n = 0;
  for (const ch of line) n += hasWide(ch) ? 2 : 1;
  return n;
}

/**
 * A block whose every line has the same number (≥ 2) of tab-separated fields, or a pipe
 * table (`| a | b |` with a `|---|` line), is a table; the first row is the header.
 */
/**
 * Space-aligned columns (reports and exports printed in a fixed-width font): three or
 * more lines whose text shares at least one gap of two or more blank columns, at the
 * same place on every line (CJK characters count two columns, as in a terminal).
 */
function alignedColumns(lines: string[]): string[][] | undefined {
  if (lines.length < 3 || lines.some((l) => listLine(l))) return undefined;
  const grids = lines.map((line) => {
    const cells: { ch: string; col: number }[] = [];
    let col = 0;
    for (const ch of line.replace(/\t/g, "    ")) {
      cells.push({ ch, col });
      col += hasWide(ch) ? 2 : 1;
    }
    return { cells, width: col };
  });
  const width = grids.reduce((m, g) => Math.max(m, g.width), 0);
  const blank = new Array<boolean>(width).fill(true);
  for (const g of grids) for (const c of g.cells) if (c.ch !== " ") for (let k = c.col; k < c.col + (hasWide(c.ch) ? 2 : 1); k++) blank[k] = false;
  // Gaps: runs of ≥ 2 blank columns with text on both sides.
  const first = blank.indexOf(false);
  const last = blank.lastIndexOf(false);
  const cuts: [number, number][] = [];
  for (let k = first; k <= last; k++) {
    if (!blank[k]) continue;
    let end = k;
    while (end <= last && blank[end]) end++;
    if (end - k >= 2) cuts.push([k, end]);
    k = end;
  }
  if (cuts.length === 0) return undefined;
  const rows = grids.map((g) => {
    const fields = new Array<string>(cuts.length + 1).fill("");
    for (const c of g.cells) {
      const field = cuts.filter(([a]) => c.col >= a).length;
      fields[field] += c.ch;
    }
    return fields.map((f) => f.trim());
  });
  // Every line must fill its first column (no ragged prose that happens to align).
  if (rows.some((r) => !r[0])) return undefined;
  if (rows.filter((r) => r.every(Boolean)).length < 2) return undefined;
  return rows;
}

function tableOf(lines: string[]): DraftTable | undefined {
  if (lines.length < 2) return undefined;
  let rows: string[][] | undefined;
  if (lines.every((l) => l.includes("\t"))) {
    const split = lines.map((l) => l.trim().split("\t").map((c) => c.trim()));
    const cols = split[0]!.length;
    if (cols >= 2 && split.every((r) => r.length === cols)) rows = split;
  } else if (lines.every((l) => /^\s*\|.*\|\s*$/.test(l)) && /^\s*\|[\s:|-]+\|\s*$/.test(lines[1]!)) {
    const split = lines.filter((_, i) => i !== 1).map((l) => l.trim().slice(1, -1).split("|").map((c) => c.trim()));
    const cols = split.reduce((m, r) => Math.max(m, r.length), 0);
    if (cols >= 1) rows = split.map((r) => [...r, ...new Array<string>(cols - r.length).fill("")]);
  } else {
    rows = alignedColumns(lines);
  }
  if (!rows) return undefined;
  const cols = rows[0]!.length;
  return {
    rows: rows.length,
    cols,
    headerRows: 1,
    cells: rows.flatMap((r, ri) => r.map((text, ci) => ({ row: ri + 1, col: ci + 1, text }))),
  };
}
