import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { addCitationGeometry, chunkDocument, type Chunk } from "../../src/chunk/index.js";
import { rectOf } from "../../src/chunk/rect.js";
import { LocalParser } from "../../src/engine/index.js";
import { boxesForRange } from "../../src/retrieve/chunk-geometry.js";
import { splitSentences } from "../../src/retrieve/sentences.js";
import { chromiumPdf, latexPdf, popplerWords, randomProse, sofficePdf } from "../support/pdf-fixtures.js";
import { DEBIAN_PYTHON, missing } from "../support/system.js";

/**
 * Does a citation land on the right words? PDFs from several writers go through the whole
 * chain — LocalParser (char_details) → chunkDocument → addCitationGeometry → the quote
 * boxes the retriever computes for every sentence — and poppler's word boxes
 * (`pdftotext -bbox-layout`, an independent reader) say where each word really is.
 */

/** A word or CJK character poppler printed, in fractions of the page as displayed (rotation applied). */
interface Token {
  page: number;
  t: string;
  /** Boxes of the token: two for a word hyphenated at a line's end. */
  boxes: { x0: number; y0: number; x1: number; y1: number }[];
  i: number;
}

const TOKEN = /[A-Za-z0-9]+|[\u3400-\u9fff]/g;

/** A text's tokens: Latin words lower-cased, CJK characters one by one, markup and punctuation dropped. */
function tokens(text: string): string[] {
  return [...text.replace(/<[^>]+>/g, " ").matchAll(TOKEN)].map((m) => m[0].toLowerCase());
}

async function oracle(bytes: Uint8Array): Promise<Token[]> {
  const { pages, words } = await popplerWords(bytes);
  const info = execFileSync("pdfinfo", ["-f", "1", "-l", String(pages.length), "-"], { input: bytes, encoding: "utf8" });
  const rotation = new Map<number, number>();
  for (const m of info.matchAll(/Page\s+(\d+) rot:\s+(\d+)/g)) rotation.set(Number(m[1]), Number(m[2]));
  const out: Token[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const size = pages[w.page - 1]!;
    // Poppler gives the unrotated page size but words where the rotated page shows them.
    const turned = (rotation.get(w.page) ?? 0) % 180 !== 0;
    const [W, H] = turned ? [size.height, size.width] : [size.width, size.height];
    const next = words[k + 1];
    // `ser-` ending a line and `vice` opening the next are the word `service`.
    if (/\p{Ll}-$/u.test(w.text) && next && next.page === w.page && next.y0 > w.y1 - 1 && /^\p{Ll}+/u.test(next.text)) {
      const head = w.text.slice(0, -1);
      const tail = /^\p{Ll}+/u.exec(next.text)![0];
      out.push({ page: w.page, t: (head + tail).toLowerCase(), boxes: [frac(w, W, H), frac(next, W, H)], i: out.length });
      const rest = next.text.slice(tail.length);
      for (const m of rest.matchAll(TOKEN)) out.push({ page: w.page, t: m[0].toLowerCase(), boxes: [frac(next, W, H)], i: out.length });
      k++;
      continue;
    }
    const n = w.text.length;
    for (const m of w.text.matchAll(TOKEN)) {
      // Poppler reads a line of CJK as one word: its characters share it out evenly.
      const a = m.index!;
      const b = a + m[0].length;
      const x0 = w.x0 + ((w.x1 - w.x0) * a) / n;
      const x1 = w.x0 + ((w.x1 - w.x0) * b) / n;
      out.push({ page: w.page, t: m[0].toLowerCase(), boxes: [{ x0: x0 / W, x1: x1 / W, y0: w.y0 / H, y1: w.y1 / H }], i: out.length });
    }
  }
  return out;
}

const frac = (w: { x0: number; y0: number; x1: number; y1: number }, W: number, H: number) => ({ x0: w.x0 / W, x1: w.x1 / W, y0: w.y0 / H, y1: w.y1 / H });

/** Whether a box of the token has its centre in the 8-number box (tolerance in page fractions, negative to shrink). */
function centreIn(b: Token["boxes"][number], coordinates: readonly number[], tol: number): boolean {
  const r = rectOf(coordinates);
  const cx = (b.x0 + b.x1) / 2;
  const cy = (b.y0 + b.y1) / 2;
  return cx >= r.x0 - tol && cx <= r.x1 + tol && cy >= r.y0 - tol && cy <= r.y1 + tol;
}

/** Whether the boxes on the token's page hold it: each of its boxes (two for a hyphenated word) in one of them. */
function held(tk: Token, boxes: readonly { page: number; coordinates: readonly number[] }[], tol = 0.004): boolean {
  return tk.boxes.every((b) => boxes.some((r) => r.page === tk.page && centreIn(b, r.coordinates, tol)));
}

/**
 * The oracle tokens each token of `seq` may be: those with its text whose neighbours (up
 * to three each side) agree best with `seq`'s. Repeated words are told apart by context.
 */
function anchor(seq: readonly string[], o: readonly Token[]): Token[][] {
  const byText = new Map<string, Token[]>();
  for (const tk of o) byText.set(tk.t, [...(byText.get(tk.t) ?? []), tk]);
  return seq.map((t, i) => {
    let best = -1;
    let out: Token[] = [];
    for (const x of byText.get(t) ?? []) {
      let score = 0;
      for (const d of [-3, -2, -1, 1, 2, 3]) {
        const want = seq[i + d];
        if (want === undefined || o[x.i + d]?.t === want) score++;
      }
      if (score > best) [best, out] = [score, [x]];
      else if (score === best) out.push(x);
    }
    return out;
  });
}

interface Check {
  /** Tokens of the text no box holds. */
  missing: string[];
  /** Oracle tokens inside the boxes that the text does not hold. */
  foreign: string[];
}

/** Whether `boxes` hold the tokens of `text` (1, 3) and nothing else (2, 3). */
function check(text: string, boxes: readonly { page: number; coordinates: readonly number[] }[], o: readonly Token[], skip: ReadonlySet<string> = new Set()): Check {
  const seq = tokens(text);
  const anchored = anchor(seq, o);
  const missing = seq.filter((t, i) => !skip.has(t) && anchored[i]!.length > 0 && !anchored[i]!.some((tk) => held(tk, boxes)));
  const mine = new Set(anchored.flatMap((cands) => (cands.length <= 3 ? cands.map((x) => x.i) : [])));
  const words = new Set(seq);
  const foreign = o.filter((tk) => !mine.has(tk.i) && !words.has(tk.t) && tk.boxes.some((b) => boxes.some((r) => r.page === tk.page && centreIn(b, r.coordinates, -0.002)))).map((tk) => tk.t);
  return { missing, foreign };
}

async function parseAndChunk(bytes: Uint8Array, maxTokens: number): Promise<Chunk[]> {
  const capabilities = { include_char_details: true, pages: true, include_table_structure: true };
  const result = await new LocalParser().parse(bytes, { filename: "doc.pdf", config: { capabilities } });
  return addCitationGeometry(result, chunkDocument(result, { maxTokens, minTokens: 0 }));
}

/** Runs checks (1)–(3) on every chunk and every sentence; returns what failed, readably. */
async function citationFaults(bytes: Uint8Array, maxTokens: number): Promise<{ chunks: Chunk[]; faults: string[] }> {
  const o = await oracle(bytes);
  const chunks = await parseAndChunk(bytes, maxTokens);
  const faults: string[] = [];
  for (const c of chunks) {
    const label = `chunk ${c.metadata.chunkIndex} (p. ${c.metadata.pages.join(",")}) "${c.text.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 40)}…"`;
    // A table piece repeats the header rows of the table's first piece: not on its rows' page part.
    const header = c.metadata.table && c.metadata.table.rowStart > c.metadata.table.headerRows + 1 ? new Set(tokens(c.text.split(/<\/tr>/)[0]!)) : new Set<string>();
    const whole = check(c.text, c.metadata.regions, o, header);
    if (whole.missing.length) faults.push(`${label}: words outside its regions: ${whole.missing.join(" ")}`);
    if (whole.foreign.length > 1) faults.push(`${label}: its regions cover other words: ${whole.foreign.join(" ")}`);
    if (c.metadata.kind !== "text") continue;
    const sizes = (c.metadata["pageSizes"] ?? {}) as Record<string, { width: number; height: number }>;
    for (const s of splitSentences(c.text)) {
      if (tokens(s.text).length === 0) continue;
      const boxes = boxesForRange(c, s.start, s.end, (p) => sizes[String(p)]);
      const quote = check(s.text, boxes, o);
      const where = `${label} quote "${s.text.slice(0, 30)}…"`;
      if (boxes.some((b) => b.approximate)) faults.push(`${where}: approximate boxes`);
      if (quote.missing.length) faults.push(`${where}: words outside its boxes: ${quote.missing.join(" ")}`);
      if (quote.foreign.length > 1) faults.push(`${where}: its boxes cover other words: ${quote.foreign.join(" ")}`);
    }
  }
  return { chunks, faults };
}

/** Prose in sentences of twelve words, capitalised, from a seeded generator. */
function sentences(seed: number, words: number): string {
  const w = randomProse(seed, words).split(" ");
  const out: string[] = [];
  for (let i = 0; i < w.length; i += 12) {
    const s = w.slice(i, i + 12).join(" ");
    out.push(`${s[0]!.toUpperCase()}${s.slice(1)}.`);
  }
  return out.join(" ");
}

const ZH = "本产品自购买之日起保修一年。保修期内，因质量问题造成的故障免费维修！人为损坏不在保修范围内吗？如需维修，请携带购买凭证前往授权服务中心办理。服务中心的工作时间为周一至周五上午九点到下午六点。节假日期间请提前预约，以免耽误您的时间。";

describe.skipIf(missing("chromium", "pdftotext", "pdfinfo"))("citations on PDFs: Chromium (two columns, Chinese, a split table)", () => {
  it("puts every chunk's words, and every sentence's, inside their boxes and nothing else", { timeout: 180_000 }, async () => {
    const rows = Array.from({ length: 45 }, (_, i) => `<tr><td>Row${i + 1}</td><td>K${(i + 1) * 13}</td><td>${(i + 1) * 7}</td></tr>`).join("");
    const pdf = await chromiumPdf(`<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: A4; margin: 60px 50px; } body { font: 11pt/1.4 "DejaVu Serif", serif; margin: 0; }
.cols { column-count: 2; column-gap: 30px; } table { border-collapse: collapse; } td, th { border: 1px solid #000; padding: 2px 6px; }
.zh { font-family: "Noto Serif CJK SC", "Noto Sans CJK SC", sans-serif; }
</style></head><body><h1>Field Handbook</h1>
<div class="cols"><h2>Overview</h2><p>${sentences(1, 90)}</p><p>${sentences(2, 140)}</p>
<p>Column break paragraph begins here. ${sentences(3, 160)} Column break paragraph ends here.</p><h2>Details</h2><p>${sentences(4, 120)}</p></div>
<h2>Page Break Section</h2><p>${sentences(5, 200)}</p><p>Page break paragraph begins here. ${sentences(6, 260)} Page break paragraph ends here.</p>
<h2>中文部分</h2><p class="zh">${ZH}${ZH}</p>
<h2>Stock Table</h2><table><thead><tr><th>Name</th><th>Key</th><th>Count</th></tr></thead><tbody>${rows}</tbody></table></body></html>`);
    const { chunks, faults } = await citationFaults(pdf, 120);
    // The document has what the checks are for: a paragraph over a column and a page break,
    // Chinese cut mid-line, a table in pieces.
    expect(chunks.filter((c) => c.metadata.pages.length > 1 && c.metadata.kind === "text").length).toBeGreaterThan(0);
    expect(chunks.filter((c) => /[\u4e00-\u9fff]/.test(c.text)).length).toBeGreaterThan(1);
    expect(chunks.filter((c) => c.metadata.table).length).toBeGreaterThan(2);
    expect(faults).toEqual([]);
  });
});

describe.skipIf(missing("pdflatex", "pdftotext", "pdfinfo"))("citations on PDFs: pdflatex (hyphenation, a page break, a running head, a /Rotate 90 page)", () => {
  it("puts every chunk's words, and every sentence's, inside their boxes and nothing else", { timeout: 180_000 }, async () => {
    const pdf = await latexPdf(String.raw`\documentclass[11pt]{article}
\usepackage{lscape}\usepackage{fancyhdr}\pagestyle{fancy}\fancyhf{}\fancyhead[L]{Technical Report Running Head}\fancyfoot[C]{\thepage}
\begin{document}
\section{Introduction}
${sentences(21, 200)}

${sentences(22, 250)}

Latex break paragraph begins here. ${sentences(23, 300)} Latex break paragraph ends here.
\clearpage\global\pdfpageattr{/Rotate 90}\begin{landscape}
\section{Sideways}
${sentences(24, 150)}
\end{landscape}
\end{document}
`);
    const { chunks, faults } = await citationFaults(pdf, 120);
    expect(chunks.some((c) => c.metadata.pages.includes(3))).toBe(true);
    expect(faults).toEqual([]);
  });
});

const REPORTLAB = String.raw`
import sys
from reportlab.lib.pagesizes import A4
from reportlab.platypus import SimpleDocTemplate, Paragraph, Table, TableStyle
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib import colors
ss = getSampleStyleSheet()
def furniture(cv, doc):
    cv.saveState(); cv.setFont("Helvetica", 9); cv.drawString(72, A4[1] - 40, "ACME Annual Report running header"); cv.drawRightString(A4[0] - 72, 40, "Page %d" % doc.page); cv.restoreState()
doc = SimpleDocTemplate(sys.argv[1], pagesize=A4, topMargin=72, bottomMargin=72)
story = [Paragraph("Quarterly Results", ss["Heading1"])]
story.append(Paragraph("Breaking paragraph. " + " ".join("w%d%s" % (i, "." if i % 11 == 10 else "") for i in range(700)) + " End of the breaking paragraph.", ss["BodyText"]))
story.append(Paragraph("Inventory", ss["Heading1"]))
data = [["Item", "Code", "Units"]] + [["Item%02d" % i, "C%03d" % (i * 7), str(i * 11)] for i in range(1, 45)]
t = Table(data, repeatRows=1); t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
story.append(t)
doc.build(story, onFirstPage=furniture, onLaterPages=furniture)
`;

describe.skipIf(missing("reportlab", "pdftotext", "pdfinfo"))("citations on PDFs: ReportLab (a long paragraph over a page break, a table in row pieces)", () => {
  it("puts every chunk's words, and every sentence's, inside their boxes and nothing else", { timeout: 180_000 }, async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "cite-rl-"));
    let pdf: Uint8Array;
    try {
      execFileSync(DEBIAN_PYTHON, ["-c", REPORTLAB, join(dir, "doc.pdf")], { stdio: "ignore", timeout: 60_000 });
      pdf = new Uint8Array(readFileSync(join(dir, "doc.pdf")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const { chunks, faults } = await citationFaults(pdf, 60);
    // Table pieces of rows 10-20 must not light up rows 1-9: check (2) above sees it.
    expect(chunks.filter((c) => c.metadata.table && c.metadata.table.rowStart > 5).length).toBeGreaterThan(2);
    expect(chunks.filter((c) => c.metadata.kind === "text" && c.text.startsWith("w")).length).toBeGreaterThan(3);
    expect(faults).toEqual([]);
  });
});

describe.skipIf(missing("soffice", "pdftotext", "pdfinfo"))("citations on PDFs: LibreOffice (a paragraph over a page break, Chinese)", () => {
  it("puts every chunk's words, and every sentence's, inside their boxes and nothing else", { timeout: 240_000 }, async () => {
    const pdf = await sofficePdf(`<!doctype html><html><head><meta charset="utf-8"></head><body>
<h1>Office Manual</h1><p>${sentences(11, 120)}</p><p>${sentences(12, 300)}</p><p>Office break paragraph begins here. ${sentences(13, 300)} Office break paragraph ends here.</p>
<h2>中文说明</h2><p>${ZH}</p></body></html>`);
    const { chunks, faults } = await citationFaults(pdf, 120);
    expect(chunks.filter((c) => c.metadata.pages.length > 1 && c.metadata.kind === "text").length).toBeGreaterThan(0);
    expect(faults).toEqual([]);
  });
});

const REPORTLAB_TURNED = String.raw`
import sys
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
c = canvas.Canvas(sys.argv[1], pagesize=A4)
c.setPageRotation(90)
c.setFont("Helvetica-Bold", 16); c.drawString(72, 540, "Rotated Page Heading")
c.setFont("Helvetica", 11)
y = 510
for i in range(8):
    c.drawString(72, y, "Line %d of the rotated page: apples oranges pears%d kiwis bananas." % (i, i)); y -= 14
c.showPage(); c.save()
`;

describe.skipIf(missing("reportlab", "pdftotext", "pdfinfo"))("citations on PDFs: ReportLab (a page turned by setPageRotation(90), its lines running down the page)", () => {
  it("gives each sentence, one a line, one box along its line", { timeout: 120_000 }, async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "cite-rl-turned-"));
    let pdf: Uint8Array;
    try {
      execFileSync(DEBIAN_PYTHON, ["-c", REPORTLAB_TURNED, join(dir, "doc.pdf")], { stdio: "ignore", timeout: 60_000 });
      pdf = new Uint8Array(readFileSync(join(dir, "doc.pdf")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const { chunks, faults } = await citationFaults(pdf, 400);
    expect(faults).toEqual([]);
    const counts: string[] = [];
    for (const c of chunks.filter((k) => k.metadata.kind === "text")) {
      const sizes = (c.metadata["pageSizes"] ?? {}) as Record<string, { width: number; height: number }>;
      for (const s of splitSentences(c.text)) {
        if (!s.text.startsWith("Line")) continue;
        counts.push(`${s.text.slice(0, 6)}: ${boxesForRange(c, s.start, s.end, (p) => sizes[String(p)]).length}`);
      }
    }
    expect(counts).toEqual(Array.from({ length: 8 }, (_, i) => `Line ${i}: 1`));
  });
});
