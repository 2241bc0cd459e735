import { isCaption } from "./captions.js";
import { long } from "./ruled-tables.js";
import { union, type Drawing, type GridTable, type Line, type PlacedImage, type Rect } from "./types.js";

/** Pixels per point of a vector figure's picture (144 dpi). */
export const FIGURE_SCALE = 2;

/** A figure drawn as vector graphics, with the labels set in and around it. */
export interface VectorFigure extends Rect {
  /** Its labels, top to bottom and left to right, joined by spaces. */
  text: string;
  /** The labels' lines, in the order of `text`. */
  lines: Line[];
  /** The picture to render: the figure's box, `vector` set, pixels at {@link FIGURE_SCALE}. */
  image: PlacedImage;
}

/** Paths closer than this (points) belong to one drawing. */
const TOUCH = 2;
/** Fewest paths of a figure. */
const MIN_PATHS = 3;
/** Most of a figure's box its labels may cover: more is text on a shape (a callout, a slide's box). */
const MAX_TEXT_SHARE = 0.3;

/**
 * Figures drawn as vector graphics — charts, plots, diagrams — found from the boxes of the
 * paths a page paints. Paths whose boxes touch or overlap make one drawing (a plot's frame
 * takes in its points); paths over half the page (backgrounds, borders) and those inside
 * a table (cell shading, rules) take no part; a frame around a drawing and text is left
 * out ({@link frameContents}). A drawing is a figure when it has three
 * paths or more, one of them more than a rule, is at least 40 × 30 pt (8 % of the page's
 * width, 4 % of its height), holds no line of prose and its text covers under 30 % of it,
 * and that text does not all stand on one shape filling the drawing: a shaded box behind
 * a paragraph, a menu on a panel and a slide's text on a shape stay text. The figure
 * takes the lines inside it, short labels just outside (within 1.5 em, in the type of
 * its labels: axis ticks and titles; never a caption, the rest of its line, or a
 * heading) and its legend (labels
 * with a swatch beside them, within 8 em), which leave the page's text.
 */
export function findFigures(drawings: readonly Drawing[], lines: readonly Line[], page: Rect, tables: readonly Rect[]): { figures: VectorFigure[]; used: Set<Line> } {
  const used = new Set<Line>();
  const figures: VectorFigure[] = [];
  if (drawings.length < MIN_PATHS) return { figures, used };
  const pageArea = (page.x1 - page.x0) * (page.y1 - page.y0);
  const paths = drawings.filter((d) => area(d) <= 0.5 * pageArea && !tables.some((t) => holds(t, centre(d))));
  const groups = touching(paths);
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    if (group.length < MIN_PATHS || !group.some((d) => d.x1 - d.x0 > 3 && d.y1 - d.y0 > 3)) continue;
    const box = union(group);
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    if (w < Math.max(40, 0.08 * (page.x1 - page.x0)) || h < Math.max(30, 0.04 * (page.y1 - page.y0))) continue;
    if (tables.some((t) => overlapArea(t, box) > 0.5 * Math.min(area(t), area(box)))) continue;
    const inside = lines.filter((l) => !used.has(l) && holds(box, centre(l)));
    // Text on one shape that fills the drawing (a menu on a dark panel, a note in a box
    // with a rule or two) is a box of text, not a figure.
    const panel = group.find((d) => area(d) >= 0.8 * area(box));
    const wordy = inside.some(long) || inside.reduce((s, l) => s + area(l), 0) > MAX_TEXT_SHARE * area(box);
    if (wordy || (panel && inside.length > 0 && inside.every((l) => holds(panel, centre(l))))) {
      // A box of text may still frame a chart: what is inside the frame is read on its own.
      const inner = frameContents(group, box, lines, used);
      if (inner) groups.push(...touching(inner));
      continue;
    }
    const near = outsideLabels(inside, lines.filter((l) => !used.has(l) && !inside.includes(l) && nearLabel(box, l) && !continuesCaption(l, lines)));
    const legend = legendLabels(box, group, drawings, lines.filter((l) => !used.has(l) && !inside.includes(l) && !near.includes(l)));
    const labels = [...inside, ...near, ...legend];
    for (const l of labels) used.add(l);
    const rect = labels.length ? union([box, ...labels]) : box;
    labels.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
    const image: PlacedImage = { ...rect, width: Math.round((rect.x1 - rect.x0) * FIGURE_SCALE), height: Math.round((rect.y1 - rect.y0) * FIGURE_SCALE), vector: true };
    figures.push({ ...rect, text: labels.map((l) => l.text).join(" "), lines: labels, image });
  }
  return { figures, used };
}

/**
 * The paths inside a frame, for a drawing read as a box of text: a bordered or shaded box
 * (a poster's panel, a card, a boxed report section) touches everything drawn in it, so a
 * chart in it would join the box's text and be lost. When paths spanning the whole
 * drawing (the frame, its fill under it) hold text beside what the other paths cover
 * (the box's heading and prose around the chart), the rest is read on its own, each
 * part again as a drawing; a frame around text alone (a boxed note with an icon or a
 * rule) leaves too little for a figure. Undefined when the drawing is no frame.
 */
function frameContents(group: readonly Drawing[], box: Rect, lines: readonly Line[], used: ReadonlySet<Line>): Drawing[] | undefined {
  const spans = (d: Drawing): boolean => d.x0 <= box.x0 + TOUCH && d.y0 <= box.y0 + TOUCH && d.x1 >= box.x1 - TOUCH && d.y1 >= box.y1 - TOUCH;
  const rest = group.filter((d) => !spans(d));
  if (rest.length === group.length || rest.length < MIN_PATHS) return undefined;
  const within = union(rest);
  const beside = lines.some((l) => !used.has(l) && holds(box, centre(l)) && !holds(within, centre(l)));
  return beside ? rest : undefined;
}

/**
 * The labels among short lines near a figure: in the type of its labels (no bold unless
 * they are bold, at most 1.3 × the largest label inside it, else the usual size of those
 * near it), so a heading set just above a chart, larger or bold, stays a heading.
 */
function outsideLabels(inside: readonly Line[], near: readonly Line[]): Line[] {
  if (near.length === 0) return [];
  const ref = inside.length ? inside : near;
  const size = inside.length ? Math.max(...inside.map((l) => l.fontSize)) : median(near.map((l) => l.fontSize));
  const bold = ref.filter((l) => l.bold).length > ref.length / 2;
  return near.filter((l) => l.fontSize <= 1.3 * size && (bold || !l.bold));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Ruled "tables" that are a chart's gridlines: a grid mostly empty (text in two fifths of
 * its places at most, four places or more) holding two shapes or more that cross its
 * lines, at different heights and of different widths — bars, lines, areas; not a dark
 * header band, nor icons or coloured cells (inside one cell each; light shading is no
 * drawing). Their text goes back to the page, for the chart.
 */
export function chartGrids(tables: readonly GridTable[], drawings: readonly Drawing[]): Set<GridTable> {
  const out = new Set<GridTable>();
  for (const t of tables) {
    const positions = t.rows * t.cols;
    const filled = t.cells.reduce((n, c) => n + (c.text.trim() === "" ? 0 : c.rowSpan * c.colSpan), 0);
    if (positions < 4 || filled > 0.4 * positions) continue;
    // Shapes inside it across its lines (light shading is no drawing): bars of different
    // lengths, not one dark header band, nor icons or colours inside cells.
    const xs = new Set(t.cells.map((c) => c.x0));
    const ys = new Set(t.cells.map((c) => c.y0));
    const across = (d: Rect): boolean => [...xs].some((x) => x > d.x0 + 2 && x < d.x1 - 2) || [...ys].some((y) => y > d.y0 + 2 && y < d.y1 - 2);
    const marks = drawings.filter((d) => d.x1 - d.x0 > 3 && d.y1 - d.y0 > 3 && holds(t, centre(d)) && area(d) < 0.9 * area(t) && across(d));
    const bands = new Set(marks.map((d) => `${Math.round(d.y0)}:${Math.round(d.y1)}`));
    const spans = new Set(marks.map((d) => `${Math.round(d.x0)}:${Math.round(d.x1)}`));
    if (marks.length >= 2 && bands.size >= 2 && spans.size >= 2) out.add(t);
  }
  return out;
}

/**
 * A chart's legend beside it: short labels, each with a small swatch (a mark under 1.6 em)
 * on its row, within 4 em before or after it (swatches in a column, labels set left or
 * right), within 8 em of the figure — the swatches in colours the chart is drawn in, two
 * colours or more (icons beside a contact block, or a list's bullets, are one colour).
 */
function legendLabels(box: Rect, group: readonly Drawing[], drawings: readonly Drawing[], lines: readonly Line[]): Line[] {
  const colours = new Set(group.flatMap((d) => (d.colour && d.x1 - d.x0 > 3 && d.y1 - d.y0 > 3 ? [d.colour] : [])));
  const found: { line: Line; colour: string }[] = [];
  for (const l of lines) {
    const reach = 8 * l.fontSize;
    if (l.x1 < box.x0 - reach || l.x0 > box.x1 + reach || l.y1 < box.y0 - reach || l.y0 > box.y1 + reach) continue;
    if (l.text.trim().split(/\s+/).length > 4) continue;
    const gap = 4 * l.fontSize;
    const swatch = drawings.find((d) => {
      if (!d.colour || !colours.has(d.colour) || d.x1 - d.x0 > 1.6 * l.fontSize || d.y1 - d.y0 > 1.6 * l.fontSize || d.y1 <= l.y0 || d.y0 >= l.y1) return false;
      return (d.x1 <= l.x0 + 1 && l.x0 - d.x1 <= gap) || (d.x0 >= l.x1 - 1 && d.x0 - l.x1 <= gap);
    });
    if (swatch) found.push({ line: l, colour: swatch.colour! });
  }
  return new Set(found.map((f) => f.colour)).size >= 2 ? found.map((f) => f.line) : [];
}

/** A short line within 1.5 em of a figure's box: four words at most, no sentence, no caption. */
function nearLabel(box: Rect, l: Line): boolean {
  const reach = 1.5 * l.fontSize;
  if (l.x1 < box.x0 - reach || l.x0 > box.x1 + reach || l.y1 < box.y0 - reach || l.y0 > box.y1 + reach) return false;
  if (l.x0 < box.x0 - 8 * l.fontSize || l.x1 > box.x1 + 8 * l.fontSize) return false;
  const text = l.text.trim();
  return text.split(/\s+/).length <= 4 && !/[\p{L})][.!?:;]$/u.test(text) && !isCaption(text);
}

/**
 * Whether a line goes on from a caption set just before it on its row (`Figure 1:` and
 * the rest of its first line read as two lines, as a subscript can leave them): the
 * caption's words, not a label under the chart.
 */
function continuesCaption(l: Line, lines: readonly Line[]): boolean {
  return lines.some((c) => c !== l && c.x1 <= l.x0 + 1 && l.x0 - c.x1 < l.fontSize && Math.min(c.y1, l.y1) - Math.max(c.y0, l.y0) > 0.5 * (l.y1 - l.y0) && isCaption(c.text.trim()));
}

/** Groups of boxes that touch or overlap (within {@link TOUCH}), by a sweep along x. */
function touching<T extends Rect>(rects: readonly T[]): T[][] {
  const parent = rects.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const order = rects.map((_, i) => i).sort((a, b) => rects[a]!.x0 - rects[b]!.x0);
  let active: number[] = [];
  for (const i of order) {
    const r = rects[i]!;
    active = active.filter((j) => rects[j]!.x1 + TOUCH >= r.x0);
    for (const j of active) {
      const q = rects[j]!;
      if (q.y0 - TOUCH <= r.y1 && r.y0 - TOUCH <= q.y1) parent[find(i)] = find(j);
    }
    active.push(i);
  }
  const groups = new Map<number, T[]>();
  rects.forEach((r, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g) g.push(r);
    else groups.set(root, [r]);
  });
  return [...groups.values()];
}

const area = (r: Rect): number => Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0);
const centre = (r: Rect): { x: number; y: number } => ({ x: (r.x0 + r.x1) / 2, y: (r.y0 + r.y1) / 2 });
const holds = (r: Rect, p: { x: number; y: number }): boolean => p.x >= r.x0 && p.x <= r.x1 && p.y >= r.y0 && p.y <= r.y1;
const overlapArea = (a: Rect, b: Rect): number => area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) });
