import { DocParseError, LocalErrorCode } from "../../errors.js";
import type { Box, DraftChar, DraftDocument, DraftElement, FormatContext, FormatHandler } from "../draft.js";
import { ocrImage, ocrLanguages, type OcrLine, type PixelBox } from "../ocr.js";
import { imageSize, type ImageInfo } from "./image-size.js";

/**
 * Images (PNG, JPEG, TIFF, WebP, BMP, GIF) → one page of OCR text.
 *
 * The page is the image: its pixel size and the dpi the file states (PNG pHYs, JFIF,
 * TIFF, BMP; 72 when it states none). OCR lines are grouped into paragraphs by their
 * vertical gaps and left edges; a lone line much taller than the others becomes a
 * Title. Each element carries per-character boxes, confidences and candidates (the
 * assembler turns them into `char_details` when asked). Only the first frame of a
 * multi-page TIFF is read.
 */

/** Smallest side accepted, in pixels (the hosted service's range). @default 20 */
export const IMAGE_MIN_SIDE = 20;
/** Largest side accepted, in pixels (the hosted service's range). @default 10000 */
export const IMAGE_MAX_SIDE = 10_000;
/** Density assumed when the file states none. @default 72 */
export const IMAGE_DEFAULT_DPI = 72;

/** The image handler (`image`): one OCR page with the image's own geometry. */
export const imageFormat: FormatHandler = {
  id: "image",
  mimeType: "image/png",
  parse: parseImage,
  renderPage,
};

/** Checks kind and size; 40301 for an unsupported or unreadable type, 40304 out of range. */
export function checkImage(bytes: Uint8Array, ctx: Pick<FormatContext, "limits">): ImageInfo {
  if (bytes.length === 0) throw new DocParseError(40422, "The file is empty");
  const info = imageSize(bytes);
  if (!info) throw new DocParseError(40301, "The image type is not supported (PNG, JPEG, TIFF, WebP, BMP or GIF) or its header is unreadable");
  const { width, height } = info;
  if (width < IMAGE_MIN_SIDE || height < IMAGE_MIN_SIDE || width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) {
    throw new DocParseError(40304, `The image is ${width}×${height} px; each side must be ${IMAGE_MIN_SIDE}–${IMAGE_MAX_SIDE} px`);
  }
  if (width * height > ctx.limits.maxImagePixels) {
    throw new DocParseError(40304, `The image has ${width * height} pixels; the limit is ${ctx.limits.maxImagePixels}`);
  }
  return info;
}

async function parseImage(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  const info = checkImage(bytes, ctx);
  if (ctx.pageRange && ctx.pageRange.some((s) => s.from > 1)) throw new DocParseError(40424, "page_range goes beyond the image's single page");
  const ocr = await ocrImage(bytes, { signal: ctx.signal, lang: ocrLanguages(ctx) });
  // Tesseract's own reading of the size wins (EXIF rotation, odd headers).
  const width = ocr.width || info.width;
  const height = ocr.height || info.height;
  const elements = ocrElements(ocr.lines, width, height, 1);
  return {
    filetype: info.mimeType,
    pageCount: 1,
    pages: [{ number: 1, width, height, dpi: info.dpi ?? IMAGE_DEFAULT_DPI }],
    elements,
  };
}

/**
 * OCR lines → paragraph elements with fractional boxes and per-character details.
 * Exported for the PDF handler's scanned pages.
 */
export function ocrElements(lines: OcrLine[], width: number, height: number, page: number): DraftElement[] {
  if (lines.length === 0) return [];
  const heights = lines.map((l) => l.box.y1 - l.box.y0).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)]!;
  const groups: OcrLine[][] = [];
  for (const line of lines) {
    const group = groups.at(-1);
    const prev = group?.at(-1);
    const h = line.box.y1 - line.box.y0;
    const ph = prev ? prev.box.y1 - prev.box.y0 : 0;
    const joins =
      prev !== undefined &&
      line.box.y0 - prev.box.y1 < 0.9 * Math.max(h, ph) &&
      line.box.y0 >= prev.box.y0 &&
      Math.abs(line.box.x0 - group![0]!.box.x0) < 3 * median &&
      Math.max(h, ph) / Math.max(1, Math.min(h, ph)) < 1.5;
    if (joins) group!.push(line);
    else groups.push([line]);
  }
  const frac = (b: PixelBox): Box => ({
    x0: clamp(b.x0 / width),
    y0: clamp(b.y0 / height),
    x1: clamp(b.x1 / width),
    y1: clamp(b.y1 / height),
  });
  return groups.map((g) => {
    const chars: DraftChar[] = [];
    let text = "";
    g.forEach((line, li) => {
      if (li > 0) {
        const prev = g[li - 1]!;
        text += " ";
        chars.push({ text: " ", box: frac({ x0: prev.box.x1, y0: prev.box.y0, x1: prev.box.x1, y1: prev.box.y1 }), confidence: 1, candidates: [] });
      }
      line.words.forEach((w, wi) => {
        if (wi > 0) {
          const prev = line.words[wi - 1]!;
          text += " ";
          chars.push({ text: " ", box: frac({ x0: prev.box.x1, y0: w.box.y0, x1: Math.max(prev.box.x1, w.box.x0), y1: w.box.y1 }), confidence: 1, candidates: [] });
        }
        text += w.text;
        const wordChars = w.chars ?? [];
        if (wordChars.map((c) => c.text).join("") === w.text) {
          for (const c of wordChars) chars.push({ text: c.text, box: frac(c.box), confidence: c.confidence, candidates: c.candidates });
        } else {
          // Symbols that do not spell the word (ligatures): one entry per character on the word box.
          for (const ch of w.text) chars.push({ text: ch, box: frac(w.box), confidence: w.confidence, candidates: [] });
        }
      });
    });
    const box = frac({
      x0: Math.min(...g.map((l) => l.box.x0)),
      y0: Math.min(...g.map((l) => l.box.y0)),
      x1: Math.max(...g.map((l) => l.box.x1)),
      y1: Math.max(...g.map((l) => l.box.y1)),
    });
    const lineHeight = g[0]!.box.y1 - g[0]!.box.y0;
    const el: DraftElement = { type: "NarrativeText", text, page, box, chars };
    if (g.length === 1 && lineHeight > 1.5 * median && text.length <= 120) {
      el.type = "Title";
      el.headingLevel = 1;
    }
    el.metadata = { ocr_confidence: round2(g.reduce((s, l) => s + l.confidence, 0) / g.length) };
    return el;
  });
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const round2 = (v: number) => Math.round(v * 100) / 100;

/** The page image: PNG as is; other kinds re-encoded to PNG through `@napi-rs/canvas`. */
async function renderPage(bytes: Uint8Array, page: number): Promise<Uint8Array> {
  if (page !== 1) throw new DocParseError(40424, "An image has a single page");
  const info = imageSize(bytes);
  if (info?.kind === "png") return bytes;
  let canvas: typeof import("@napi-rs/canvas");
  try {
    canvas = await import("@napi-rs/canvas");
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.MissingDependency, "Page images of non-PNG images need @napi-rs/canvas: npm install @napi-rs/canvas", { cause });
  }
  try {
    const img = await canvas.loadImage(Buffer.from(bytes));
    const c = canvas.createCanvas(img.width, img.height);
    c.getContext("2d").drawImage(img, 0, 0);
    return new Uint8Array(c.toBuffer("image/png"));
  } catch (cause) {
    throw new DocParseError(40301, `This ${info?.kind ?? "image"} cannot be rendered as a page image`, { cause });
  }
}
