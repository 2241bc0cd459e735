/*
 * Accents drawn as glyphs of their own over a letter: pdflatex without `fontenc` (OT1)
 * draws `\'o` as the spacing acute `´` moved back over an `o`, and a capital's accent
 * raised on its own (`\'E`). Read one glyph after the other they spell `Krak´ow`; the
 * letter takes the accent instead (`Kraków`), as poppler reads it.
 */

/** The combining mark of each spacing accent a font may draw over a letter. */
const COMBINING = new Map<number, string>([
  [0x60, "\u0300"], // ` grave
  [0xb4, "\u0301"], // ´ acute
  [0x2c6, "\u0302"], // ˆ circumflex
  [0x5e, "\u0302"], // ^ circumflex
  [0x2dc, "\u0303"], // ˜ tilde
  [0x7e, "\u0303"], // ~ tilde
  [0xaf, "\u0304"], // ¯ macron
  [0x2c9, "\u0304"], // ˉ macron
  [0x2d8, "\u0306"], // ˘ breve
  [0x2d9, "\u0307"], // ˙ dot above
  [0xa8, "\u0308"], // ¨ diaeresis
  [0x2da, "\u030a"], // ˚ ring above
  [0x2dd, "\u030b"], // ˝ double acute
  [0x2c7, "\u030c"], // ˇ caron
  [0xb8, "\u0327"], // ¸ cedilla
  [0x2db, "\u0328"], // ˛ ogonek
]);

/** The combining mark for a character code that is a spacing accent, if it is one. */
export const combiningMark = (code: number): string | undefined => COMBINING.get(code);

/**
 * `letter` with the accent `mark` (a combining mark) on it, composed where Unicode has the
 * letter (`o` + acute → `ó`; TeX's dotless `ı` + diaeresis → `ï`).
 */
export function accented(letter: string, mark: string): string {
  const base = letter === "\u0131" && mark !== "\u0307" ? "i" : letter === "\u0237" ? "j" : letter;
  return (base + mark).normalize("NFC");
}
