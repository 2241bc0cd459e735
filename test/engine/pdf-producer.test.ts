import { describe, expect, it } from "vitest";
import { writerHyphenates } from "../../src/engine/formats/pdf-producer.js";

describe("writerHyphenates", () => {
  it("says browsers, office suites and ReportLab leave words whole; TeX, groff and unknown writers hyphenate", () => {
    expect(writerHyphenates({ Producer: "Skia/PDF m156", Creator: "Mozilla/5.0 HeadlessChrome/156.0.0.0" })).toBe(false);
    expect(writerHyphenates({ Producer: "LibreOffice 7.4", Creator: "Writer" })).toBe(false);
    expect(writerHyphenates({ Producer: "Microsoft® Word for Microsoft 365" })).toBe(false);
    expect(writerHyphenates({ Producer: "ReportLab PDF Library - www.reportlab.com" })).toBe(false);
    for (const Producer of ["Acrobat PDFMaker 23 for Word", "cairo 1.18.0 (https://cairographics.org)", "macOS Version 14.4 Quartz PDFContext", "WeasyPrint 61.2", "Prince 15", "Microsoft: Print To PDF", "iText® 7.2.5", "PDFsharp 6.0", "Apache FOP Version 2.9", "mPDF 8.2"]) {
      expect(writerHyphenates({ Producer, Creator: Producer.startsWith("cairo") ? "Mozilla Firefox" : Producer.startsWith("macOS") ? "Safari" : undefined }), Producer).toBe(false);
    }
    expect(writerHyphenates({ Producer: "pdfTeX-1.40.24", Creator: "LaTeX with hyperref" })).toBe(true);
    expect(writerHyphenates({ Producer: "Adobe PDF Library 17.0", Creator: "Adobe InDesign 19.0" })).toBe(true);
    expect(writerHyphenates({ Producer: "GPL Ghostscript 10.0.0", Creator: "groff version 1.22.4" })).toBe(true);
    expect(writerHyphenates({ Producer: 42 })).toBe(true);
    expect(writerHyphenates(undefined)).toBe(true);
  });
});
