import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

/** A line of text drawn at a known place, with its box as fractions of the page. */
export interface PlacedLine {
  text: string;
  page: number;
  /** [x0, y0, x1, y1], fractions of the page, origin top-left. */
  rect: [number, number, number, number];
}

export const PAGE_W = 612;
export const PAGE_H = 792;

/**
 * A two-page PDF whose every line position is known: a heading and three one-line
 * paragraphs far apart on page 1, one paragraph on page 2. Each paragraph is its own
 * block, so a parser makes one element of each.
 */
export async function makePolicyPdf(): Promise<{ bytes: Uint8Array; lines: PlacedLine[] }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const lines: PlacedLine[] = [];
  const draw = (pageIndex: number, text: string, x: number, baseline: number, size: number, f = font) => {
    const page = doc.getPage(pageIndex);
    page.drawText(text, { x, y: baseline, size, font: f, color: rgb(0, 0, 0) });
    const width = f.widthOfTextAtSize(text, size);
    const ascent = f.heightAtSize(size, { descender: false });
    const descent = f.heightAtSize(size) - ascent;
    lines.push({
      text,
      page: pageIndex + 1,
      rect: [x / PAGE_W, (PAGE_H - baseline - ascent) / PAGE_H, (x + width) / PAGE_W, (PAGE_H - baseline + descent) / PAGE_H],
    });
  };
  doc.addPage([PAGE_W, PAGE_H]);
  doc.addPage([PAGE_W, PAGE_H]);
  draw(0, "Refund Policy", 72, 700, 24, bold);
  draw(0, "Customers may return any product they bought from us.", 72, 620, 14);
  draw(0, "Refunds are accepted within thirty days of purchase.", 72, 480, 14);
  draw(0, "Gift cards can be exchanged but never paid out.", 72, 340, 14);
  draw(1, "Warranty claims are handled by the manufacturer directly.", 72, 650, 14);
  return { bytes: await doc.save(), lines };
}
