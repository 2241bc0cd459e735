/**
 * Valid PDFs the fuzz driver (`fuzz.ts`) mutates, one per writer: pdf-lib (outline,
 * image, rules), LibreOffice (bookmarks, table, object and xref streams), Chromium
 * (tagged: a StructTreeRoot with a table), pdflatex (Type 1 fonts, two columns). Written
 * once to `dir` and read from there on later runs; a writer missing on this machine is
 * left out with a note.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TWO_COLUMN_PAPER, buildPdf, chromiumPdf, latexPdf, prose, sofficePdf } from "../../support/pdf-fixtures.js";
import { missing, type SystemPart } from "../../support/system.js";

const TABLE_HTML = `<html><body><h1>Quarterly report</h1><p>${prose(3, 60)}</p>
<h2>Figures</h2><table border="1"><thead><tr><th>Region</th><th>Q1</th><th>Q2</th></tr></thead>
<tbody><tr><td>North</td><td>12</td><td>14</td></tr><tr><td>South</td><td>9</td><td>11</td></tr></tbody></table>
<ul><li>First point</li><li>Second point</li></ul><p>${prose(4, 80)}</p></body></html>`;

interface SeedWriter {
  name: string;
  needs: SystemPart[];
  make(): Promise<Uint8Array>;
}

const WRITERS: SeedWriter[] = [
  {
    name: "pdflib",
    needs: [],
    make: () =>
      buildPdf(
        [
          {
            texts: [
              { text: "Fuzz seed title", x: 72, y: 72, size: 20, font: "bold" },
              { text: prose(1, 12), x: 72, y: 110 },
              { text: prose(2, 12), x: 72, y: 126 },
              { text: "Rotated note", x: 500, y: 400, rotate: 90 },
            ],
            lines: [{ x0: 72, y0: 200, x1: 540, y1: 200 }],
            images: [{ x: 72, y: 240, width: 200, height: 120 }],
          },
          { texts: [{ text: "Second page heading", x: 72, y: 72, size: 16, font: "bold" }, { text: prose(5, 12), x: 72, y: 100, font: "serif" }] },
        ],
        { outline: [{ title: "Fuzz seed title", depth: 0, page: 0 }, { title: "Second page heading", depth: 1, page: 1 }] },
      ),
  },
  { name: "soffice", needs: ["soffice"], make: () => sofficePdf(TABLE_HTML) },
  { name: "chromium", needs: ["chromium"], make: () => chromiumPdf(TABLE_HTML) },
  { name: "pdflatex", needs: ["pdflatex"], make: () => latexPdf(TWO_COLUMN_PAPER) },
];

/** The seed PDFs by writer name, made (or read from `dir`). */
export async function fuzzSeeds(dir: string): Promise<Map<string, Uint8Array>> {
  mkdirSync(dir, { recursive: true });
  const seeds = new Map<string, Uint8Array>();
  for (const w of WRITERS) {
    const file = join(dir, `${w.name}.pdf`);
    if (existsSync(file)) {
      seeds.set(w.name, new Uint8Array(readFileSync(file)));
      continue;
    }
    if (missing(...w.needs)) {
      console.error(`seed ${w.name}: skipped (${w.needs.join(", ")} not installed)`);
      continue;
    }
    const bytes = await w.make();
    writeFileSync(file, bytes);
    seeds.set(w.name, bytes);
  }
  return seeds;
}
