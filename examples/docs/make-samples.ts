/**
 * Makes the binary sample documents of examples/docs (the text and Markdown ones are
 * written by hand): an English two-page PDF and a Chinese Word document.
 *
 *   npx tsx examples/docs/make-samples.ts           # (re)writes them
 *   npx tsx examples/docs/make-samples.ts --check   # exits 1 if the committed files differ
 *
 * The output is byte-for-byte reproducible (fixed dates, no random ids), so the files
 * are committed and the demo runs offline without generating anything; a test runs
 * `--check` so the script and the files cannot drift apart.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import JSZip from "jszip";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

const FIXED_DATE = new Date("2026-01-01T00:00:00Z");

/** The English PDF: headings in bold at a larger size, body text wrapped, two pages. */
export async function warrantyPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle("Aurora X2 Warranty Terms");
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pages: { heading: string; level: 1 | 2; body: string[] }[][] = [
    [
      { heading: "Aurora X2 Warranty Terms", level: 1, body: ["These terms cover every Aurora X2 air purifier sold by Northwind after 1 January 2026."] },
      {
        heading: "Coverage period",
        level: 2,
        body: [
          "The purifier is covered for two years from the date of purchase against defects in materials and workmanship.",
          "The fan motor is covered for five years from the date of purchase.",
          "Filters are consumables and are not covered by the warranty.",
        ],
      },
      {
        heading: "What is not covered",
        level: 2,
        body: ["Damage caused by water, dropping the unit, or using filters that were not made by Northwind is not covered."],
      },
    ],
    [
      {
        heading: "How to make a claim",
        level: 2,
        body: [
          "Register the purifier online and keep the receipt.",
          "To make a claim, email the serial number, the receipt and a short description of the fault to warranty@northwind.example.",
          "We answer every claim within three business days and collect the unit at no cost.",
        ],
      },
      { heading: "Repairs and replacements", level: 2, body: ["A repaired or replaced purifier is covered for the rest of the original warranty period or 90 days, whichever is longer."] },
    ],
  ];
  for (const sections of pages) {
    const page = pdf.addPage([595, 842]);
    let y = 770;
    for (const section of sections) {
      const size = section.level === 1 ? 20 : 14;
      page.drawText(section.heading, { x: 60, y, size, font: bold, color: rgb(0, 0, 0) });
      y -= size + 14;
      for (const paragraph of section.body) {
        for (const line of wrap(paragraph, 80)) {
          page.drawText(line, { x: 60, y, size: 11, font: regular });
          y -= 15;
        }
        y -= 8;
      }
      y -= 10;
    }
  }
  return pdf.save({ useObjectStreams: false });
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const para = (text: string, style?: string) => `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${esc(text)}</w:t></w:r></w:p></w:tc>`;

/** The Chinese Word document: a travel policy with headings, paragraphs and a table. */
export async function travelPolicyDocx(): Promise<Uint8Array> {
  const body = [
    para("差旅管理制度", "Heading1"),
    para("本制度规定员工因公出差的审批、交通、住宿和报销标准。"),
    para("出差审批", "Heading2"),
    para("员工出差须至少提前五个工作日提交出差申请，经部门负责人批准后方可预订机票和酒店。紧急出差可以事后补办审批，但须在返回后两个工作日内完成。"),
    para("交通标准", "Heading2"),
    para("国内出差原则上乘坐高铁二等座或飞机经济舱。单程超过六小时的行程可以申请乘坐高铁一等座。"),
    `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>${[
      ["职级", "交通工具"],
      ["普通员工", "高铁二等座、经济舱"],
      ["部门负责人", "高铁一等座、经济舱"],
    ]
      .map((r) => `<w:tr>${r.map(cell).join("")}</w:tr>`)
      .join("")}</w:tbl>`,
    para("出差补助", "Heading2"),
    para("出差期间每天发放伙食补助一百元，无需提供发票。出差结束后十个工作日内须提交差旅报销单。"),
  ].join("");
  const zip = new JSZip();
  const file = (name: string, content: string) => zip.file(name, content, { date: FIXED_DATE, createFolders: false });
  file(
    "[Content_Types].xml",
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
  );
  file("_rels/.rels", `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`);
  file("word/_rels/document.xml.rels", `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`);
  const heading = (level: number) =>
    `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="${level - 1}"/></w:pPr></w:style>`;
  file("word/styles.xml", `${XML}<w:styles ${W}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${heading(1)}${heading(2)}</w:styles>`);
  file("word/document.xml", `${XML}<w:document ${W}><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

/** Each generated sample: its path under examples/docs and how it is made. */
export const SAMPLES = {
  "en/warranty-terms.pdf": warrantyPdf,
  "zh/travel-policy.docx": travelPolicyDocx,
} as const;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const [name, make] of Object.entries(SAMPLES)) {
    const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
    const bytes = Buffer.from(await make());
    if (check) {
      const current = await readFile(path).catch(() => undefined);
      if (!current || !current.equals(bytes)) {
        console.error(`${name} differs from what make-samples.ts produces`);
        stale++;
      }
    } else {
      await writeFile(path, bytes);
      console.log(`wrote ${name} (${bytes.length} bytes)`);
    }
  }
  if (stale) process.exitCode = 1;
}
