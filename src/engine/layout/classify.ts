import { finishBlock } from "./blocks.js";
import { assignListLevels } from "./list-levels.js";
import { horizontal, offAxis } from "./lines.js";
import { codeLike, typewrittenPage } from "./listings.js";
import { charWeights, type Block, type BlockChar, type InlineSpan, type Line, type Rect, type TextRun } from "./types.js";
import { FIGURE_CAPTION, TABLE_CAPTION } from "./captions.js";

export { FIGURE_CAPTION, TABLE_CAPTION };

/** Dot leaders, as in a table of contents: `Introduction . . . . 7`. */
export const DOT_LEADER = /(?:\.\s?){5,}\s*\S*$/;

/**
 * A numbered heading's start: `2.1 Scope`, `第3章`, `三、`, `（二）`, `Chapter 4`, `Appendix A`
 * (a Chinese notice's second-level heading may end in a full stop: `（二）深化隐患排查。`).
 */
export const NUMBERED_HEADING = /^(?:\d+(?:\.\d+)*\.?\s+\S|第[一二三四五六七八九十百千\d]+[章节部分篇条]|[一二三四五六七八九十]+、|[（(][一二三四五六七八九十]+[）)]\S|(?:chapter|section|part|appendix)\s+[\dA-Z]+)/i;

/**
 * How a block is drawn across the page's text, when no line of it is level: slanted off
 * the page's axes (a diagonal watermark, each of Chromium's letters a block of its own),
 * or sideways at a right angle (a margin stamp: arXiv's identifier up the left edge, a
 * publisher's `Downloaded from` strip, a chapter's thumb tab). See {@link Block.aside}.
 */
function asideOf(b: Block): Block["aside"] {
  let slanted = false;
  for (const l of b.lines) {
    for (const r of l.runs) {
      if (horizontal(r)) return undefined;
      if (offAxis(r)) slanted = true;
    }
  }
  return b.lines.length === 0 ? undefined : slanted ? "slanted" : "sideways";
}

/** Share of a block's characters in math fonts or math symbols. */
function mathShare(lines: readonly Line[]): number {
  let n = 0;
  let m = 0;
  for (const l of lines) {
    n += l.text.length;
    m += l.mathShare * l.text.length;
  }
  return n ? m / n : 0;
}

/**
 * Gives each text block of one page its local kind: list item (marker), code
 * (monospace), display formula (mostly math), caption (`Figure 1`, `表 2`). Titles,
 * headers and footers need the whole document and are decided later. Also sets list
 * levels from the indentation of the page's list items.
 */
export function classifyBlocks(blocks: Block[]): void {
  joinAlgorithms(blocks);
  const typewritten = typewrittenPage(blocks.filter((b) => b.kind === "text" || b.kind === "list"));
  for (const b of blocks) {
    if (b.kind !== "text" && b.kind !== "list") continue;
    const aside = asideOf(b);
    if (aside) b.aside = aside;
    const text = b.text.trim();
    if (b.mono && b.kind === "text" && !b.annotation) {
      // On a page set all in monospace (a plain-text file printed: an RFC, a licence, a
      // screenplay), monospace says nothing: only what reads as code is code, the rest is
      // prose, its lines joined as prose's are.
      if (typewritten && !codeLike(b.text)) {
        b.mono = false;
        finishBlock(b);
      } else b.kind = "code";
    }
    else if (DOT_LEADER.test(text)) continue; // a table-of-contents line: prose, whatever its fonts
    else if (b.lines.length <= 3 && text.length <= 200 && mathShare(b.lines) >= 0.3) b.kind = "formula";
    else if (FIGURE_CAPTION.test(text)) b.kind = "figure-caption";
    else if (TABLE_CAPTION.test(text)) b.kind = "table-caption";
  }
  joinFormulaPieces(blocks);
  labelledFirstItems(blocks);
  assignListLevels(blocks);
}

/** A label and its colon before a list's first item, opening a line: `附件：1. 安全生产责任清单`. */
const LABELLED_FIRST = /^([^\s:：]{1,10}[:：]\s*)(?:1[.．、]|[（(]1[）)])\s*(?=\S)/u;
/** The second item's number, in either form. */
const SECOND_ITEM = /^(?:2[.．、]|[（(]2[）)])/u;

/**
 * A notice's attachments (`附件：1. 安全生产责任清单`, then `2. 隐患排查治理台账` set under
 * the `1.`) open their list after a label: the first item's line starts with the label,
 * so no marker starts it, while the second is an item. A text block whose first line is
 * a label, a colon and item 1, right over an item 2 whose marker stands where the `1`
 * does (within 0.6 em), is that list's first item, its marker at the `1`.
 */
function labelledFirstItems(blocks: readonly Block[]): void {
  for (const b of blocks) {
    const first = b.lines[0];
    const m = b.kind === "text" && first ? LABELLED_FIRST.exec(first.text) : null;
    if (!m || !first) continue;
    const markerX = xOfChar(first, m[1]!.length);
    const em = b.fontSize;
    if (markerX === undefined) continue;
    const second = blocks.find((n) => n.kind === "list" && SECOND_ITEM.test(n.text) && n.y0 >= b.y1 - 1 && n.y0 - b.y1 <= 1.5 * em && Math.abs((n.markerX ?? n.x0) - markerX) <= 0.6 * em);
    if (!second) continue;
    b.kind = "list";
    b.markerX = markerX;
    b.textX = xOfChar(first, m[0].length) ?? markerX;
  }
}

/** Where the character at `index` of a line's text starts: its glyph's box, else its share of its run (by `charWeights`). */
function xOfChar(line: Line, index: number): number | undefined {
  let cursor = 0;
  for (const run of line.runs) {
    const at = line.text.indexOf(run.text, cursor);
    if (at < 0) continue;
    if (index < at) return run.x0;
    if (index < at + run.text.length) {
      const k = index - at;
      if (run.chars && run.chars.length === run.text.length) return run.chars[k]!.x0;
      const weights = charWeights([...run.text]);
      const total = weights.reduce((x, y) => x + y, 0) || 1;
      return run.x0 + ((run.x1 - run.x0) * weights.slice(0, k).reduce((x, y) => x + y, 0)) / total;
    }
    cursor = at + run.text.length;
  }
  return undefined;
}

/** An algorithm's step number opening its line: `1: input: A, b`, `12: end for`. */
const STEP = /^(\d{1,3}):\s+\S/;
/** What pseudo-code's steps say: its keywords, an assignment. */
// A step of pseudo-code: it opens with a keyword, or assigns (`←`, `:=`). English steps
// (`1: Check if the cable is in`, a transcript's `1: Q: What…`) hold the same words
// inside sentences, not first.
const PSEUDO_CODE = /^(?:(?:for|while|do|if|else|end|return|repeat|until|input|output|function|procedure)\b|.*(?:\u2190|:=))/i;
/** What only code writes: an assignment arrow, or a block's end (`end for`) or a return. */
const CODE_ONLY = /^(?:(?:end|return)\b|.*(?:\u2190|:=))/i;

/**
 * An algorithm's numbered pseudo-code (LaTeX's `algorithmic` with line numbers, or set in
 * `tabbing`: `1: input: …`, `2: for k = 0, … do`) is a listing: blocks whose every line
 * opens with a step number, the numbers counting up by one from block to block, their
 * lines starting at one place (within 2 pt) and each block within 1.5 em under the last,
 * three steps at least, two of them with pseudo-code's words (`for`, `return`, `←`). Its
 * bold keywords cut it into blocks (`end for` alone reads as a short bold heading) and its
 * math into formulas; it becomes one code block instead, a line a step.
 */
function joinAlgorithms(blocks: Block[]): void {
  const steps = (b: Block): number[] | undefined => {
    if ((b.kind !== "text" && b.kind !== "list") || b.mono || b.lines.length === 0) return undefined;
    const out: number[] = [];
    for (const l of b.lines) {
      const m = STEP.exec(l.text);
      if (!m || (out.length && Number(m[1]) !== out[out.length - 1]! + 1)) return undefined;
      out.push(Number(m[1]));
    }
    return out;
  };
  const numbered = blocks.map((b) => ({ b, n: steps(b) })).filter((c): c is { b: Block; n: number[] } => c.n !== undefined);
  if (numbered.length === 0) return;
  numbered.sort((p, q) => p.b.y0 - q.b.y0);
  const gone = new Set<Block>();
  for (let i = 0; i < numbered.length; ) {
    const run = [numbered[i]!];
    let j = i + 1;
    for (; j < numbered.length; j++) {
      const [last, next] = [run[run.length - 1]!, numbered[j]!];
      const em = Math.max(last.b.fontSize, next.b.fontSize);
      if (Math.abs(next.b.lines[0]!.x0 - run[0]!.b.lines[0]!.x0) > 2 || next.n[0] !== last.n[last.n.length - 1]! + 1 || next.b.y0 - last.b.y1 > 1.5 * em) break;
      run.push(next);
    }
    i = j;
    const lines = run.flatMap((c) => c.b.lines);
    const said = lines.map((l) => l.text.replace(/^\d{1,3}:\s+/, ""));
    if (lines.length < 3 || said.filter((t) => PSEUDO_CODE.test(t)).length < 2 || !said.some((t) => CODE_ONLY.test(t))) continue;
    const into = run[0]!.b;
    for (const c of run.slice(1)) {
      Object.assign(into, { x0: Math.min(into.x0, c.b.x0), y0: Math.min(into.y0, c.b.y0), x1: Math.max(into.x1, c.b.x1), y1: Math.max(into.y1, c.b.y1) });
      gone.add(c.b);
    }
    into.lines = lines;
    into.kind = "code";
    into.bold = lines.every((l) => l.bold);
    into.text = lines.map((l) => l.text).join("\n");
  }
  if (gone.size) {
    const kept = blocks.filter((b) => !gone.has(b));
    blocks.length = 0;
    blocks.push(...kept);
  }
}

/** Spacing accents drawn as glyphs of their own over a letter (`f̄`, `x̂`, `ä`). */
const ACCENTS = /^[\u00af\u02c6\u02dc\u00a8\u00b4`\u02c7\u02d8\u02d9\u02da]$/;
/** A display formula's number: `(3)`, `(2.1)`, `(4a)`; the formula's own full stop may come first (`. (1)`). */
const EQUATION_NUMBER = /^(?:[.,;]\s*)?\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)$/;
/** What sits over a letter inside a formula: the accents, a vector arrow, a tilde or hat. */
const MATH_ACCENTS = /^[\u00af\u02c6\u02dc\u00a8\u00b4`\u02c7\u02d8\u02d9\u02da\u2192\u20d7~^]$/;

/**
 * A display formula set in pieces (limits over and under a sum, the numerator and the
 * denominator of a fraction, indices on rows of their own) leaves line building as
 * several blocks: pieces on one row within 0.8 font sizes of each other (less than a
 * column gutter), or one over the other within 0.6, become one formula. An accent drawn
 * as a glyph of its own, no wider than a letter, first joins the block right under it,
 * its letter's: a formula takes it into its text, prose only into its box (the accent has
 * no place in the words). An equation number out at the column's edge joins the formula
 * on its row.
 */
function joinFormulaPieces(blocks: Block[]): void {
  const glyph = (b: Block, re: RegExp): boolean =>
    (b.kind === "text" || b.kind === "formula") && b.x1 - b.x0 <= b.fontSize && re.test(b.text.trim());
  const grow = (into: Block, b: Block): void => {
    Object.assign(into, { x0: Math.min(into.x0, b.x0), y0: Math.min(into.y0, b.y0), x1: Math.max(into.x1, b.x1), y1: Math.max(into.y1, b.y1) });
  };
  const gone = new Set<Block>();
  for (const a of blocks) {
    if (!glyph(a, MATH_ACCENTS)) continue;
    const mid = (a.x0 + a.x1) / 2;
    let under: Block | undefined;
    for (const b of blocks) {
      if (b === a || gone.has(b) || mid < b.x0 || mid > b.x1 || b.y0 < a.y0 || glyph(b, MATH_ACCENTS)) continue;
      if (b.kind !== "formula" && !(ACCENTS.test(a.text.trim()) && (b.kind === "text" || b.kind === "list" || b.kind === "title"))) continue;
      if (b.y0 - a.y1 <= 0.3 * Math.max(a.fontSize, b.fontSize) && (!under || b.y0 < under.y0)) under = b;
    }
    if (!under) continue;
    if (under.kind === "formula") {
      under.lines = [...under.lines, ...a.lines].sort((p, q) => p.y0 - q.y0 || p.x0 - q.x0);
      finishBlock(under);
    }
    grow(under, a);
    gone.add(a);
  }
  // Equation numbers, `(3)` out at the column's edge (read as list markers so far), join
  // the formula on their row when nothing stands between them.
  const numbered: [Block, Block][] = [];
  for (const n of blocks) {
    if (gone.has(n) || !EQUATION_NUMBER.test(n.text.trim())) continue;
    const row = (b: Block): boolean => Math.min(b.y1, n.y1) - Math.max(b.y0, n.y0) >= 0.5 * Math.min(b.y1 - b.y0, n.y1 - n.y0);
    let formula: Block | undefined;
    for (const b of blocks) if (b.kind === "formula" && !gone.has(b) && b.x1 <= n.x0 && row(b) && (!formula || b.x1 > formula.x1)) formula = b;
    const f = formula;
    if (f && !blocks.some((b) => b !== n && b !== f && !gone.has(b) && b.x0 >= f.x1 && b.x1 <= n.x0 && row(b))) numbered.push([f, n]);
  }
  for (const [formula, n] of numbered) {
    formula.lines = [...formula.lines, ...n.lines].sort((p, q) => p.y0 - q.y0 || p.x0 - q.x0);
    finishBlock(formula);
    grow(formula, n);
    gone.add(n);
  }
  // Formula pieces: union-find over pairs close enough, then one block per group.
  const formulas = blocks.filter((b) => b.kind === "formula" && !gone.has(b));
  const parent = formulas.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < formulas.length; i++) {
    for (let j = i + 1; j < formulas.length; j++) {
      const a = formulas[i]!;
      const b = formulas[j]!;
      const em = Math.max(a.fontSize, b.fontSize);
      const dx = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      const dy = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
      if ((dy <= 0 && dx <= 0.8 * em) || (dx <= 0 && dy <= 0.6 * em)) parent[find(j)] = find(i);
    }
  }
  const grown = new Set<Block>();
  for (let i = 0; i < formulas.length; i++) {
    const into = formulas[find(i)]!;
    if (into === formulas[i]) continue;
    into.lines.push(...formulas[i]!.lines);
    grow(into, formulas[i]!);
    gone.add(formulas[i]!);
    grown.add(into);
  }
  // Pieces beside or under a whole formula that touch none of its pieces alone: the
  // left-hand side (`C =`) level with a tall integral, a limit (`0`) under it.
  for (const f of formulas) {
    if (gone.has(f)) continue;
    for (const b of blocks) {
      if (b === f || gone.has(b) || !(b.kind === "formula" || (b.kind === "text" && b.text.trim().length <= 12 && b.lines.length === 1))) continue;
      const em = Math.max(f.fontSize, b.fontSize);
      const dx = Math.max(f.x0, b.x0) - Math.min(f.x1, b.x1);
      const dy = Math.max(f.y0, b.y0) - Math.min(f.y1, b.y1);
      // Beside it: a formula, or a few characters with a relation in them; under it: a
      // limit or an index, in smaller type.
      const beside = dy < -0.5 * (b.y1 - b.y0) && dx <= 0.8 * em && (b.kind === "formula" || /[=<>+\u2212\u2264\u2265\u2208]/.test(b.text));
      const inside = dx < 0 && dy <= 0.3 * em && b.fontSize <= 0.85 * f.fontSize && b.x0 >= f.x0 - 0.5 * em && b.x1 <= f.x1 + 0.5 * em;
      if (!beside && !inside) continue;
      f.lines.push(...b.lines);
      grow(f, b);
      gone.add(b);
      grown.add(f);
    }
  }
  for (const b of grown) {
    b.lines.sort((p, q) => p.y0 - q.y0 || p.x0 - q.x0);
    finishBlock(b);
  }
  if (gone.size) {
    const kept = blocks.filter((b) => !gone.has(b));
    blocks.length = 0;
    blocks.push(...kept);
  }
}

/**
 * Per-character boxes of a block, in the block's text order. Characters the layout
 * inserted (spaces between runs) get the box of the gap; characters a repair removed
 * (end-of-line hyphens) are skipped, so `chars[i]` is `text[i]` where possible.
 */
export function blockChars(b: Block): BlockChar[] {
  const out: BlockChar[] = [];
  const text = b.text;
  let cursor = 0;
  let prev: { x1: number; y0: number; y1: number } | undefined;
  b.lines.forEach((line, li) => {
    line.runs.forEach((run, ri) => {
      let at = text.indexOf(run.text, cursor);
      // A line-end hyphen the block's text repaired away (`ser-` + `vice` → `service`,
      // `finishBlock`): the run stands there without it. Looked for whole, the run is not
      // found (or found at a later repeat of its words), and every box after it would
      // belong to the wrong character.
      let cut = 0;
      if (ri === line.runs.length - 1 && li < b.lines.length - 1 && run.text.endsWith("-")) {
        const stem = run.text.slice(0, -1);
        const s = stem ? text.indexOf(stem, cursor) : cursor;
        if (s >= 0 && s !== at && text[s + stem.length] !== "-") {
          at = s;
          cut = 1;
        }
      }
      if (at >= 0) {
        // The space joining two lines has no place on the page: it gets no width, at the
        // end of the line it follows. A box from there to the next line's start would
        // span the whole next line, and every region or highlight taking it in with it.
        const before = ri === 0 && li > 0 ? prev : undefined;
        for (let i = cursor; i < at; i++) {
          const ch = text[i]!;
          if (before) {
            out.push({ text: ch, x0: before.x1, x1: before.x1, y0: before.y0, y1: before.y1, confidence: 1 });
            continue;
          }
          const across = gapAcross(out[out.length - 1], run);
          if (across) {
            out.push({ text: ch, ...across, confidence: 1 });
            continue;
          }
          const x0 = prev ? prev.x1 : run.x0;
          out.push({ text: ch, x0: Math.min(x0, run.x0), x1: Math.max(x0, run.x0), y0: run.y0, y1: run.y1, confidence: 1 });
        }
        cursor = at + run.text.length - cut;
      }
      const drop = <T extends { text: string }>(list: readonly T[]): readonly T[] => (cut && list.at(-1)?.text === "-" ? list.slice(0, -1) : list);
      if (run.ocrChars) {
        for (const c of drop(run.ocrChars)) out.push({ text: c.text, ...c.box, confidence: c.confidence, candidates: c.candidates });
      } else if (run.chars) {
        for (const c of drop(run.chars)) out.push({ text: c.text, x0: c.x0, x1: c.x1, y0: c.y0 ?? run.y0, y1: c.y1 ?? run.y1, confidence: 1 });
      }
      prev = run;
    });
  });
  return out;
}

/**
 * The box of a space between two runs of a line set one glyph above another (a sideways
 * running head on a page laid out upright): from the last glyph's end to the
 * next run's first glyph, down or up the column, as wide as the column. Undefined for a
 * level line, whose spaces run along x.
 */
function gapAcross(last: BlockChar | undefined, run: TextRun): Rect | undefined {
  const first = run.chars?.[0];
  if (!last || horizontal(run) || first?.y0 === undefined || first.y1 === undefined) return undefined;
  const [y0, y1] = last.y1 <= first.y0 ? [last.y1, first.y0] : first.y1 <= last.y0 ? [first.y1, last.y0] : [last.y1, last.y1];
  return { x0: Math.min(run.x0, last.x0), x1: Math.max(run.x1, last.x1), y0, y1 };
}

/** Inline formulas: maximal stretches of math-font runs inside a prose block. */
export function inlineFormulas(b: Block): InlineSpan[] {
  const out: InlineSpan[] = [];
  const text = b.text;
  let cursor = 0;
  let cur: InlineSpan | undefined;
  for (const line of b.lines) {
    for (const run of line.runs) {
      const at = text.indexOf(run.text, cursor);
      if (at < 0) continue;
      cursor = at + run.text.length;
      if (run.math) {
        if (cur && at - cur.end <= 1) {
          cur.end = cursor;
          cur.text = text.slice(cur.start, cur.end);
          cur.x1 = Math.max(cur.x1, run.x1);
          cur.y0 = Math.min(cur.y0, run.y0);
          cur.y1 = Math.max(cur.y1, run.y1);
        } else {
          if (cur) out.push(cur);
          cur = { type: "formula", text: run.text, start: at, end: cursor, x0: run.x0, y0: run.y0, x1: run.x1, y1: run.y1 };
        }
      } else if (cur) {
        out.push(cur);
        cur = undefined;
      }
    }
  }
  if (cur) out.push(cur);
  // Math fonts also draw bullets, © and the like: keep spans that look like math.
  return out.filter((o) => MATHY.test(o.text) && !(o.start === 0 && b.kind === "list" && o.text.length <= 2));
}

const MATHY = /[\p{L}\p{N}=+<>\u2190-\u21ff\u2200-\u22ff^_]/u;
