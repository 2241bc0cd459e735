import { layoutPage, type PageLayout, type PlacedImage } from "../layout/index.js";
import { mayBeTableTail } from "../layout/table-tails.js";
import { extractPage, type FontCache } from "./pdf-extract.js";
import type { PdfPage } from "./pdf-load.js";
import { encodePng, type RawImage } from "./pdf-png.js";

/**
 * One text-layer page, from pdfjs page to laid-out blocks: what a parser thread does for
 * each page it is given. Scanned pages stop short of layout; their OCR needs a canvas
 * render, which happens in the calling thread.
 */

/** Fewer text-layer characters than this on a page with an image: treat it as a scan. @default 8 */
export const SCAN_TEXT_CHARS = 8;

/** Options for {@link readTextPage}. */
export interface TextPageOptions {
  /** Per-glyph positions (char_details). */
  chars: boolean;
  /** Drop rotated, transparent or very light large text. */
  removeWatermark: boolean;
  /** Encode each image's pixels as PNG (image_data). */
  imageData: boolean;
  /** Largest image (pixels) encoded. */
  maxImagePixels: number;
  /** Stop before layout when the page looks scanned (the caller OCRs it). */
  detectScans: boolean;
  /** The writer does not hyphenate (`writerHyphenates`): hyphens at line ends are kept. @default false */
  keepLineEndHyphens?: boolean;
}

/** An image block's picture with its PNG, when image data was asked for. */
export type ImageWithPng = PlacedImage & { png?: Uint8Array };

/** A laid-out page; the page's rotation travels with it. */
export type ReadPage = PageLayout & { rotate: number };

/** What {@link readTextPage} returns: a laid-out page, or a scan left for OCR. */
export type TextPageResult = { scanned: false; layout: ReadPage } | { scanned: true; number: number };

export async function readTextPage(page: PdfPage, fonts: FontCache, options: TextPageOptions): Promise<TextPageResult> {
  const number = page.pageNumber;
  const extracted = await extractPage(page, fonts, {
    chars: options.chars,
    removeWatermark: options.removeWatermark,
    imagePixels: options.imageData,
  });
  if (options.detectScans && extracted.textChars < SCAN_TEXT_CHARS && extracted.images.length > 0) return { scanned: true, number };
  const { width, height, runs, segments, images, frame, rotate } = extracted;
  const blocks = layoutPage({ width, height, runs, segments, images, bullets: extracted.bullets, drawings: extracted.drawings }, { chars: options.chars, keepLineEndHyphens: options.keepLineEndHyphens === true });
  if (options.imageData) {
    for (const b of blocks) {
      const img = b.image as (ImageWithPng & { raw?: RawImage }) | undefined;
      if (!img?.raw) continue;
      if (img.raw.width * img.raw.height <= options.maxImagePixels) {
        const png = encodePng(img.raw);
        if (png) img.png = png;
      }
      delete img.raw;
    }
  }
  return { scanned: false, layout: { number, width, height, frame, rotate, blocks } };
}

/**
 * Drops what only page layout needed, before a page crosses to the calling thread: the
 * document pass reads blocks (text, boxes, sizes, chars) and how many lines each has,
 * never the lines themselves (with their runs, most of a page's objects: copying them
 * across cost a tenth of a parser thread's time) but those of short blocks opening the
 * page (see `mayBeTableTail`).
 */
export function compactLayout(layout: ReadPage): ReadPage {
  for (const b of layout.blocks) {
    b.lineCount = b.lines.length;
    // A table's last rows carried over are cut from their lines by its columns.
    if (!mayBeTableTail(b, layout.height)) b.lines = [];
  }
  return layout;
}

/** The PNG buffers of a page's images (to transfer them instead of copying). */
export function pngBuffers(layout: ReadPage): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const b of layout.blocks) {
    const png = (b.image as ImageWithPng | undefined)?.png;
    if (png && png.byteOffset === 0 && png.byteLength === png.buffer.byteLength && png.buffer instanceof ArrayBuffer) out.push(png.buffer);
  }
  return out;
}
