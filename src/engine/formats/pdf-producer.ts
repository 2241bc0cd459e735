/**
 * Whether a PDF's writer breaks words across lines with a hyphen of its own. TeX, groff,
 * InDesign and the like hyphenate by default: a hyphen at a line's end before a lower-case
 * letter is theirs, and the word is joined again (`docu-` + `ments`). Browsers (Skia's
 * "Save as PDF", wkhtmltopdf), office suites and ReportLab hyphenate only when asked, so
 * such a hyphen is the word's own (`state-` + `funded` is `state-funded`). Writers not
 * named here are taken to hyphenate, as before.
 */
export function writerHyphenates(info: { Producer?: unknown; Creator?: unknown } | undefined): boolean {
  const names = [info?.Producer, info?.Creator].filter((v): v is string => typeof v === "string").join(" ");
  return !NO_HYPHENATION.test(names);
}

/** Writers that leave words whole unless told to hyphenate. */
const NO_HYPHENATION =
  /Skia\/PDF|Chromium|HeadlessChrome|Firefox|Safari|TextEdit|wkhtmltopdf|\bQt\b|WeasyPrint|Prince|LibreOffice|OpenOffice|Microsoft.{0,12}(?:Word|Excel|PowerPoint|Office|Print To PDF)|PDFMaker.{0,20}(?:Word|Excel|PowerPoint)|WPS|ReportLab|Google Docs|mPDF|dompdf|TCPDF|iText|PDFsharp|Apache FOP/i;
