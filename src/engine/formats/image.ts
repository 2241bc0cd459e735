import { DocParseError, LocalErrorCode } from "../../errors.js";
import type { DraftDocument, DraftElement, FormatContext, FormatHandler } from "../draft.js";
import { finishDocument, layoutPage, toDraftElements } from "../layout/index.js";
import { ocrImage, ocrLanguages, type OcrLine } from "../ocr.js";
import { imageSize, type ImageInfo } from "./image-size.js";
import { ocrLineRuns } from "./ocr-runs.js";

/**
 * Images (PNG, JPEG, TIFF, WebP, BMP, GIF) → one page of OCR text.
 *
 * The page is the image: its pixel size and the dpi the file states (PNG pHYs, JFIF,
 * TIFF, BMP; 72 when it states none). OCR words go through the PDF engine's page layout
 * (see {@link ocrElements}). Each element carries per-character boxes, confidences and
 * candidates (the assembler turns them into `char_details` when asked). Only the first
 * frame of a multi-page TIFF is read.
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
  return {
    filetype: info.mimeType,
    pageCount: 1,
    pages: [{ number: 1, width, height, dpi: info.dpi ?? IMAGE_DEFAULT_DPI }],
    elements: ocrElements(ocr.lines, width, height),
  };
}

/**
 * An image's OCR lines → elements, through the same page layout as a PDF's pages
 * (lines, blocks, rule-less tables, lists, headings, columns in reading order), in pixel
 * units. Every element carries its characters' boxes, confidences and candidates (the
 * assembler keeps them as `char_details` when asked) and `metadata.ocr_confidence`.
 */
export function ocrElements(lines: readonly OcrLine[], width: number, height: number): DraftElement[] {
  const page = { number: 1, width, height };
  const blocks = layoutPage({ width, height, runs: ocrLineRuns(lines, 1), segments: [], images: [] }, { chars: true });
  return toDraftElements(finishDocument([{ ...page, blocks }]), [page]);
}

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
