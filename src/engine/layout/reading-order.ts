import { countDirection, hasRtl, rtlWins, type DirectionVotes } from "./bidi.js";
import { firstFromTop, type Rect } from "./types.js";

/** Tuning for {@link readingOrder}. */
export interface ReadingOrderOptions {
  /** Narrowest whitespace gutter that separates columns, in page units. @default 3 */
  minGutter?: number;
  /**
   * Which way columns (and boxes side by side) are read. `"auto"` reads them right to
   * left when the items carry a `text` whose letters are mostly right-to-left (the
   * direction rule of `bidi.ts`, over the whole region), left to right otherwise.
   * @default "auto"
   */
  direction?: "ltr" | "rtl" | "auto";
  /**
   * Boxes the page draws (panels, cards, framed notes). The items wholly inside one, two
   * at least, are read together as one box (nested frames inside it likewise), and a row
   * of such boxes side by side is read on its own, left to right.
   * @default []
   */
  frames?: readonly Rect[];
}

interface Gap {
  from: number;
  to: number;
}

/** Whitespace gaps in the projection of items on one axis. */
function gaps<T extends Rect>(items: readonly T[], axis: "x" | "y", min: number): Gap[] {
  const lo = axis === "x" ? (r: Rect) => r.x0 : (r: Rect) => r.y0;
  const hi = axis === "x" ? (r: Rect) => r.x1 : (r: Rect) => r.y1;
  const sorted = [...items].sort((a, b) => lo(a) - lo(b));
  const out: Gap[] = [];
  let reach = -Infinity;
  for (const r of sorted) {
    if (reach !== -Infinity && lo(r) - reach > min) out.push({ from: reach, to: lo(r) });
    if (hi(r) > reach) reach = hi(r);
  }
  return out;
}

/** Splits items at the given gaps on one axis (items are wholly on one side of each gap). */
function splitAt<T extends Rect>(items: readonly T[], cuts: readonly Gap[], axis: "x" | "y"): T[][] {
  const groups: T[][] = cuts.map(() => []);
  groups.push([]);
  for (const r of items) {
    const c = axis === "x" ? (r.x0 + r.x1) / 2 : (r.y0 + r.y1) / 2;
    let i = 0;
    while (i < cuts.length && c > cuts[i]!.from) i++;
    groups[i]!.push(r);
  }
  return groups.filter((g) => g.length > 0);
}

/**
 * Orders boxes for reading: a recursive XY-cut. Columns (vertical whitespace gutters
 * crossing the whole region) are read left to right; otherwise the region is cut into
 * horizontal bands, and neighbouring bands that share a gutter are merged first, so
 * two columns whose paragraph breaks happen to line up are still read column by column
 * while a full-width title or figure between them still splits the page. On a
 * right-to-left page columns are read right to left, and boxes on one row from the
 * right. The boxes inside a drawn frame are cut as one box and ordered on their own.
 */
export function readingOrder<T extends Rect>(items: readonly T[], options: ReadingOrderOptions = {}): T[] {
  const { minGutter = 3, direction = "auto", frames = [] } = options;
  const rtl = direction === "rtl" || (direction === "auto" && mostlyRtl(items));
  const byRow = rtl ? (a: Rect, b: Rect) => a.y0 - b.y0 || b.x1 - a.x1 : (a: Rect, b: Rect) => a.y0 - b.y0 || a.x0 - b.x0;
  const columns = <U>(groups: U[][]): U[][] => (rtl ? groups.reverse() : groups);
  const out: T[] = [];
  const emit = (boxes: readonly (T | Panel<T>)[]): void => {
    for (const b of boxes) {
      if (b instanceof Panel) out.push(...readingOrder(b.members, { minGutter, direction: rtl ? "rtl" : "ltr", frames: b.frames }));
      else out.push(b);
    }
  };
  const visit = (region: readonly (T | Panel<T>)[], depth: number): void => {
    if (region.length <= 1 || depth > 40) {
      emit([...region].sort(byRow));
      return;
    }
    // Columns sit side by side somewhere. Boxes that only alternate down the page on
    // either side of a gutter (a right-to-left list nesting a left-to-right one, a date
    // set right under a paragraph set left) are read top to bottom instead. Each gutter
    // is judged on its own: a margin note that never shares a row with its neighbour
    // must not undo the page's real columns (its side is cut again one level down).
    const cols = columnBreaks(region, gaps(region, "x", minGutter));
    if (cols.length > 0) {
      cutColumns(region, cols, depth);
      return;
    }
    const bands = splitAt(region, gaps(region, "y", 0), "y");
    if (bands.length === 1) {
      emit([...region].sort(byRow));
      return;
    }
    // Merge runs of bands whose column gutters overlap. Bands with no gutter of their own
    // (one paragraph, one bullet) that keep to one side of the run's gutters join it when
    // a band with the gutter follows them: the left column's paragraphs between a table's
    // rows are still the left column, while a salutation under a letter's two-column head
    // is read after it. Held bands that no gutter band follows still join the run when
    // they carry one of its columns on at that column's width (`columnTail`).
    const groups: (T | Panel<T>)[][] = [];
    let prevGutters: Gap[] = [];
    let held: (T | Panel<T>)[][] = [];
    let heldGutters: Gap[] = [];
    const release = (): void => {
      // Held bands that run on one column at its width (the left column of a page going
      // on under a shorter right one) are that column's tail; what follows them is not.
      const last = groups[groups.length - 1];
      const tail = last ? columnTail(last, prevGutters, held, minGutter) : 0;
      if (tail > 0) last!.push(...held.slice(0, tail).flat());
      const rest = held.slice(tail).flat();
      if (rest.length) groups.push(rest);
      held = [];
    };
    for (const band of bands) {
      const gutters = gaps(band, "x", minGutter);
      // A row of framed panels side by side (a bill's summary box beside its help box) is
      // read on its own: its gutter runs between panels, it carries no column of the bands
      // around it on (a letterhead's logo and account block above share that gutter).
      if (gutters.length > 0 && band.every((r) => r instanceof Panel)) {
        release();
        groups.push([...band]);
        prevGutters = [];
        continue;
      }
      const last = groups[groups.length - 1];
      if (last && prevGutters.length > 0 && gutters.length > 0 && shareGutter(held.length ? heldGutters : prevGutters, gutters)) {
        last.push(...held.flat(), ...band);
        prevGutters = intersect(held.length ? heldGutters : prevGutters, gutters);
        held = [];
        continue;
      }
      const oneSided = last && prevGutters.length > 0 && gutters.length === 0 ? narrowBy(held.length ? heldGutters : prevGutters, band, minGutter) : undefined;
      if (oneSided) {
        held.push(band);
        heldGutters = oneSided;
        continue;
      }
      release();
      groups.push([...band]);
      prevGutters = gutters;
    }
    release();
    if (groups.length === 1 && groups[0]!.length === region.length && bands.length > 1) {
      // Everything merged into one columnar group: its gutter intersection is a real cut.
      const cuts = columnBreaks(region, gaps(region, "x", 0));
      if (cuts.length === 0) {
        emit([...region].sort(byRow));
        return;
      }
      cutColumns(region, cuts, depth);
      return;
    }
    for (const g of groups) visit(g, depth + 1);
  };
  // Columns are read one after the other, but a label column (a CV's dates, a field
  // list's names) on the side read first is read band by band: each label, then what
  // stands beside it down to the next label.
  const cutColumns = (region: readonly (T | Panel<T>)[], cuts: readonly Gap[], depth: number): void => {
    const sides = columns(splitAt(region, cuts, "x"));
    const labels = sides.length > 1 ? labelColumn(sides[0]!, sides[1]!) : undefined;
    if (!labels) {
      for (const g of sides) visit(g, depth + 1);
      return;
    }
    if (sides.length > 2) {
      // Other columns beside the entries (a CV's sidebar) are cut off first.
      visit([...sides[0]!, ...sides[1]!], depth + 1);
      for (const g of sides.slice(2)) visit(g, depth + 1);
      return;
    }
    for (const band of labelBands(sides[0]!, sides[1]!, labels)) {
      emit([...band.labels].sort(byRow));
      visit(band.entries, depth + 1);
    }
  };
  visit(frames.length ? panels(items, frames) : items, 0);
  return out;
}

/**
 * The items inside one drawn frame, cut as one box (the frame's): a boxed summary is not
 * split around the sidebar beside it. `frames` are the frames nested inside it, for
 * ordering its members.
 */
class Panel<T extends Rect> implements Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  constructor(
    frame: Rect,
    readonly members: T[],
    readonly frames: Rect[] = [],
  ) {
    ({ x0: this.x0, y0: this.y0, x1: this.x1, y1: this.y1 } = frame);
  }
}

/** How far (page units) a box may stand over its frame's edge and still be inside it. */
const FRAME_SLACK = 2;

/**
 * `items` with those inside drawn frames gathered into {@link Panel}s. A frame counts
 * when it holds two items at least and not all of them (a page border says nothing);
 * frames are taken largest first, one inside a taken frame goes with it (ordered when
 * its panel is), and one sharing items with a taken frame it does not sit in is
 * ignored. Items are found by their top edge in a sorted list, so each frame costs a
 * search and the items level with it.
 */
function panels<T extends Rect>(items: readonly T[], frames: readonly Rect[]): (T | Panel<T>)[] {
  const byTop = [...items].sort((a, b) => a.y0 - b.y0);
  const inside = (f: Rect): T[] => {
    const found: T[] = [];
    for (let i = firstFromTop(byTop, f.y0 - FRAME_SLACK); i < byTop.length && byTop[i]!.y0 <= f.y1; i++) if (within(byTop[i]!, f)) found.push(byTop[i]!);
    return found;
  };
  const holding = frames
    .map((frame) => ({ frame, members: inside(frame) }))
    .filter((h) => h.members.length >= 2 && h.members.length < items.length)
    .sort((a, b) => area(b.frame) - area(a.frame));
  if (holding.length === 0) return [...items];
  const owner = new Map<T, Panel<T>>();
  for (const { frame, members } of holding) {
    const taken = owner.get(members[0]!);
    if (!taken && members.every((m) => !owner.has(m))) {
      const panel = new Panel(frame, members);
      for (const m of members) owner.set(m, panel);
    } else if (taken && within(frame, taken) && members.every((m) => owner.get(m) === taken)) taken.frames.push(frame);
  }
  const out: (T | Panel<T>)[] = items.filter((r) => !owner.has(r));
  out.push(...new Set(owner.values()));
  return out;
}

const within = (r: Rect, f: Rect): boolean => r.x0 >= f.x0 - FRAME_SLACK && r.x1 <= f.x1 + FRAME_SLACK && r.y0 >= f.y0 - FRAME_SLACK && r.y1 <= f.y1 + FRAME_SLACK;
const area = (r: Rect): number => (r.x1 - r.x0) * (r.y1 - r.y0);

/**
 * How many of `bands` (held under `group`, each on one side of its `gutters`) continue
 * one of the group's columns: the longest run of bands on a single side, within that
 * side's extent, that together fill at least 80 % of its width (a heading in the column
 * rides along with the paragraphs under it) and are as tall as the tallest box of that
 * side in the group, or are items of the side's list (two at least) at their place. 0
 * when they do not: a salutation under a letter's two-column head, a heading under two
 * columns, a page number in the gutter.
 */
function columnTail(group: readonly Rect[], gutters: readonly Gap[], bands: readonly (readonly Rect[])[], min: number): number {
  if (gutters.length === 0 || bands.length === 0) return 0;
  const sideOf = (r: Rect): number => {
    const c = (r.x0 + r.x1) / 2;
    let i = 0;
    while (i < gutters.length && c > gutters[i]!.from) i++;
    return i;
  };
  const extents = new Map<number, { x0: number; x1: number }>();
  for (const r of group) {
    const i = sideOf(r);
    const e = extents.get(i);
    if (!e) extents.set(i, { x0: r.x0, x1: r.x1 });
    else [e.x0, e.x1] = [Math.min(e.x0, r.x0), Math.max(e.x1, r.x1)];
  }
  const side = sideOf(bands[0]![0]!);
  const extent = extents.get(side);
  if (!extent) return 0;
  const tol = Math.max(min, 0.03 * (extent.x1 - extent.x0));
  let n = 0;
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const band of bands) {
    if (!band.every((r) => sideOf(r) === side && r.x0 >= extent.x0 - tol && r.x1 <= extent.x1 + tol)) break;
    for (const r of band) [x0, x1, y0, y1] = [Math.min(x0, r.x0), Math.max(x1, r.x1), Math.min(y0, r.y0), Math.max(y1, r.y1)];
    n++;
  }
  // A column's tail is a column's worth: as tall as the tallest box of that side above it
  // (a salutation under an address is one line). Or the side's list going on: items at
  // its items' place, however short (a slide's bullets beside a table or a picture).
  const own = group.filter((r) => sideOf(r) === side);
  const tallest = Math.max(...own.map((r) => r.y1 - r.y0));
  const whole = n > 0 && x1 - x0 >= 0.8 * (extent.x1 - extent.x0) && y1 - y0 >= tallest ? n : 0;
  const items = own.filter(isItem);
  if (items.length < 2) return whole;
  const at = Math.min(...items.map((r) => r.x0));
  let listed = 0;
  while (listed < bands.length && bands[listed]!.every((r) => isItem(r) && sideOf(r) === side && Math.abs(r.x0 - at) <= tol)) listed++;
  return Math.max(whole, listed);
}

/** Whether a box is a list item (reading order also sorts plain boxes, which have no kind). */
const isItem = (r: Rect): boolean => (r as { kind?: unknown }).kind === "list";

/** Whether the items' texts (those that have one) are mostly right to left; one regex test per item when none is. */
function mostlyRtl(items: readonly Rect[]): boolean {
  const texts: string[] = [];
  for (const it of items) {
    const text = (it as { text?: unknown }).text;
    if (typeof text === "string") texts.push(text);
  }
  if (!texts.some(hasRtl)) return false;
  const votes: DirectionVotes = { rtl: 0, ltr: 0 };
  for (const t of texts) countDirection(t, votes);
  return rtlWins(votes);
}

/**
 * The gutters among `cuts` (gaps of `region`) whose two sides share a row somewhere,
 * more than one row: a side that is only the end of one row of the other's (a form's
 * last options reaching past the rest of the page) is no column.
 */
function columnBreaks<T extends Rect>(region: readonly T[], cuts: readonly Gap[]): Gap[] {
  const sides = splitAt(region, cuts, "x");
  return cuts.filter((_, i) => {
    const [a, b] = [sides[i] ?? [], sides[i + 1] ?? []];
    return sideBySide(a, b) && !rowEnd(a, b) && !rowEnd(b, a);
  });
}

/**
 * Whether `side` is only the end of one row of `other`: its boxes, each one line or one
 * framed panel, share one stretch of the vertical axis, such a box of `other` stands
 * level with them (overlapping 70 % of the taller), and `other` goes on above or below
 * that row. Read as a column, a form's row `Business type: [ ] Sole trader [X] Limited
 * company` whose last option reaches past every other line came after the whole form,
 * and the last of a row of cards after what is set under the others; when `other` is no
 * more than that row, cutting reads it left to right anyway.
 */
function rowEnd(side: readonly Rect[], other: readonly Rect[]): boolean {
  // The side's extent (y0..y1) and the stretch all its boxes share (top..bottom).
  let [y0, y1, top, bottom] = [Infinity, -Infinity, -Infinity, Infinity];
  for (const r of side) {
    if (!inRow(r)) return false;
    [y0, y1, top, bottom] = [Math.min(y0, r.y0), Math.max(y1, r.y1), Math.max(top, r.y0), Math.min(bottom, r.y1)];
  }
  if (top >= bottom) return false;
  const level = other.some((q) => inRow(q) && Math.min(q.y1, y1) - Math.max(q.y0, y0) >= 0.7 * Math.max(q.y1 - q.y0, y1 - y0));
  return level && other.some((q) => q.y1 <= y0 || q.y0 >= y1);
}

/**
 * Whether a box can be one of a row's boxes: a framed panel, or a box of one line (blocks
 * carry their lines; plain boxes count as one). A paragraph beside a sidebar is no row.
 */
const inRow = (r: Rect): boolean => {
  if (r instanceof Panel) return true;
  const lines = (r as { lines?: unknown }).lines;
  return !Array.isArray(lines) || lines.length <= 1;
};

/** Whether some box of `a` and some box of `b` share a stretch of the vertical axis. */
function sideBySide(a: readonly Rect[], b: readonly Rect[]): boolean {
  return a.some((r) => b.some((q) => Math.min(r.y1, q.y1) - Math.max(r.y0, q.y0) > 0));
}

/**
 * The gutters still open once `band` is placed, when its boxes keep to one side of each
 * (reaching into a gutter narrows it); undefined when a box spans one from side to side
 * or leaves it no wider than `min` (a page number centred between two columns).
 */
function narrowBy(gutters: readonly Gap[], band: readonly Rect[], min: number): Gap[] | undefined {
  const out: Gap[] = [];
  for (const g of gutters) {
    let { from, to } = g;
    for (const b of band) {
      if (b.x1 <= from || b.x0 >= to) continue;
      if (b.x0 < from && b.x1 >= to) return undefined;
      if ((b.x0 + b.x1) / 2 < (from + to) / 2) from = Math.max(from, b.x1);
      else to = Math.min(to, b.x0);
    }
    if (to - from <= min) return undefined;
    out.push({ from, to });
  }
  return out;
}

function shareGutter(a: readonly Gap[], b: readonly Gap[]): boolean {
  return a.some((g) => b.some((h) => Math.min(g.to, h.to) - Math.max(g.from, h.from) > 0));
}

function intersect(a: readonly Gap[], b: readonly Gap[]): Gap[] {
  const out: Gap[] = [];
  for (const g of a) {
    for (const h of b) {
      const from = Math.max(g.from, h.from);
      const to = Math.min(g.to, h.to);
      if (to > from) out.push({ from, to });
    }
  }
  return out;
}

/** Up to five words a line for a label (`2018 – 2021`, `Parameters:`, `Spoken`). */
const LABEL_WORDS = 5;

/**
 * The labels of `side` (read before `other`), each with the top its band starts at, when
 * `side` is a label column: a CV's dates beside its entries, a field list's names beside
 * their values, a key column (`Languages`, `Tools`) beside what it names. Two labels at
 * least, each of short lines (up to five words, 48 characters), not a margin note, its
 * top level (within 0.3 em) with the top of a box of `other` and its later lines level
 * with that box's lines; anything else on the side shares no row with `other` (a
 * section heading between the entries); and the side no wider than half of `other`
 * (two columns of a page are as wide as each other). Read as a column,
 * every date came before every job, and the section headings set in the dates' column
 * before the entries of the section above.
 */
function labelColumn(side: readonly Rect[], other: readonly Rect[]): Map<Rect, number> | undefined {
  if (side.length < 2 || extentWidth(side) * 2 > extentWidth(other)) return undefined;
  const byTop = [...other].sort((a, b) => a.y0 - b.y0);
  const labels = new Map<Rect, number>();
  for (const r of side) {
    const partner = labelled(r, byTop);
    if (partner) labels.set(r, Math.min(r.y0, partner.y0));
    else if (other.some((q) => Math.min(r.y1, q.y1) - Math.max(r.y0, q.y0) > 0)) return undefined;
  }
  return labels.size >= 2 ? labels : undefined;
}

/** The box of `byTop` (sorted by top) that `r` is the label of, if `r` is a label (see {@link labelColumn}). */
function labelled(r: Rect, byTop: readonly Rect[]): Rect | undefined {
  const { text, fontSize, note } = r as { text?: unknown; fontSize?: unknown; note?: unknown };
  if (r instanceof Panel || note || typeof text !== "string" || typeof fontSize !== "number" || fontSize <= 0) return undefined;
  const lines = textLines(r) ?? [{ y0: r.y0, text }];
  if (lines.some((l) => l.text.length > 48 || l.text.trim().split(/\s+/).length > LABEL_WORDS)) return undefined;
  const tol = 0.3 * fontSize;
  for (let i = firstFromTop(byTop, r.y0 - tol); i < byTop.length && byTop[i]!.y0 <= r.y0 + tol; i++) {
    const q = byTop[i]!;
    if (lines.length === 1) return q;
    // A label of several lines (keys set one under the other) is level with the box's lines.
    const beside = textLines(q);
    if (beside && lines.every((l) => beside.some((m) => Math.abs(m.y0 - l.y0) <= tol))) return q;
  }
  return undefined;
}

/** A block's lines with their tops and text; undefined for a box that carries none. */
function textLines(r: Rect): { y0: number; text: string }[] | undefined {
  const lines = (r as { lines?: unknown }).lines;
  if (!Array.isArray(lines) || lines.length === 0) return undefined;
  return lines.every((l) => typeof l?.y0 === "number" && typeof l.text === "string") ? (lines as { y0: number; text: string }[]) : undefined;
}

/** Width of the boxes' extent. */
function extentWidth(boxes: readonly Rect[]): number {
  let [x0, x1] = [Infinity, -Infinity];
  for (const r of boxes) [x0, x1] = [Math.min(x0, r.x0), Math.max(x1, r.x1)];
  return x1 - x0;
}

/**
 * Cuts a label column and the column beside it into bands, one at each box of `side`
 * (its label, or a heading standing alone), from that box's band top (the label's or
 * its entry's, whichever is higher) down to the next; boxes of `other` go by their top.
 * What `other` holds above the first label is a band with no label.
 */
function labelBands<U extends Rect>(side: readonly U[], other: readonly U[], labels: ReadonlyMap<Rect, number>): { labels: U[]; entries: U[] }[] {
  const cuts = side.map((r) => ({ top: labels.get(r) ?? r.y0, box: r })).sort((a, b) => a.top - b.top);
  const bands = [{ labels: [] as U[], entries: [] as U[] }, ...cuts.map((c) => ({ labels: [c.box], entries: [] as U[] }))];
  let i = 0;
  for (const q of [...other].sort((a, b) => a.y0 - b.y0)) {
    while (i < cuts.length && cuts[i]!.top <= q.y0) i++;
    bands[i]!.entries.push(q);
  }
  return bands;
}
