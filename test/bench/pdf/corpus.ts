import { buildPdf, column, prose, type PageSpec, type TextSpec } from "../../support/pdf-fixtures.js";

/**
 * A generated report of `pages` pages, the same every run: running header and footer,
 * headings, prose in one or two columns, a ruled table every fifth page, a list.
 */
export async function benchPdf(pages: number): Promise<Uint8Array> {
  const specs: PageSpec[] = [];
  for (let n = 1; n <= pages; n++) {
    const texts: TextSpec[] = [
      { text: "Benchmark Corp - Annual Technical Report", x: 50, y: 28, size: 8 },
      { text: `Section ${n}: Findings and methods`, x: 50, y: 60, size: 16, font: "bold" },
    ];
    const lines: NonNullable<PageSpec["lines"]> = [];
    if (n % 2 === 0) {
      texts.push(...column([prose(n, 90), prose(n + 1, 80), prose(n + 2, 70)], 50, 100, { chars: 44 }).texts);
      texts.push(...column([prose(n + 3, 90), prose(n + 4, 100)], 320, 100, { chars: 44 }).texts);
    } else {
      texts.push(...column([prose(n, 120), prose(n + 1, 90)], 50, 100, { chars: 95 }).texts);
      texts.push({ text: "\u2022 first finding of the section", x: 60, y: 330 }, { text: "\u2022 second finding of the section", x: 60, y: 346 });
      texts.push(...column([prose(n + 5, 100)], 50, 380, { chars: 95 }).texts);
    }
    if (n % 5 === 0) {
      const x0 = 50;
      const widths = [150, 100, 100, 100];
      const y0 = 620;
      for (let r = 0; r <= 6; r++) lines.push({ x0, y0: y0 + r * 20, x1: x0 + 450, y1: y0 + r * 20 });
      let x = x0;
      lines.push({ x0: x, y0, x1: x, y1: y0 + 120 });
      for (const w of widths) {
        x += w;
        lines.push({ x0: x, y0, x1: x, y1: y0 + 120 });
      }
      for (let r = 0; r < 6; r++) {
        let cx = x0;
        for (let c = 0; c < 4; c++) {
          texts.push({ text: r === 0 ? `Column ${c + 1}` : `${(r * 17 + c * 31 + n) % 1000}`, x: cx + 4, y: y0 + r * 20 + 5, size: 10 });
          cx += widths[c]!;
        }
      }
    }
    texts.push({ text: `Page ${n}`, x: 290, y: 760, size: 8 });
    specs.push({ texts, lines });
  }
  return buildPdf(specs);
}
