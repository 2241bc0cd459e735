import type { TaggedCell, TaggedTable } from "../layout/index.js";

/**
 * What a tagged PDF's structure tree says about a page's text. Word, Chromium, LibreOffice
 * (with tagging on) and InDesign write the document's structure beside its drawing: each
 * piece of content is marked with an id (MCID), and a tree of structure elements (`P`,
 * `H1`, `Table › TR › TD`...) holds those ids. The tree is trusted where reading the page
 * is weakest: a table's cells when no rule and no clear alignment shows them.
 */

/** A node of pdfjs' serialized structure tree (`page.getStructTree()`), with the spans our patch adds. */
export interface StructNode {
  role?: string;
  children?: StructNode[];
  /** A leaf: `content` (marked content on a page, id `p<ref>_mc<mcid>`) or an object. */
  type?: string;
  id?: string;
  colSpan?: number;
  rowSpan?: number;
  /** A table that lays the page out (our tables-only tree, pdfjs-patch.ts `table-tree`, says so). */
  layout?: boolean;
  /** The root of our tables-only tree. */
  tablesOnly?: boolean;
}

/** Rows read from one table at most: a hostile tree could claim millions. */
const MAX_ROWS = 100_000;
/** Rows or columns one cell spans at most, and grid places spanned in a table at most (hostile spans). */
const MAX_SPAN = 1000;
const MAX_SPANNED = 1_000_000;

/**
 * The table cells of a page's structure tree, by the MCID of the marked content in them.
 * `page` is the page's object reference as pdfjs writes it (`12R`): content ids of other
 * pages (a table that runs over several) are not this page's.
 */
export function taggedCells(tree: StructNode | null | undefined, page: string): Map<number, TaggedCell> {
  const cells = new Map<number, TaggedCell>();
  if (!tree) return cells;
  const prefix = `p${page}_mc`;
  const visit = (node: StructNode, inTable: TaggedTable | null): void => {
    if (node.role === "Table") {
      if (inTable) inTable.layout = true;
      readTable(node);
      return;
    }
    if (inTable && SECTIONING.test(node.role ?? "")) inTable.layout = true;
    for (const kid of node.children ?? []) visit(kid, inTable);
  };
  // The HTML table model: a cell takes the first column its row has free, after the
  // cells above that span down into the row.
  const readTable = (table: StructNode): void => {
    const rows = tableRows(table);
    const shape: TaggedTable = { layout: table.layout === true };
    // Grid places taken by cells spanning down from rows above, as r * 65,536 + c.
    const taken = new Set<number>();
    let budget = MAX_SPANNED;
    rows.forEach((row, r) => {
      let c = 0;
      for (const kid of row.children ?? []) {
        if (kid.role !== "TD" && kid.role !== "TH") continue;
        while (taken.has(r * 65_536 + c)) c++;
        const colSpan = Math.min(kid.colSpan ?? 1, MAX_SPAN, 65_535 - c);
        if (colSpan < 1) break;
        const rowSpan = Math.min(kid.rowSpan ?? 1, MAX_SPAN, rows.length - r, 1 + Math.floor(budget / colSpan));
        budget -= (rowSpan - 1) * colSpan;
        for (let i = 1; i < rowSpan; i++) for (let j = 0; j < colSpan; j++) taken.add((r + i) * 65_536 + c + j);
        const cell: TaggedCell = { table: shape, row: r, col: c, rowSpan, colSpan, head: kid.role === "TH" };
        for (const mcid of contentIds(kid, prefix, shape, visit)) cells.set(mcid, cell);
        c += colSpan;
      }
    });
  };
  visit(tree, null);
  return cells;
}

/** Structure a data table's cell does not hold: a heading or a list (a page, a field list set out in a table). */
const SECTIONING = /^(?:H[1-6]?|L|LI)$/;

/** A table's rows in order: its own `TR`s and those of its `THead`, `TBody` and `TFoot`. */
function tableRows(table: StructNode): StructNode[] {
  const rows: StructNode[] = [];
  const walk = (node: StructNode): void => {
    for (const kid of node.children ?? []) {
      if (rows.length >= MAX_ROWS) return;
      if (kid.role === "TR") rows.push(kid);
      else if (kid.role === "THead" || kid.role === "TBody" || kid.role === "TFoot") walk(kid);
    }
  };
  walk(table);
  return rows;
}

/**
 * The MCIDs of this page's content under a cell. A table, a heading or a list inside marks the
 * outer table as layout (`visit` reads the inner table for its own cells).
 */
function contentIds(cell: StructNode, prefix: string, table: TaggedTable, visit: (node: StructNode, inTable: TaggedTable | null) => void): number[] {
  const ids: number[] = [];
  const walk = (node: StructNode): void => {
    for (const kid of node.children ?? []) {
      if (kid.type === "content") {
        if (kid.id?.startsWith(prefix)) {
          const mcid = Number(kid.id.slice(prefix.length));
          if (Number.isInteger(mcid)) ids.push(mcid);
        }
      } else if (kid.role === "Table") {
        visit(kid, table);
      } else {
        if (SECTIONING.test(kid.role ?? "")) table.layout = true;
        walk(kid);
      }
    }
  };
  walk(cell);
  return ids;
}
