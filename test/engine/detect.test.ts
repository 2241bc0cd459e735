import { describe, expect, it } from "vitest";
import { detectFormat, looksLikeText, zipEntryNames } from "../../src/engine/detect.js";

/** A minimal stored (uncompressed) zip with the given entry names, central directory included. */
function zip(names: string[]): Uint8Array {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const n = Buffer.from(name);
    const data = Buffer.from("x");
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt32LE(data.length, 18);
    h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(n.length, 26);
    local.push(h, n, data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...local, cd, end]));
}

function ole(stream: string): Uint8Array {
  const b = Buffer.alloc(2048);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(b, 0);
  if (stream) Buffer.from(stream, "utf16le").copy(b, 1024);
  return new Uint8Array(b);
}

const bytes = (...v: number[]) => new Uint8Array([...v, ...new Array(40).fill(0x41)]);
const text = (s: string) => new Uint8Array(Buffer.from(s));

describe("detectFormat", () => {
  const bmp = Buffer.alloc(64);
  bmp.write("BM", 0, "latin1");
  bmp.writeUInt32LE(64, 2);
  bmp.writeUInt32LE(54, 10);

  it.each([
    ["pdf", text("%PDF-1.7\n..."), undefined, "pdf", "application/pdf"],
    ["pdf with junk before the header", text("junk\n%PDF-1.4\n"), "a.txt", "pdf", "application/pdf"],
    ["docx", zip(["[Content_Types].xml", "word/document.xml"]), "x.bin", "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ["xlsx", zip(["[Content_Types].xml", "xl/workbook.xml"]), undefined, "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ["pptx", zip(["[Content_Types].xml", "ppt/presentation.xml"]), "a.docx", "pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
    ["doc", ole("WordDocument"), undefined, "legacy", "application/msword"],
    ["xls", ole("Workbook"), undefined, "legacy", "application/vnd.ms-excel"],
    ["ppt", ole("PowerPoint Document"), undefined, "legacy", "application/vnd.ms-powerpoint"],
    ["OLE2 named by extension only", ole(""), "old.xls", "legacy", "application/vnd.ms-excel"],
    ["png", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), "a.txt", "image", "image/png"],
    ["jpeg", bytes(0xff, 0xd8, 0xff, 0xe0), undefined, "image", "image/jpeg"],
    ["gif", text("GIF89a......"), undefined, "image", "image/gif"],
    ["tiff LE", bytes(0x49, 0x49, 0x2a, 0x00), undefined, "image", "image/tiff"],
    ["tiff BE", bytes(0x4d, 0x4d, 0x00, 0x2a), undefined, "image", "image/tiff"],
    ["webp", text("RIFF\x10\x00\x00\x00WEBPVP8 "), undefined, "image", "image/webp"],
    ["bmp", new Uint8Array(bmp), undefined, "image", "image/bmp"],
    ["rtf", text("{\\rtf1\\ansi hello}"), "a.txt", "legacy", "application/rtf"],
    ["html by content", text("<!DOCTYPE html><html><body>hi</body></html>"), undefined, "html", "text/html"],
    ["html by extension", text("<p>hi</p>"), "page.htm", "html", "text/html"],
    ["markdown by extension", text("hello"), "README.md", "markdown", "text/markdown"],
    ["markdown by content", text("# Title\n\nSome text\n\n## More\n"), undefined, "markdown", "text/markdown"],
    ["csv by extension", text("a,b\n1,2\n"), "t.csv", "csv", "text/csv"],
    ["plain text", text("just some words\n"), undefined, "txt", "text/plain"],
    ["csv by content", text('name,qty,note\npen,2,"blue, fine"\nink,5,black\n'), undefined, "csv", "text/csv"],
    ["prose with commas is not csv", text("Well, hello.\nYes, and then, later,\nno commas here\n"), undefined, "txt", "text/plain"],
    ["Chinese text", text("这是一个测试文件。\n"), "说明.txt", "txt", "text/plain"],
    ["text named .pdf is text", text("not really a pdf"), "fake.pdf", "txt", "text/plain"],
    ["UTF-16 text with BOM", new Uint8Array([0xff, 0xfe, ...Buffer.from("hi there", "utf16le")]), undefined, "txt", "text/plain"],
    ["UTF-16 text without BOM", new Uint8Array(Buffer.from("hello world, plain", "utf16le")), "a.txt", "txt", "text/plain"],
  ])("%s", (_name, input, filename, format, mimeType) => {
    expect(detectFormat(input, filename)).toEqual({ format, mimeType });
  });

  it.each([
    ["random binary", new Uint8Array(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256))],
    ["zip that is no office document", zip(["readme.txt", "data/x.bin"])],
    ["OLE2 of an unknown kind", ole("")],
    ["a text file starting with BM", text("BM is not a bitmap, just text that happens to start like one")],
  ])("returns undefined (or text) for %s", (name, input) => {
    const found = detectFormat(input);
    if (name.startsWith("a text file")) expect(found?.format).toBe("txt");
    else expect(found).toBeUndefined();
  });

  it("reads zip entry names from the central directory", () => {
    expect(zipEntryNames(zip(["a.xml", "word/document.xml"]))).toEqual(["a.xml", "word/document.xml"]);
  });

  it("tells text from binary", () => {
    expect(looksLikeText(text("hello\tworld\r\n"))).toBe(true);
    expect(looksLikeText(new Uint8Array([1, 2, 3, 0, 5, 6, 0, 0, 9]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0xe4, 0xbd, 0xa0, 0xe5, 0xa5, 0xbd]))).toBe(true);
  });
});
