/**
 * Character classes the layout and text handlers share. CJK text has no spaces between
 * words: it wraps at any character, joins lines without a space, and each character is
 * as wide as a full em.
 */

// CJK unified ideographs (+ext A, compatibility), kana, hangul, CJK punctuation and
// full-width forms: everything East Asian typesetting sets on a full-width grid.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** True for a character set full width (CJK ideographs, kana, hangul, full-width forms). */
export function isWide(ch: string): boolean {
  return WIDE.test(ch);
}

/** True when the string contains any CJK (wide) character. */
export function hasWide(text: string): boolean {
  return WIDE.test(text);
}

/** Width of one character in ems: wide characters 1, others ~0.5 (a proportional-font average). */
export function charEm(ch: string): number {
  if (isWide(ch)) return 1;
  if (ch === " ") return 0.28;
  return 0.52;
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
