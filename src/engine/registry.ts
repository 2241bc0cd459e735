import type { FormatHandler } from "./draft.js";

/**
 * Format id → lazy loader of its handler. Handlers live in `formats/<id>.ts` and are
 * imported only when a document of that format is parsed, so importing the engine
 * loads no format library. Detection (`detect.ts`) maps bytes + filename to an id.
 */
export type FormatId =
  | "txt"
  | "markdown"
  | "pdf"
  | "docx"
  | "xlsx"
  | "csv"
  | "pptx"
  | "html"
  | "image"
  | "legacy";

export const FORMAT_LOADERS: Partial<Record<FormatId, () => Promise<FormatHandler>>> = {
  // Each format adds its line when its handler lands, e.g.
  // pdf: async () => (await import("./formats/pdf.js")).pdfFormat,
  pdf: async () => (await import("./formats/pdf.js")).pdfFormat,
  txt: async () => (await import("./formats/text.js")).textFormat,
  markdown: async () => (await import("./formats/markdown.js")).markdownFormat,
  docx: async () => (await import("./formats/docx.js")).docxFormat,
  xlsx: async () => (await import("./formats/xlsx.js")).xlsxFormat,
  csv: async () => (await import("./formats/csv.js")).csvFormat,
  pptx: async () => (await import("./formats/pptx.js")).pptxFormat,
  html: async () => (await import("./formats/html.js")).htmlFormat,
  image: async () => (await import("./formats/image.js")).imageFormat,
  legacy: async () => (await import("./formats/legacy.js")).legacyFormat,
};
