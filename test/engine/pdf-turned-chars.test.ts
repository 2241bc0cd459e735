import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rectOf } from "../../src/chunk/rect.js";
import { LocalParser } from "../../src/engine/index.js";
import type { Element } from "../../src/wire/index.js";
import { latexPdf, popplerWords, randomProse } from "../support/pdf-fixtures.js";
import { DEBIAN_PYTHON, missing } from "../support/system.js";

/**
 * Character boxes (`char_details`) on pages turned by /Rotate, checked against poppler's
 * word boxes (`pdftotext -bbox-layout`): each glyph its own box, in fractions of the page
 * as shown, whether the text is level on the display or set sideways.
 */

type Box = { x0: number; y0: number; x1: number; y1: number };

/** Poppler's words on `page`, in fractions of the page as shown (its size is the unturned sheet's, its boxes are as shown). */
async function shownWords(bytes: Uint8Array, page: number): Promise<{ text: string; box: Box }[]> {
  const { pages, words } = await popplerWords(bytes);
  const info = execFileSync("pdfinfo", ["-f", String(page), "-l", String(page), "-"], { input: bytes, encoding: "utf8" });
  const turned = Number(/rot:\s+(\d+)/.exec(info)?.[1] ?? 0) % 180 !== 0;
  const size = pages[page - 1]!;
  const [W, H] = turned ? [size.height, size.width] : [size.width, size.height];
  return words.filter((w) => w.page === page).map((w) => ({ text: w.text, box: { x0: w.x0 / W, x1: w.x1 / W, y0: w.y0 / H, y1: w.y1 / H } }));
}

async function parse(bytes: Uint8Array): Promise<Element[]> {
  const result = await new LocalParser().parse(bytes, { filename: "doc.pdf", config: { capabilities: { include_char_details: true } } });
  return result.elements;
}

/**
 * For each of `wanted` (words poppler found on the page): the word, with how far off it is
 * when the union of the char boxes the element gives its letters has an edge more than
 * `tol` from poppler's box along the line (2 × `tol` across it); and whether every glyph has a box of its own (width and
 * height, and no two letters of a word alike).
 */
function wordFits(el: Element, words: readonly { text: string; box: Box }[], wanted: readonly string[], tol: number): { word: string; ownBoxes: boolean }[] {
  const chars = el.char_details ?? [];
  return wanted.map((word) => {
    const at = el.text.indexOf(word);
    const mine = chars.filter((c, i) => (c.index ?? i) >= at && (c.index ?? i) < at + word.length).map((c) => rectOf(c.coordinates));
    const u = { x0: Math.min(...mine.map((r) => r.x0)), y0: Math.min(...mine.map((r) => r.y0)), x1: Math.max(...mine.map((r) => r.x1)), y1: Math.max(...mine.map((r) => r.y1)) };
    // The word of that text nearest the letters (a page's number may be a heading's too).
    const dist = (b: Box) => Math.abs(b.x0 + b.x1 - u.x0 - u.x1) + Math.abs(b.y0 + b.y1 - u.y0 - u.y1);
    const w = words.filter((x) => x.text.replace(/[.,:]$/, "") === word).sort((a, b) => dist(a.box) - dist(b.box))[0]!;
    // Along the line the letters must meet poppler's; across it, fonts' heights differ a
    // little between readers (ascent and descent): twice the tolerance.
    const sideways = w.box.y1 - w.box.y0 > w.box.x1 - w.box.x0;
    const [ax, ay] = sideways ? [2, 1] : [1, 2];
    const off = Math.max(Math.abs(u.x0 - w.box.x0) / ax, Math.abs(u.x1 - w.box.x1) / ax, Math.abs(u.y0 - w.box.y0) / ay, Math.abs(u.y1 - w.box.y1) / ay);
    const distinct = new Set(mine.map((r) => `${r.x0.toFixed(4)},${r.y0.toFixed(4)}`)).size;
    const ownBoxes = mine.length === word.length && mine.every((r) => r.x1 > r.x0 && r.y1 > r.y0) && distinct === word.length;
    return { word: off <= tol ? word : `${word} off by ${off.toFixed(4)}`, ownBoxes };
  });
}

describe.skipIf(missing("pdflatex", "pdftotext", "pdfinfo"))("LocalParser: a pdflscape page (/Rotate 90) with its running head left on", () => {
  it("gives the sideways running head and page number each glyph's own box, where poppler sees it, and reads them as running text", { timeout: 120_000 }, async () => {
    const body = randomProse(24, 150);
    const pdf = await latexPdf(String.raw`\documentclass[11pt]{article}
\usepackage{lscape}\usepackage{fancyhdr}\pagestyle{fancy}\fancyhf{}\fancyhead[L]{Technical Report Running Head}\fancyfoot[C]{\thepage}
\begin{document}
\section{Upright}
${randomProse(21, 200)}
\clearpage\global\pdfpageattr{/Rotate 90}\begin{landscape}
\section{Sideways}
${body}
\end{landscape}
\end{document}
`);
    const elements = await parse(pdf);
    const words = await shownWords(pdf, 2);
    const head = elements.find((e) => e.page_number === 2 && e.text === "Technical Report Running Head");
    expect(head).toBeDefined();
    // Glyphs set one above another up the sheet's edge, as shown: each its own box.
    const wanted = ["Technical", "Report", "Running", "Head"];
    expect(wordFits(head!, words, wanted, 0.004)).toEqual(wanted.map((word) => ({ word, ownBoxes: true })));
    const number = elements.find((e) => e.page_number === 2 && e.text === "2");
    expect(number).toBeDefined();
    // Where the sheet has them, as on the portrait page before: running head, page number.
    expect([head!.type, number!.type]).toEqual(["Header", "PageNumber"]);
    expect(elements.filter((e) => e.page_number === 1 && (e.type === "Header" || e.type === "PageNumber")).map((e) => e.text)).toEqual(["Technical Report Running Head", "1"]);
    expect(wordFits(number!, words, ["2"], 0.004)).toEqual([{ word: "2", ownBoxes: true }]);
    // The body, level as shown, as before: its first words where poppler has them.
    const para = elements.find((e) => e.page_number === 2 && e.text.startsWith(body.slice(0, 30)))!;
    const first = body.split(" ").slice(0, 3);
    expect(wordFits(para, words, first, 0.004)).toEqual(first.map((word) => ({ word, ownBoxes: true })));
  });

  it("reads the section mark beside the head (`3 SIDEWAYS`, a quad after its number) as running text on the landscape page too", { timeout: 120_000 }, async () => {
    const pdf = await latexPdf(String.raw`\documentclass[11pt]{article}
\usepackage{lscape}\usepackage{fancyhdr}\pagestyle{fancy}\fancyhead[L]{Technical Report Running Head}
\begin{document}
\section{Introduction}
${randomProse(21, 700)}
\section{Data}
${randomProse(22, 500)}
\clearpage\global\pdfpageattr{/Rotate 90}\begin{landscape}
\section{Sideways}
${randomProse(24, 150)}
\end{landscape}
\end{document}
`);
    const elements = await parse(pdf);
    const last = Math.max(...elements.map((e) => e.page_number)); // the landscape page
    expect(last).toBeGreaterThanOrEqual(4);
    const furniture = (n: number) => elements.filter((e) => e.page_number === n && (e.type === "Header" || e.type === "PageNumber")).map((e) => `${e.type} ${e.text}`).sort();
    expect(furniture(last)).toEqual(["Header 3 SIDEWAYS", "Header Technical Report Running Head", `PageNumber ${last}`]);
    expect(furniture(1)).toEqual(["Header 1 INTRODUCTION", "Header Technical Report Running Head", "PageNumber 1"]);
  });
});

const ROTATED = String.raw`
import sys
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
c = canvas.Canvas(sys.argv[1], pagesize=A4)
c.setPageRotation(90)
c.setFont("Helvetica", 11)
y = 510
for i in range(6):
    c.drawString(72, y, "Line %d of the rotated page: apples oranges pears%d kiwis bananas." % (i, i)); y -= 14
c.showPage(); c.save()
`;

describe.skipIf(missing("reportlab", "pdftotext", "pdfinfo"))("LocalParser char_details: a ReportLab page turned by setPageRotation(90)", () => {
  it("gives each glyph of the sideways lines its own box, not a share of its line", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "turned-chars-"));
    let pdf: Uint8Array;
    try {
      execFileSync(DEBIAN_PYTHON, ["-c", ROTATED, join(dir, "doc.pdf")], { stdio: "ignore", timeout: 60_000 });
      pdf = new Uint8Array(readFileSync(join(dir, "doc.pdf")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const elements = await parse(pdf);
    const words = (await shownWords(pdf, 1)).filter((w) => w.box.x0 > 0.83); // the first line's column
    const el = elements.find((e) => e.text.startsWith("Line 0 of the rotated page"))!;
    expect(el).toBeDefined();
    const wanted = ["Line", "rotated", "apples", "oranges", "pears0", "kiwis"];
    expect(wordFits(el, words, wanted, 0.003)).toEqual(wanted.map((word) => ({ word, ownBoxes: true })));
  });
});
