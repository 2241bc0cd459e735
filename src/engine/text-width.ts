/**
 * Character classes the layout and text handlers share. CJK text has no spaces between
 * words: it wraps at any character, joins lines without a space, and each character is
 * as wide as a full em.
 */

// CJK unified ideographs (+ext A, compatibility), kana, hangul, CJK punctuation and
// full-width forms: everything East Asian typesetting sets on a full-width grid.
// Plain range checks: this runs once per character of every document laid out.
function wideCode(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3000 && c <= 0x33ff && c !== 0x303f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0x2fff) ||
    (c >= 0xa000 && c <= 0xa4cf) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xffe0 && c <= 0xffe6)
  );
}

const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** True for a character set full width (CJK ideographs, kana, hangul, full-width forms). */
export function isWide(ch: string): boolean {
  return ch.length > 0 && wideCode(ch.charCodeAt(0));
}

/** True when the string contains any CJK (wide) character. */
export function hasWide(text: string): boolean {
  return WIDE.test(text);
}

/**
 * Width of one character in ems: wide characters 1; Latin close to DejaVu Sans (the
 * font estimated page images are drawn with), so a box fits the text it holds.
 */
export function charEm(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c >= 0x1100) return wideCode(c) ? 1 : 0.6;
  if (c === 0x20) return 0.32;
  if (c >= 0x61 && c <= 0x7a) return LOWER[c - 0x61]!;
  if (c >= 0x41 && c <= 0x5a) return UPPER[c - 0x41]!;
  if (c >= 0x30 && c <= 0x39) return 0.64;
  if (c === 0x2e || c === 0x2c || c === 0x3a || c === 0x3b || c === 0x27 || c === 0x21 || c === 0x7c) return 0.33;
  if (c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x2d) return 0.39;
  return 0.6;
}

// DejaVu Sans advance widths (ems), a..z and A..Z.
const LOWER = [0.61, 0.63, 0.55, 0.63, 0.62, 0.35, 0.63, 0.63, 0.28, 0.28, 0.58, 0.28, 0.97, 0.63, 0.6, 0.63, 0.63, 0.41, 0.52, 0.39, 0.63, 0.59, 0.82, 0.59, 0.59, 0.53];
const UPPER = [0.68, 0.69, 0.7, 0.77, 0.63, 0.58, 0.78, 0.75, 0.3, 0.3, 0.66, 0.56, 0.86, 0.75, 0.79, 0.6, 0.79, 0.69, 0.63, 0.61, 0.73, 0.68, 0.99, 0.69, 0.61, 0.69];

// East Asian line breaking (kinsoku): these never start a line.
const NO_BREAK_BEFORE = new Set([..."。，、；：！？）」』】〕〉》”’．，・ー…—%)]}"]);

/** Whether a line may break right before this character. */
export function canBreakBefore(ch: string): boolean {
  return !NO_BREAK_BEFORE.has(ch);
}

/**
 * The separator for joining two pieces of one paragraph: nothing when either side is CJK
 * (no spaces between CJK words), a space otherwise.
 */
export function joinSeparator(before: string, after: string): string {
  const a = before.at(-1) ?? "";
  const b = after[0] ?? "";
  if (!a || !b) return "";
  return isWide(a) || isWide(b) ? "" : " ";
}

/** Joins hard-wrapped lines of one paragraph, with the CJK-aware separator. */
export function joinLines(lines: readonly string[]): string {
  let out = "";
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    out = out ? out + joinSeparator(out, line) + line : line;
  }
  return out;
}
