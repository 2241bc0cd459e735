import { deflateSync } from "node:zlib";
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, StandardFonts, degrees, rgb, type PDFFont, type PDFPage } from "pdf-lib";

/**
 * Test PDFs with known ground truth, written with pdf-lib (standard fonts, exact
 * positions). Coordinates here are top-left based (y down), in points, like the
 * layout model; the helper flips them for PDF.
 */

export type FontKind = "regular" | "bold" | "italic" | "mono" | "serif";

export interface TextSpec {
  text: string;
  x: number;
  /** Top of the text line (y down). */
  y: number;
  size?: number;
  font?: FontKind;
  /** Rotation of the text in degrees (counter-clockwise). */
  rotate?: number;
  opacity?: number;
  /** Grey level 0 (black) .. 1 (white). */
  grey?: number;
}

export interface LineSpec {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  thickness?: number;
}

export interface ImageSpec {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Source pixels (a generated PNG of this size). */
  pixels?: { width: number; height: number };
}

export interface PageSpec {
  /** @default [612, 792] (US Letter) */
  size?: [number, number];
  /** Page /Rotate. */
  rotation?: number;
  texts?: TextSpec[];
  lines?: LineSpec[];
  images?: ImageSpec[];
}

export interface BuildOptions {
  /** Outline (bookmarks): title, depth, page index (0-based). */
  outline?: { title: string; depth: number; page: number }[];
}

/** A solid-colour RGB PNG of the given size (no compression cleverness needed). */
export async function solidPng(width: number, height: number): Promise<Uint8Array> {
  const { deflateSync } = await import("node:zlib");
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      raw[o] = (x * 255) / width;
      raw[o + 1] = (y * 255) / height;
      raw[o + 2] = 128;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer): number => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]),
  );
}

/** Writes a PDF from page specs. */
export async function buildPdf(pages: PageSpec[], options: BuildOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: Record<FontKind, PDFFont> = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    mono: await doc.embedFont(StandardFonts.Courier),
    serif: await doc.embedFont(StandardFonts.TimesRoman),
  };
  const pdfPages: PDFPage[] = [];
  for (const spec of pages) {
    const [w, h] = spec.size ?? [612, 792];
    const page = doc.addPage([w, h]);
    pdfPages.push(page);
    if (spec.rotation) page.setRotation(degrees(spec.rotation));
    for (const t of spec.texts ?? []) {
      const size = t.size ?? 11;
      const font = fonts[t.font ?? "regular"];
      // pdf-lib places the baseline; the spec gives the line top: baseline = top + ascent.
      const ascent = font.heightAtSize(size, { descender: false });
      page.drawText(t.text, {
        x: t.x,
        y: h - t.y - ascent,
        size,
        font,
        ...(t.rotate ? { rotate: degrees(t.rotate) } : {}),
        ...(t.opacity !== undefined ? { opacity: t.opacity } : {}),
        color: rgb(t.grey ?? 0, t.grey ?? 0, t.grey ?? 0),
      });
    }
    for (const l of spec.lines ?? []) {
      page.drawLine({ start: { x: l.x0, y: h - l.y0 }, end: { x: l.x1, y: h - l.y1 }, thickness: l.thickness ?? 0.75, color: rgb(0, 0, 0) });
    }
    for (const im of spec.images ?? []) {
      const px = im.pixels ?? { width: 64, height: 48 };
      const png = await doc.embedPng(await solidPng(px.width, px.height));
      page.drawImage(png, { x: im.x, y: h - im.y - im.height, width: im.width, height: im.height });
    }
  }
  if (options.outline?.length) addOutline(doc, pdfPages, options.outline);
  return doc.save();
}

/** Adds a flat-or-nested outline (bookmarks) with pdf-lib's low-level objects. */
function addOutline(doc: PDFDocument, pages: PDFPage[], entries: { title: string; depth: number; page: number }[]): void {
  const { context } = doc;
  const rootRef = context.nextRef();
  const refs = entries.map(() => context.nextRef());
  const parentOf = entries.map((e, i) => {
    for (let j = i - 1; j >= 0; j--) if (entries[j]!.depth < e.depth) return j;
    return -1;
  });
  const children = (p: number): number[] => entries.map((_, i) => i).filter((i) => parentOf[i] === p);
  entries.forEach((e, i) => {
    const siblings = children(parentOf[i]!);
    const k = siblings.indexOf(i);
    const kids = children(i);
    const dict = context.obj({
      Title: PDFHexString.fromText(e.title),
      Parent: parentOf[i]! >= 0 ? refs[parentOf[i]!]! : rootRef,
      Dest: [pages[e.page]!.ref, "XYZ", null, null, null],
    }) as PDFDict;
    if (k > 0) dict.set(PDFName.of("Prev"), refs[siblings[k - 1]!]!);
    if (k < siblings.length - 1) dict.set(PDFName.of("Next"), refs[siblings[k + 1]!]!);
    if (kids.length) {
      dict.set(PDFName.of("First"), refs[kids[0]!]!);
      dict.set(PDFName.of("Last"), refs[kids[kids.length - 1]!]!);
      dict.set(PDFName.of("Count"), PDFNumber.of(kids.length));
    }
    context.assign(refs[i]!, dict);
  });
  const top = children(-1);
  context.assign(
    rootRef,
    context.obj({ Type: "Outlines", First: refs[top[0]!]!, Last: refs[top[top.length - 1]!]!, Count: PDFNumber.of(entries.length) }),
  );
  doc.catalog.set(PDFName.of("Outlines"), rootRef);
}


/** Filler prose (English) of about `words` words, deterministic. */
export function prose(seed: number, words: number): string {
  const vocab = "the parser reads every page and keeps the layout of each block so that citations land on the right words in reading order with tables figures and captions".split(" ");
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(vocab[(seed * 7 + i * 13) % vocab.length]!);
  return out.join(" ");
}

/**
 * Filler prose without repeating lines (a seeded generator), for layouts where repeated
 * lines would line up by construction (justified columns).
 */
export function randomProse(seed: number, words: number): string {
  const vocab = "alpha report figure table quarterly revenue growth region market segment product customer service cost margin forecast annual review summary detail analysis method result".split(" ");
  let state = (seed * 2654435761) >>> 0 || 1;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out.push(vocab[(state >>> 8) % vocab.length]!);
  }
  return out.join(" ");
}

/** Wraps prose into lines of at most `chars` characters. */
export function wrap(text: string, chars: number): string[] {
  const lines: string[] = [];
  let cur = "";
  for (const w of text.split(" ")) {
    if (cur && cur.length + 1 + w.length > chars) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** Lays out paragraphs in a column from `y`, returning the specs and the next y. */
export function column(paragraphs: string[], x: number, y: number, opts: { chars?: number; size?: number; gap?: number } = {}): { texts: TextSpec[]; y: number } {
  const { chars = 80, size = 11, gap = 8 } = opts;
  const texts: TextSpec[] = [];
  for (const p of paragraphs) {
    for (const line of wrap(p, chars)) {
      texts.push({ text: line, x, y, size });
      y += size * 1.3;
    }
    y += gap;
  }
  return { texts, y };
}

/** A word as poppler's `pdftotext -bbox-layout` reports it (points, top-left origin). */
export interface PopplerWord {
  page: number;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Block index on its page (poppler's own reading order). */
  block: number;
}

/** Page sizes and words from poppler, the independent oracle. */
export async function popplerWords(bytes: Uint8Array, password?: string): Promise<{ pages: { width: number; height: number }[]; words: PopplerWord[] }> {
  const { execFileSync } = await import("node:child_process");
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "poppler-"));
  try {
    const file = join(dir, "in.pdf");
    writeFileSync(file, bytes);
    const args = ["-bbox-layout", ...(password ? ["-upw", password] : []), file, "-"];
    const html = execFileSync("pdftotext", args, { encoding: "utf8", maxBuffer: 1 << 28 });
    const pages: { width: number; height: number }[] = [];
    const words: PopplerWord[] = [];
    const unescape = (s: string): string => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, "&");
    for (const pm of html.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)) {
      pages.push({ width: Number(pm[1]), height: Number(pm[2]) });
      let block = -1;
      for (const m of pm[3]!.matchAll(/<block |<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
        if (m[0] === "<block ") {
          block++;
          continue;
        }
        words.push({ page: pages.length, text: unescape(m[5]!), x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]), block });
      }
    }
    return { pages, words };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page count from `pdfinfo`. */
export async function popplerPageCount(bytes: Uint8Array): Promise<number> {
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync("pdfinfo", ["-"], { input: bytes, encoding: "utf8" });
  return Number(/Pages:\s+(\d+)/.exec(out)?.[1]);
}

/** Runs `work` in a fresh temp folder, removed afterwards whatever happens. */
async function inTempDir<T>(prefix: string, work: (dir: string) => T): Promise<T> {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Converts an HTML file the test wrote into a PDF with LibreOffice (headless). */
export async function sofficePdf(html: string, options: { password?: string; name?: string } = {}): Promise<Uint8Array> {
  const { execFileSync } = await import("node:child_process");
  const { writeFileSync, readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  return inTempDir("soffice-", (dir) => {
    const name = options.name ?? "doc";
    writeFileSync(join(dir, `${name}.html`), html);
    const filter: Record<string, { type: string; value: string }> = { ExportBookmarks: { type: "boolean", value: "true" } };
    if (options.password) {
      filter.EncryptFile = { type: "boolean", value: "true" };
      filter.DocumentOpenPassword = { type: "string", value: options.password };
    }
    // Open the HTML in Writer proper (not Writer/Web, which drops content) and export.
    const target = `pdf:writer_pdf_Export:${JSON.stringify(filter)}`;
    const args = [`-env:UserInstallation=file://${join(dir, "profile")}`, "--headless", "--infilter=HTML (StarWriter)", "--convert-to", target, "--outdir", dir, join(dir, `${name}.html`)];
    execFileSync("soffice", args, {
      stdio: "ignore",
      timeout: 120_000,
    });
    return new Uint8Array(readFileSync(join(dir, `${name}.pdf`)));
  });
}

/**
 * A Writer document (flat ODT: `styles` go into `office:styles`, `body` into
 * `office:text`) exported to PDF by LibreOffice: what Word-style documents look like,
 * list styles, tab stops and footnotes included.
 */
export async function writerPdf(body: string, styles = ""): Promise<Uint8Array> {
  const { execFileSync } = await import("node:child_process");
  const { writeFileSync, readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const ns = ["office", "style", "text", "table", "fo", "svg"].map((n) => `xmlns:${n}="urn:oasis:names:tc:opendocument:xmlns:${n === "fo" ? "xsl-fo-compatible" : n === "svg" ? "svg-compatible" : n}:1.0"`).join(" ");
  const fodt = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ns} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
 <style:default-style style:family="paragraph"><style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt" fo:language="en" fo:country="GB"/></style:default-style>
 <style:style style:name="Standard" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm"/></style:style>
 <style:style style:name="Footnote" style:family="paragraph"><style:paragraph-properties fo:margin-left="0.6cm" fo:text-indent="-0.6cm"/><style:text-properties fo:font-size="9pt"/></style:style>
 <style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
 <text:notes-configuration text:note-class="footnote" style:num-format="1" text:start-value="0" text:footnotes-position="page" text:start-numbering-at="document"/>
 ${styles}
</office:styles>
<office:body><office:text>${body}</office:text></office:body></office:document>`;
  return inTempDir("writer-", (dir) => {
    writeFileSync(join(dir, "doc.fodt"), fodt);
    execFileSync("soffice", [`-env:UserInstallation=file://${join(dir, "profile")}`, "--headless", "--convert-to", "pdf", "--outdir", dir, join(dir, "doc.fodt")], { stdio: "ignore", timeout: 120_000 });
    return new Uint8Array(readFileSync(join(dir, "doc.pdf")));
  });
}

/**
 * A Calc sheet (flat ODS: `columns` and `rows` are the table's `table:table-column` and
 * `table:table-row` elements, `styles` go into `office:automatic-styles`) exported to PDF
 * by LibreOffice: a wide sheet is printed across pages, and text running past its cell
 * is clipped at the page edge.
 */
export async function calcPdf(columns: string, rows: string, styles = ""): Promise<Uint8Array> {
  const { execFileSync } = await import("node:child_process");
  const { writeFileSync, readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const ns = ["office", "style", "text", "table", "fo"].map((n) => `xmlns:${n}="urn:oasis:names:tc:opendocument:xmlns:${n === "fo" ? "xsl-fo-compatible" : n}:1.0"`).join(" ");
  const fods = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ns} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles>${styles}</office:automatic-styles>
<office:body><office:spreadsheet><table:table table:name="Sheet1">${columns}${rows}</table:table></office:spreadsheet></office:body></office:document>`;
  return inTempDir("calc-", (dir) => {
    writeFileSync(join(dir, "sheet.fods"), fods);
    execFileSync("soffice", [`-env:UserInstallation=file://${join(dir, "profile")}`, "--headless", "--convert-to", "pdf", "--outdir", dir, join(dir, "sheet.fods")], { stdio: "ignore", timeout: 120_000 });
    return new Uint8Array(readFileSync(join(dir, "sheet.pdf")));
  });
}

/**
 * Typesets a LaTeX source the test wrote with pdflatex (Debian's texlive-latex-base: the
 * Computer Modern Type 1 fonts every arXiv paper of the last decades embeds).
 */
export async function latexPdf(source: string): Promise<Uint8Array> {
  const { execFileSync } = await import("node:child_process");
  const { writeFileSync, readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  return inTempDir("latex-", (dir) => {
    writeFileSync(join(dir, "doc.tex"), source);
    // Twice: the second pass resolves references (`Table~\ref{...}`).
    for (let pass = 0; pass < 2; pass++) {
      execFileSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"], { cwd: dir, stdio: "ignore", timeout: 60_000 });
    }
    return new Uint8Array(readFileSync(join(dir, "doc.pdf")));
  });
}

/** The documents `reportlab-documents.py` writes, by name. */
export interface ReportLabDocuments {
  report: Uint8Array;
  twocol: Uint8Array;
  invoice: Uint8Array;
  charts: Uint8Array;
}

/**
 * Writes the ReportLab documents of `reportlab-documents.py` (a report, a two-column
 * article, an invoice, charts) with Debian's python3-reportlab, the PDF library behind many
 * generated reports and invoices.
 */
export async function reportlabPdfs(): Promise<ReportLabDocuments> {
  const { execFileSync } = await import("node:child_process");
  const { readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const { DEBIAN_PYTHON } = await import("./system.js");
  const script = fileURLToPath(new URL("./reportlab-documents.py", import.meta.url));
  return inTempDir("reportlab-", (dir) => {
    execFileSync(DEBIAN_PYTHON, [script, dir], { stdio: "ignore", timeout: 60_000 });
    const read = (name: string) => new Uint8Array(readFileSync(join(dir, `${name}.pdf`)));
    return { report: read("report"), twocol: read("twocol"), invoice: read("invoice"), charts: read("charts") };
  });
}

/**
 * A "searchable scan" of one page: the page rendered at 300 dpi by poppler (`pdftoppm`),
 * then OCR'd by the Tesseract command line into a PDF of the image under an invisible
 * text layer in Tesseract's GlyphLessFont — what OCRmyPDF and most scanning pipelines make.
 */
export async function tesseractPdf(bytes: Uint8Array, page = 1): Promise<Uint8Array> {
  const { execFileSync } = await import("node:child_process");
  const { writeFileSync, readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  return inTempDir("ocr-", (dir) => {
    writeFileSync(join(dir, "in.pdf"), bytes);
    execFileSync("pdftoppm", ["-r", "300", "-f", String(page), "-l", String(page), "-singlefile", "-png", "in.pdf", "scan"], { cwd: dir, stdio: "ignore", timeout: 60_000 });
    execFileSync("tesseract", ["scan.png", "out", "pdf"], { cwd: dir, stdio: "ignore", timeout: 120_000, env: { ...process.env, OMP_THREAD_LIMIT: "1" } });
    return new Uint8Array(readFileSync(join(dir, "out.pdf")));
  });
}

/**
 * Typesets a manual page the test wrote with groff (PostScript) and distills it with
 * Ghostscript's ps2pdf, the path every PostScript-printing program's PDFs take.
 */
export async function ghostscriptManPdf(manSource: string): Promise<Uint8Array> {
  const { execFileSync } = await import("node:child_process");
  const ps = execFileSync("groff", ["-man", "-Tps"], { input: manSource, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return new Uint8Array(execFileSync("ps2pdf", ["-", "-"], { input: ps, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }));
}

/** Prints an HTML page to PDF with headless Chromium (Skia's PDF backend: CID and Type 3 fonts). */
export async function chromiumPdf(html: string): Promise<Uint8Array> {
  const { execFileSync } = await import("node:child_process");
  const { mkdtempSync, writeFileSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { CHROMIUM_ARGS, which } = await import("./system.js");
  const dir = mkdtempSync(join(tmpdir(), "chromium-pdf-"));
  try {
    writeFileSync(join(dir, "page.html"), html);
    const out = join(dir, "page.pdf");
    execFileSync(which("chromium")!, [...CHROMIUM_ARGS, `--user-data-dir=${join(dir, "profile")}`, "--no-pdf-header-footer", `--print-to-pdf=${out}`, `file://${join(dir, "page.html")}`], {
      stdio: "ignore",
      timeout: 120_000,
    });
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A hostile PDF: one page whose Flate content stream inflates to `megabytes` MB of line
 * drawing operators (a few tens of KB on disk, seconds of pdfjs parsing per 10 MB).
 */
export async function operatorBombPdf(megabytes: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([600, 800]);
  const body = Buffer.alloc(megabytes * 1024 * 1024, "0 0 m 1 1 l S\n");
  const stream = PDFRawStream.of(doc.context.obj({ Filter: "FlateDecode" }), deflateSync(body));
  page.node.set(PDFName.of("Contents"), doc.context.register(stream));
  return doc.save();
}

/**
 * A PDF written object by object, for structures pdf-lib will not write (nested or
 * inconsistent page trees, odd tokens): `objects[i]` is the body of object i + 1 (object
 * 1 must be the catalog). Streams are given as `{ dict, data }`; /Length is added.
 */
export function rawPdf(objects: (string | { dict: string; data: string })[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(length);
    const text =
      typeof body === "string"
        ? `${i + 1} 0 obj\n${body}\nendobj\n`
        : `${i + 1} 0 obj\n<< ${body.dict} /Length ${Buffer.byteLength(body.data, "latin1")} >>\nstream\n${body.data}\nendstream\nendobj\n`;
    const chunk = Buffer.from(text, "latin1");
    parts.push(chunk);
    length += chunk.length;
  }
  const xref = [`xref\n0 ${objects.length + 1}\n`, "0000000000 65535 f \n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, "latin1"));
  return new Uint8Array(Buffer.concat(parts));
}

/** A two-column LaTeX paper (pdflatex): headings, a list, a display formula, a ruled and a booktabs table, captions. */
export const TWO_COLUMN_PAPER = String.raw`\documentclass[twocolumn,10pt]{article}
\usepackage{amsmath}
\renewcommand\labelitemi{$\bullet$}
\title{Retrieval Augmented Generation over Parsed Documents}
\author{A. Author \and B. Writer}
\date{November 2026}
\begin{document}
\maketitle
\begin{abstract}
We study how layout-aware parsing changes retrieval quality. Documents are split into elements with coordinates, and chunks keep the pages and boxes of their sources so that every answer can be traced back to the page.
\end{abstract}
\section{Introduction}
Most documents people ingest are PDFs. A parser that keeps the hierarchy of headings lets a chunker respect section boundaries, which matters for long technical manuals where a paragraph is meaningless without its heading. The rest of this paper is organised as follows.
\begin{itemize}
\item Section 2 describes the parser and its output format.
\item Section 3 evaluates retrieval with and without hierarchy.
\end{itemize}
\section{Method}
\subsection{Parsing}
Each page is read as a stream of glyphs with positions. Glyphs become lines, lines become blocks, and blocks are classified as titles, narrative text, list items, tables and formulas. The score of a block is
\begin{equation}
s(b) = \alpha \cdot \frac{f(b)}{\bar f} + \beta \cdot w(b) + \gamma \sum_{i=1}^{n} x_i^2
\end{equation}
where $f(b)$ is the font size of the block and $\bar f$ the median size on the page.
\subsection{Chunking}
Chunks are built along the title tree. A chunk never crosses a section boundary unless the section is shorter than the minimum chunk size, in which case it is merged with its next sibling. Chunks carry the union of their elements' pages and the boxes of every element, so a citation can be highlighted on the rendered page.
\section{Results}
Table~\ref{tab:res} lists recall at 5 for three configurations on our benchmark of 400 questions.
\begin{table}[h]
\centering
\begin{tabular}{|l|r|r|}
\hline
Configuration & Recall@5 & MRR \\
\hline
Fixed windows & 0.61 & 0.48 \\
Hierarchy-aware & 0.74 & 0.59 \\
Hierarchy + tables & 0.79 & 0.63 \\
\hline
\end{tabular}
\caption{Retrieval quality on the benchmark.}
\label{tab:res}
\end{table}
Hierarchy-aware chunking improves recall by thirteen points. Keeping tables whole adds five more, mostly on questions about numbers that a fixed window cuts in half. We repeated every run three times with different seeds; the standard deviation was below one point in every configuration, so the differences are not noise.
Table~\ref{tab:cost} breaks the cost down by stage.
\begin{table}[h]
\centering
\begin{tabular}{lrrr}
\hline
Stage & Seconds & Share & Pages/s \\
\hline
Parse & 41.2 & 61\% & 97 \\
Chunk & 3.1 & 5\% & 1290 \\
Embed & 22.9 & 34\% & 175 \\
\hline
\end{tabular}
\caption{Time per stage for 4,000 pages.}
\label{tab:cost}
\end{table}
\section{Conclusion}
Layout matters. Parsing documents into a faithful element tree, with coordinates and hierarchy, is a prerequisite for trustworthy retrieval augmented generation. Future work covers scanned documents, where optical character recognition adds noise to every stage, and forms with checkboxes.
\end{document}
`;
