import { describe, expect, it } from "vitest";
import { DocParseError } from "../../../src/errors.js";
import { decodeHtml, htmlFormat } from "../../../src/engine/formats/html.js";
import { formatContext } from "../../support/office-fixtures.js";

const enc = (s: string) => new TextEncoder().encode(s);
const parse = (html: string) => htmlFormat.parse(enc(html), formatContext());
const summary = (els: { type: string; text: string; headingLevel?: number; listLevel?: number }[]) =>
  els.map((e) => [e.type, e.headingLevel ?? e.listLevel, e.text]);

describe("html: structure", () => {
  it("maps headings, paragraphs, lists with levels and code; drops scripts and styles", async () => {
    const doc = await parse(`<!doctype html><html><head><title>T</title><style>p{}</style><script>alert(1)</script></head><body>
      <h1>Guide 指南</h1><p>First   paragraph<br>second line.</p>
      <script>var hidden = 1;</script>
      <h2>Steps</h2>
      <ul><li>one<ul><li>one.a</li><li>one.b<ol><li>deep</li></ol></li></ul></li><li>two</li></ul>
      <pre><code>const x = 1;
  return x;</code></pre>
      <p hidden>invisible</p><div style="display:none">gone</div>
      <p>中文段落。</p></body></html>`);
    expect(doc.estimatedLayout).toBe(true);
    expect(doc.metadata).toEqual({ encoding: "utf-8", title: "T" });
    expect(summary(doc.elements)).toEqual([
      ["Title", 1, "Guide 指南"],
      ["NarrativeText", undefined, "First paragraph\nsecond line."],
      ["Title", 2, "Steps"],
      ["ListItem", 0, "one"],
      ["ListItem", 1, "one.a"],
      ["ListItem", 1, "one.b"],
      ["ListItem", 2, "deep"],
      ["ListItem", 0, "two"],
      ["CodeSnippet", undefined, "const x = 1;\n  return x;"],
      ["NarrativeText", undefined, "中文段落。"],
    ]);
  });

  it("demotes nav, footer and page header boilerplate out of the outline", async () => {
    const doc = await parse(`<body><header><h1>Site name</h1></header><nav><a href="/">Home</a> <a href="/x">About</a></nav>
      <main><article><header><h1>Real title</h1></header><p>Body.</p></article></main><footer><h3>Contact</h3><p>© 2024</p></footer></body>`);
    expect(summary(doc.elements)).toEqual([
      ["Header", undefined, "Site name"],
      ["UncategorizedText", undefined, "Home About"],
      ["Title", 1, "Real title"],
      ["NarrativeText", undefined, "Body."],
      ["Footer", undefined, "Contact"],
      ["Footer", undefined, "© 2024"],
    ]);
  });

  it("keeps images with alt text and decodes data: URIs, never fetching remote ones", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    const doc = await parse(`<figure><img src="data:image/png;base64,${png.toString("base64")}" alt="A dot"><figcaption>Figure 1: a dot</figcaption></figure><img src="http://example.invalid/x.jpg" alt="remote" width="40" height="30">`);
    const [img, cap, remote] = doc.elements;
    expect([img!.type, img!.text, img!.image?.mimeType, img!.image?.width, img!.image?.bytes?.length]).toEqual(["Image", "A dot", "image/png", 1, png.length]);
    expect([cap!.type, cap!.refIndex, img!.refIndex]).toEqual(["FigureCaption", 0, 1]);
    expect([remote!.text, remote!.image?.bytes, remote!.image?.width, remote!.metadata?.src]).toEqual(["remote", undefined, 40, "http://example.invalid/x.jpg"]);
  });
});

describe("html: tables", () => {
  it("keeps the source structure exactly, with rowspan/colspan and a linked caption", async () => {
    const doc = await parse(`<table><caption>Table 1 Sales</caption>
      <thead><tr><th rowspan="2">Region</th><th colspan="2">2023</th></tr><tr><th>H1</th><th>H2</th></tr></thead>
      <tbody><tr><td>北区</td><td>10</td><td rowspan="2">12</td></tr><tr><td colspan="2">South</td></tr></tbody></table>`);
    const [cap, t] = doc.elements;
    expect([cap!.type, cap!.text, cap!.refIndex, t!.refIndex]).toEqual(["TableCaption", "Table 1 Sales", 1, 0]);
    expect(t!.table).toEqual({
      rows: 4,
      cols: 3,
      headerRows: 2,
      cells: [
        { row: 1, col: 1, rowSpan: 2, text: "Region" },
        { row: 1, col: 2, colSpan: 2, text: "2023" },
        { row: 2, col: 2, text: "H1" },
        { row: 2, col: 3, text: "H2" },
        { row: 3, col: 1, text: "北区" },
        { row: 3, col: 2, text: "10" },
        { row: 3, col: 3, rowSpan: 2, text: "12" },
        { row: 4, col: 1, colSpan: 2, text: "South" },
      ],
    });
  });
});

describe("html: encodings and bad input", () => {
  it("uses the meta charset (GBK) and the BOM", async () => {
    const gbk = Buffer.from([0x3c, 0x6d, 0x65, 0x74, 0x61, 0x20, 0x63, 0x68, 0x61, 0x72, 0x73, 0x65, 0x74, 0x3d, 0x22, 0x67, 0x62, 0x6b, 0x22, 0x3e, 0x3c, 0x70, 0x3e, 0xd6, 0xd0, 0xce, 0xc4, 0x3c, 0x2f, 0x70, 0x3e]);
    const gbkDoc = await htmlFormat.parse(new Uint8Array(gbk), formatContext());
    expect(gbkDoc.elements[0]!.text).toBe("中文");
    expect(gbkDoc.metadata?.encoding).toBe("gbk");
    const latin = Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>caf\xe9</p>', "latin1");
    expect(decodeHtml(new Uint8Array(latin))).toContain("café");
  });

  it("refuses absurd nesting with 40425 in bounded time, and an empty file with 40422", async () => {
    const t0 = Date.now();
    const err = await parse("<div>".repeat(50_000) + "x").catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40425);
    expect(Date.now() - t0).toBeLessThan(5000);
    const empty = await htmlFormat.parse(new Uint8Array(), formatContext()).catch((e: unknown) => e);
    expect(DocParseError.isInstance(empty) && empty.code).toBe(40422);
  });
});
