import { describe, expect, it } from "vitest";
import { writerHyphenates } from "../../src/engine/formats/pdf-producer.js";

describe("writerHyphenates", () => {
  it("says browsers, office suites and ReportLab leave words whole; TeX, groff and unknown writers hyphenate", () => {
    expect(writerHyphenates({ Producer: "Skia/PDF m156", Creator: "Mozilla/5.0 HeadlessChrome/156.0.0.0" })).toBe(false);
    expect(writerHyphenates({ Producer: "LibreOffice 7.4", Creator: "Writer" })).toBe(false);
    expect(writerHyphenates({ Producer: "Microsoft® Word for Microsoft 365" })).toBe(false);
    expect(writerHyphenates({ Producer: "ReportLab PDF Library - www.reportlab.com" })).toBe(false);
    expect(writerHyphenates({ Producer: "pdfTeX-1.40.24", Creator: "LaTeX with hyperref" })).toBe(true);
    expect(writerHyphenates({ Producer: "GPL Ghostscript 10.0.0", Creator: "groff version 1.22.4" })).toBe(true);
    expect(writerHyphenates({ Producer: 42 })).toBe(true);
    expect(writerHyphenates(undefined)).toBe(true);
  });
});
