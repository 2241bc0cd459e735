import { deflateSync } from "node:zlib";

/** pdfjs image kinds (`ImageKind` in pdfjs-dist). */
const GRAYSCALE_1BPP = 1;
const RGB_24BPP = 2;
const RGBA_32BPP = 3;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Raw pixels as pdfjs decodes them: `kind` 1 = 1-bit gray, 2 = RGB, 3 = RGBA. */
export interface RawImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

/**
 * Encodes a decoded pdfjs image as PNG (8-bit RGB or RGBA, filter 0). A tiny encoder
 * on node:zlib: it avoids a canvas round trip for every extracted image.
 */
export function encodePng(img: RawImage): Uint8Array | undefined {
  const { width, height, kind, data } = img;
  if (!(width > 0 && height > 0)) return undefined;
  let channels: number;
  let rowBytes: number;
  if (kind === RGBA_32BPP) [channels, rowBytes] = [4, width * 4];
  else if (kind === RGB_24BPP) [channels, rowBytes] = [3, width * 3];
  else if (kind === GRAYSCALE_1BPP) [channels, rowBytes] = [1, Math.ceil(width / 8)];
  else return undefined;
  if (data.length < rowBytes * height) return undefined;
  const raw = new Uint8Array((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (rowBytes + 1)] = 0;
    raw.set(data.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  }
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  // 1-bit gray stays 1-bit (PNG supports it natively, and pdfjs' bit order matches).
  header[8] = kind === GRAYSCALE_1BPP ? 1 : 8;
  header[9] = channels === 4 ? 6 : channels === 3 ? 2 : 0;
  const sig = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  const parts = [sig, chunk("IHDR", header), chunk("IDAT", deflateSync(raw, { level: 6 })), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
