/** Style facts about a PDF font, read from its name (subset prefix removed). */
export interface FontStyle {
  bold: boolean;
  italic: boolean;
  mono: boolean;
  math: boolean;
}

const BOLD = /bold|black|heavy|semibold|demibold|demi\b|[-,]b\b|\bw[6-9]\b|cmbx|cmb\d/i;
const ITALIC = /italic|oblique|cmti|cmsl/i;
const MONO = /courier|mono|nimbusmon|consol|menlo|inconsolata|sourcecodepro|fixed|typewriter|cmtt|lmmono|sfmono|andale|lucidaconsole/i;
// TeX math fonts and the OpenType math fonts Word and LaTeX use for formulas.
const MATH = /^(?:cmmi|cmsy|cmex|msam|msbm|eufm|rsfs|lmmath|latinmodernmath|cambriamath|cambria-math|stixmath|stixtwomath|xitsmath|asanamath|texgyre\w*math|mathematicalpi|euclid|mtmi|mtsy|rtxmi|ntxmi|txmi|txsy|pxmi|pxsy)/i;

/** Classifies a font by name; `monospace` is pdfjs' own flag when it has one. */
export function fontStyle(name: string | undefined, monospace = false): FontStyle {
  const n = (name ?? "").replace(/^[A-Z]{6}\+/, "");
  return { bold: BOLD.test(n), italic: ITALIC.test(n), mono: monospace || MONO.test(n), math: MATH.test(n) };
}

/**
 * TeX's math extension fonts (Computer Modern's `cmex`, Latin Modern's `lmex`): big
 * operators, radicals and delimiters, and the pieces tall ones are built from. Their
 * glyph names are none Unicode knows (`summationdisplay`), so without a ToUnicode map
 * pdfjs reads a glyph as its code's character: ∑ as `X`, √ as `p`.
 */
const MATH_EXTENSION = /^(?:cmex|lmex)\d/i;

/** Whether a font (by name, subset prefix removed) is TeX's math extension font. */
export const isMathExtension = (name: string | undefined): boolean => MATH_EXTENSION.test((name ?? "").replace(/^[A-Z]{6}\+/, ""));

// Big operators, text and display sizes (0x46–0x61), and radicals (0x70–0x73).
const OPERATORS = "⨆⨆∮∮⨀⨀⨁⨁⨂⨂∑∏∫⋃⋂⨄⋀⋁∑∏∫⋃⋂⨄⋀⋁∐∐";

/**
 * What a glyph of TeX's math extension font stands for: a big operator (`∑`, `∏`, `∫`:
 * codes 0x46–0x61, text and display sizes) or a radical (`√`, 0x70–0x73); else nothing.
 * Its delimiters (`\big(` to `\Bigg]`), the pieces tall delimiters, radicals and arrows
 * are built from, and its wide accents are read as blank space, as control characters
 * are: a formula's big brackets, each on a row of its own or spanning several, are
 * layout more than text, and read as characters they part a display into columns.
 */
export function mathExtensionText(code: number): string {
  if (code >= 0x46 && code <= 0x61) return OPERATORS[code - 0x46]!;
  if (code >= 0x70 && code <= 0x73) return "√";
  return "";
}
