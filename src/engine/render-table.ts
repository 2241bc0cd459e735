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

export function tableToHtml(table: DraftTable): string {
  const header = Math.min(table.rows, Math.max(0, table.headerRows ?? 1));
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
  const header = Math.max(0, table.headerRows ?? 1);
  // GFM needs a header row: an empty one when the table has none.
  const head = header > 0 && grid.length > 0 ? grid[0]! : new Array<string>(table.cols).fill("");
  const body = header > 0 ? grid.slice(1) : grid;
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
