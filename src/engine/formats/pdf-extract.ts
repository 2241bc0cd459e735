import { charWeights, contentToFrame, dominantAngle, frameSize, isCjk, type Frame, type PlacedImage, type RunChar, type Segment, type TextRun } from "../layout/index.js";
import { fontStyle, type FontStyle } from "./pdf-fonts.js";
import type { PdfPage } from "./pdf-load.js";
import type { RawImage } from "./pdf-png.js";

/**
 * Pulls positioned text, ruling lines and images out of one pdfjs page, in display
 * space at scale 1 (points, rotation applied, origin top-left): the layout input.
 */

type Matrix = [number, number, number, number, number, number];

// pdfjs OPS codes (stable across 4.x/5.x; `OPS` in pdfjs-dist).
const OP = {
  setGState: 9,
  save: 10,
  restore: 11,
  transform: 12,
  beginText: 31,
  setLeading: 36,
  setFont: 37,
  moveText: 40,
  setLeadingMoveText: 41,
  setTextMatrix: 42,
  nextLine: 43,
  showText: 44,
  showSpacedText: 45,
  nextLineShowText: 46,
  nextLineSetSpacingShowText: 47,
  setFillGray: 57,
  setFillRGBColor: 59,
  setFillCMYKColor: 61,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  paintImageXObject: 85,
  paintInlineImageXObject: 86,
  constructPath: 91,
  setFillTransparent: 93,
  // Path painting ops carried inside constructPath.
  stroke: 20,
  closeStroke: 21,
  fill: 22,
  eoFill: 23,
  fillStroke: 24,
  eoFillStroke: 25,
  closeFillStroke: 26,
  closeEOFillStroke: 27,
} as const;
// Drawing ops inside a constructPath path buffer (`DrawOPS` in pdfjs-dist).
const DRAW_MOVE = 0;
const DRAW_LINE = 1;
const DRAW_CURVE = 2;
const DRAW_QUAD = 3;
const DRAW_CLOSE = 4;

const mul = (m: Matrix, n: ArrayLike<number>): Matrix => [
  m[0] * n[0]! + m[2] * n[1]!,
  m[1] * n[0]! + m[3] * n[1]!,
  m[0] * n[2]! + m[2] * n[3]!,
  m[1] * n[2]! + m[3] * n[3]!,
  m[0] * n[4]! + m[2] * n[5]! + m[4],
  m[1] * n[4]! + m[3] * n[5]! + m[5],
];

/** What {@link extractPage} returns. */
export interface ExtractedPage {
  /** Size of the layout frame (display size, swapped when text runs sideways). */
  width: number;
  height: number;
  /** The reading frame: display size and dominant text direction. */
  frame: Frame;
  /** Page rotation in degrees (0, 90, 180, 270). */
  rotate: number;
  runs: TextRun[];
  segments: Segment[];
  images: (PlacedImage & { raw?: RawImage })[];
  /** Characters in the text layer (0 means a scanned page). */
  textChars: number;
}

/** Options for {@link extractPage}. */
export interface ExtractOptions {
  /** Per-glyph positions on runs. @default false */
  chars?: boolean;
  /** Drop rotated, transparent or very light large text. @default false */
  removeWatermark?: boolean;
  /** Fetch decoded pixels of images (for image_data). @default false */
  imagePixels?: boolean;
  /** Ruling segments kept per page at most (hostile PDFs draw millions). @default 20000 */
  maxSegments?: number;
}

/** Fonts seen in a document: pdfjs font id → style, filled lazily from `commonObjs`. */
export type FontCache = Map<string, FontStyle>;

export async function extractPage(page: PdfPage, fonts: FontCache, options: ExtractOptions = {}): Promise<ExtractedPage> {
  const { chars = false, removeWatermark = false, imagePixels = false, maxSegments = 20_000 } = options;
  const viewport = page.getViewport({ scale: 1 });
  const base = viewport.transform as unknown as Matrix;
  // The operator list first: it loads the fonts into commonObjs (names → bold/mono).
  const ops = await page.getOperatorList();
  const walked = walkOperators(ops.fnArray, ops.argsArray, base, maxSegments);
  const text = await page.getTextContent();
  const styles = text.styles as Record<string, { ascent?: number; descent?: number; vertical?: boolean }>;

  const runs: TextRun[] = [];
  let textChars = 0;
  for (const item of text.items) {
    if (!("str" in item)) continue;
    const str = item.str;
    if (!str || !str.trim()) continue;
    textChars += str.length;
    const t = item.transform as number[];
    const tx = mul(base, t);
    const fs = Math.hypot(tx[2], tx[3]) || Math.hypot(tx[0], tx[1]);
    if (!(fs > 0)) continue;
    const style = styles[item.fontName] ?? {};
    // Some fonts report no metrics (NaN): fall back to typical Latin proportions.
    const asc = Number.isFinite(style.ascent) ? clamp(style.ascent!, 0.6, 1) : 0.8;
    const desc = Number.isFinite(style.descent) ? clamp(style.descent!, -0.35, 0) : -0.2;
    // Text space units along the baseline: item.width is in user space.
    const scale = Math.hypot(t[0]!, t[1]!) || 1;
    const wu = item.width / scale;
    const ux = tx[0] / Math.hypot(tx[0], tx[1] || 0.0001);
    const angleRad = Math.atan2(-tx[1], tx[0]);
    const angle = ((Math.round((angleRad * 180) / Math.PI) % 360) + 360) % 360;
    let x0: number;
    let y0: number;
    let x1: number;
    let y1: number;
    // tx maps text space (em units) to display space; corners of the glyph band.
    const px = (u: number, v: number): [number, number] => [tx[0] * u + tx[2] * v + tx[4], tx[1] * u + tx[3] * v + tx[5]];
    const nH = Math.hypot(tx[0], tx[1]);
    const wEm = nH ? (wu * scale) / nH : wu;
    if (angle === 0 && Math.abs(tx[1]) < 1e-6 && Math.abs(tx[2]) < 1e-6) {
      x0 = tx[4];
      x1 = tx[4] + item.width * (tx[0] / (t[0] || tx[0]));
      y0 = tx[5] - asc * fs;
      y1 = tx[5] - desc * fs;
      void ux;
    } else {
      const corners = [px(0, desc), px(wEm, desc), px(wEm, asc), px(0, asc)];
      x0 = Math.min(...corners.map((c) => c[0]));
      x1 = Math.max(...corners.map((c) => c[0]));
      y0 = Math.min(...corners.map((c) => c[1]));
      y1 = Math.max(...corners.map((c) => c[1]));
    }
    if (x1 < x0) [x0, x1] = [x1, x0];
    if (removeWatermark && isWatermark(angle, fs, tx[4], tx[5], walked.lightText)) continue;
    let font = fonts.get(item.fontName);
    if (!font) {
      font = lookupFont(page, item.fontName);
      fonts.set(item.fontName, font);
    }
    // CJK fonts are fixed-pitch too: monospace only means code for non-CJK text.
    const mono = font.mono && !isCjk(str.trimStart()[0] ?? "");
    const run: TextRun = { text: str, x0, y0, x1, y1, fontSize: fs, angle, bold: font.bold, italic: font.italic, mono, math: font.math };
    runs.push(run);
  }
  const images: ExtractedPage["images"] = [];
  for (const img of walked.images) {
    if (imagePixels) {
      const raw = img.inline ?? (img.ref ? await objectData(page, img.ref) : undefined);
      if (raw) images.push({ ...img.box, width: raw.width, height: raw.height, ref: img.ref, raw });
      else images.push({ ...img.box, width: img.width, height: img.height, ref: img.ref });
    } else {
      images.push({ ...img.box, width: img.width, height: img.height, ref: img.ref });
    }
  }
  // Sideways text (rotated pages, landscape tables) is laid out in its own frame.
  const frame: Frame = { angle: dominantAngle(runs), width: viewport.width, height: viewport.height };
  const inFrame = contentToFrame(frame, runs, walked.segments, images);
  if (chars) for (const r of inFrame.runs) r.chars = spreadChars(r.text, r.x0, r.x1, r.angle === 0);
  const size = frameSize(frame);
  return {
    width: size.width,
    height: size.height,
    frame,
    rotate: page.rotate,
    runs: inFrame.runs,
    segments: inFrame.segments,
    images: inFrame.images as ExtractedPage["images"],
    textChars,
  };
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

function lookupFont(page: PdfPage, id: string): FontStyle {
  try {
    if (page.commonObjs.has(id)) {
      const f = page.commonObjs.get(id) as { name?: string; isMonospace?: boolean } | null;
      return fontStyle(f?.name, f?.isMonospace === true);
    }
  } catch {
    // A font pdfjs failed to load: no style facts, plain text.
  }
  return fontStyle(undefined);
}

/** Rotated off-axis text, or light/transparent large text drawn at a recorded origin. */
function isWatermark(angle: number, fs: number, x: number, y: number, light: readonly LightText[]): boolean {
  const off = angle % 90;
  if (off > 5 && off < 85) return true;
  for (const l of light) if (Math.abs(l.x - x) < 1.5 && Math.abs(l.y - y) < 1.5 && fs >= 14) return true;
  return false;
}

/**
 * Glyph boxes along a run. pdfjs' text layer gives the run's extent, not each glyph's
 * advance, so the width is shared out by width class (`charWeights`).
 */
function spreadChars(str: string, x0: number, x1: number, horizontal: boolean): RunChar[] {
  const chars = [...str];
  const weights = charWeights(chars);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const out: RunChar[] = [];
  let x = x0;
  for (let i = 0; i < chars.length; i++) {
    const w = horizontal ? ((x1 - x0) * weights[i]!) / total : 0;
    out.push({ text: chars[i]!, x0: horizontal ? x : x0, x1: horizontal ? x + w : x1 });
    x += w;
  }
  return out;
}

async function objectData(page: PdfPage, id: string): Promise<RawImage | undefined> {
  const objs = id.startsWith("g_") ? page.commonObjs : page.objs;
  try {
    const data = await new Promise<unknown>((resolve) => objs.get(id, resolve));
    const d = data as Partial<RawImage> | null;
    if (d && typeof d.width === "number" && typeof d.height === "number" && d.data && typeof d.kind === "number") return d as RawImage;
  } catch {
    // Missing image data: the element keeps its geometry, without pixels.
  }
  return undefined;
}

interface LightText {
  x: number;
  y: number;
}

interface Walked {
  segments: Segment[];
  images: { box: { x0: number; y0: number; x1: number; y1: number }; width: number; height: number; ref?: string; inline?: RawImage }[];
  lightText: LightText[];
}

interface GState {
  ctm: Matrix;
  fillAlpha: number;
  fillLight: boolean;
}

/**
 * One pass over the operator list: the current transform (save/restore, cm, form
 * XObjects), axis-aligned strokes and thin fills (table rules), image placements, and
 * where light or transparent text is drawn (for remove_watermark).
 */
function walkOperators(fnArray: readonly number[], argsArray: readonly unknown[], base: Matrix, maxSegments: number): Walked {
  const segments: Segment[] = [];
  const images: Walked["images"] = [];
  const lightText: LightText[] = [];
  let gs: GState = { ctm: base, fillAlpha: 1, fillLight: false };
  const stack: GState[] = [];
  let tm: Matrix = [1, 0, 0, 1, 0, 0];
  let lm: Matrix = [1, 0, 0, 1, 0, 0];
  let leading = 0;
  let positioned = false;
  const pt = (x: number, y: number): [number, number] => {
    const m = gs.ctm;
    return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  };
  const addSeg = (ax: number, ay: number, bx: number, by: number): void => {
    if (segments.length >= maxSegments) return;
    if (Math.abs(ay - by) < 0.8) segments.push({ horizontal: true, at: (ay + by) / 2, from: Math.min(ax, bx), to: Math.max(ax, bx) });
    else if (Math.abs(ax - bx) < 0.8) segments.push({ horizontal: false, at: (ax + bx) / 2, from: Math.min(ay, by), to: Math.max(ay, by) });
  };
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OP.save:
        stack.push(gs);
        gs = { ...gs };
        break;
      case OP.restore:
        gs = stack.pop() ?? gs;
        break;
      case OP.transform:
        gs.ctm = mul(gs.ctm, args as number[]);
        break;
      case OP.paintFormXObjectBegin: {
        stack.push(gs);
        gs = { ...gs };
        const m = args?.[0] as number[] | null | undefined;
        if (m && m.length === 6) gs.ctm = mul(gs.ctm, m);
        break;
      }
      case OP.paintFormXObjectEnd:
        gs = stack.pop() ?? gs;
        break;
      case OP.setGState: {
        for (const entry of (args?.[0] as [string, unknown][] | undefined) ?? []) {
          if (entry[0] === "ca" && typeof entry[1] === "number") gs.fillAlpha = entry[1];
        }
        break;
      }
      case OP.setFillTransparent:
        gs.fillAlpha = 0;
        break;
      case OP.setFillRGBColor:
      case OP.setFillGray:
      case OP.setFillCMYKColor: {
        const c = args?.[0];
        gs.fillLight = typeof c === "string" && lightColour(c);
        break;
      }
      case OP.beginText:
        tm = [1, 0, 0, 1, 0, 0];
        lm = tm;
        positioned = true;
        break;
      case OP.setLeading:
        leading = Number(args?.[0]) || 0;
        break;
      case OP.setTextMatrix: {
        const m = (Array.isArray(args?.[0]) || ArrayBuffer.isView(args?.[0]) ? args![0] : args) as ArrayLike<number>;
        tm = [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!];
        lm = tm;
        positioned = true;
        break;
      }
      case OP.moveText:
      case OP.setLeadingMoveText: {
        const x = Number(args?.[0]) || 0;
        const y = Number(args?.[1]) || 0;
        lm = [lm[0], lm[1], lm[2], lm[3], x * lm[0] + y * lm[2] + lm[4], x * lm[1] + y * lm[3] + lm[5]];
        tm = lm;
        positioned = true;
        break;
      }
      case OP.nextLine:
        lm = [lm[0], lm[1], lm[2], lm[3], -leading * lm[2] + lm[4], -leading * lm[3] + lm[5]];
        tm = lm;
        positioned = true;
        break;
      case OP.showText:
      case OP.showSpacedText:
      case OP.nextLineShowText:
      case OP.nextLineSetSpacingShowText:
        if (positioned && (gs.fillAlpha < 0.6 || gs.fillLight)) {
          const [x, y] = pt(tm[4], tm[5]);
          lightText.push({ x, y });
        }
        positioned = false;
        break;
      case OP.paintImageXObject:
      case OP.paintInlineImageXObject: {
        const corners = [pt(0, 0), pt(1, 0), pt(0, 1), pt(1, 1)];
        const box = {
          x0: Math.min(...corners.map((c) => c[0])),
          y0: Math.min(...corners.map((c) => c[1])),
          x1: Math.max(...corners.map((c) => c[0])),
          y1: Math.max(...corners.map((c) => c[1])),
        };
        if (fn === OP.paintImageXObject) {
          images.push({ box, ref: String(args?.[0]), width: Number(args?.[1]) || 0, height: Number(args?.[2]) || 0 });
        } else {
          const img = args?.[0] as RawImage | undefined;
          images.push({ box, width: img?.width ?? 0, height: img?.height ?? 0, inline: img });
        }
        break;
      }
      case OP.constructPath: {
        if (segments.length >= maxSegments) break;
        const paint = args?.[0] as number;
        const stroke = paint === OP.stroke || paint === OP.closeStroke || paint === OP.fillStroke || paint === OP.eoFillStroke || paint === OP.closeFillStroke || paint === OP.closeEOFillStroke;
        const fill = paint === OP.fill || paint === OP.eoFill;
        if (!stroke && !fill) break;
        const data = (args?.[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | null | undefined;
        if (!data) break;
        pathSegments(data, pt, stroke, addSeg);
        break;
      }
      default:
        break;
    }
  }
  return { segments, images, lightText };
}

function lightColour(hex: string): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return false;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => Number.parseInt(h, 16) / 255) as [number, number, number];
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.78;
}

/**
 * Axis-aligned segments of a path: every straight edge when stroked; for fills, only
 * thin subpaths (a rule drawn as a filled rectangle), along their long side.
 */
function pathSegments(
  data: ArrayLike<number>,
  pt: (x: number, y: number) => [number, number],
  stroke: boolean,
  add: (ax: number, ay: number, bx: number, by: number) => void,
): void {
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  // Bounds of the current subpath (for thin fills).
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let curved = false;
  const flushFill = (): void => {
    if (!stroke && !curved && minX !== Infinity) {
      const w = maxX - minX;
      const h = maxY - minY;
      if (h <= 3 && w > 4) add(minX, (minY + maxY) / 2, maxX, (minY + maxY) / 2);
      else if (w <= 3 && h > 4) add((minX + maxX) / 2, minY, (minX + maxX) / 2, maxY);
    }
    minX = minY = Infinity;
    maxX = maxY = -Infinity;
    curved = false;
  };
  const grow = (x: number, y: number): void => {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  };
  for (let i = 0; i < data.length; ) {
    const op = data[i++];
    if (op === DRAW_MOVE) {
      flushFill();
      [cx, cy] = pt(data[i]!, data[i + 1]!);
      [sx, sy] = [cx, cy];
      grow(cx, cy);
      i += 2;
    } else if (op === DRAW_LINE) {
      const [x, y] = pt(data[i]!, data[i + 1]!);
      if (stroke) add(cx, cy, x, y);
      grow(x, y);
      [cx, cy] = [x, y];
      i += 2;
    } else if (op === DRAW_CURVE) {
      [cx, cy] = pt(data[i + 4]!, data[i + 5]!);
      curved = true;
      i += 6;
    } else if (op === DRAW_QUAD) {
      [cx, cy] = pt(data[i + 2]!, data[i + 3]!);
      curved = true;
      i += 4;
    } else if (op === DRAW_CLOSE) {
      if (stroke) add(cx, cy, sx, sy);
      [cx, cy] = [sx, sy];
    } else {
      break;
    }
  }
  flushFill();
}
