/**
 * Mutations of valid PDFs for the fuzz driver (`fuzz.ts`). Three kinds:
 *
 * - structural: a seed loaded with pdf-lib, one object changed (MediaBox, Rotate, page
 *   tree, outline, structure tree, fonts, annotations, trailer) or a hostile content
 *   stream added to its first page, saved without object streams. Raw tokens pdf-lib
 *   cannot write (`NaN`, `1e999`, 50,000 nested arrays) go in as placeholder names,
 *   replaced in the saved text, and the cross-reference table is rebuilt so pdfjs reads
 *   the objects where they are (a broken xref is its own mutation);
 * - byte-level on the seed as written (object and xref streams kept): truncations at
 *   every object boundary, bit flips, damaged startxref, /Prev loops;
 * - hand-written files (`rawPdf`) for what pdf-lib will not write.
 *
 * Every case is deterministic (seeded PRNG): the same seeds give the same cases.
 */
import { deflateSync } from "node:zlib";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, StandardFonts, type PDFObject } from "pdf-lib";
import { rawPdf } from "../../support/pdf-fixtures.js";

/** One fuzz case: a name saying how it was made, and the bytes. */
export interface FuzzCase {
  name: string;
  bytes: Uint8Array;
}

type Raw = (token: string) => PDFName;
type DocMutation = (doc: PDFDocument, raw: Raw) => void | Promise<void>;

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString("latin1");
const bytesOf = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"));

/** Mulberry32: a small seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rebuilds the classic xref table of a PDF pdf-lib saved without object streams (after edits moved objects). */
export function rexref(text: string): string {
  const xi = text.lastIndexOf("\nxref\n");
  const ti = text.indexOf("trailer", xi);
  const si = text.indexOf("startxref", ti);
  if (xi < 0 || ti < 0 || si < 0) return text;
  const body = text.slice(0, xi + 1);
  const offsets = new Map<number, number>();
  const re = /(^|[\r\n])(\d+) (\d+) obj\b/g;
  for (let m; (m = re.exec(body)); ) offsets.set(Number(m[2]), m.index + m[1]!.length);
  const size = Math.max(0, ...offsets.keys()) + 1;
  const rows = ["0000000000 65535 f \n"];
  for (let n = 1; n < size; n++) {
    const o = offsets.get(n);
    rows.push(o === undefined ? "0000000000 65535 f \n" : `${String(o).padStart(10, "0")} 00000 n \n`);
  }
  const trailer = text.slice(ti, si).replace(/\/Size \d+/, `/Size ${size}`);
  return `${body}xref\n0 ${size}\n${rows.join("")}${trailer}startxref\n${body.length}\n%%EOF\n`;
}

/** Loads `seed`, applies `mutate`, saves it flat with raw tokens in place and a fresh xref. */
export async function structural(seed: Uint8Array, mutate: DocMutation): Promise<Uint8Array> {
  const doc = await PDFDocument.load(seed, { updateMetadata: false, ignoreEncryption: true });
  const tokens: string[] = [];
  const raw: Raw = (token) => PDFName.of(`FZRAW${tokens.push(token) - 1}Z`);
  await mutate(doc, raw);
  let text = latin1(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
  text = text.replace(/\/FZRAW(\d+)Z/g, (_, i: string) => tokens[Number(i)]!);
  return bytesOf(rexref(text));
}

/** A content stream added after page 1's own, with Helvetica as /FZ in its resources. */
function withContent(content: string | (() => string), extra?: (doc: PDFDocument, resources: PDFDict) => void): DocMutation {
  return async (doc) => {
    const page = doc.getPage(0);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.node.setFontDictionary(PDFName.of("FZ"), font.ref);
    const resources = page.node.Resources()!;
    extra?.(doc, resources);
    const body = typeof content === "string" ? content : content();
    const stream = doc.context.register(doc.context.flateStream(body));
    const contents = page.node.get(PDFName.of("Contents"));
    const all = doc.context.obj([]) as PDFArray;
    if (contents instanceof PDFArray) for (let i = 0; i < contents.size(); i++) all.push(contents.get(i));
    else if (contents) all.push(contents);
    all.push(stream);
    page.node.set(PDFName.of("Contents"), all);
  };
}

function xobjects(resources: PDFDict, doc: PDFDocument): PDFDict {
  let x = resources.lookup(PDFName.of("XObject"));
  if (!(x instanceof PDFDict)) {
    x = doc.context.obj({});
    resources.set(PDFName.of("XObject"), x as PDFDict);
  }
  return x as PDFDict;
}

/** A form XObject drawing `content` whose resources name it (and `others`) as /FZF…: recursion. */
function recursiveForms(count: number): DocMutation {
  return withContent("q /FZF0 Do Q BT /FZ 12 Tf 72 72 Td (after forms) Tj ET", (doc, resources) => {
    const refs = Array.from({ length: count }, () => doc.context.nextRef());
    const names: Record<string, PDFRef> = {};
    refs.forEach((r, i) => (names[`FZF${i}`] = r));
    refs.forEach((ref, i) => {
      const next = `FZF${(i + 1) % count}`;
      const body = `q 0.9 0 0 0.9 1 1 cm /${next} Do Q BT /FZ 9 Tf 10 10 Td (form ${i}) Tj ET`;
      const res = doc.context.obj({ XObject: names, Font: { FZ: (resources.lookup(PDFName.of("Font")) as PDFDict).get(PDFName.of("FZ"))! } });
      const stream = doc.context.flateStream(body, { Type: "XObject", Subtype: "Form", BBox: [0, 0, 600, 800], Resources: res });
      doc.context.assign(ref, stream);
    });
    xobjects(resources, doc).set(PDFName.of("FZF0"), refs[0]!);
  });
}

/** A tiling pattern that paints with itself. */
const recursivePattern: DocMutation = withContent("/Pattern cs /FZP scn 0 0 300 300 re f BT /FZ 12 Tf 72 72 Td (after pattern) Tj ET", (doc, resources) => {
  const ref = doc.context.nextRef();
  const res = doc.context.obj({ Pattern: { FZP: ref } });
  const stream = doc.context.flateStream("/Pattern cs /FZP scn 0 0 10 10 re f", { Type: "Pattern", PatternType: 1, PaintType: 1, TilingType: 1, BBox: [0, 0, 10, 10], XStep: 10, YStep: 10, Resources: res });
  doc.context.assign(ref, stream);
  resources.set(PDFName.of("Pattern"), doc.context.obj({ FZP: ref }));
});

/** An image XObject of `w`×`h` RGB pixels whose Flate data is all zeros (a decompression bomb). */
function imageBomb(w: number, h: number): DocMutation {
  return withContent("q 200 0 0 200 50 50 cm /FZI Do Q BT /FZ 12 Tf 72 72 Td (after image) Tj ET", (doc, resources) => {
    const data = deflateSync(Buffer.alloc(w * h * 3), { level: 9 });
    const stream = PDFRawStream.of(doc.context.obj({ Type: "XObject", Subtype: "Image", Width: w, Height: h, BitsPerComponent: 8, ColorSpace: "DeviceRGB", Filter: "FlateDecode" }), data);
    xobjects(resources, doc).set(PDFName.of("FZI"), doc.context.register(stream));
  });
}

const TEXT = "BT /FZ 12 Tf 72 300 Td (fuzz text) Tj ET";

/** Hostile content streams (operators with absurd operands, floods, unbalanced nesting). */
const CONTENT: Record<string, string | (() => string)> = {
  "cm-nan": `q NaN 0 0 NaN 0 0 cm ${TEXT} Q`,
  "cm-huge": `q 1e300 0 0 1e300 1e300 1e300 cm ${TEXT} Q`,
  "cm-zero": `q 0 0 0 0 0 0 cm ${TEXT} Q`,
  "cm-tiny": `q 1e-300 0 0 1e-300 0 0 cm ${TEXT} Q`,
  "cm-shear": `q 1 1e9 -1e9 1 0 0 cm ${TEXT} Q`,
  "tf-huge": "BT /FZ 1e30 Tf 1 0 0 1 50 50 Tm (bigfont) Tj ET",
  "tf-negative": "BT /FZ -12 Tf 1 0 0 1 300 300 Tm (negfont) Tj ET",
  "tf-zero": "BT /FZ 0 Tf 1 0 0 1 300 300 Tm (zerofont) Tj ET",
  "text-state-huge": "BT /FZ 12 Tf 1e38 Tz 1e38 Tc 1e38 Tw -1e38 TL 1e38 Ts 50 50 Td (spacing) Tj T* (next) Tj ET",
  "tm-nan": "BT /FZ 12 Tf 1 0 0 1 NaN Infinity Tm (nanTm) Tj ET",
  "tm-rotate-huge": "BT /FZ 12 Tf 0.5 0.866 -0.866 0.5 1e9 -1e9 Tm (far) Tj ET",
  "tm-singular": "BT /FZ 12 Tf 0 0 0 0 100 100 Tm (singular) Tj ET",
  "tj-huge-kerning": "BT /FZ 12 Tf 72 500 Td [(a) 1e308 (b) -1e308 (c) 1e20 (d)] TJ ET",
  "q-flood": () => "q ".repeat(200_000) + TEXT,
  "Q-flood": () => "Q ".repeat(50_000) + TEXT,
  "deep-array-operand": () => "BT /FZ 12 Tf 72 500 Td " + "[".repeat(60_000) + "(deep)" + "]".repeat(60_000) + " TJ ET",
  "deep-dict-operand": () => "/Span " + "<< /A ".repeat(30_000) + "1" + " >>".repeat(30_000) + " BDC " + TEXT + " EMC",
  "tj-flood": () => "BT /FZ 6 Tf 10 780 Td " + "(x) Tj 0.01 0 Td ".repeat(300_000) + "ET",
  "rect-flood": () => Array.from({ length: 200_000 }, (_, i) => `${i % 600} ${(i * 7) % 800} 0.5 0.5 re`).join(" ") + " f " + TEXT,
  "line-flood": () => Array.from({ length: 100_000 }, (_, i) => `${i % 600} 0 m ${i % 600} 800 l`).join(" ") + " S " + TEXT,
  "missing-operands": `Tj Tf cm Do BT ET ET ET Tm TJ Td re m l c f S W n ${TEXT} Tj`,
  "missing-resources": `/FZnone Do /FZnone gs /FZnone sh BT /FZnone 12 Tf (nofont) Tj ET ${TEXT}`,
  "bdc-unbalanced": () => "/P <</MCID 0>> BDC ".repeat(50_000) + TEXT + " EMC EMC EMC",
  "emc-flood": () => "EMC ".repeat(50_000) + TEXT,
  "actualtext-odd": `/Span << /ActualText <FEFF004> >> BDC ${TEXT} EMC /Span << /ActualText (\\376\\377\\000) >> BDC ${TEXT} EMC`,
  "actualtext-huge": () => `/Span << /ActualText (${"A".repeat(2_000_000)}) >> BDC ${TEXT} EMC`,
  "inline-image-bomb": () => {
    // 6000×6000 RGB, Flate (108 MB inflated, ~100 KB written), in the content stream.
    const data = deflateSync(Buffer.alloc(6000 * 6000 * 3), { level: 9 }).toString("latin1");
    return `q 100 0 0 100 50 50 cm BI /W 6000 /H 6000 /BPC 8 /CS /RGB /F /Fl ID ${data} EI Q ${TEXT}`;
  },
  "inline-image-lies": `q 100 0 0 100 50 50 cm BI /W 1e9 /H -5 /BPC 77 /CS /Nope ID xyz EI Q q BI /W 100 /H 100 /BPC 8 /CS /G ID short EI Q ${TEXT}`,
  "type3-ops": `d0 d1 0 0 d0 1 2 3 4 5 6 d1 ${TEXT}`,
  "nan-numbers": "BT /FZ 12 Tf --5 +-3 Td 1.2.3 4..5 Td (odd numbers) Tj ET",
  "text-outside-bt": "/FZ 12 Tf (outside) Tj 100 100 Td (again) Tj T* (x) ' 1 2 (y) \"",
  "many-fonts-switch": () => "BT " + "/FZ 12 Tf /FZnone 9 Tf (s) Tj ".repeat(50_000) + "ET",
};

/** Deep nesting written as raw text (pdfjs' parser reads objects recursively). */
const deep = (n: number): string => "[".repeat(n) + "1" + "]".repeat(n);
const deepDict = (n: number): string => "<< /A ".repeat(n) + "1" + " >>".repeat(n);

function pages(doc: PDFDocument): PDFDict[] {
  return doc.getPages().map((p) => p.node as unknown as PDFDict);
}

function forEachDict(doc: PDFDocument, type: string, f: (d: PDFDict, ref: PDFRef) => void): void {
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    const dict = obj instanceof PDFDict ? obj : obj instanceof PDFRawStream ? obj.dict : undefined;
    const t = dict?.get(PDFName.of("Type"));
    if (dict && t instanceof PDFName && t.asString() === `/${type}`) f(dict, ref);
  }
}

function fontDicts(doc: PDFDocument): PDFDict[] {
  const out: PDFDict[] = [];
  forEachDict(doc, "Font", (d) => out.push(d));
  return out;
}

const set = (d: PDFDict, key: string, value: PDFObject): void => d.set(PDFName.of(key), value);

/** A ToUnicode CMap stream with the given body. */
function cmap(doc: PDFDocument, body: string): PDFRef {
  return doc.context.register(doc.context.flateStream(`/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n${body}\nendcmap CMapName currentdict /CMap defineresource pop end end`));
}

const BOXES = ["[0 0 1e9 1e9]", "[0 0 0 0]", "[0 0 -612 -792]", "[612 792 0 0]", "[NaN 0 612 792]", "[0 0 1e308 1e308]", "[0 0 612]", "[/a /b /c /d]", "null", "[0 0 1e-9 1e-9]", "[-1e9 -1e9 1e9 1e9]", "[0 0 1e999 1e999]", "[0 0 612 1]", "[0 0 14400 14400]", "[0 0 99999999 2]"];
const ROTATES = ["45", "-90", "1e9", "270", "-450", "1.5", "NaN", "/Foo", "90000001", "360", "-1e308", "[90]"];

/** The structural mutations: name → change. */
export const STRUCTURAL: Record<string, DocMutation> = {};
for (const [i, box] of BOXES.entries()) {
  STRUCTURAL[`mediabox-${i}`] = (doc, raw) => pages(doc).forEach((p, k) => k === 0 && set(p, "MediaBox", raw(box)));
  STRUCTURAL[`mediabox-all-${i}`] = (doc, raw) => pages(doc).forEach((p) => set(p, "MediaBox", raw(box)));
  STRUCTURAL[`cropbox-${i}`] = (doc, raw) => pages(doc).forEach((p) => set(p, "CropBox", raw(box)));
}
STRUCTURAL["mediabox-missing"] = (doc) => {
  pages(doc).forEach((p) => p.delete(PDFName.of("MediaBox")));
  forEachDict(doc, "Pages", (d) => d.delete(PDFName.of("MediaBox")));
};
STRUCTURAL["cropbox-outside"] = (doc, raw) => pages(doc).forEach((p) => set(p, "CropBox", raw("[5000 5000 6000 6000]")));
for (const [i, r] of ROTATES.entries()) STRUCTURAL[`rotate-${i}`] = (doc, raw) => pages(doc).forEach((p) => set(p, "Rotate", raw(r)));
for (const u of ["0", "-1", "1e9", "NaN"]) STRUCTURAL[`userunit-${u}`] = (doc, raw) => pages(doc).forEach((p) => set(p, "UserUnit", raw(u)));
for (const c of ["1000000", "0", "-1", "1e9", "NaN", "2.5", "/X"]) STRUCTURAL[`count-${c}`] = (doc, raw) => forEachDict(doc, "Pages", (d) => set(d, "Count", raw(c)));
STRUCTURAL["kids-cycle"] = (doc) => forEachDict(doc, "Pages", (d, ref) => (d.lookup(PDFName.of("Kids")) as PDFArray).push(ref));
STRUCTURAL["kids-catalog"] = (doc) => forEachDict(doc, "Pages", (d) => (d.lookup(PDFName.of("Kids")) as PDFArray).push(doc.context.trailerInfo.Root as PDFRef));
STRUCTURAL["kids-duplicates"] = (doc) =>
  forEachDict(doc, "Pages", (d) => {
    const kids = d.lookup(PDFName.of("Kids")) as PDFArray;
    const first = kids.get(0);
    for (let i = 0; i < 3000; i++) kids.push(first);
    set(d, "Count", PDFNumber.of(kids.size()));
  });
STRUCTURAL["kids-null"] = (doc, raw) => forEachDict(doc, "Pages", (d) => (d.lookup(PDFName.of("Kids")) as PDFArray).insert(0, raw("null")));
STRUCTURAL["kids-not-array"] = (doc, raw) => forEachDict(doc, "Pages", (d) => set(d, "Kids", raw("42")));
STRUCTURAL["page-parent-self"] = (doc) => doc.getPages().forEach((p) => p.node.set(PDFName.of("Parent"), p.ref));
STRUCTURAL["page-type-missing"] = (doc) => pages(doc).forEach((p) => p.delete(PDFName.of("Type")));
STRUCTURAL["resources-deep"] = (doc, raw) => pages(doc).forEach((p) => set(p, "FZDeep", raw(deep(50_000))));
STRUCTURAL["resources-deep-dict"] = (doc, raw) => pages(doc).forEach((p) => set(p, "Resources", raw(deepDict(20_000))));
STRUCTURAL["resources-self"] = (doc) => doc.getPages().forEach((p) => p.node.set(PDFName.of("Resources"), p.ref));
STRUCTURAL["contents-missing-ref"] = (doc, raw) => pages(doc).forEach((p) => set(p, "Contents", raw("[9999 0 R 99999 0 R]")));
STRUCTURAL["contents-self"] = (doc) => doc.getPages().forEach((p) => p.node.set(PDFName.of("Contents"), p.ref));
STRUCTURAL["contents-number"] = (doc, raw) => pages(doc).forEach((p) => set(p, "Contents", raw("3.14")));
// Outline
STRUCTURAL["outline-cycle"] = (doc) => {
  const root = doc.catalog.lookup(PDFName.of("Outlines"));
  if (!(root instanceof PDFDict)) return;
  const first = root.get(PDFName.of("First"));
  const last = root.lookup(PDFName.of("Last"));
  if (last instanceof PDFDict && first) last.set(PDFName.of("Next"), first);
  const f = root.lookup(PDFName.of("First"));
  if (f instanceof PDFDict) f.set(PDFName.of("First"), doc.catalog.get(PDFName.of("Outlines"))!);
};
STRUCTURAL["outline-synthetic-cycle"] = (doc) => {
  const a = doc.context.nextRef();
  const b = doc.context.nextRef();
  const root = doc.context.nextRef();
  const dest = doc.context.obj([doc.getPage(0).ref, "XYZ", null, null, null]);
  doc.context.assign(a, doc.context.obj({ Title: PDFString.of("Loop A"), Parent: root, Next: b, First: b, Last: a, Count: 5, Dest: dest }));
  doc.context.assign(b, doc.context.obj({ Title: PDFString.of("Loop B"), Parent: a, Next: a, Prev: a, First: a, Last: a, Count: -3, Dest: dest }));
  doc.context.assign(root, doc.context.obj({ Type: "Outlines", First: a, Last: b, Count: 1e9 }));
  doc.catalog.set(PDFName.of("Outlines"), root);
};
STRUCTURAL["outline-deep"] = (doc) => {
  const refs = Array.from({ length: 20_000 }, () => doc.context.nextRef());
  const root = doc.context.nextRef();
  refs.forEach((r, i) =>
    doc.context.assign(r, doc.context.obj({ Title: PDFString.of(`Level ${i}`), Parent: i ? refs[i - 1]! : root, ...(i + 1 < refs.length ? { First: refs[i + 1]!, Last: refs[i + 1]!, Count: 1 } : {}), Dest: [doc.getPage(0).ref, "Fit"] })),
  );
  doc.context.assign(root, doc.context.obj({ Type: "Outlines", First: refs[0]!, Last: refs[0]!, Count: 1 }));
  doc.catalog.set(PDFName.of("Outlines"), root);
};
STRUCTURAL["outline-wide"] = (doc, raw) => {
  const n = 30_000;
  const refs = Array.from({ length: n }, () => doc.context.nextRef());
  const root = doc.context.nextRef();
  refs.forEach((r, i) =>
    doc.context.assign(r, doc.context.obj({ Title: PDFString.of(`Entry ${i}`), Parent: root, ...(i ? { Prev: refs[i - 1]! } : {}), ...(i + 1 < n ? { Next: refs[i + 1]! } : {}), Dest: i % 3 ? raw("[99999 0 R /XYZ NaN 1e999 null]") : [doc.getPage(0).ref, "XYZ", null, null, null] })),
  );
  doc.context.assign(root, doc.context.obj({ Type: "Outlines", First: refs[0]!, Last: refs[n - 1]!, Count: n }));
  doc.catalog.set(PDFName.of("Outlines"), root);
};
STRUCTURAL["outline-junk"] = (doc, raw) => {
  const root = doc.context.nextRef();
  const a = doc.context.nextRef();
  doc.context.assign(a, doc.context.obj({ Title: raw("42"), Parent: root, Dest: raw(deep(5000)), A: raw("<< /S /GoTo /D (nowhere) >>") }));
  doc.context.assign(root, doc.context.obj({ Type: "Outlines", First: a, Last: a, Count: 1 }));
  doc.catalog.set(PDFName.of("Outlines"), root);
};
// Structure tree
function structTree(doc: PDFDocument, raw: Raw, shape: "cycle" | "parent-cycle" | "rolemap-cycle" | "table-self" | "wide-table" | "parenttree-cycle" | "junk"): void {
  const page = doc.getPage(0);
  const rootRef = doc.context.nextRef();
  const table = doc.context.nextRef();
  const tr = doc.context.nextRef();
  const td = doc.context.nextRef();
  const ptKid = doc.context.nextRef();
  const pg = page.ref;
  const cells: PDFRef[] = [td];
  doc.context.assign(td, doc.context.obj({ Type: "StructElem", S: "TD", P: shape === "parent-cycle" ? td : tr, Pg: pg, K: shape === "cycle" ? [0, table] : 0 }));
  if (shape === "wide-table") {
    for (let i = 0; i < 20_000; i++) {
      const r = doc.context.nextRef();
      doc.context.assign(r, doc.context.obj({ Type: "StructElem", S: "TD", P: tr, Pg: pg, K: 0, A: { O: "Table", ColSpan: 1e9, RowSpan: -5 } }));
      cells.push(r);
    }
  }
  doc.context.assign(tr, doc.context.obj({ Type: "StructElem", S: shape === "rolemap-cycle" ? "FZA" : "TR", P: shape === "parent-cycle" ? td : table, K: shape === "table-self" ? [tr, ...cells] : cells }));
  doc.context.assign(table, doc.context.obj({ Type: "StructElem", S: "Table", P: rootRef, K: shape === "table-self" ? [table, tr] : [tr], A: shape === "junk" ? raw(deep(3000)) : { O: "Table", Summary: PDFString.of("x") } }));
  const parentTree = shape === "parenttree-cycle" ? { Kids: [ptKid] } : { Nums: [0, [td, td, td]] };
  if (shape === "parenttree-cycle") doc.context.assign(ptKid, doc.context.obj({ Kids: [ptKid], Limits: [0, 1e9] }));
  doc.context.assign(
    rootRef,
    doc.context.obj({ Type: "StructTreeRoot", K: [table], ParentTree: parentTree, ParentTreeNextKey: 1, ...(shape === "rolemap-cycle" ? { RoleMap: { FZA: "FZB", FZB: "FZA" } } : {}) }),
  );
  doc.catalog.set(PDFName.of("StructTreeRoot"), rootRef);
  doc.catalog.set(PDFName.of("MarkInfo"), doc.context.obj({ Marked: true }));
  page.node.set(PDFName.of("StructParents"), PDFNumber.of(0));
}
for (const shape of ["cycle", "parent-cycle", "rolemap-cycle", "table-self", "wide-table", "parenttree-cycle", "junk"] as const) {
  STRUCTURAL[`struct-${shape}`] = async (doc, raw) => {
    structTree(doc, raw, shape);
    await withContent(`/TD <</MCID 0>> BDC ${TEXT} EMC /TD <</MCID 1>> BDC BT /FZ 12 Tf 200 300 Td (cell two) Tj ET EMC`)(doc, raw);
  };
}
// Existing structure trees (Chromium's, LibreOffice's): every element's /K made its parent, or its /P itself.
STRUCTURAL["struct-existing-k-to-parent"] = (doc) =>
  forEachDict(doc, "StructElem", (d) => {
    const p = d.get(PDFName.of("P"));
    if (p) d.set(PDFName.of("K"), doc.context.obj([p, 0]));
  });
STRUCTURAL["struct-existing-p-self"] = (doc) => forEachDict(doc, "StructElem", (d, ref) => d.set(PDFName.of("P"), ref));
STRUCTURAL["struct-existing-parenttree-junk"] = (doc, raw) =>
  forEachDict(doc, "StructTreeRoot", (d) => {
    set(d, "ParentTree", raw("<< /Nums [0 [1 0 R 1 0 R] 1 NaN 2 << /Foo 1 >> -1 [] 1e9 [null]] /Kids [1 0 R] >>"));
  });
// Annotations
STRUCTURAL["annots-flood"] = (doc, raw) =>
  pages(doc).forEach((p) => {
    const arr = doc.context.obj([]) as PDFArray;
    for (let i = 0; i < 20_000; i++) arr.push(doc.context.obj({ Type: "Annot", Subtype: i % 2 ? "Link" : "Text", Rect: i % 3 ? [i % 600, i % 800, (i % 600) + 10, (i % 800) + 10] : raw("[NaN 1e999 -1e308 null]"), Contents: PDFString.of(`note ${i}`) }));
    p.set(PDFName.of("Annots"), arr);
  });
STRUCTURAL["annots-not-array"] = (doc, raw) => pages(doc).forEach((p) => set(p, "Annots", raw("<< /Foo 1 >>")));
STRUCTURAL["annots-ap-recursive"] = (doc) =>
  doc.getPages().forEach((p) => {
    const ap = doc.context.nextRef();
    doc.context.assign(ap, doc.context.flateStream("q /FZA Do Q", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 10, 10], Resources: { XObject: { FZA: ap } } }));
    const annot = doc.context.obj({ Type: "Annot", Subtype: "Widget", FT: "Tx", T: PDFString.of("f"), Rect: [10, 10, 100, 30], AP: { N: ap }, V: PDFString.of("value") });
    const ref = doc.context.register(annot);
    annot.set(PDFName.of("Parent"), ref);
    p.node.set(PDFName.of("Annots"), doc.context.obj([ref]));
    doc.catalog.set(PDFName.of("AcroForm"), doc.context.obj({ Fields: [ref, ref], NeedAppearances: true }));
  });
// Fonts
STRUCTURAL["widths-huge"] = (doc) =>
  fontDicts(doc).forEach((f) => {
    const arr = doc.context.obj([]) as PDFArray;
    for (let i = 0; i < 1_000_000; i++) arr.push(PDFNumber.of(i % 7 ? 500 : 1e9));
    set(f, "Widths", arr);
    set(f, "FirstChar", PDFNumber.of(0));
    set(f, "LastChar", PDFNumber.of(999_999));
  });
STRUCTURAL["widths-nan"] = (doc, raw) => fontDicts(doc).forEach((f) => set(f, "Widths", raw(`[${Array.from({ length: 256 }, (_, i) => (i % 2 ? "NaN" : "-1e308")).join(" ")}]`)));
STRUCTURAL["firstchar-lies"] = (doc, raw) =>
  fontDicts(doc).forEach((f) => {
    set(f, "FirstChar", raw("-1000000000"));
    set(f, "LastChar", raw("1e9"));
  });
STRUCTURAL["fontmatrix-bad"] = (doc, raw) => fontDicts(doc).forEach((f) => set(f, "FontMatrix", raw("[0 0 0 0 0 0]")));
STRUCTURAL["fontmatrix-huge"] = (doc, raw) => fontDicts(doc).forEach((f) => set(f, "FontMatrix", raw("[1e30 0 0 1e30 NaN 0]")));
STRUCTURAL["encoding-differences-junk"] = (doc, raw) => fontDicts(doc).forEach((f) => set(f, "Encoding", raw("<< /Type /Encoding /Differences [1e9 /a /b -5 /c NaN /d 65 (str) 66 /A /B /C] /BaseEncoding /Nope >>")));
STRUCTURAL["descendant-junk"] = (doc, raw) => fontDicts(doc).forEach((f) => f.has(PDFName.of("DescendantFonts")) && set(f, "DescendantFonts", raw("[<< /Type /Font /Subtype /CIDFontType2 /W [0 [NaN 1e999] 5 1e9 7] /DW -1e308 >>]")));
STRUCTURAL["tounicode-huge-range"] = (doc) => fontDicts(doc).forEach((f) => set(f, "ToUnicode", cmap(doc, "1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n2 beginbfrange <00000000> <FFFFFFFF> <0041> <0000> <FFFF> [<0041> <0042>] endbfrange")));
STRUCTURAL["tounicode-broken"] = (doc) => fontDicts(doc).forEach((f) => set(f, "ToUnicode", cmap(doc, "1 begincodespacerange <00> endcodespacerange\n3 beginbfchar <41> <D800> <42> <> <43 <0044> endbfchar\n1 beginbfrange <FF> <00> <0041> endbfrange")));
STRUCTURAL["tounicode-usecmap-self"] = (doc) =>
  fontDicts(doc).forEach((f) => {
    const ref = doc.context.nextRef();
    doc.context.assign(ref, doc.context.flateStream("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /FZ usecmap /Identity-H usecmap endcmap end end", { UseCMap: ref }));
    set(f, "ToUnicode", ref);
  });
STRUCTURAL["tounicode-utf16-flood"] = (doc) =>
  fontDicts(doc).forEach((f) => set(f, "ToUnicode", cmap(doc, `1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfchar <41> <${"0041".repeat(100_000)}> endbfchar`)));
STRUCTURAL["fontfile-damaged"] = (doc) => {
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || !(obj.get(PDFName.of("Type")) instanceof PDFName) || obj.get(PDFName.of("Type"))!.toString() !== "/FontDescriptor") continue;
    for (const key of ["FontFile", "FontFile2", "FontFile3"]) {
      const s = obj.lookup(PDFName.of(key));
      if (s instanceof PDFRawStream) {
        const c = s.contents;
        for (let i = 16; i < c.length; i += 37) c[i] = c[i]! ^ 0x5a;
      }
    }
  }
};
STRUCTURAL["font-not-dict"] = (doc, raw) => doc.getPages().forEach((p) => { const r = p.node.Resources(); if (r) set(r, "Font", raw("<< /F1 42 /F2 [1 2] /FZ null >>")); });
// Document-level
STRUCTURAL["encrypt-bogus"] = (doc, raw) => {
  doc.context.trailerInfo.Encrypt = raw("<< /Filter /Standard /V 1 /R 2 /O (xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx) /U (yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) /P -4 >>") as unknown as PDFObject;
};
STRUCTURAL["encrypt-unknown-filter"] = (doc, raw) => {
  doc.context.trailerInfo.Encrypt = raw("<< /Filter /FZNope /V 99 /R 99 >>") as unknown as PDFObject;
};
STRUCTURAL["catalog-pages-missing"] = (doc) => void doc.catalog.delete(PDFName.of("Pages"));
STRUCTURAL["catalog-pages-self"] = (doc) => doc.catalog.set(PDFName.of("Pages"), doc.context.trailerInfo.Root as PDFRef);
STRUCTURAL["pagelabels-junk"] = (doc, raw) => doc.catalog.set(PDFName.of("PageLabels"), raw("<< /Nums [0 << /S /D /St -1e9 >> 1 << /S /Q /P (x) /St NaN >> 1e9 null] /Kids [1 0 R] >>"));
STRUCTURAL["names-dests-cycle"] = (doc) => {
  const ref = doc.context.nextRef();
  doc.context.assign(ref, doc.context.obj({ Kids: [ref], Limits: [PDFString.of("a"), PDFString.of("z")] }));
  doc.catalog.set(PDFName.of("Names"), doc.context.obj({ Dests: ref }));
};
STRUCTURAL["openaction-junk"] = (doc, raw) => doc.catalog.set(PDFName.of("OpenAction"), raw(deep(20_000)));
STRUCTURAL["recursive-form"] = recursiveForms(1);
STRUCTURAL["recursive-forms-3"] = recursiveForms(3);
STRUCTURAL["recursive-pattern"] = recursivePattern;
STRUCTURAL["image-bomb-8000"] = imageBomb(8000, 8000);
STRUCTURAL["image-bomb-over-limit"] = imageBomb(12_000, 12_000);
STRUCTURAL["image-lies"] = withContent("q 100 0 0 100 50 50 cm /FZI Do Q " + TEXT, (doc, resources) => {
  const stream = PDFRawStream.of(doc.context.obj({ Type: "XObject", Subtype: "Image", Width: 1e9, Height: -3, BitsPerComponent: 77, ColorSpace: "DeviceRGB" }), new Uint8Array(10));
  xobjects(resources, doc).set(PDFName.of("FZI"), doc.context.register(stream));
});
for (const [name, content] of Object.entries(CONTENT)) STRUCTURAL[`content-${name}`] = withContent(content);

/** Byte offsets where objects start and end in `bytes` (`N G obj`, `endobj`), in order. */
export function objectBoundaries(bytes: Uint8Array): number[] {
  const text = latin1(bytes);
  const out = new Set<number>();
  const re = /(\d+ \d+ obj\b)|(endobj)/g;
  for (let m; (m = re.exec(text)); ) out.add(m[1] ? m.index : m.index + 6);
  return [...out].sort((a, b) => a - b);
}

/** Byte-level mutations of `seed` as written: truncations, bit flips, damaged xref and trailers. */
export function* byteMutations(name: string, seed: Uint8Array, random: () => number, flips: number): Generator<FuzzCase> {
  const text = latin1(seed);
  for (const at of objectBoundaries(seed)) yield { name: `${name}/truncate@${at}`, bytes: seed.slice(0, at) };
  for (let i = 0; i < flips; i++) {
    const b = seed.slice();
    const n = 1 + Math.floor(random() * 8);
    const where: number[] = [];
    for (let k = 0; k < n; k++) {
      const at = Math.floor(random() * b.length);
      where.push(at);
      b[at] = b[at]! ^ (1 << Math.floor(random() * 8));
    }
    yield { name: `${name}/flip#${i}@${where.join(",")}`, bytes: b };
  }
  for (let i = 0; i < Math.ceil(flips / 4); i++) {
    const b = seed.slice();
    const at = Math.floor(random() * b.length);
    const len = 1 + Math.floor(random() * 512);
    b.fill(random() < 0.5 ? 0 : 0x20, at, at + len);
    yield { name: `${name}/blank@${at}+${len}`, bytes: b };
  }
  const sx = text.lastIndexOf("startxref");
  if (sx >= 0) {
    const replace = (label: string, value: string) => ({ name: `${name}/startxref-${label}`, bytes: bytesOf(text.slice(0, sx) + `startxref\n${value}\n%%EOF\n`) });
    yield replace("zero", "0");
    yield replace("beyond", String(seed.length * 10));
    yield replace("negative", "-5");
    yield replace("junk", "abc");
    yield replace("self", String(sx));
    // An incremental update whose /Prev points at itself, and two pointing at each other.
    const prevOf = /startxref\s+(\d+)/.exec(text.slice(sx))?.[1] ?? "0";
    const root = /\/Root\s+(\d+ \d+ R)/.exec(text)?.[1] ?? "1 0 R";
    const size = /\/Size\s+(\d+)/.exec(text)?.[1] ?? "1";
    const at = seed.length;
    const self = `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${size} /Root ${root} /Prev ${at} >>\nstartxref\n${at}\n%%EOF\n`;
    yield { name: `${name}/prev-self`, bytes: bytesOf(text + self) };
    const second = at + `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${size} /Root ${root} /Prev XXXXXXXXXX >>\nstartxref\n${at}\n%%EOF\n`.length;
    const pair =
      `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${size} /Root ${root} /Prev ${String(second).padStart(10, "0")} >>\nstartxref\n${at}\n%%EOF\n` +
      `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${size} /Root ${root} /Prev ${at} >>\nstartxref\n${second}\n%%EOF\n`;
    yield { name: `${name}/prev-pair`, bytes: bytesOf(text + pair) };
    yield { name: `${name}/prev-chain-to-original`, bytes: bytesOf(text + `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${size} /Root ${root} /Prev ${prevOf} >>\nstartxref\n${at}\n%%EOF\n`) };
  }
  yield { name: `${name}/no-eof`, bytes: bytesOf(text.replace(/%%EOF\s*$/, "")) };
  yield { name: `${name}/no-header`, bytes: bytesOf(text.replace(/^%PDF-\d\.\d/, "%XYZ-9.9")) };
  yield { name: `${name}/doubled`, bytes: bytesOf(text + text) };
  yield { name: `${name}/xref-shifted`, bytes: bytesOf(text.replace(/(\d{10}) (\d{5}) n/g, (_, o: string, g: string) => `${String(Number(o) + 7).padStart(10, "0")} ${g} n`)) };
  yield { name: `${name}/xref-zeroed`, bytes: bytesOf(text.replace(/(\d{10}) (\d{5}) n/g, (_, _o: string, g: string) => `0000000000 ${g} n`)) };
  yield { name: `${name}/streams-unterminated`, bytes: bytesOf(text.replace(/endstream/g, "endstrem")) };
  yield { name: `${name}/lengths-lie`, bytes: bytesOf(text.replace(/\/Length (\d+)/g, (_, n: string) => `/Length ${Number(n) * 1000 + 1}`)) };
  yield { name: `${name}/lengths-zero`, bytes: bytesOf(text.replace(/\/Length (\d+)/g, "/Length 0")) };
  yield { name: `${name}/filter-swap`, bytes: bytesOf(text.replace(/\/FlateDecode/g, "/LZWDecode")) };
}

/** Files pdf-lib will not write: hand-built objects. */
export function handWritten(): FuzzCase[] {
  const page = (extra = "") => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> ${extra} >>`;
  const font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  const content = { dict: "", data: "BT /F1 12 Tf 72 700 Td (Hand written) Tj ET" };
  const out: FuzzCase[] = [
    { name: "hand/pages-nested-cycle", bytes: rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", font, content, "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 5 0 R] /Count 1 >>"]) },
    { name: "hand/page-count-lie", bytes: rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 100000 >>", font, content, page()]) },
    { name: "hand/object-stream-self", bytes: rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", font, content, page(), { dict: "/Type /ObjStm /N 1 /First 4 /Extends 6 0 R", data: "5 0 " + page() }]) },
    { name: "hand/deep-array-object", bytes: rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", font, content, page("/FZ " + deep(100_000))]) },
    { name: "hand/deep-dict-object", bytes: rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", font, content, page("/FZ " + deepDict(50_000))]) },
    { name: "hand/ref-chain", bytes: rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", font, content, `<< /Type /Page /Parent 2 0 R /MediaBox 6 0 R /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>`, "7 0 R", "6 0 R"]) },
    { name: "hand/empty-pages", bytes: rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"]) },
    { name: "hand/header-only", bytes: bytesOf("%PDF-1.7\n") },
    { name: "hand/header-garbage", bytes: bytesOf("%PDF-1.7\n" + "\x00\xff".repeat(5000)) },
  ];
  return out;
}
