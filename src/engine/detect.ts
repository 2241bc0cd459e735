import type { FormatId } from "./registry.js";

/** What detection found: the handler to use and the media type of the source. */
export interface DetectedFormat {
  format: FormatId;
  /** Media type for `metadata.filetype`, e.g. `application/pdf`, `image/png`. */
  mimeType: string;
}

export const MIME = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
  rtf: "application/rtf",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  txt: "text/plain",
  markdown: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  tiff: "image/tiff",
  webp: "image/webp",
  bmp: "image/bmp",
} as const;

/**
 * Detects a document's format from its content; the filename's extension is only a hint,
 * used where content is ambiguous (text formats, OLE2 containers). Returns undefined
 * for content that is none of the known kinds (→ 40303).
 *
 * Binary signatures always win over the name: a PDF called `a.txt` is a PDF, and text
 * called `a.pdf` is text.
 */
export function detectFormat(bytes: Uint8Array, filename?: string): DetectedFormat | undefined {
  const ext = extensionOf(filename);
  return detectBinary(bytes, ext) ?? detectText(bytes, ext);
}

function detectBinary(b: Uint8Array, ext: string): DetectedFormat | undefined {
  // PDF: the header may follow some junk (the spec allows it in the first 1024 bytes).
  if (indexOfAscii(b, "%PDF-", 0, 1024) >= 0) return { format: "pdf", mimeType: MIME.pdf };
  if (starts(b, [0x50, 0x4b, 0x03, 0x04]) || starts(b, [0x50, 0x4b, 0x05, 0x06])) return detectZip(b, ext);
  if (starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return detectOle(b, ext);
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image(MIME.png);
  if (starts(b, [0xff, 0xd8, 0xff])) return image(MIME.jpeg);
  if (startsAscii(b, "GIF87a") || startsAscii(b, "GIF89a")) return image(MIME.gif);
  if (starts(b, [0x49, 0x49, 0x2a, 0x00]) || starts(b, [0x4d, 0x4d, 0x00, 0x2a])) return image(MIME.tiff);
  if (startsAscii(b, "RIFF") && asciiAt(b, 8, "WEBP")) return image(MIME.webp);
  if (isBmp(b)) return image(MIME.bmp);
  if (startsAscii(b, "{\\rtf")) return { format: "legacy", mimeType: MIME.rtf };
  return undefined;
}

function image(mimeType: string): DetectedFormat {
  return { format: "image", mimeType };
}

// "BM" is only two bytes: also require the header's size field to fit and the reserved
// fields to be zero, so a text file starting with "BM" is not taken for a bitmap.
function isBmp(b: Uint8Array): boolean {
  if (b.length < 26 || b[0] !== 0x42 || b[1] !== 0x4d) return false;
  const size = u32le(b, 2);
  const reserved = u32le(b, 6);
  const dataOffset = u32le(b, 10);
  return reserved === 0 && size >= 26 && size <= b.length + 1024 && dataOffset < b.length;
}

/** OOXML: decide by the part names inside the zip (word/, xl/, ppt/); ODF by its mimetype entry. */
function detectZip(b: Uint8Array, ext: string): DetectedFormat | undefined {
  const names = zipEntryNames(b);
  const has = (prefix: string) => names.some((n) => n.startsWith(prefix));
  if (has("word/")) return { format: "docx", mimeType: MIME.docx };
  if (has("xl/")) return { format: "xlsx", mimeType: MIME.xlsx };
  if (has("ppt/")) return { format: "pptx", mimeType: MIME.pptx };
  // ODF stores its media type uncompressed as the first entry, right after the header.
  const odf = indexOfAscii(b, "application/vnd.oasis.opendocument.", 30, 200);
  if (odf >= 0) {
    const kind = ascii(b, odf + 35, odf + 47);
    if (kind.startsWith("text")) return { format: "legacy", mimeType: MIME.odt };
    if (kind.startsWith("spreadsheet")) return { format: "legacy", mimeType: MIME.ods };
    if (kind.startsWith("presentation")) return { format: "legacy", mimeType: MIME.odp };
  }
  void ext;
  return undefined;
}

/**
 * Entry names of a zip, from its central directory (found through the end-of-central-
 * directory record in the last 64 KiB). Falls back to walking local headers when the
 * directory is missing (a truncated upload).
 */
export function zipEntryNames(b: Uint8Array, limit = 10_000): string[] {
  const names: string[] = [];
  const eocd = lastIndexOf(b, [0x50, 0x4b, 0x05, 0x06], Math.max(0, b.length - 65_557));
  if (eocd >= 0 && eocd + 22 <= b.length) {
    const count = u16le(b, eocd + 10);
    let p = u32le(b, eocd + 16);
    for (let i = 0; i < count && i < limit && p + 46 <= b.length; i++) {
      if (u32le(b, p) !== 0x02014b50) break;
      const nameLen = u16le(b, p + 28);
      const extraLen = u16le(b, p + 30);
      const commentLen = u16le(b, p + 32);
      names.push(utf8(b.subarray(p + 46, p + 46 + nameLen)));
      p += 46 + nameLen + extraLen + commentLen;
    }
    if (names.length > 0) return names;
  }
  let p = 0;
  while (p + 30 <= b.length && names.length < limit && u32le(b, p) === 0x04034b50) {
    const size = u32le(b, p + 18);
    const nameLen = u16le(b, p + 26);
    const extraLen = u16le(b, p + 28);
    names.push(utf8(b.subarray(p + 30, p + 30 + nameLen)));
    // Size 0 with a data descriptor means the size is unknown here: stop walking.
    if (size === 0 && (u16le(b, p + 6) & 0x08) !== 0) break;
    p += 30 + nameLen + extraLen + size;
  }
  return names;
}

/** OLE2 (doc/xls/ppt): the directory holds UTF-16 stream names that say which one it is. */
function detectOle(b: Uint8Array, ext: string): DetectedFormat | undefined {
  const window = b.subarray(0, Math.min(b.length, 4 * 1024 * 1024));
  if (indexOfUtf16(window, "WordDocument") >= 0) return { format: "legacy", mimeType: MIME.doc };
  if (indexOfUtf16(window, "Workbook") >= 0 || indexOfUtf16(window, "Book") >= 0) return { format: "legacy", mimeType: MIME.xls };
  if (indexOfUtf16(window, "PowerPoint Document") >= 0) return { format: "legacy", mimeType: MIME.ppt };
  const byExt: Record<string, string> = { doc: MIME.doc, xls: MIME.xls, ppt: MIME.ppt };
  const mime = byExt[ext];
  return mime ? { format: "legacy", mimeType: mime } : undefined;
}

/** Text formats: the extension picks among them; without one, the content is sniffed. */
function detectText(b: Uint8Array, ext: string): DetectedFormat | undefined {
  if (!looksLikeText(b)) return undefined;
  switch (ext) {
    case "md":
    case "markdown":
    case "mdown":
    case "mkd":
      return { format: "markdown", mimeType: MIME.markdown };
    case "csv":
    case "tsv":
      return { format: "csv", mimeType: MIME.csv };
    case "html":
    case "htm":
    case "xhtml":
      return { format: "html", mimeType: MIME.html };
    case "txt":
    case "text":
    case "log":
      return { format: "txt", mimeType: MIME.txt };
  }
  const head = new TextDecoder("utf-8").decode(b.subarray(0, 4096));
  if (looksLikeHtml(head)) return { format: "html", mimeType: MIME.html };
  if (looksLikeMarkdown(head)) return { format: "markdown", mimeType: MIME.markdown };
  if (looksLikeCsv(head)) return { format: "csv", mimeType: MIME.csv };
  return { format: "txt", mimeType: MIME.txt };
}

function looksLikeHtml(head: string): boolean {
  const start = head.replace(/^\uFEFF/, "").trimStart().slice(0, 512).toLowerCase();
  return /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/.test(start) || (start.startsWith("<?xml") && start.includes("<html"));
}

// Markdown without an extension: require an ATX heading plus a second structural
// marker, so a `# comment` line alone does not turn a text file into Markdown.
function looksLikeMarkdown(head: string): boolean {
  const headings = head.match(/^#{1,6} \S/gm)?.length ?? 0;
  const fence = /^(```|~~~)/m.test(head);
  const table = /^\|.*\|[ \t]*\n\|[ \t:|-]+\|[ \t]*$/m.test(head);
  const link = /\[[^\]\n]+\]\([^)\s]+\)/.test(head);
  return (headings > 0 && (fence || table || link || headings >= 2)) || (fence && table);
}

// CSV without an extension: at least three lines, every one with the same number (≥ 1)
// of commas outside quotes. Prose commas never line up like that for long.
function looksLikeCsv(head: string): boolean {
  const lines = head.split(/\r?\n/).slice(0, 20);
  if (head.length >= 4096) lines.pop(); // the last line may be cut
  const full = lines.filter((l) => l.trim());
  if (full.length < 3 || full.some((l) => l.length > 2000)) return false;
  const commas = full.map((l) => l.replace(/"[^"]*"/g, "").split(",").length - 1);
  return commas[0]! >= 1 && commas.every((n) => n === commas[0]);
}

/**
 * Text or binary: a BOM says text; NUL bytes (outside a UTF-16 pattern) or many control
 * characters say binary. Decided on the first 8 KiB.
 */
export function looksLikeText(b: Uint8Array): boolean {
  if (starts(b, [0xef, 0xbb, 0xbf]) || starts(b, [0xff, 0xfe]) || starts(b, [0xfe, 0xff])) return true;
  const n = Math.min(b.length, 8192);
  if (n === 0) return false;
  let nulEven = 0;
  let nulOdd = 0;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0) {
      if (i % 2 === 0) nulEven++;
      else nulOdd++;
    } else if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) control++;
  }
  // UTF-16 without a BOM: ASCII-range text has a NUL in every other byte, on one side only.
  const half = n / 2;
  if ((nulOdd > half * 0.3 && nulEven < half * 0.02) || (nulEven > half * 0.3 && nulOdd < half * 0.02)) return true;
  if (nulEven + nulOdd > 0) return false;
  return control / n < 0.05;
}

function extensionOf(filename: string | undefined): string {
  if (!filename) return "";
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

function starts(b: Uint8Array, sig: readonly number[]): boolean {
  if (b.length < sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[i] !== sig[i]) return false;
  return true;
}

function startsAscii(b: Uint8Array, s: string): boolean {
  return asciiAt(b, 0, s);
}

function asciiAt(b: Uint8Array, at: number, s: string): boolean {
  if (b.length < at + s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));
}

function indexOfAscii(b: Uint8Array, s: string, from: number, within: number): number {
  const end = Math.min(b.length - s.length, from + within);
  for (let i = from; i <= end; i++) if (asciiAt(b, i, s)) return i;
  return -1;
}

function indexOfUtf16(b: Uint8Array, s: string): number {
  const needle = Buffer.from(s, "utf16le");
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).indexOf(needle);
}

function lastIndexOf(b: Uint8Array, sig: readonly number[], floor: number): number {
  for (let i = b.length - sig.length; i >= floor; i--) {
    let ok = true;
    for (let j = 0; j < sig.length; j++) {
      if (b[i + j] !== sig[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return i;
  }
  return -1;
}

function u16le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function u32le(b: Uint8Array, at: number): number {
  return (u16le(b, at) | (u16le(b, at + 2) << 16)) >>> 0;
}

function utf8(b: Uint8Array): string {
  return new TextDecoder("utf-8").decode(b);
}
