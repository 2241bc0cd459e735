import { DocParseError, abortError } from "../../errors.js";
import { inPageRange } from "../../wire/index.js";
import type { DraftDocument, DraftElement, FormatContext, FormatHandler } from "../draft.js";
import { formatDate, formatNumber } from "./office/number-format.js";
import { officeOptions } from "./office/options.js";
import { MAX_SPAN, MAX_TABLE_CELLS, buildTable, tableText, type GridCell } from "./office/table-grid.js";
import { OfficeZip } from "./office/zip.js";

/**
 * XLSX → one page per sheet: a Title with the sheet name, then the used range as one
 * Table. Cell text is what Excel displays (number formats, dates, formula results);
 * merged ranges become one cell with spans, never repeated values. Hidden sheets are
 * skipped unless `engine_params.include_hidden`. Geometry is estimated: the page number
 * of each element is its sheet's position, which the assembler keeps as the page.
 */

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The XLSX handler (`xlsx`): one page per sheet, estimated geometry. */
export const xlsxFormat: FormatHandler = {
  id: "xlsx",
  mimeType: XLSX_MIME,
  parse: parseXlsx,
};

/** Most cells all merged ranges of a workbook may cover together. @default 5000000 */
export const MAX_MERGED_CELLS = 5_000_000;

/** Cells covered by the `<mergeCell ref="A1:C3"/>` ranges of a sheet part. */
function mergedArea(xml: string): number {
  const at = xml.indexOf("<mergeCells");
  if (at < 0) return 0;
  let total = 0;
  for (const m of xml.slice(at).matchAll(/<mergeCell\s+ref="([A-Z]{1,3})(\d{1,7}):([A-Z]{1,3})(\d{1,7})"/g)) {
    const rows = Math.abs(Number(m[4]) - Number(m[2])) + 1;
    const cols = Math.abs(colIndex(m[3]!) - colIndex(m[1]!)) + 1;
    total += rows * cols;
  }
  return total;
}

function colIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

type ExcelCell = import("exceljs").Cell;
type ExcelSheet = import("exceljs").Worksheet;

/** Parses a workbook (also used by the legacy route for xls/ods). */
export async function parseXlsx(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  const options = officeOptions(ctx);
  // exceljs unzips by itself, without limits: every entry is inflated here first,
  // bounded, and every XML part checked for a DTD, so a bomb stops before exceljs runs.
  const zip = OfficeZip.open(bytes, ctx.limits);
  let mergedCells = 0;
  for (const name of zip.names()) {
    if (name.endsWith("/")) continue;
    const bytes = zip.read(name)!;
    if (!/\.(xml|rels)$/i.test(name)) continue;
    const head = new TextDecoder().decode(bytes.subarray(0, 2048));
    if (/<!DOCTYPE|<!ENTITY/i.test(head)) throw new DocParseError(40422, `${name} declares a DTD or entities; refused (entity expansion is disabled)`);
    // exceljs creates an object for every cell of a merged range: one sheet-sized merge
    // is billions of objects. Count merged cells before exceljs sees them.
    if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) {
      mergedCells += mergedArea(new TextDecoder("latin1").decode(bytes));
      if (mergedCells > MAX_MERGED_CELLS) {
        throw new DocParseError(40425, `The workbook merges more than ${MAX_MERGED_CELLS} cells; such merged ranges are not supported`);
      }
    }
  }
  if (!zip.has("xl/workbook.xml")) throw new DocParseError(40422, "The XLSX has no workbook part (xl/workbook.xml)");
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (cause) {
    throw new DocParseError(40422, `The XLSX could not be read: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const sheets = wb.worksheets.filter((ws) => options.include_hidden || ws.state === undefined || ws.state === "visible");
  const pageCount = sheets.length;
  if (ctx.pageRange && ctx.pageRange.some((s) => s.from > pageCount)) {
    throw new DocParseError(40424, `page_range goes beyond the workbook's ${pageCount} sheet(s)`);
  }
  const elements: DraftElement[] = [];
  sheets.forEach((ws, i) => {
    const page = i + 1;
    if (!inPageRange(ctx.pageRange, page)) return;
    if (ctx.signal?.aborted) throw abortError(ctx.signal);
    elements.push({ type: "Title", text: ws.name, headingLevel: 1, page, subType: "sheet_name" });
    const table = sheetTable(ws, options.max_sheet_rows, options.max_sheet_cols);
    if (table) elements.push({ ...table, page });
  });
  // fixedPages: a sheet is a page; it grows instead of flowing onto the next sheet's page.
  return { filetype: XLSX_MIME, pageCount, pages: [], elements, estimatedLayout: true, fixedPages: true };
}

interface Merge {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

function sheetTable(ws: ExcelSheet, maxRows: number, maxCols: number): Omit<DraftElement, "page"> | undefined {
  // Used range: cells with a value, plus merged ranges (a merge may extend past values).
  let top = Infinity;
  let left = Infinity;
  let bottom = 0;
  let right = 0;
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      if (displayText(cell) === "") return;
      top = Math.min(top, r);
      bottom = Math.max(bottom, r);
      left = Math.min(left, c);
      right = Math.max(right, c);
    });
  });
  if (bottom === 0) return undefined;
  const merges = Object.values((ws as unknown as { _merges: Record<string, Merge> })._merges ?? {}).map((m) => ({
    top: m.top,
    left: m.left,
    bottom: m.bottom,
    right: m.right,
  }));
  // A merge whose master holds a value may reach past the last value (a merged title
  // over empty columns); it extends the range, but only by its own (bounded) size.
  for (const m of merges) {
    if (m.top < top || m.top > bottom || m.left < left || m.left > right) continue;
    bottom = Math.max(bottom, Math.min(m.bottom, m.top + MAX_SPAN - 1));
    right = Math.max(right, Math.min(m.right, m.left + MAX_SPAN - 1));
  }
  // Sparse sheets (a value in A1 and one in XFD1048576) must not become a grid of
  // billions of empty cells: cut rows so the grid stays within MAX_TABLE_CELLS.
  const cellCap = Math.max(1, Math.floor(MAX_TABLE_CELLS / Math.min(right - left + 1, maxCols, MAX_TABLE_CELLS)));
  const rowLimit = Math.min(maxRows, cellCap);
  const truncated = bottom - top + 1 > rowLimit || right - left + 1 > maxCols;
  bottom = Math.min(bottom, top + rowLimit - 1);
  right = Math.min(right, left + Math.min(maxCols, MAX_TABLE_CELLS) - 1);
  const masters = new Map<string, Merge>();
  const covered = new Set<string>();
  for (const m of merges) {
    // Only the part of a merge inside the table matters (and hostile merges are huge).
    if (m.top < top || m.top > bottom || m.left < left || m.left > right) continue;
    masters.set(`${m.top},${m.left}`, m);
    const mb = Math.min(m.bottom, bottom);
    const mr = Math.min(m.right, right);
    for (let r = m.top; r <= mb; r++) for (let c = m.left; c <= mr; c++) if (r !== m.top || c !== m.left) covered.add(`${r},${c}`);
  }
  const rows: GridCell[][] = [];
  for (let r = top; r <= bottom; r++) {
    const row = ws.getRow(r);
    const cells: GridCell[] = [];
    for (let c = left; c <= right; c++) {
      if (covered.has(`${r},${c}`)) continue;
      const cell: GridCell = { col: c - left, text: displayText(row.getCell(c)) };
      const m = masters.get(`${r},${c}`);
      if (m) {
        const colSpan = Math.min(m.right, right) - c + 1;
        const rowSpan = Math.min(m.bottom, bottom) - r + 1;
        if (colSpan > 1) cell.colSpan = colSpan;
        if (rowSpan > 1) cell.rowSpan = rowSpan;
      }
      cells.push(cell);
    }
    rows.push(cells);
  }
  const table = buildTable(rows, 1);
  table.cols = right - left + 1;
  const el: Omit<DraftElement, "page"> = { type: "Table", text: tableText(table), table };
  el.metadata = { sheet_name: ws.name, range: `${colName(left)}${top}:${colName(right)}${bottom}` };
  if (truncated) el.metadata.truncated = true;
  return el;
}

function colName(c: number): string {
  let s = "";
  for (let n = c; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/**
 * Built-in formats 14 and 22 mean "the system's short date (and time)", which differs by
 * locale (3/15/2024, 2024/3/15, 15.03.2024); exceljs substitutes US patterns for them
 * (and a broken one for 22). They are shown as ISO dates, which read the same everywhere.
 */
const LOCALE_DATE_FORMATS: Record<string, string> = {
  "mm-dd-yy": "yyyy-mm-dd",
  'm/d/yy "h":mm': "yyyy-mm-dd hh:mm",
};

/** The text Excel shows in a cell. */
export function displayText(cell: ExcelCell): string {
  const fmt = cell.numFmt;
  return valueText(cell.value, fmt ? (LOCALE_DATE_FORMATS[fmt] ?? fmt) : fmt).trim();
}

function valueText(v: unknown, numFmt: string | undefined): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return formatNumber(v, numFmt);
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof Date) return formatDate(v, numFmt);
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as { text?: string }[]).map((t) => t.text ?? "").join("");
    if ("formula" in o || "sharedFormula" in o) return valueText(o.result, numFmt);
    if ("error" in o) return String(o.error);
    if ("text" in o) return valueText(o.text, numFmt);
  }
  return "";
}
