/**
 * Continuations across page and column breaks: text that goes on from a sentence left
 * open, a table or code listing cut at the page foot, and the notes that say so
 * (`Continued on next page`, `continued from page 1`).
 */
import { countDirection, hasRtl, rtlWins } from "./bidi.js";
import { bodySize } from "./body-size.js";
import { monoCharWidth } from "./listings.js";
import { blockChars, FIGURE_CAPTION, TABLE_CAPTION } from "./classify.js";
import type { LaidElement, PageLayout } from "./document.js";
import { FIGURE, isCjk, type Block, type BlockKind, type GridTable } from "./types.js";

// Devanagari's danda and double danda (Hindi, Marathi, Nepali, Sanskrit; Bengali uses them
// too), the Ethiopic, Khmer and Myanmar full stops end sentences as well.
const TERMINAL = /[.!?。！？:：;；؟؛۔"”’)）\]\u0964\u0965\u1362\u17d4\u104b]$/;

const flowKinds = new Set<BlockKind>(["text", "list", "title", "table", "code", "formula", "image", "figure-caption", "table-caption"]);

/** An e-mail address, a web address or a handle opening a block. */
const ADDRESS = /^(?:[\w.+-]+@[\w-]+\.[\w.-]+|(?:https?:\/\/|www\.)\S+|[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|edu|gov|co|uk|de|fr)\/\S*|@\w+)(?:\s|$)/i;

/** Whether `b` reads as the rest of a sentence that `a` left open. */
function continuesText(a: Block, b: Block): boolean {
  if ((a.kind !== "text" && a.kind !== "list") || b.kind !== "text") return false;
  const end = a.text.trimEnd();
  const start = b.text.trimStart();
  if (!end || !start || TERMINAL.test(end)) return false;
  const first = start[0]!;
  // A note numbered in lower-case roman (`iv See the log book`) starts afresh, and so does
  // an address (a CV's or a letterhead's contact lines: `jane@example.org`, `github.com/jd`).
  if (/^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})\s+\p{Lu}/u.test(start) || ADDRESS.test(start)) return false;
  // Scripts without case (CJK, Hebrew, Arabic, Indic, Thai, Ethiopic: letters of
  // category Lo): an open sentence is enough.
  // A word broken at its hyphen goes on in anything but a block all in capitals (a
  // running head not found as such: `CHAPTER 1. PUMPS`; `non-` + `EU citizens` goes on).
  return /[\p{Ll}\p{Lo}]/u.test(first) || isCjk(first) || hasRtl(first) || /[,，、،]$/.test(end) || (end.endsWith("-") && /\p{Ll}/u.test(start));
}

/**
 * Whether `b` starts a new column after `a`: above where `a` ends, and to its right (to
 * its left when `a` reads right to left). A paragraph filling a whole column starts as
 * high as the next column does.
 */
function nextColumn(a: Block, b: Block): boolean {
  if (b.y0 >= a.y1 - a.fontSize) return false;
  if (b.x0 >= a.x1 - 2) return true;
  return b.x1 <= a.x0 + 2 && hasRtl(a.text) && rtlWins(countDirection(a.text));
}

/** A caption that says a table goes on: `Table 2 (continued)`, `Tabelle 2 (Fortsetzung)`. */
const CONTINUED = /continu|cont\.|fortsetzung|suite|segue|vervolg/i;

/** Whether a caption of its own (not a "continued" one) comes before a table on its page: a new table. */
function captionedAnew(p: PageLayout, table: Block): boolean {
  for (const b of p.blocks) {
    if (b === table) return false;
    if (b.kind === "table-caption" && !CONTINUED.test(b.text)) return true;
  }
  return false;
}

/** A table's row as text, to tell a repeated header. */
const rowText = (t: GridTable, row: number): string =>
  t.cells
    .filter((c) => c.row === row)
    .map((c) => c.text.trim())
    .join("\t");

/** A table's first three rows as text: where a header repeated overleaf may stand. */
const headRows = (t: GridTable): string[] => [1, 2, 3].filter((r) => r <= t.rows).map((r) => rowText(t, r));

/** A table's row by column, empty cells left out. */
const rowCells = (t: GridTable, row: number): Map<number, string> => new Map(t.cells.filter((c) => c.row === row && c.text.trim() !== "").map((c) => [c.col, c.text.trim()]));

/**
 * Whether table `b`, opening the page after table `a`, is another table: it starts with
 * a header of its own — row 1 without a figure where row 2 has one, unlike any of `a`'s
 * first three rows — and its columns stand elsewhere (a boundary between two of them
 * more than an em off `a`'s). A table's rest, its header repeated or not, has `a`'s columns.
 */
function headedAnew(a: Block, b: Block): boolean {
  const [ta, tb] = [a.table!, b.table!];
  if (tb.rows < 2 || headRows(ta).includes(rowText(tb, 1))) return false;
  const [first, second] = [rowCells(tb, 1), rowCells(tb, 2)];
  if (![...second].some(([col, text]) => FIGURE.test(text) && first.has(col) && !FIGURE.test(first.get(col)!))) return false;
  if ([...first.values()].some((text) => FIGURE.test(text))) return false;
  const em = b.cellSize ?? a.cellSize ?? 10;
  const ba = boundaries(ta);
  const bb = boundaries(tb);
  return ba.length === bb.length && ba.some((x, k) => Math.abs(x - bb[k]!) > em);
}

/** Where each column of `t` meets the next: halfway between their unspanned cells. */
function boundaries(t: GridTable): number[] {
  const out: number[] = [];
  for (let col = 1; col < t.cols; col++) {
    const left = t.cells.filter((c) => c.col === col && c.colSpan === 1);
    const right = t.cells.filter((c) => c.col === col + 1 && c.colSpan === 1);
    if (!left.length || !right.length) return [];
    out.push((Math.max(...left.map((c) => c.x1)) + Math.min(...right.map((c) => c.x0))) / 2);
  }
  return out;
}

/**
 * Sets `continuationOf` on each block that goes on from another across a page or column
 * break; a table going on without its header repeated starts with a body row.
 */
export function markContinuations(pages: readonly PageLayout[], out: LaidElement[], indexOf: Map<Block, number>): void {
  const body = bodySize(pages);
  // Blocks some later block already goes on from (at a column break).
  const continued = new Set<Block>();
  let tails: Block[] = [];
  let prevPage: PageLayout | undefined;
  for (const p of pages) {
    const flow = p.blocks.filter((b) => flowKinds.has(b.kind) && !FIGURE_CAPTION.test(b.text) && !TABLE_CAPTION.test(b.text));
    // Floats set at the top of the page (a full-width figure, a captioned table) and
    // margin notes come before the text that goes on from the last page.
    const first = flow.find((b) => !(b.note || CAME_FROM.test(b.text.trim()) || b.kind === "image" || b.kind === "figure-caption" || b.kind === "table-caption" || (b.kind === "table" && captionedAnew(p, b))));
    if (prevPage && first) {
      for (const prevLast of tails) {
        // A table goes on from one reaching the page's foot or saying it goes on (not from
        // another sheet's table, ending higher up, set like it).
        const tableGoesOn =
          prevLast.kind === "table" &&
          first.kind === "table" &&
          (prevLast.y1 >= 0.75 * prevPage.height || prevPage.blocks.some((b) => b.y0 >= prevLast.y1 && GOES_ON.test(b.text.trim()))) &&
          !captionedAnew(p, first) &&
          prevLast.table?.cols === first.table?.cols &&
          Math.abs(prevLast.x0 - first.x0) < 0.05 * p.width &&
          !headedAnew(prevLast, first);
        // A listing cut at the page foot goes on at the next page's head, at its place.
        const codeGoesOn = prevLast.kind === "code" && first.kind === "code" && prevLast.y1 >= 0.75 * prevPage.height && first.y0 <= 0.25 * p.height && listingGoesOn(prevLast, first);
        if (!tableGoesOn && !codeGoesOn && !continuesText(prevLast, first)) continue;
        out[indexOf.get(first)!]!.continuationOf = indexOf.get(prevLast)!;
        if (codeGoesOn) indentAsBefore(prevLast, first);
        // A table going on without its header repeated starts with a body row. The header
        // may be the table's second or third row, under a title set in its grid.
        if (tableGoesOn && !headRows(prevLast.table!).includes(rowText(first.table!, 1))) first.table!.headerRows = 0;
        break;
      }
    }
    // Column breaks: the next block starts higher up, in the next column (past the
    // column's footnotes: type smaller than the body's at its foot).
    const footnote = (b: Block): boolean => (b.kind === "text" || b.kind === "list") && body > 0 && b.fontSize <= 0.9 * body && b.y0 >= 0.5 * p.height;
    for (let i = 0; i + 1 < flow.length; i++) {
      const a = flow[i]!;
      let j = i + 1;
      while (j + 1 < flow.length && footnote(flow[j]!) && !footnote(a)) j++;
      const b = flow[j]!;
      if (nextColumn(a, b) && continuesText(a, b)) {
        out[indexOf.get(b)!]!.continuationOf = indexOf.get(a)!;
        continued.add(a);
      }
    }
    if (flow.length) {
      tails = pageTails(p, flow, body, continued);
      prevPage = p;
    }
  }
}

/**
 * How far right of a listing's left edge its rest may start on the next page, in font
 * sizes: a page break inside a function leaves the rest indented (4 spaces are 2.4 em, a
 * method's body twice that).
 */
const LISTING_INDENT_EM = 12;

/**
 * Whether listing `b`, opening a page, starts where listing `a` ended the last one could
 * go on: from 2 em left of `a`'s edge (a printed text file's paragraph, its first line
 * indented, ends the page) to {@link LISTING_INDENT_EM} right of it, or where one of
 * `a`'s lines starts.
 */
function listingGoesOn(a: Block, b: Block): boolean {
  const em = b.fontSize;
  if (b.x0 > a.x0 - 2 * em && b.x0 <= a.x0 + LISTING_INDENT_EM * em) return true;
  return a.lines.some((l) => Math.abs(l.x0 - b.x0) < 0.5 * em);
}

/**
 * Indents the rest of a listing `b` by where it stands right of its start `a` on the
 * page before: the page break fell inside a function, so `b`'s least indented line is
 * still in it (its own lines were indented against `b`'s edge). Character boxes follow
 * the text.
 */
function indentAsBefore(a: Block, b: Block): void {
  const cw = monoCharWidth(a.lines, a.fontSize);
  const n = Math.min(40, Math.round((b.x0 - a.x0) / cw));
  if (n <= 0) return;
  const pad = " ".repeat(n);
  b.text = b.text
    .split("\n")
    .map((t) => (t ? pad + t : t))
    .join("\n");
  if (b.chars) b.chars = blockChars(b);
}

/** A note that a table or text goes on overleaf: `Continued on next page`, `(continued)`. */
export const GOES_ON = /^\(?(?:continued(?: on (?:the )?next page| on page \d{1,4})?|continued overleaf|cont(?:inued|'d|\.)(?: on p(?:age|\.)? ?\d{1,4})?|(?:see|turn to) page \d{1,4}|suite au verso|fortsetzung (?:auf der )?n[aä]chste[nr]? seite)\)?[.…]*$/i;

/** A jump line opening the rest of an article: `Bridge, continued from page 1`, `From page 1`. */
export const CAME_FROM = /^(?:.{0,60}?,?\s*)?(?:continued|cont(?:inued|'d|\.)) from (?:p(?:age|\.)? ?)?\d{1,4}[.…]*$|^from page \d{1,4}[.…]*$/i;

/**
 * The blocks a page's text may go on from, most likely first: the last in reading order
 * once footnotes (type smaller than the body's), a `Continued on next page` note, margin
 * notes and floats at the page foot are set aside; the text before a captioned table ending the
 * page (a bottom float); then the lowest block of text, a table or a listing, when that is
 * another (the main column's paragraph or table, read before a sidebar ending higher up)
 * and no column break already goes on from it.
 */
function pageTails(p: PageLayout, flow: readonly Block[], body: number, continued: ReadonlySet<Block>): Block[] {
  let i = flow.length - 1;
  const aside = (b: Block): boolean =>
    b.note === true || b.kind === "image" || b.kind === "figure-caption" || b.kind === "table-caption" || GOES_ON.test(b.text.trim()) || ((b.kind === "text" || b.kind === "list") && body > 0 && b.fontSize <= 0.9 * body && b.y0 >= 0.5 * p.height);
  while (i > 0 && aside(flow[i]!)) i--;
  const tail = flow[i]!;
  const text = (b: Block): boolean => (b.kind === "text" || b.kind === "list") && !aside(b) && !continued.has(b);
  const tails = [tail];
  // A captioned table at the page foot is a float (LaTeX sets bottom floats under the
  // footnotes): the text read before it may go on overleaf as well as the table.
  if (tail.kind === "table" && captionedAnew(p, tail)) {
    let j = i - 1;
    while (j >= 0 && !text(flow[j]!)) j--;
    if (j >= 0) tails.push(flow[j]!);
  }
  // (A table or a listing too: a docs page's table read before its "On this page" list.)
  const goesOn = (b: Block): boolean => text(b) || ((b.kind === "table" || b.kind === "code") && !continued.has(b));
  let lowest: Block | undefined;
  for (const b of flow) if (goesOn(b) && (!lowest || b.y1 > lowest.y1)) lowest = b;
  if (lowest && !tails.includes(lowest) && lowest.y1 > tail.y1) tails.push(lowest);
  return tails;
}
