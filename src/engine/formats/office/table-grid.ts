import type { DraftTable, DraftTableCell } from "../../draft.js";

/**
 * Builds a {@link DraftTable} from cells placed on a grid. Word marks a vertical merge
 * by repeating an empty `vMerge` cell in each covered row; PowerPoint and HTML give the
 * origin cell an explicit row span. Both end as one cell with rowSpan/colSpan and no
 * repeated values, which is what `table_structure` promises.
 */

/**
 * Most grid positions (rows × columns) a table may have. Renderers and the assembler
 * work on the full grid, so a hostile span or a sparse sheet with a far-away cell must
 * not make it billions of positions: tables beyond this are cut (and marked truncated).
 * 2.5 times the hosted service's sheet limit (2000 rows × 100 columns).
 * @default 500000
 */
export const MAX_TABLE_CELLS = 500_000;

/** Largest row or column span accepted from a file; Word allows 63 columns, HTML 1000. */
export const MAX_SPAN = 1000;

/** Parses a span attribute: an integer in 1..max, else 1 (garbage, NaN, 0, negative). */
export function spanOf(value: string | number | undefined, max = MAX_SPAN): number {
  const n = typeof value === "number" ? value : Number.parseInt(value ?? "1", 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), max) : 1;
}

/** A cell as a source format gives it, before spans are resolved. */
export interface GridCell {
  /** 0-based grid column where the cell starts. */
  col: number;
  text: string;
  /** @default 1 */
  colSpan?: number;
  /** Explicit row span (PPTX/HTML). @default 1 */
  rowSpan?: number;
  /** Word's `<w:vMerge/>` continuation: this cell extends the one above. */
  continuesAbove?: boolean;
}

/** Resolves rows of grid cells into a table; `headerRows` defaults to 1 when there are rows. */
export function buildTable(rows: GridCell[][], headerRows?: number): DraftTable {
  const cells: DraftTableCell[] = [];
  // The cell that currently occupies each grid column (for vMerge continuation).
  const openByCol = new Map<number, DraftTableCell>();
  let cols = 0;
  rows.forEach((row, r) => {
    for (const g of row) {
      const colSpan = Math.max(1, g.colSpan ?? 1);
      cols = Math.max(cols, g.col + colSpan);
      if (g.continuesAbove) {
        const above = openByCol.get(g.col);
        if (above && above.row + (above.rowSpan ?? 1) - 1 === r) {
          above.rowSpan = (above.rowSpan ?? 1) + 1;
          continue;
        }
      }
      const cell: DraftTableCell = { row: r + 1, col: g.col + 1, text: g.text };
      if (colSpan > 1) cell.colSpan = colSpan;
      if ((g.rowSpan ?? 1) > 1) cell.rowSpan = g.rowSpan!;
      cells.push(cell);
      openByCol.set(g.col, cell);
    }
  });
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  const table: DraftTable = { rows: rows.length, cols, cells };
  table.headerRows = headerRows ?? (rows.length > 0 ? 1 : 0);
  return table;
}

/** Plain table text as the wire describes it: cells of a row joined by spaces, rows by newlines. */
export function tableText(table: DraftTable): string {
  // One pass over the cells (they are sorted by row, then column): a 2000-row sheet must
  // not cost rows × cells.
  const lines: string[][] = Array.from({ length: table.rows }, () => []);
  for (const c of table.cells) {
    const t = c.text.replace(/\s+/g, " ").trim();
    if (t !== "") lines[c.row - 1]?.push(t);
  }
  return lines
    .map((l) => l.join(" "))
    .join("\n")
    .replace(/\n+$/, "");
}
