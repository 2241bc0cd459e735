import { describe, expect, it } from "vitest";
import { DocParseError } from "../../../src/errors.js";
import { csvFormat, sniffDelimiter } from "../../../src/engine/formats/csv.js";
import { formatContext } from "../../support/office-fixtures.js";

const enc = (s: string) => new TextEncoder().encode(s);

describe("csv", () => {
  it("parses quoted fields with commas, quotes and newlines into an exact grid", async () => {
    const doc = await csvFormat.parse(enc('name,note,amount\n"Smith, J","said ""hi""\nthen left",10\n王,中文,20\n'), formatContext());
    const t = doc.elements[0]!.table!;
    expect([t.rows, t.cols]).toEqual([3, 3]);
    expect(t.cells.map((c) => c.text)).toEqual(["name", "note", "amount", "Smith, J", 'said "hi"\nthen left', "10", "王", "中文", "20"]);
    expect(doc.estimatedLayout).toBe(true);
  });

  it("sniffs semicolons and tabs, and pads short rows", async () => {
    expect(sniffDelimiter("a;b;c\n1;2;3")).toBe(";");
    expect(sniffDelimiter("a\tb\n1\t2")).toBe("\t");
    const doc = await csvFormat.parse(enc("a;b;c\n1;2\n"), formatContext());
    expect(doc.elements[0]!.table!.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(["1", "2", ""]);
  });

  it("decodes UTF-16 with a BOM", async () => {
    const s = "列1,列2\n甲,乙\n";
    const bytes = new Uint8Array(2 + s.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < s.length; i++) new DataView(bytes.buffer).setUint16(2 + i * 2, s.charCodeAt(i), true);
    const doc = await csvFormat.parse(bytes, formatContext());
    expect(doc.elements[0]!.text).toBe("列1 列2\n甲 乙");
  });

  it("limits rows and columns when asked", async () => {
    const csv = Array.from({ length: 50 }, (_, r) => Array.from({ length: 8 }, (_, c) => `${r}.${c}`).join(",")).join("\n");
    const doc = await csvFormat.parse(enc(csv), formatContext({ engineParams: { max_sheet_rows: 10, max_sheet_cols: 5 } }));
    const el = doc.elements[0]!;
    expect([el.table!.rows, el.table!.cols, el.metadata?.truncated]).toEqual([10, 5, true]);
  });

  it("rejects an empty file with 40422", async () => {
    const err = await csvFormat.parse(new Uint8Array(), formatContext()).catch((e: unknown) => e);
    expect(DocParseError.isInstance(err) && err.code).toBe(40422);
  });
});
