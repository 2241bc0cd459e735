import { describe, expect, it } from "vitest";
import { decodeText, normalizeText } from "../../src/engine/text-decode.js";

const SAMPLE = "Café 报告 — naïve ✓";

describe("decodeText", () => {
  it("UTF-8 without a BOM", () => {
    expect(decodeText(new Uint8Array(Buffer.from(SAMPLE)))).toEqual({ text: SAMPLE, encoding: "utf-8", bom: false });
  });

  it("UTF-8 with a BOM (removed)", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(SAMPLE)]);
    expect(decodeText(bytes)).toEqual({ text: SAMPLE, encoding: "utf-8", bom: true });
  });

  it("UTF-16 LE with a BOM", () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...Buffer.from(SAMPLE, "utf16le")]);
    expect(decodeText(bytes)).toEqual({ text: SAMPLE, encoding: "utf-16le", bom: true });
  });

  it("UTF-16 BE with a BOM", () => {
    const le = Buffer.from(SAMPLE, "utf16le");
    const be = Buffer.from(le).swap16();
    expect(decodeText(new Uint8Array([0xfe, 0xff, ...be]))).toEqual({ text: SAMPLE, encoding: "utf-16be", bom: true });
  });

  it("UTF-16 LE without a BOM (NUL on alternate bytes)", () => {
    const s = "plain ASCII text in UTF-16";
    expect(decodeText(new Uint8Array(Buffer.from(s, "utf16le")))).toMatchObject({ text: s, encoding: "utf-16le" });
  });

  it("GB18030 / GBK Chinese text", () => {
    // "中文测试。" in GBK.
    const gbk = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0xb2, 0xe2, 0xca, 0xd4, 0xa1, 0xa3]);
    expect(decodeText(gbk)).toMatchObject({ text: "中文测试。", encoding: "gb18030" });
  });

  it("Latin-1 fallback for bytes that are not UTF-8", () => {
    const latin1 = new Uint8Array(Buffer.from("Café naïve Müller", "latin1"));
    expect(decodeText(latin1)).toMatchObject({ text: "Café naïve Müller", encoding: "windows-1252" });
  });

  it("never throws on invalid sequences", () => {
    for (const bytes of [
      new Uint8Array([0xff, 0xfe, 0x00, 0xd8]), // lone surrogate in UTF-16
      new Uint8Array([0xff, 0xfe, 0x41]), // odd length UTF-16
      new Uint8Array([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]), // broken UTF-8
      new Uint8Array([0xfe, 0xff]),
    ]) {
      expect(typeof decodeText(bytes).text).toBe("string");
    }
  });
});

describe("normalizeText", () => {
  it("normalises line ends and drops control characters", () => {
    expect(normalizeText("a\r\nb\rc\u0000d\u0007e\tf\fg")).toBe("a\nb\ncde\tf\fg");
  });
});
