/** How the bytes of a text file were decoded. */
export interface DecodedText {
  text: string;
  /** `utf-8`, `utf-16le`, `utf-16be`, `gb18030` or `windows-1252`. */
  encoding: string;
  /** True when a byte order mark was present (and removed). */
  bom: boolean;
}

/**
 * Decodes a text file whose encoding is not declared. In order: a BOM (UTF-8, UTF-16
 * LE/BE); UTF-16 without a BOM (NULs on alternate bytes); strict UTF-8; GB18030 when the
 * bytes decode strictly as it and mostly give CJK (Chinese users' legacy files); else
 * windows-1252 (what browsers mean by Latin-1), which maps every byte, so this never
 * fails: invalid sequences become U+FFFD instead of an exception.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)), encoding: "utf-8", bom: true };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "utf-16le", bom: true };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)), encoding: "utf-16be", bom: true };
  }
  // Before UTF-8: ASCII text in UTF-16 is also "valid" UTF-8, full of NULs.
  const utf16 = utf16WithoutBom(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), encoding: utf16, bom: false };
  const strictUtf8 = tryDecode("utf-8", bytes);
  if (strictUtf8 !== undefined) return { text: strictUtf8, encoding: "utf-8", bom: false };
  const gb = tryDecode("gb18030", bytes);
  if (gb !== undefined && mostlyCjk(gb)) return { text: gb, encoding: "gb18030", bom: false };
  return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252", bom: false };
}

function tryDecode(label: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function utf16WithoutBom(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  const n = Math.min(bytes.length, 8192) & ~1;
  if (n < 4) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i++) if (bytes[i] === 0) i % 2 === 0 ? even++ : odd++;
  const half = n / 2;
  if (odd > half * 0.3 && even < half * 0.02) return "utf-16le";
  if (even > half * 0.3 && odd < half * 0.02) return "utf-16be";
  return undefined;
}

// A Latin-1 file can decode "validly" as GB18030 by accident; real Chinese text gives
// mostly CJK characters among the non-ASCII ones.
function mostlyCjk(text: string): boolean {
  let nonAscii = 0;
  let cjk = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) continue;
    nonAscii++;
    if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xffef)) cjk++;
  }
  return nonAscii > 0 && cjk / nonAscii >= 0.8;
}

/**
 * Normalises decoded text for the text handlers: CRLF/CR → LF, and drops control
 * characters other than tab/newline/form feed (NULs from a bad decode, escape codes).
 */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\u2028|\u2029/g, "\n")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, "");
}
