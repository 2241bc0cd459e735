/**
 * Reads pixel size, resolution and kind from an image's header without decoding it.
 * Lets the image handler answer 40301/40304 before paying for OCR, and gives pages
 * their dpi (from PNG pHYs, JFIF density, BMP pixels-per-metre, TIFF XResolution).
 */

/** What an image header says about the image. */
export interface ImageInfo {
  kind: "png" | "jpeg" | "gif" | "bmp" | "webp" | "tiff";
  mimeType: string;
  width: number;
  height: number;
  /** Horizontal resolution in dots per inch, when the file states one. */
  dpi?: number;
}

const MIME: Record<ImageInfo["kind"], string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  webp: "image/webp",
  tiff: "image/tiff",
};

/** The image kind from magic bytes, or undefined. */
export function imageKind(b: Uint8Array): ImageInfo["kind"] | undefined {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  if (b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d) return "bmp";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 42 && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 42)))
    return "tiff";
  return undefined;
}

function ascii(b: Uint8Array, at: number, n: number): string {
  let s = "";
  for (let i = at; i < at + n && i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

/** Size (and dpi when stated) of an encoded image; undefined when the header is unreadable. */
export function imageSize(b: Uint8Array): ImageInfo | undefined {
  const kind = imageKind(b);
  if (!kind) return undefined;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  try {
    const found = READERS[kind](b, v);
    if (!found || !(found.width > 0) || !(found.height > 0)) return undefined;
    const info: ImageInfo = { kind, mimeType: MIME[kind], width: found.width, height: found.height };
    if (found.dpi !== undefined && Number.isFinite(found.dpi) && found.dpi > 0) info.dpi = Math.round(found.dpi);
    return info;
  } catch {
    // A RangeError from a truncated header: unreadable.
    return undefined;
  }
}

type Found = { width: number; height: number; dpi?: number } | undefined;

const READERS: Record<ImageInfo["kind"], (b: Uint8Array, v: DataView) => Found> = {
  png(b, v) {
    const width = v.getUint32(16);
    const height = v.getUint32(20);
    let dpi: number | undefined;
    // Walk chunks up to IDAT looking for pHYs (pixels per unit, unit 1 = metre).
    let at = 8;
    while (at + 8 <= b.length) {
      const len = v.getUint32(at);
      const type = ascii(b, at + 4, 4);
      if (type === "pHYs" && len >= 9 && b[at + 16] === 1) dpi = v.getUint32(at + 8) * 0.0254;
      if (type === "IDAT" || type === "IEND") break;
      at += 12 + len;
    }
    return { width, height, dpi };
  },
  jpeg(b, v) {
    let at = 2;
    let dpi: number | undefined;
    while (at + 4 <= b.length) {
      if (b[at] !== 0xff) {
        at++;
        continue;
      }
      const marker = b[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      }
      const len = v.getUint16(at + 2);
      // APP0 JFIF: units 1 = dpi, 2 = dots per cm.
      if (marker === 0xe0 && ascii(b, at + 4, 5) === "JFIF\0") {
        const units = b[at + 11];
        const xd = v.getUint16(at + 12);
        if (units === 1) dpi = xd;
        else if (units === 2) dpi = xd * 2.54;
      }
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: v.getUint16(at + 5), width: v.getUint16(at + 7), dpi };
      }
      at += 2 + len;
    }
    return undefined;
  },
  gif(_b, v) {
    return { width: v.getUint16(6, true), height: v.getUint16(8, true) };
  },
  bmp(_b, v) {
    const header = v.getUint32(14, true);
    if (header === 12) return { width: v.getUint16(18, true), height: v.getUint16(20, true) };
    const ppm = header >= 40 ? v.getInt32(38, true) : 0;
    return { width: v.getInt32(18, true), height: Math.abs(v.getInt32(22, true)), dpi: ppm > 0 ? ppm * 0.0254 : undefined };
  },
  webp(b, v) {
    const chunk = ascii(b, 12, 4);
    if (chunk === "VP8 ") return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
    if (chunk === "VP8L") {
      const bits = v.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === "VP8X") {
      const w = b[24]! | (b[25]! << 8) | (b[26]! << 16);
      const h = b[27]! | (b[28]! << 8) | (b[29]! << 16);
      return { width: w + 1, height: h + 1 };
    }
    return undefined;
  },
  tiff(b, v) {
    const le = b[0] === 0x49;
    const ifd = v.getUint32(4, le);
    const count = v.getUint16(ifd, le);
    let width = 0;
    let height = 0;
    let xres: number | undefined;
    let unit = 2;
    for (let i = 0; i < count; i++) {
      const e = ifd + 2 + i * 12;
      const tag = v.getUint16(e, le);
      const type = v.getUint16(e + 2, le);
      const value = type === 3 ? v.getUint16(e + 8, le) : v.getUint32(e + 8, le);
      if (tag === 256) width = value;
      else if (tag === 257) height = value;
      else if (tag === 296) unit = value;
      else if (tag === 282 && type === 5) {
        const off = v.getUint32(e + 8, le);
        const den = v.getUint32(off + 4, le);
        if (den) xres = v.getUint32(off, le) / den;
      }
    }
    const dpi = xres === undefined ? undefined : unit === 3 ? xres * 2.54 : unit === 2 ? xres : undefined;
    return { width, height, dpi };
  },
};
