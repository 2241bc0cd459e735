import JSZip from "jszip";
import type { FormatContext } from "../../src/engine/draft.js";
import { ENGINE_LIMIT_DEFAULTS } from "../../src/engine/limits.js";
import { resolveCapabilities, type ParseConfig } from "../../src/wire/index.js";

/**
 * Ground truth the tests control: rendered text images for OCR, and minimal OOXML
 * packages (DOCX / PPTX) written from code so every expected row, span and level is
 * known exactly.
 */

/** Renders lines of text as a white PNG with `@napi-rs/canvas` and a system font. */
export async function renderTextImage(
  lines: string[],
  options: { fontSize?: number; font?: string; width?: number; format?: "png" | "jpeg" | "webp" } = {},
): Promise<Uint8Array> {
  const { createCanvas } = await import("@napi-rs/canvas");
  const { fontSize = 32, font = "DejaVu Sans", format = "png" } = options;
  const lineHeight = Math.round(fontSize * 2);
  const width = options.width ?? Math.max(400, Math.max(...lines.map((l) => l.length)) * fontSize * 0.65 + 80);
  const canvas = createCanvas(Math.round(width), lineHeight * lines.length + fontSize * 2);
  const g = canvas.getContext("2d");
  g.fillStyle = "white";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = "black";
  g.font = `${fontSize}px ${font}`;
  lines.forEach((line, i) => g.fillText(line, 40, fontSize * 1.5 + i * lineHeight));
  if (format === "jpeg") return new Uint8Array(canvas.toBuffer("image/jpeg", 95));
  if (format === "webp") return new Uint8Array(canvas.toBuffer("image/webp", 100));
  return new Uint8Array(canvas.toBuffer("image/png"));
}

/** Levenshtein distance over code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length]!;
}

/** 1 − edit distance / reference length (whitespace collapsed). */
export function charAccuracy(reference: string, actual: string): number {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim();
  const r = norm(reference);
  return r.length === 0 ? 1 : Math.max(0, 1 - editDistance(r, norm(actual)) / [...r].length);
}

// ---------------------------------------------------------------- OOXML builders

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const W_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';

/** A table cell in a DOCX/PPTX fixture. `vMerge: "restart" | "continue"` for vertical spans. */
export interface FixtureCell {
  text: string;
  gridSpan?: number;
  vMerge?: "restart" | "continue";
}

/** Body blocks of a fixture DOCX. */
export type DocxBlock =
  | { kind: "heading"; level: number; text: string }
  | { kind: "outline"; level: number; text: string }
  | { kind: "para"; text: string; footnote?: string }
  | { kind: "list"; level: number; text: string; ordered?: boolean }
  | { kind: "table"; rows: FixtureCell[][] }
  | { kind: "caption"; text: string }
  | { kind: "pageBreak" }
  | { kind: "field"; instr: string; shown: string }
  | { kind: "image"; png: Uint8Array; widthPx: number; heightPx: number; alt?: string }
  | { kind: "chart"; title: string; series: string[]; categories: string[] };

function wRun(text: string): string {
  return `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
}

function docxCell(c: FixtureCell): string {
  const pr = [c.gridSpan ? `<w:gridSpan w:val="${c.gridSpan}"/>` : "", c.vMerge ? `<w:vMerge w:val="${c.vMerge}"/>` : ""].join("");
  return `<w:tc><w:tcPr>${pr}</w:tcPr><w:p>${c.text ? wRun(c.text) : ""}</w:p></w:tc>`;
}

/** Builds a minimal but valid DOCX (opens in Word and LibreOffice). */
export async function buildDocx(blocks: DocxBlock[], furniture: { header?: string; footer?: string } = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  const footnotes: string[] = [];
  const media: { name: string; png: Uint8Array }[] = [];
  const charts: unknown[] = [];
  const body = blocks
    .map((b) => {
      switch (b.kind) {
        case "heading":
          return `<w:p><w:pPr><w:pStyle w:val="Heading${b.level}"/></w:pPr>${wRun(b.text)}</w:p>`;
        case "outline":
          return `<w:p><w:pPr><w:outlineLvl w:val="${b.level - 1}"/></w:pPr>${wRun(b.text)}</w:p>`;
        case "para": {
          if (!b.footnote) return `<w:p>${wRun(b.text)}</w:p>`;
          footnotes.push(b.footnote);
          const id = footnotes.length;
          return `<w:p>${wRun(b.text)}<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r></w:p>`;
        }
        case "list":
          return `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${b.level}"/><w:numId w:val="${b.ordered ? 2 : 1}"/></w:numPr></w:pPr>${wRun(b.text)}</w:p>`;
        case "table": {
          const cols = Math.max(...b.rows.map((r) => r.reduce((n, c) => n + (c.gridSpan ?? 1), 0)));
          const grid = `<w:tblGrid>${'<w:gridCol w:w="2000"/>'.repeat(cols)}</w:tblGrid>`;
          const rows = b.rows.map((r) => `<w:tr>${r.map(docxCell).join("")}</w:tr>`).join("");
          return `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>${grid}${rows}</w:tbl>`;
        }
        case "caption":
          return `<w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr>${wRun(b.text)}</w:p>`;
        case "pageBreak":
          return `<w:p><w:r><w:br w:type="page"/></w:r></w:p>`;
        case "field":
          return `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${esc(b.instr)} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${wRun(b.shown)}<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
        case "chart": {
          charts.push(b);
          const n = charts.length;
          const pts = (vals: string[]) => `<c:ptCount val="${vals.length}"/>${vals.map((v, k) => `<c:pt idx="${k}"><c:v>${esc(v)}</c:v></c:pt>`).join("")}`;
          const ser = b.series
            .map((name, k) => `<c:ser><c:idx val="${k}"/><c:tx><c:strRef><c:strCache>${pts([name])}</c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache>${pts(b.categories)}</c:strCache></c:strRef></c:cat></c:ser>`)
            .join("");
          zip.file(
            `word/charts/chart${n}.xml`,
            `${XML}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>${esc(b.title)}</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>${ser}</c:barChart></c:plotArea></c:chart></c:chartSpace>`,
          );
          return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="4572000" cy="2743200"/><wp:docPr id="${100 + n}" name="Chart ${n}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart${n}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
        }
        case "image": {
          media.push({ name: `image${media.length + 1}.png`, png: b.png });
          const rid = `rIdImg${media.length}`;
          const cx = b.widthPx * 9525;
          const cy = b.heightPx * 9525;
          return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${media.length}" name="Picture ${media.length}" descr="${esc(b.alt ?? "")}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${media.length}" name="p.png" descr="${esc(b.alt ?? "")}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
        }
      }
    })
    .join("");
  zip.file(
    "[Content_Types].xml",
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>`,
  );
  zip.file(
    "_rels/.rels",
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  const rels = [
    `<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`,
    `<Relationship Id="rIdNum" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>`,
    `<Relationship Id="rIdFn" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>`,
    ...media.map((m, i) => `<Relationship Id="rIdImg${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/${m.name}"/>`),
    ...charts.map((_, i) => `<Relationship Id="rIdChart${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart${i + 1}.xml"/>`),
  ];
  const sectRefs: string[] = [];
  for (const kind of ["header", "footer"] as const) {
    const text = furniture[kind];
    if (!text) continue;
    rels.push(`<Relationship Id="rId_${kind}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${kind}" Target="${kind}1.xml"/>`);
    const root = kind === "header" ? "hdr" : "ftr";
    // The footer carries a PAGE field, whose instruction must not leak.
    const field = kind === "footer" ? `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${wRun("1")}<w:r><w:fldChar w:fldCharType="end"/></w:r>` : "";
    zip.file(`word/${kind}1.xml`, `${XML}<w:${root} ${W_NS}><w:p>${wRun(text)}${field}</w:p></w:${root}>`);
    sectRefs.push(`<w:${kind}Reference w:type="default" r:id="rId_${kind}"/>`);
  }
  zip.file("word/_rels/document.xml.rels", `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join("")}</Relationships>`);
  for (const m of media) zip.file(`word/media/${m.name}`, m.png);
  const style = (id: string, name: string, extra = "") =>
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:pPr>${extra}</w:pPr></w:style>`;
  zip.file(
    "word/styles.xml",
    `${XML}<w:styles ${W_NS}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${[1, 2, 3, 4]
      .map((l) => style(`Heading${l}`, `heading ${l}`, `<w:outlineLvl w:val="${l - 1}"/>`))
      .join("")}${style("ListParagraph", "List Paragraph")}${style("Caption", "caption")}<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style></w:styles>`,
  );
  const lvls = (fmt: string) =>
    [0, 1, 2, 3].map((l) => `<w:lvl w:ilvl="${l}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${fmt === "bullet" ? "•" : `%${l + 1}.`}"/><w:pPr><w:ind w:left="${720 * (l + 1)}" w:hanging="360"/></w:pPr></w:lvl>`).join("");
  zip.file(
    "word/numbering.xml",
    `${XML}<w:numbering ${W_NS}><w:abstractNum w:abstractNumId="0">${lvls("bullet")}</w:abstractNum><w:abstractNum w:abstractNumId="1">${lvls("decimal")}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`,
  );
  zip.file(
    "word/footnotes.xml",
    `${XML}<w:footnotes ${W_NS}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>${footnotes
      .map((f, i) => `<w:footnote w:id="${i + 1}"><w:p>${wRun(f)}</w:p></w:footnote>`)
      .join("")}</w:footnotes>`,
  );
  zip.file("word/document.xml", `${XML}<w:document ${W_NS}><w:body>${body}<w:sectPr>${sectRefs.join("")}<w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

/** A shape on a fixture slide; offsets/sizes in EMU. */
export type SlideShape =
  | { kind: "title"; text: string; x: number; y: number; cx: number; cy: number; inheritFromLayout?: boolean }
  | { kind: "body"; paragraphs: { text: string; level?: number }[]; x: number; y: number; cx: number; cy: number }
  | { kind: "table"; rows: FixtureCell[][]; x: number; y: number; cx: number; cy: number }
  | { kind: "picture"; png: Uint8Array; x: number; y: number; cx: number; cy: number; alt?: string }
  | { kind: "group"; x: number; y: number; cx: number; cy: number; chX: number; chY: number; chCx: number; chCy: number; children: SlideShape[] }
  | { kind: "chart"; title: string; series: { name: string; categories: string[]; values: number[] }[]; x: number; y: number; cx: number; cy: number };

/** One slide of a fixture PPTX. */
export interface FixtureSlide {
  shapes: SlideShape[];
  notes?: string;
  hidden?: boolean;
}

const P_NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

function spXfrm(s: { x: number; y: number; cx: number; cy: number }, tag = "a:xfrm"): string {
  return `<${tag}><a:off x="${s.x}" y="${s.y}"/><a:ext cx="${s.cx}" cy="${s.cy}"/></${tag}>`;
}

/** Builds a minimal PPTX. Slide size 12192000×6858000 EMU (13.333×7.5 in, 16:9). */
export async function buildPptx(slides: FixtureSlide[], size = { cx: 12192000, cy: 6858000 }): Promise<Uint8Array> {
  const zip = new JSZip();
  const ct: string[] = [];
  const layoutTitle = { x: 838200, y: 365125, cx: 10515600, cy: 1325563 };
  zip.file(
    "_rels/.rels",
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
  );
  const presRels: string[] = [
    `<Relationship Id="rIdM" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster" Target="slideMasters/slideMaster1.xml"/>`,
  ];
  const sldIds: string[] = [];
  slides.forEach((slide, i) => {
    const n = i + 1;
    presRels.push(`<Relationship Id="rIdS${n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${n}.xml"/>`);
    sldIds.push(`<p:sldId id="${255 + n}" r:id="rIdS${n}"/>`);
    ct.push(`<Override PartName="/ppt/slides/slide${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`);
    const rels = [
      `<Relationship Id="rIdL" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>`,
    ];
    let id = 2;
    const renderShape = (s: SlideShape): string => {
        id++;
        switch (s.kind) {
          case "group":
            return `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${id}" name="Group ${id}"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="${s.x}" y="${s.y}"/><a:ext cx="${s.cx}" cy="${s.cy}"/><a:chOff x="${s.chX}" y="${s.chY}"/><a:chExt cx="${s.chCx}" cy="${s.chCy}"/></a:xfrm></p:grpSpPr>${s.children.map(renderShape).join("")}</p:grpSp>`;
          case "title":
            return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Title ${id}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr>${s.inheritFromLayout ? "" : spXfrm(s)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(s.text)}</a:t></a:r></a:p></p:txBody></p:sp>`;
          case "body":
            return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="TextBox ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${spXfrm(s)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>${s.paragraphs
              .map((p) => `<a:p>${p.level !== undefined ? `<a:pPr lvl="${p.level}"><a:buChar char="•"/></a:pPr>` : ""}<a:r><a:rPr lang="en-US"/><a:t>${esc(p.text)}</a:t></a:r></a:p>`)
              .join("")}</p:txBody></p:sp>`;
          case "table": {
            const cols = Math.max(...s.rows.map((r) => r.reduce((k, c) => k + (c.gridSpan ?? 1), 0)));
            const grid = `<a:tblGrid>${`<a:gridCol w="${Math.floor(s.cx / cols)}"/>`.repeat(cols)}</a:tblGrid>`;
            const rowH = Math.floor(s.cy / s.rows.length);
            // PPTX marks covered cells with hMerge/vMerge; expand the fixture's compact form.
            const colsOf = (r: FixtureCell[]) => {
              let g = 0;
              return r.map((c) => {
                const at = g;
                g += c.gridSpan ?? 1;
                return at;
              });
            };
            const rowSpanOf = (ri: number, g: number) => {
              let n = 1;
              while (ri + n < s.rows.length) {
                const next = s.rows[ri + n]!;
                const k = colsOf(next).indexOf(g);
                if (k < 0 || next[k]!.vMerge !== "continue") break;
                n++;
              }
              return n;
            };
            const rows = s.rows
              .map((r, ri) => {
                const tcs: string[] = [];
                const starts = colsOf(r);
                for (const [ci, c] of r.entries()) {
                  const span = c.vMerge === "restart" ? rowSpanOf(ri, starts[ci]!) : 1;
                  const attrs = `${c.gridSpan ? ` gridSpan="${c.gridSpan}"` : ""}${span > 1 ? ` rowSpan="${span}"` : ""}${c.vMerge === "continue" ? ' vMerge="1"' : ""}`;
                  tcs.push(`<a:tc${attrs}><a:txBody><a:bodyPr/><a:p><a:r><a:t>${esc(c.text)}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`);
                  for (let k = 1; k < (c.gridSpan ?? 1); k++) tcs.push(`<a:tc hMerge="1"><a:txBody><a:bodyPr/><a:p/></a:txBody><a:tcPr/></a:tc>`);
                }
                return `<a:tr h="${rowH}">${tcs.join("")}</a:tr>`;
              })
              .join("");
            return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Table ${id}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>${spXfrm(s, "p:xfrm")}<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${grid}${rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
          }
          case "chart": {
            const name = `chart${n}_${id}.xml`;
            const pts = (vals: (string | number)[], tag: string) =>
              `<c:${tag}><c:ptCount val="${vals.length}"/>${vals.map((v, k) => `<c:pt idx="${k}"><c:v>${esc(String(v))}</c:v></c:pt>`).join("")}</c:${tag}>`;
            const ser = s.series
              .map(
                (se, k) =>
                  `<c:ser><c:idx val="${k}"/><c:order val="${k}"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f>${pts([se.name], "strCache")}</c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2</c:f>${pts(se.categories, "strCache")}</c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2</c:f>${pts(se.values, "numCache")}</c:numRef></c:val></c:ser>`,
              )
              .join("");
            zip.file(
              `ppt/charts/${name}`,
              `${XML}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${esc(s.title)}</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>${ser}<c:axId val="1"/><c:axId val="2"/></c:barChart></c:plotArea></c:chart></c:chartSpace>`,
            );
            ct.push(`<Override PartName="/ppt/charts/${name}" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`);
            rels.push(`<Relationship Id="rIdC${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/${name}"/>`);
            return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Chart ${id}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>${spXfrm(s, "p:xfrm")}<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdC${id}"/></a:graphicData></a:graphic></p:graphicFrame>`;
          }
          case "picture": {
            const name = `s${n}i${id}.png`;
            zip.file(`ppt/media/${name}`, s.png);
            rels.push(`<Relationship Id="rIdP${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/${name}"/>`);
            return `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="Picture ${id}" descr="${esc(s.alt ?? "")}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rIdP${id}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>${spXfrm(s)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
          }
        }
    };
    const shapes = slide.shapes.map(renderShape).join("");
    if (slide.notes) {
      rels.push(`<Relationship Id="rIdN" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide${n}.xml"/>`);
      ct.push(`<Override PartName="/ppt/notesSlides/notesSlide${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml"/>`);
      zip.file(
        `ppt/notesSlides/notesSlide${n}.xml`,
        `${XML}<p:notes ${P_NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/><p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp><p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>${esc(slide.notes)}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>`,
      );
    }
    zip.file(`ppt/slides/_rels/slide${n}.xml.rels`, `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join("")}</Relationships>`);
    zip.file(
      `ppt/slides/slide${n}.xml`,
      `${XML}<p:sld ${P_NS}${slide.hidden ? ' show="0"' : ""}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld></p:sld>`,
    );
  });
  zip.file(
    "ppt/slideLayouts/slideLayout1.xml",
    `${XML}<p:sldLayout ${P_NS} type="title"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/><p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr>${spXfrm(layoutTitle)}</p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>Click to edit</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sldLayout>`,
  );
  zip.file(
    "ppt/slideLayouts/_rels/slideLayout1.xml.rels",
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster" Target="../slideMasters/slideMaster1.xml"/></Relationships>`,
  );
  zip.file(
    "ppt/slideMasters/slideMaster1.xml",
    `${XML}<p:sldMaster ${P_NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`,
  );
  zip.file(
    "ppt/slideMasters/_rels/slideMaster1.xml.rels",
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout1.xml"/></Relationships>`,
  );
  zip.file("ppt/_rels/presentation.xml.rels", `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${presRels.join("")}</Relationships>`);
  zip.file(
    "ppt/presentation.xml",
    `${XML}<p:presentation ${P_NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rIdM"/></p:sldMasterIdLst><p:sldIdLst>${sldIds.join("")}</p:sldIdLst><p:sldSz cx="${size.cx}" cy="${size.cy}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  zip.file(
    "[Content_Types].xml",
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/><Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml"/><Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"/>${ct.join("")}</Types>`,
  );
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

// ---------------------------------------------------------------- handler context


/** A FormatContext as LocalParser would build it, with engine_params and limits overridable. */
export function formatContext(
  options: { engineParams?: Record<string, unknown>; limits?: Partial<FormatContext["limits"]>; filename?: string; signal?: AbortSignal; config?: ParseConfig } = {},
): FormatContext {
  const config: ParseConfig = options.config ?? (options.engineParams ? { config: { engine_params: options.engineParams } } : {});
  const ctx: FormatContext = {
    config,
    capabilities: resolveCapabilities(config),
    parseMode: "auto",
    limits: { ...ENGINE_LIMIT_DEFAULTS, ...options.limits },
  };
  if (options.filename) ctx.filename = options.filename;
  if (options.signal) ctx.signal = options.signal;
  return ctx;
}

// ---------------------------------------------------------------- image helpers

/** Inserts a pHYs chunk (dots per inch → pixels per metre) after IHDR. */
export function withPngDpi(png: Uint8Array, dpi: number): Uint8Array {
  const ppm = Math.round(dpi / 0.0254);
  const chunk = Buffer.alloc(21);
  chunk.writeUInt32BE(9, 0);
  chunk.write("pHYs", 4, "ascii");
  chunk.writeUInt32BE(ppm, 8);
  chunk.writeUInt32BE(ppm, 12);
  chunk[16] = 1;
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 17)), 17);
  const at = 8 + 25; // signature + IHDR chunk
  return new Uint8Array(Buffer.concat([Buffer.from(png.subarray(0, at)), chunk, Buffer.from(png.subarray(at))]));
}

function crc32(b: Uint8Array): number {
  let c = ~0;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** Renders text and encodes it as an uncompressed RGB TIFF (with a dpi tag). */
export async function renderTextTiff(lines: string[], dpi = 200): Promise<Uint8Array> {
  const { createCanvas, loadImage } = await import("@napi-rs/canvas");
  const img = await loadImage(Buffer.from(await renderTextImage(lines)));
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0);
  const { data, width, height } = g.getImageData(0, 0, img.width, img.height);
  const px = width * height * 3;
  const nTags = 12;
  const ifdSize = 2 + nTags * 12 + 4;
  const bpsOff = 8 + ifdSize;
  const resOff = bpsOff + 6;
  const dataOff = resOff + 16;
  const buf = Buffer.alloc(dataOff + px);
  buf.write("II", 0, "ascii");
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  let o = 8;
  buf.writeUInt16LE(nTags, o);
  o += 2;
  const tag = (t: number, type: number, count: number, v: number) => {
    buf.writeUInt16LE(t, o);
    buf.writeUInt16LE(type, o + 2);
    buf.writeUInt32LE(count, o + 4);
    if (type === 3 && count === 1) buf.writeUInt16LE(v, o + 8);
    else buf.writeUInt32LE(v, o + 8);
    o += 12;
  };
  tag(256, 4, 1, width);
  tag(257, 4, 1, height);
  tag(258, 3, 3, bpsOff);
  tag(259, 3, 1, 1);
  tag(262, 3, 1, 2);
  tag(273, 4, 1, dataOff);
  tag(277, 3, 1, 3);
  tag(278, 4, 1, height);
  tag(279, 4, 1, px);
  tag(282, 5, 1, resOff);
  tag(283, 5, 1, resOff + 8);
  tag(296, 3, 1, 2);
  buf.writeUInt32LE(0, o);
  for (const k of [0, 2, 4]) buf.writeUInt16LE(8, bpsOff + k);
  buf.writeUInt32LE(dpi, resOff);
  buf.writeUInt32LE(1, resOff + 4);
  buf.writeUInt32LE(dpi, resOff + 8);
  buf.writeUInt32LE(1, resOff + 12);
  for (let i = 0, j = dataOff; i < width * height; i++) {
    buf[j++] = data[i * 4]!;
    buf[j++] = data[i * 4 + 1]!;
    buf[j++] = data[i * 4 + 2]!;
  }
  return new Uint8Array(buf);
}

/** A PNG header only (signature + IHDR) claiming the given size: enough for size checks. */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write("IHDR", 12, "ascii");
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 2;
  b.writeUInt32BE(crc32(b.subarray(12, 29)), 29);
  return new Uint8Array(b);
}

/** Renders text and encodes it as a 24-bit bottom-up BMP with a resolution. */
export async function renderTextBmp(lines: string[], dpi = 150): Promise<Uint8Array> {
  const { createCanvas, loadImage } = await import("@napi-rs/canvas");
  const img = await loadImage(Buffer.from(await renderTextImage(lines)));
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0);
  const { data, width, height } = g.getImageData(0, 0, img.width, img.height);
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const buf = Buffer.alloc(54 + rowSize * height);
  buf.write("BM", 0, "ascii");
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(rowSize * height, 34);
  const ppm = Math.round(dpi / 0.0254);
  buf.writeInt32LE(ppm, 38);
  buf.writeInt32LE(ppm, 42);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      buf[row + x * 3] = data[i + 2]!;
      buf[row + x * 3 + 1] = data[i + 1]!;
      buf[row + x * 3 + 2] = data[i]!;
    }
  }
  return new Uint8Array(buf);
}
