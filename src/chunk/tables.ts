import { rowBoundaries, rowLine, type TableModel } from "./table-model.js";
import type { Tokenizer } from "./tokenizer.js";

export {
  appendTable,
  detectTableText,
  rowBoundaries,
  rowLine,
  tableModel,
  type TableCellModel,
  type TableModel,
  type TableRowModel,
  type TableTextFormat,
} from "./table-model.js";

/** Tables rendered as HTML or Markdown, and split on row boundaries with the header repeated. */

function escapeHtml(s: string): string {
  if (!/[&<>]/.test(s)) return s;
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeMd(s: string): string {
  if (!/[|\n]/.test(s)) return s;
  return s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** Renders one row; `header` marks rows written as header cells. */
export function renderRow(table: TableModel, r: number, header: boolean, format: "html" | "markdown"): string {
  const row = table.rows[r]!;
  if (table.kind === "plain") return rowLine(row);
  if (format === "html") {
    const tag = header ? "th" : "td";
    let out = "<tr>";
    for (const c of row.cells) {
      const span = (c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : "") + (c.colSpan > 1 ? ` colspan="${c.colSpan}"` : "");
      out += `<${tag}${span}>${escapeHtml(c.text)}</${tag}>`;
    }
    return out + "</tr>";
  }
  const cells = Array.from({ length: table.cols }, (_, k) => escapeMd(row.fill[k] ?? ""));
  return `| ${cells.join(" | ")} |`;
}

/**
 * Renders header rows plus body rows [from, to) (row indexes into `table.rows`).
 * Markdown needs exactly one header line: extra header rows follow the separator, and a
 * table without a header gets an empty one.
 */
export function renderTable(table: TableModel, from: number, to: number, format: "html" | "markdown", rowText?: (r: number) => string): string {
  const body = (r: number) => rowText?.(r) ?? renderRow(table, r, false, format);
  const lines: string[] = [];
  if (table.kind === "plain") {
    for (let r = 0; r < table.headerRows; r++) lines.push(rowLine(table.rows[r]!));
    for (let r = from; r < to; r++) lines.push(rowLine(table.rows[r]!));
    return lines.join("\n");
  }
  if (format === "html") {
    let out = "<table>";
    for (let r = 0; r < table.headerRows; r++) out += renderRow(table, r, true, "html");
    for (let r = from; r < to; r++) out += body(r);
    return out + "</table>";
  }
  const sep = `|${" --- |".repeat(table.cols)}`;
  if (table.headerRows === 0) {
    lines.push(`|${"  |".repeat(table.cols)}`, sep);
  } else {
    lines.push(renderRow(table, 0, true, "markdown"), sep);
    for (let r = 1; r < table.headerRows; r++) lines.push(renderRow(table, r, true, "markdown"));
  }
  for (let r = from; r < to; r++) lines.push(body(r));
  return lines.join("\n");
}

/** One piece of a table: body rows [from, to) plus the repeated header. */
export interface TablePiece {
  from: number;
  to: number;
  text: string;
  tokens: number;
  /** One row group alone is over the budget. */
  oversized: boolean;
}

/**
 * Splits a table on row boundaries (never inside a row span) so that each piece,
 * header rows included, fits `budget` tokens; `firstBudget` applies to the first piece
 * (which also carries the caption).
 */
export function splitTable(
  table: TableModel,
  format: "html" | "markdown",
  tokenizer: Tokenizer,
  budget: number,
  firstBudget: number,
): TablePiece[] {
  const n = table.rows.length;
  const h = table.headerRows;
  const whole = renderTable(table, h, n, format);
  const wholeTokens = tokenizer.count(whole);
  if (wholeTokens <= firstBudget || n - h <= 1) {
    return [{ from: h, to: n, text: whole, tokens: wholeTokens, oversized: wholeTokens > firstBudget }];
  }
  const rowTexts = new Array<string>(n);
  const rowTokens = new Float64Array(n);
  for (let r = h; r < n; r++) {
    rowTexts[r] = renderRow(table, r, false, format);
    rowTokens[r] = tokenizer.count(rowTexts[r]!) + (format === "markdown" || table.kind === "plain" ? 1 : 0);
  }
  const frame = tokenizer.count(renderTable(table, h, h, format));
  const ok = rowBoundaries(table);
  const groups: [number, number][] = [];
  let start = h;
  for (let r = h + 1; r <= n; r++) {
    if (ok[r]) {
      groups.push([start, r]);
      start = r;
    }
  }
  const pieces: TablePiece[] = [];
  const text = (from: number, to: number) => renderTable(table, from, to, format, (r) => rowTexts[r]!);
  let g = 0;
  while (g < groups.length) {
    const limit = pieces.length === 0 ? firstBudget : budget;
    let cost = frame;
    let end = g;
    while (end < groups.length) {
      const [a, b] = groups[end]!;
      let gc = 0;
      for (let r = a; r < b; r++) gc += rowTokens[r]!;
      if (end > g && cost + gc > limit) break;
      cost += gc;
      end++;
    }
    // Sums of row counts are an estimate; the exact count decides, shrinking if needed.
    let t = text(groups[g]![0], groups[end - 1]![1]);
    let tokens = tokenizer.count(t);
    while (tokens > limit && end - g > 1) {
      end--;
      t = text(groups[g]![0], groups[end - 1]![1]);
      tokens = tokenizer.count(t);
    }
    pieces.push({ from: groups[g]![0], to: groups[end - 1]![1], text: t, tokens, oversized: tokens > limit });
    g = end;
  }
  return pieces;
}
