import type { TableStructure } from "../wire/index.js";
import type { DocNode } from "./nodes.js";
import type { ChunkWarning } from "./options.js";
import { boundingQuad } from "./regions.js";

/**
 * Tables as rows: built from `table_structure` (spans respected) or, without one, from
 * the element's `text`, which may be HTML, a Markdown pipe table or plain lines.
 */

/** A cell that starts in a row (cells covered by a span are not repeated here). */
export interface TableCellModel {
  text: string;
  /** 0-based column. */
  col: number;
  rowSpan: number;
  colSpan: number;
}

/** One row of a table, with the element it came from. */
export interface TableRowModel {
  /** Index of the node (element) the row came from: continued tables mix several. */
  node: number;
  /** Cells that start in this row (grid tables). */
  cells: TableCellModel[];
  /** Text at every column, span-covered positions filled with their cell's text. */
  fill: string[];
  /** The row as one line (plain-text tables); grid rows make it on demand, see {@link rowLine}. */
  line?: string;
  /** Bounding box of the row's cells (8 numbers) when every cell had coordinates. */
  box?: number[];
}

/** A table as rows: `grid` when cells are known, `plain` when only lines are. */
export interface TableModel {
  kind: "grid" | "plain";
  cols: number;
  rows: TableRowModel[];
  /** Leading rows repeated at the top of every piece. */
  headerRows: number;
}

/** What a table's `text` looks like. */
export type TableTextFormat = "html" | "markdown" | "plain";

const MD_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** Detects whether a table's `text` is HTML, a Markdown pipe table, or plain lines. */
export function detectTableText(text: string): TableTextFormat {
  if (/<t(able|r)[\s>]/i.test(text)) return "html";
  const lines = text.split("\n");
  if (lines.some((l) => MD_SEPARATOR.test(l) && l.includes("-")) && lines.some((l) => l.includes("|"))) return "markdown";
  return "plain";
}

// Anything bigger is a broken structure, not a table a person made.
const MAX_GRID_CELLS = 2_000_000;

/** Builds the row model of one table element: from `table_structure` when usable, else from `text`. */
export function tableModel(node: DocNode, warn: (w: ChunkWarning) => void): TableModel {
  const ts = node.element.table_structure;
  if (ts && Array.isArray(ts.cells) && ts.cells.length > 0) {
    const grid = fromStructure(node, ts, warn);
    if (grid) return grid;
  }
  const format = detectTableText(node.text);
  if (format === "html") {
    const grid = fromHtml(node);
    if (grid) return grid;
  }
  if (format === "markdown") return fromMarkdown(node);
  return fromLines(node);
}

interface PlacedCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  coordinates?: number[];
}

function fromStructure(node: DocNode, ts: TableStructure, warn: (w: ChunkWarning) => void): TableModel | undefined {
  const placed: PlacedCell[] = [];
  for (const c of ts.cells) {
    if (!c || typeof c.row !== "number" || typeof c.col !== "number" || c.row < 1 || c.col < 1) continue;
    const cell: PlacedCell = {
      row: Math.floor(c.row) - 1,
      col: Math.floor(c.col) - 1,
      rowSpan: Math.max(1, Math.floor(c.row_span ?? 1) || 1),
      colSpan: Math.max(1, Math.floor(c.col_span ?? 1) || 1),
      text: typeof c.text === "string" ? c.text : "",
    };
    if (Array.isArray(c.coordinates) && c.coordinates.length >= 8) cell.coordinates = c.coordinates;
    placed.push(cell);
  }
  if (placed.length === 0) return undefined;
  const model = fromPlaced(node.index, placed, typeof ts.rows === "number" ? ts.rows : 0, typeof ts.cols === "number" ? ts.cols : 0);
  if (!model) {
    warn({ code: "table_structure_invalid", message: `table_structure of ${node.id} is unusable; using its text`, elementId: node.id });
  } else if (model.overlaps > 0) {
    warn({ code: "table_cells_overlap", message: `${model.overlaps} cell(s) of ${node.id} overlap others and were dropped`, elementId: node.id });
  }
  return model?.table;
}

function fromPlaced(
  nodeIndex: number,
  placed: PlacedCell[],
  declaredRows: number,
  declaredCols: number,
  headerHint?: number,
): { table: TableModel; overlaps: number } | undefined {
  let rows = Math.max(0, declaredRows);
  let cols = Math.max(0, declaredCols);
  for (const c of placed) {
    rows = Math.max(rows, c.row + c.rowSpan);
    cols = Math.max(cols, c.col + c.colSpan);
  }
  if (rows * cols > MAX_GRID_CELLS || rows === 0 || cols === 0) return undefined;
  placed.sort((a, b) => a.row - b.row || a.col - b.col);
  const occupied = new Uint8Array(rows * cols);
  const fill: string[][] = Array.from({ length: rows }, () => new Array<string>(cols).fill(""));
  const starts: TableCellModel[][] = Array.from({ length: rows }, () => []);
  const boxes: (number[] | null | undefined)[] = new Array(rows).fill(undefined);
  let overlaps = 0;
  // reach[r]: the last row (exclusive) that a cell starting at or above r covers.
  const reach = new Int32Array(rows);
  for (const c of placed) {
    const rowEnd = Math.min(rows, c.row + c.rowSpan);
    const colEnd = Math.min(cols, c.col + c.colSpan);
    let clash = false;
    for (let r = c.row; r < rowEnd && !clash; r++) for (let k = c.col; k < colEnd; k++) if (occupied[r * cols + k]) clash = true;
    if (clash) {
      overlaps++;
      continue;
    }
    for (let r = c.row; r < rowEnd; r++) {
      for (let k = c.col; k < colEnd; k++) {
        occupied[r * cols + k] = 1;
        fill[r]![k] = c.text;
      }
    }
    starts[c.row]!.push({ text: c.text, col: c.col, rowSpan: rowEnd - c.row, colSpan: colEnd - c.col });
    reach[c.row] = Math.max(reach[c.row]!, rowEnd);
    const prev = boxes[c.row];
    if (prev === null) continue;
    if (!c.coordinates) boxes[c.row] = null;
    else if (prev === undefined) boxes[c.row] = boundingQuad([c.coordinates])!;
    else grow(prev, c.coordinates);
  }
  const table: TableModel = {
    kind: "grid",
    cols,
    rows: fill.map((f, r) => {
      const row: TableRowModel = { node: nodeIndex, cells: starts[r]!, fill: f };
      const box = boxes[r];
      if (box) row.box = box;
      return row;
    }),
    headerRows: 0,
  };
  if (rows >= 2) {
    const want = headerHint ?? Math.max(1, reach[0]! );
    table.headerRows = Math.min(rows - 1, firstBoundaryAtOrAfter(table, want));
  }
  return { table, overlaps };
}

/** A row as one line: its own for plain tables, the cell texts joined by spaces for grids. */
export function rowLine(row: TableRowModel): string {
  return row.line ?? row.fill.join(" ");
}

/** Row indexes where a piece may start: no row span crosses them. */
export function rowBoundaries(table: TableModel): boolean[] {
  const ok = new Array<boolean>(table.rows.length + 1).fill(true);
  let reach = 0;
  for (let r = 0; r < table.rows.length; r++) {
    ok[r] = reach <= r;
    for (const c of table.rows[r]!.cells) reach = Math.max(reach, r + c.rowSpan);
  }
  ok[table.rows.length] = true;
  return ok;
}

function firstBoundaryAtOrAfter(table: TableModel, r: number): number {
  const ok = rowBoundaries(table);
  for (let i = r; i < ok.length; i++) if (ok[i]) return i;
  return table.rows.length;
}

/** Widens an axis-aligned quad (x0 y0 x1 y0 x1 y1 x0 y1) in place to cover another quad. */
function grow(box: number[], q: readonly number[]): void {
  for (let i = 0; i + 1 < q.length; i += 2) {
    const x = q[i]!;
    const y = q[i + 1]!;
    if (x < box[0]!) box[0] = box[6] = x;
    if (x > box[2]!) box[2] = box[4] = x;
    if (y < box[1]!) box[1] = box[3] = y;
    if (y > box[5]!) box[5] = box[7] = y;
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function htmlText(fragment: string): string {
  return fragment
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

function fromHtml(node: DocNode): TableModel | undefined {
  const placed: PlacedCell[] = [];
  const taken = new Set<string>();
  let row = 0;
  let headerRows = 0;
  let headerRun = true;
  const theadEnd = node.text.search(/<\/thead>/i);
  const trRe = /<tr[^>]*>([\s\S]*?)(?=<tr[\s>]|<\/table>|<\/tbody>|<\/thead>|$)/gi;
  let m: RegExpExecArray | null;
  while ((m = trRe.exec(node.text)) !== null) {
    const body = m[1]!;
    const cellRe = /<(td|th)([^>]*)>([\s\S]*?)(?=<td[\s>]|<th[\s>]|<\/tr>|$)/gi;
    let c: RegExpExecArray | null;
    let col = 0;
    let allTh = true;
    let any = false;
    while ((c = cellRe.exec(body)) !== null) {
      any = true;
      if (c[1]!.toLowerCase() !== "th") allTh = false;
      const attrs = c[2]!;
      const rowSpan = Math.max(1, parseInt(/rowspan\s*=\s*["']?(\d+)/i.exec(attrs)?.[1] ?? "1", 10) || 1);
      const colSpan = Math.max(1, parseInt(/colspan\s*=\s*["']?(\d+)/i.exec(attrs)?.[1] ?? "1", 10) || 1);
      while (taken.has(`${row},${col}`)) col++;
      for (let r = row; r < row + rowSpan; r++) for (let k = col; k < col + colSpan; k++) taken.add(`${r},${k}`);
      placed.push({ row, col, rowSpan, colSpan, text: htmlText(c[3]!.replace(/<\/t[dh]>[\s\S]*$/i, "")) });
      col += colSpan;
    }
    if (!any) continue;
    const inThead = theadEnd >= 0 && m.index < theadEnd;
    if (headerRun && (inThead || allTh)) headerRows = row + 1;
    else headerRun = false;
    row++;
  }
  if (placed.length === 0) return undefined;
  return fromPlaced(node.index, placed, 0, 0, headerRows > 0 ? headerRows : undefined)?.table;
}

function splitPipes(line: string): string[] {
  let t = line.trim();
  if (t.startsWith("|")) t = t.slice(1);
  if (t.endsWith("|") && !t.endsWith("\\|")) t = t.slice(0, -1);
  return t.split(/(?<!\\)\|/).map((s) => s.trim().replace(/\\\|/g, "|"));
}

function fromMarkdown(node: DocNode): TableModel {
  const lines = node.text.split("\n").filter((l) => l.trim() !== "");
  const sep = lines.findIndex((l) => MD_SEPARATOR.test(l) && l.includes("-"));
  const rowsText = lines.filter((_, i) => i !== sep).map(splitPipes);
  const cols = rowsText.reduce((n, r) => Math.max(n, r.length), 1);
  const rows: TableRowModel[] = rowsText.map((cells) => {
    const fill = Array.from({ length: cols }, (_, k) => cells[k] ?? "");
    return { node: node.index, cells: fill.map((text, col) => ({ text, col, rowSpan: 1, colSpan: 1 })), fill };
  });
  const headerRows = sep > 0 && rows.length > sep ? sep : 0;
  return { kind: "grid", cols, rows, headerRows };
}

function fromLines(node: DocNode): TableModel {
  const lines = node.text.split("\n").filter((l) => l.trim() !== "");
  const rows = lines.map((line) => ({ node: node.index, cells: [], fill: [line], line }));
  return { kind: "plain", cols: 1, rows, headerRows: rows.length >= 2 ? 1 : 0 };
}

/**
 * Appends a continued table's rows. Rows at the top of the continuation that repeat the
 * header (same cell texts) are dropped: the header is repeated by the chunker anyway.
 */
export function appendTable(into: TableModel, next: TableModel): TableModel {
  let skip = 0;
  while (
    skip < into.headerRows &&
    skip < next.rows.length &&
    rowLine(next.rows[skip]!) === rowLine(into.rows[skip]!)
  )
    skip++;
  const rows = next.rows.slice(skip);
  if (into.kind === "grid" && next.kind === "grid") {
    return { kind: "grid", cols: Math.max(into.cols, next.cols), rows: [...into.rows, ...rows], headerRows: into.headerRows };
  }
  // Mixed kinds: fall back to lines so nothing is lost.
  const asLines = (r: TableRowModel): TableRowModel => ({ node: r.node, cells: [], fill: [rowLine(r)], line: rowLine(r), ...(r.box ? { box: r.box } : {}) });
  return { kind: "plain", cols: 1, rows: [...into.rows, ...rows].map(asLines), headerRows: into.headerRows };
}
