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
