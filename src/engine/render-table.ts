import type { DraftTable, DraftTableCell } from "./draft.js";

/**
 * Tables in the `markdown` field: HTML by default (keeps row/col spans, as the hosted
 * service does), or a GFM pipe table with `table_view: "markdown"` (spans cannot be
 * expressed there: a spanned cell's text stays in its first position, the rest empty).
 */

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function rowsOf(table: DraftTable): DraftTableCell[][] {
  const rows: DraftTableCell[][] = Array.from({ length: table.rows }, () => []);
  for (const c of table.cells) rows[c.row - 1]?.push(c);
  for (const r of rows) r.sort((a, b) => a.col - b.col);
  return rows;
}

/**
 * How many rows the header takes: `headerRows` (one when unset), grown over the rows a
 * header cell spans down into (`Region` beside `Q1 | Q2` over `Units | Revenue`): a
 * `rowspan` cannot cross from `<thead>` into `<tbody>`, and a renderer cut there would set
 * every cell of the second header row one column off.
 */
export function headerDepth(table: DraftTable): number {
  let header = Math.min(table.rows, Math.max(0, table.headerRows ?? 1));
  for (let grown = true; grown; ) {
    grown = false;
    for (const c of table.cells) {
      const last = c.row - 1 + (c.rowSpan ?? 1);
      if (c.row <= header && last > header && last < table.rows) {
        header = last;
        grown = true;
      }
    }
  }
  return header;
}

export function tableToHtml(table: DraftTable): string {
  const header = headerDepth(table);
  const parts: string[] = ["<table>"];
  rowsOf(table).forEach((row, r) => {
    if (r === 0 && header > 0) parts.push("<thead>");
    if (r === header) parts.push("<tbody>");
    const tag = r < header ? "th" : "td";
    parts.push("<tr>");
    for (const c of row) {
      const rs = (c.rowSpan ?? 1) > 1 ? ` rowspan="${c.rowSpan}"` : "";
      const cs = (c.colSpan ?? 1) > 1 ? ` colspan="${c.colSpan}"` : "";
      parts.push(`<${tag}${rs}${cs}>${escapeHtml(c.text).replace(/\n/g, "<br>")}</${tag}>`);
    }
    parts.push("</tr>");
    if (r === header - 1) parts.push("</thead>");
  });
  if (table.rows > header) parts.push("</tbody>");
  parts.push("</table>");
  return parts.join("");
}

export function tableToMarkdown(table: DraftTable): string {
  const grid: string[][] = Array.from({ length: table.rows }, () => new Array<string>(table.cols).fill(""));
  for (const c of table.cells) {
    const row = grid[c.row - 1];
    if (row && c.col >= 1 && c.col <= table.cols) row[c.col - 1] = c.text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|").trim();
  }
  const header = headerDepth(table);
  // GFM needs a header row: an empty one when the table has none; header rows stacked
  // (a group over its columns) read down each column into one.
  const head = Array.from({ length: table.cols }, (_, c) =>
    grid
      .slice(0, header)
      .map((row) => row[c]!)
      .filter(Boolean)
      .join(" "),
  );
  const body = grid.slice(header);
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...body.map(line)].join("\n");
}

/** A table's `text` per the contract: cells of a row joined by spaces, rows by newlines. */
export function tablePlainText(table: DraftTable): string {
  const rows: string[][] = Array.from({ length: table.rows }, () => []);
  const sorted = [...table.cells].sort((a, b) => a.row - b.row || a.col - b.col);
  for (const c of sorted) rows[c.row - 1]?.push(c.text.replace(/\s+/g, " ").trim());
  return rows.map((r) => r.filter(Boolean).join(" ")).join("\n");
}
