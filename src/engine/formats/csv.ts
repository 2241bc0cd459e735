import { DocParseError } from "../../errors.js";
import type { DraftDocument, FormatContext, FormatHandler } from "../draft.js";
import { decodeText, normalizeText } from "../text-decode.js";
import { officeOptions } from "./office/options.js";
import { MAX_TABLE_CELLS, buildTable, tableText, type GridCell } from "./office/table-grid.js";

/**
 * CSV/TSV → one Table on one page. RFC 4180 quoting (quotes double to escape, fields
 * may hold newlines); the delimiter is sniffed from the first lines (comma, semicolon,
 * tab, pipe) unless the file is named `.tsv`. Encoding as for text files (BOM, UTF-8,
 * UTF-16, GB18030, windows-1252). Cells keep their text exactly; rows shorter than the
 * widest row are padded with empty cells so the grid stays rectangular.
 */

export const CSV_MIME = "text/csv";

/** The CSV/TSV handler (`csv`): one Table on one page. */
export const csvFormat: FormatHandler = {
  id: "csv",
  mimeType: CSV_MIME,
  parse: parseCsv,
};

const CANDIDATES = [",", ";", "\t", "|"] as const;

/** The delimiter whose per-line count is highest and most consistent over the first lines. */
export function sniffDelimiter(text: string): string {
  const lines = text.split("\n", 20).filter((l) => l.trim() !== "");
  let best: string = ",";
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const min = Math.min(...counts);
    const score = min > 0 ? min * 10 + (counts.every((c) => c === counts[0]) ? 5 : 0) : 0;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let q = false;
  for (const ch of line) {
    if (ch === '"') q = !q;
    else if (ch === d && !q) n++;
  }
  return n;
}

/** Parses CSV text into rows of fields (RFC 4180), stopping after `maxRows` rows. */
export function parseCsvRows(text: string, delimiter: string, maxRows = Infinity): { rows: string[][]; truncated: boolean } {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === "") quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      if (rows.length >= maxRows) return { rows, truncated: text.slice(i + 1).trim() !== "" };
    } else field += ch;
    i++;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return { rows, truncated: false };
}

async function parseCsv(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  if (bytes.length === 0) throw new DocParseError(40422, "The file is empty");
  const options = officeOptions(ctx);
  if (ctx.pageRange && ctx.pageRange.some((s) => s.from > 1)) throw new DocParseError(40424, "page_range goes beyond the CSV's single page");
  const { text: decoded, encoding } = decodeText(bytes);
  const text = normalizeText(decoded);
  if (text.trim() === "") throw new DocParseError(40422, "The CSV file holds no data");
  const delimiter = /\.tsv$/i.test(ctx.filename ?? "") ? "\t" : sniffDelimiter(text);
  const parsed = parseCsvRows(text, delimiter, options.max_sheet_rows);
  let rows = parsed.rows.filter((r, i) => i < parsed.rows.length - 1 || r.some((f) => f !== ""));
  let width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  let truncated = parsed.truncated || width > options.max_sheet_cols;
  width = Math.min(width, options.max_sheet_cols, MAX_TABLE_CELLS);
  // One very wide row must not pad every other row to a grid of billions of cells.
  const rowCap = Math.max(1, Math.floor(MAX_TABLE_CELLS / Math.max(1, width)));
  if (rows.length > rowCap) {
    rows = rows.slice(0, rowCap);
    truncated = true;
  }
  const grid: GridCell[][] = rows.map((r) => Array.from({ length: width }, (_, c) => ({ col: c, text: (r[c] ?? "").trim() })));
  const table = buildTable(grid, 1);
  const metadata: Record<string, unknown> = { delimiter };
  if (truncated) metadata.truncated = true;
  return {
    filetype: CSV_MIME,
    pageCount: 1,
    pages: [],
    elements: [{ type: "Table", text: tableText(table), page: 1, table, metadata }],
    estimatedLayout: true,
    // Like a sheet: one page that grows with the table.
    fixedPages: true,
    metadata: { encoding },
  };
}
