import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { DocParseError } from "../../../src/errors.js";
import { docxFormat } from "../../../src/engine/formats/docx.js";
import { buildDocx, formatContext, renderTextImage } from "../../support/office-fixtures.js";

const parse = (bytes: Uint8Array, ctx = formatContext()) => docxFormat.parse(bytes, ctx);
const codeOf = (e: unknown) => (DocParseError.isInstance(e) ? e.code : e);

describe("docx: headings, lists, paragraphs", () => {
  it("maps heading styles and outline levels to Titles with levels", async () => {
    const doc = await parse(
      await buildDocx([
        { kind: "heading", level: 1, text: "Annual report" },
        { kind: "para", text: "Intro text." },
        { kind: "heading", level: 2, text: "Revenue 收入" },
        { kind: "outline", level: 3, text: "Outline-only heading" },
        { kind: "para", text: "中文段落，没有空格。" },
      ]),
    );
    expect(doc.estimatedLayout).toBe(true);
    expect(doc.pages).toEqual([]);
    expect(doc.elements.map((e) => [e.type, e.headingLevel, e.text])).toEqual([
      ["Title", 1, "Annual report"],
      ["NarrativeText", undefined, "Intro text."],
      ["Title", 2, "Revenue 收入"],
      ["Title", 3, "Outline-only heading"],
      ["NarrativeText", undefined, "中文段落，没有空格。"],
    ]);
  });

  it("gives list items their nesting level", async () => {
    const doc = await parse(
      await buildDocx([
        { kind: "list", level: 0, text: "one" },
        { kind: "list", level: 1, text: "one.a" },
        { kind: "list", level: 2, text: "one.a.i", ordered: true },
        { kind: "list", level: 0, text: "two" },
      ]),
    );
    expect(doc.elements.map((e) => [e.type, e.listLevel, e.text])).toEqual([
      ["ListItem", 0, "one"],
      ["ListItem", 1, "one.a"],
      ["ListItem", 2, "one.a.i"],
      ["ListItem", 0, "two"],
    ]);
  });

  it("never leaks field instructions, only the shown result", async () => {
    const doc = await parse(await buildDocx([{ kind: "field", instr: 'HYPERLINK "http://x.test" \\o "tip"', shown: "the link" }]));
    expect(doc.elements.map((e) => e.text)).toEqual(["the link"]);
  });

  it("counts hard page breaks in page numbers", async () => {
    const doc = await parse(
      await buildDocx([{ kind: "para", text: "page one" }, { kind: "pageBreak" }, { kind: "para", text: "page two" }, { kind: "pageBreak" }, { kind: "para", text: "page three" }]),
    );
    expect(doc.elements.map((e) => [e.text, e.page])).toEqual([
      ["page one", 1],
      ["page two", 2],
      ["page three", 3],
    ]);
    expect(doc.pageCount).toBe(3);
  });

  it("appends footnotes and marks their references", async () => {
    const doc = await parse(await buildDocx([{ kind: "para", text: "Claim", footnote: "Source: the 2024 survey." }, { kind: "para", text: "After" }]));
    expect(doc.elements.map((e) => [e.text, e.subType])).toEqual([
      ["Claim[1]", undefined],
      ["After", undefined],
      ["[1] Source: the 2024 survey.", "footnote"],
    ]);
  });
});

describe("docx: code", () => {
  it("joins consecutive code paragraphs into one CodeSnippet, keeping indentation", async () => {
    const JSZipMod = (await import("jszip")).default;
    const zip = await JSZipMod.loadAsync(await buildDocx([{ kind: "para", text: "Intro" }]));
    const code = (t: string) => `<w:p><w:pPr><w:pStyle w:val="PreformattedText"/></w:pPr><w:r><w:t xml:space="preserve">${t}</w:t></w:r></w:p>`;
    const doc = (await zip.file("word/document.xml")!.async("string")).replace("<w:body>", `<w:body>${code("if (x) {")}${code("  return 1;")}${code("}")}`);
    const styles = (await zip.file("word/styles.xml")!.async("string")).replace(
      "</w:styles>",
      '<w:style w:type="paragraph" w:styleId="PreformattedText"><w:name w:val="Preformatted Text"/></w:style></w:styles>',
    );
    zip.file("word/document.xml", doc);
    zip.file("word/styles.xml", styles);
    const parsed = await parse(await zip.generateAsync({ type: "uint8array" }));
    expect(parsed.elements.map((e) => [e.type, e.text])).toEqual([
      ["CodeSnippet", "if (x) {\n  return 1;\n}"],
      ["NarrativeText", "Intro"],
    ]);
  });
});

describe("docx: page furniture", () => {
  it("gives the default header once first and the footer once last, without field codes", async () => {
    const doc = await parse(await buildDocx([{ kind: "para", text: "Body" }, { kind: "pageBreak" }, { kind: "para", text: "More" }], { header: "ACME Confidential", footer: "Page " }));
    expect(doc.elements.map((e) => [e.type, e.text, e.page])).toEqual([
      ["Header", "ACME Confidential", 1],
      ["NarrativeText", "Body", 1],
      ["NarrativeText", "More", 2],
      ["Footer", "Page 1", 2],
    ]);
  });
});

describe("docx: localised styles", () => {
  it("reads WPS-style Chinese heading names", async () => {
    const JSZipMod = (await import("jszip")).default;
    const zip = await JSZipMod.loadAsync(await buildDocx([{ kind: "heading", level: 2, text: "第二章" }]));
    const styles = (await zip.file("word/styles.xml")!.async("string")).replace('w:name w:val="heading 2"', 'w:name w:val="标题 2"').replace(/<w:outlineLvl w:val="1"\/>/, "");
    zip.file("word/styles.xml", styles);
    const doc = await parse(await zip.generateAsync({ type: "uint8array" }));
    expect(doc.elements.map((e) => [e.type, e.headingLevel, e.text])).toEqual([["Title", 2, "第二章"]]);
  });
});

describe("docx: tables", () => {
  it("keeps the source structure exactly: rows, cols, gridSpan and vMerge spans, text", async () => {
    const doc = await parse(
      await buildDocx([
        { kind: "caption", text: "Table 1: Sales by region" },
        {
          kind: "table",
          rows: [
            [{ text: "Region", vMerge: "restart" }, { text: "2023 sales", gridSpan: 2 }, { text: "备注" }],
            [{ text: "", vMerge: "continue" }, { text: "H1" }, { text: "H2" }, { text: "" }],
            [{ text: "North 北" }, { text: "10" }, { text: "12" }, { text: "ok" }],
            [{ text: "South", gridSpan: 3 }, { text: "merged row" }],
          ],
        },
      ]),
    );
    const [caption, table] = doc.elements;
    expect(table!.type).toBe("Table");
    expect(table!.table).toEqual({
      rows: 4,
      cols: 4,
      headerRows: 1,
      cells: [
        { row: 1, col: 1, rowSpan: 2, text: "Region" },
        { row: 1, col: 2, colSpan: 2, text: "2023 sales" },
        { row: 1, col: 4, text: "备注" },
        { row: 2, col: 2, text: "H1" },
        { row: 2, col: 3, text: "H2" },
        { row: 2, col: 4, text: "" },
        { row: 3, col: 1, text: "North 北" },
        { row: 3, col: 2, text: "10" },
        { row: 3, col: 3, text: "12" },
        { row: 3, col: 4, text: "ok" },
        { row: 4, col: 1, colSpan: 3, text: "South" },
        { row: 4, col: 4, text: "merged row" },
      ],
    });
    expect(table!.text).toBe("Region 2023 sales 备注\nH1 H2\nNorth 北 10 12 ok\nSouth merged row");
    expect(caption!.type).toBe("TableCaption");
    expect(caption!.refIndex).toBe(1);
    expect(table!.refIndex).toBe(0);
  });
});

describe("docx: images", () => {
  it("returns pictures with pixel size, bytes, alt text and a linked figure caption", async () => {
    const png = await renderTextImage(["pic"], { width: 200 });
    const doc = await parse(
      await buildDocx([
        { kind: "image", png, widthPx: 200, heightPx: 100, alt: "A chart of sales" },
        { kind: "para", text: "Figure 1. Sales chart" },
      ]),
    );
    const [img, cap] = doc.elements;
    expect(img!.type).toBe("Image");
    expect(img!.text).toBe("A chart of sales");
    expect(img!.image?.mimeType).toBe("image/png");
    expect(img!.image?.width).toBe(200);
    expect(img!.image?.bytes?.length).toBe(png.length);
    expect(cap!.type).toBe("FigureCaption");
    expect(cap!.refIndex).toBe(0);
  });
});

describe("docx: charts", () => {
  it("turns an embedded chart into an Image (sub_type chart) with title, series and categories", async () => {
    const doc = await parse(
      await buildDocx([
        { kind: "para", text: "Before" },
        { kind: "chart", title: "Sales 销售", series: ["2023", "2024"], categories: ["North", "South"] },
        { kind: "para", text: "Figure 2: Sales by year" },
      ]),
    );
    expect(doc.elements.map((e) => [e.type, e.subType, e.text])).toEqual([
      ["NarrativeText", undefined, "Before"],
      ["Image", "chart", "Sales 销售\nSeries: 2023, 2024\nCategories: North, South"],
      ["FigureCaption", undefined, "Figure 2: Sales by year"],
    ]);
    expect(doc.elements[1]!.image!.width).toBe(480);
  });
});

describe("docx: bad input", () => {
  it("rejects an empty file, a non-zip and a zip without a document with 40422", async () => {
    expect(codeOf(await parse(new Uint8Array()).catch((e: unknown) => e))).toBe(40422);
    expect(codeOf(await parse(new TextEncoder().encode("hello, not a zip")).catch((e: unknown) => e))).toBe(40422);
    const zip = new JSZip();
    zip.file("hello.txt", "x");
    expect(codeOf(await parse(await zip.generateAsync({ type: "uint8array" })).catch((e: unknown) => e))).toBe(40422);
  });

  it("fails once, with no stray rejection, when broken styles meet a part that inflates past its size", async () => {
    const zip = new JSZip();
    const documentXml = `<w:document xmlns:w="x"><w:body><w:p><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>`;
    const stylesXml = `<w:styles><w:style w:styleId="a"><w:name"broken`;
    zip.file("word/document.xml", documentXml);
    zip.file("word/styles.xml", stylesXml);
    zip.file("word/_rels/document.xml.rels", `<Relationships>${" ".repeat(4096)}</Relationships>`);
    const bytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    // The relationships entry declares 10 bytes and inflates to 4 KB: reading it throws.
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    for (let i = 0; i + 46 < bytes.length; i++) {
      if (view.getUint32(i, true) !== 0x02014b50) continue;
      const name = new TextDecoder().decode(bytes.subarray(i + 46, i + 46 + view.getUint16(i + 28, true)));
      if (name.endsWith(".rels")) view.setUint32(i + 24, 10, true);
    }
    const stray: unknown[] = [];
    const onStray = (reason: unknown): void => void stray.push(reason);
    process.on("unhandledRejection", onStray);
    try {
      const err = await parse(bytes, formatContext({ limits: { maxZipRatio: 1e9 } })).catch((e: unknown) => e);
      expect(codeOf(err)).toBe(40422);
      await new Promise((r) => setTimeout(r, 50));
      expect(stray).toEqual([]);
    } finally {
      process.off("unhandledRejection", onStray);
    }
  });

  it("refuses a zip bomb quickly (ratio and total uncompressed limits)", async () => {
    const zip = new JSZip();
    zip.file("word/document.xml", "<a>" + " ".repeat(8 * 1024 * 1024) + "</a>");
    const bomb = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    const t0 = Date.now();
    expect(codeOf(await parse(bomb).catch((e: unknown) => e))).toBe(40422);
    expect(codeOf(await parse(bomb, formatContext({ limits: { maxZipRatio: 1e9, maxUnzippedBytes: 1024 * 1024 } })).catch((e: unknown) => e))).toBe(40422);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it("refuses an entry that inflates past its declared size", async () => {
    const zip = new JSZip();
    zip.file("word/document.xml", "<w:document>" + "x".repeat(3 * 1024 * 1024) + "</w:document>");
    const bytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    // Patch the central directory's uncompressed size of the entry down to 100 bytes.
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    for (let i = bytes.length - 22; i >= 0; i--) {
      if (view.getUint32(i, true) === 0x02014b50) {
        view.setUint32(i + 24, 100, true);
        break;
      }
    }
    expect(codeOf(await parse(bytes, formatContext({ limits: { maxZipRatio: 1e9 } })).catch((e: unknown) => e))).toBe(40422);
  });

  it("refuses XML entity declarations (billion laughs) with 40422", async () => {
    const zip = new JSZip();
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><w:document xmlns:w="x"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>`;
    zip.file("word/document.xml", lol);
    const bytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    expect(codeOf(await parse(bytes).catch((e: unknown) => e))).toBe(40422);
  });

  it("refuses absurdly deep XML nesting with 40425 in bounded time", async () => {
    const zip = new JSZip();
    const depth = 5000;
    zip.file("word/document.xml", `<w:document xmlns:w="x"><w:body>${"<w:sdt><w:sdtContent>".repeat(depth)}${"</w:sdtContent></w:sdt>".repeat(depth)}</w:body></w:document>`);
    const bytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    const t0 = Date.now();
    expect(codeOf(await parse(bytes).catch((e: unknown) => e))).toBe(40425);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
