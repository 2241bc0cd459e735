import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { inflateRawWhole, NativeDecompressionStream } from "../../src/engine/formats/pdf-inflate.js";

/** Drives the stream the way pdfjs does (pdf.worker.mjs, asyncGetBytesFromDecompressionStream). */
async function inflate(format: string, ...chunks: Uint8Array[]): Promise<Buffer> {
  const { readable, writable } = new NativeDecompressionStream(format);
  const writer = writable.getWriter();
  await writer.ready;
  for (const chunk of chunks) void writer.write(chunk);
  void writer.ready.then(() => writer.close());
  const out: Uint8Array[] = [];
  for await (const chunk of readable) out.push(chunk);
  return Buffer.concat(out);
}

const text = Buffer.from("BT /F1 12 Tf 72 700 Td (Hello from a content stream) Tj ET\n".repeat(200));

describe("NativeDecompressionStream", () => {
  const limit = NativeDecompressionStream.maxOutputBytes;
  afterEach(() => {
    NativeDecompressionStream.maxOutputBytes = limit;
  });

  it("inflates every format pdfjs asks for, from one write or several", async () => {
    expect(await inflate("deflate", deflateSync(text))).toEqual(text);
    const z = deflateSync(text);
    expect(await inflate("deflate", z.subarray(0, 100), z.subarray(100))).toEqual(text);
    expect(await inflate("deflate-raw", deflateRawSync(text))).toEqual(text);
    expect(await inflate("gzip", gzipSync(text))).toEqual(text);
    expect(await inflate("brotli", brotliCompressSync(text))).toEqual(text);
  });

  it("gives what a truncated stream holds (pdfjs' own inflate gives nothing)", async () => {
    const z = deflateSync(text);
    const out = await inflate("deflate", z.subarray(0, Math.floor(z.length / 2)));
    expect(out.length).toBeGreaterThan(0);
    expect(out.length).toBeLessThan(text.length);
    expect(text.subarray(0, out.length)).toEqual(out);
  });

  it("fails corrupt input and oversized output (pdfjs then inflates the stream itself)", async () => {
    await expect(inflate("deflate", Buffer.from("not zlib at all"))).rejects.toThrow();
    NativeDecompressionStream.maxOutputBytes = 1_000;
    await expect(inflate("deflate", deflateSync(text))).rejects.toThrow(RangeError);
  });

  it("refuses formats the web API does not have, as the web API does", () => {
    expect(() => new NativeDecompressionStream("lzw")).toThrow(TypeError);
  });
});

describe("inflateRawWhole (the streams pdfjs reads synchronously)", () => {
  const limit = NativeDecompressionStream.maxOutputBytes;
  afterEach(() => {
    NativeDecompressionStream.maxOutputBytes = limit;
  });
  // What pdfjs' FlateStream hands over: the zlib stream past its two header bytes.
  const body = (z: Buffer): Buffer => z.subarray(2);

  it("inflates a whole stream, ignoring the checksum and anything after it", () => {
    expect(Buffer.from(inflateRawWhole(body(deflateSync(text)))!)).toEqual(text);
    expect(Buffer.from(inflateRawWhole(Buffer.concat([body(deflateSync(text)), Buffer.from("\nendstream junk")]))!)).toEqual(text);
    expect(inflateRawWhole(deflateRawSync(Buffer.alloc(0)))).toHaveLength(0);
  });

  it("leaves to pdfjs what is not one whole stream, and what is too large", () => {
    const z = body(deflateSync(text));
    expect(inflateRawWhole(z.subarray(0, Math.floor(z.length / 2)))).toBeUndefined();
    expect(inflateRawWhole(Buffer.from([0xff, 0xff, 0xff, 1, 2, 3]))).toBeUndefined();
    NativeDecompressionStream.maxOutputBytes = 1_000;
    expect(inflateRawWhole(z)).toBeUndefined();
  });
});
