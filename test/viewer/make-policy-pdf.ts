import { PDFDocument, StandardFonts, degrees, rgb } from "pdf-lib";

/** A line of text drawn at a known place, with its box as fractions of the page. */
export interface PlacedLine {
  text: string;
  page: number;
  /** [x0, y0, x1, y1], fractions of the page, origin top-left. */
  rect: [number, number, number, number];
  /** Boxes of named parts of the line (same form as `rect`). */
  parts?: Record<string, [number, number, number, number]>;
}

export const PAGE_W = 612;
export const PAGE_H = 792;

/**
 * A two-page PDF whose every line position is known: a heading and four one-line
 * paragraphs far apart on page 1 (the last holds two sentences), one paragraph on page 2.
 * Each paragraph is its own block, so a parser makes one element of each. `lines` is in
 * drawing order: heading, three paragraphs, the page-2 paragraph, the two-sentence line.
 */
export async function makePolicyPdf(): Promise<{ bytes: Uint8Array; lines: PlacedLine[] }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const lines: PlacedLine[] = [];
  const draw = (pageIndex: number, text: string, x: number, baseline: number, size: number, f = font, parts: string[] = []) => {
    const page = doc.getPage(pageIndex);
    page.drawText(text, { x, y: baseline, size, font: f, color: rgb(0, 0, 0) });
    const width = f.widthOfTextAtSize(text, size);
    const ascent = f.heightAtSize(size, { descender: false });
    const descent = f.heightAtSize(size) - ascent;
    const y0 = (PAGE_H - baseline - ascent) / PAGE_H;
    const y1 = (PAGE_H - baseline + descent) / PAGE_H;
    const placed: PlacedLine = { text, page: pageIndex + 1, rect: [x / PAGE_W, y0, (x + width) / PAGE_W, y1] };
    for (const part of parts) {
      const at = text.indexOf(part);
      const px0 = x + f.widthOfTextAtSize(text.slice(0, at), size);
      const px1 = px0 + f.widthOfTextAtSize(part, size);
      (placed.parts ??= {})[part] = [px0 / PAGE_W, y0, px1 / PAGE_W, y1];
    }
    lines.push(placed);
  };
  doc.addPage([PAGE_W, PAGE_H]);
  doc.addPage([PAGE_W, PAGE_H]);
  draw(0, "Refund Policy", 72, 700, 24, bold);
  draw(0, "Customers may return any product they bought from us.", 72, 620, 14);
  draw(0, "Refunds are accepted within thirty days of purchase.", 72, 480, 14);
  draw(0, "Gift cards can be exchanged but never paid out.", 72, 340, 14);
  draw(1, "Warranty claims are handled by the manufacturer directly.", 72, 650, 14);
  // Two sentences on one line: only char_details can tell where the second one starts.
  const hours = "Opening hours are nine to six.";
  const receipt = "Returns need the original receipt.";
  draw(0, `${hours} ${receipt}`, 72, 200, 14, font, [hours, receipt]);
  return { bytes: await doc.save(), lines };
}

/**
 * A one-page PDF whose page is turned by `/Rotate 90` with its text drawn turned the other
 * way, so it reads upright on a landscape page (what pdflscape and scanners write).
 * `line.rect` is where the line shows, in fractions of the page as displayed.
 */
export async function makeRotatedPdf(): Promise<{ bytes: Uint8Array; line: PlacedLine }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE_W, PAGE_H]);
  page.setRotation(degrees(90));
  const text = "Spare parts are listed by their catalogue number.";
  const size = 14;
  // Display point (xd, yd) of the turned page is PDF point (yd, xd): the baseline starts
  // 72 pt from the displayed left edge, 200 pt below the displayed top.
  const xd = 72;
  const yd = 200;
  page.drawText(text, { x: yd, y: xd, size, font, rotate: degrees(90), color: rgb(0, 0, 0) });
  const width = font.widthOfTextAtSize(text, size);
  const ascent = font.heightAtSize(size, { descender: false });
  const descent = font.heightAtSize(size) - ascent;
  // Displayed, the page is PAGE_H wide and PAGE_W tall.
  const rect: [number, number, number, number] = [xd / PAGE_H, (yd - ascent) / PAGE_W, (xd + width) / PAGE_H, (yd + descent) / PAGE_W];
  return { bytes: await doc.save(), line: { text, page: 1, rect } };
}
