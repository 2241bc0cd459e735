import type { Drawing, Rect, RunChar, Segment, TextRun } from "../layout/index.js";
import { accented, combiningMark } from "../layout/accents.js";
import { fontStyle, isMathExtension, mathExtensionText, type FontStyle } from "./pdf-fonts.js";
import { MARKS_ONLY, onLineOf, sitsOn, spreadChars, type ActualTextSpan } from "./pdf-spans.js";
import { lightColour, MARKER_MAX_DATA, markerShape, pathSegments, type MarkerShape } from "./pdf-paths.js";
import type { RawImage } from "./pdf-png.js";

/** CJK ideographs, kana and hangul: set apart by Tc, they stay one word. */
const CJK_GLYPH = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

/**
 * One pass over a pdfjs operator list, replaying what pdfjs' canvas renderer does with
 * the graphics and text state, without drawing: text runs with exact glyph advances
 * (so character boxes come from glyph positions), axis-aligned rules (tables), image
 * placements, and which text is transparent, light or rotated (watermarks). Reading
 * text from the operator list instead of `getTextContent` parses each content stream
 * once instead of twice.
 */

export type Matrix = [number, number, number, number, number, number];

// pdfjs OPS codes (`OPS` in pdfjs-dist; stable across 4.x and 5.x).
const OP = {
  setGState: 9,
  save: 10,
  restore: 11,
  transform: 12,
  beginText: 31,
  setCharSpacing: 33,
  setWordSpacing: 34,
  setHScale: 35,
  setLeading: 36,
  setFont: 37,
  setTextRenderingMode: 38,
  setTextRise: 39,
  moveText: 40,
  setLeadingMoveText: 41,
  setTextMatrix: 42,
  nextLine: 43,
  showText: 44,
  showSpacedText: 45,
  nextLineShowText: 46,
  nextLineSetSpacingShowText: 47,
  setStrokeRGBColor: 58,
  setFillGray: 57,
  setFillRGBColor: 59,
  setFillCMYKColor: 61,
  beginMarkedContent: 69,
  beginMarkedContentProps: 70,
  endMarkedContent: 71,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  beginGroup: 76,
  paintImageXObject: 85,
  paintInlineImageXObject: 86,
  constructPath: 91,
  clip: 29,
  eoClip: 30,
  setFillTransparent: 93,
  beginAnnotation: 80,
  endAnnotation: 81,
  stroke: 20,
  closeStroke: 21,
  fill: 22,
  eoFill: 23,
  fillStroke: 24,
  eoFillStroke: 25,
  closeFillStroke: 26,
  closeEOFillStroke: 27,
} as const;

export const mul = (m: Matrix, n: ArrayLike<number>): Matrix => [
  m[0] * n[0]! + m[2] * n[1]!,
  m[1] * n[0]! + m[3] * n[1]!,
  m[0] * n[2]! + m[2] * n[3]!,
  m[1] * n[2]! + m[3] * n[3]!,
  m[0] * n[4]! + m[2] * n[5]! + m[4],
  m[1] * n[4]! + m[3] * n[5]! + m[5],
];

/** What the walker needs to know about a font (pdfjs `FontFaceObject`). */
export interface FontInfo {
  style: FontStyle;
  /** Glyph space → text space; [0.001, 0, 0, 0.001, 0, 0] for most fonts. */
  matrix: number[];
  vertical: boolean;
  ascent: number;
  descent: number;
  /**
   * An OCR text layer's glyphless font (Tesseract's `GlyphLessFont`, which OCRmyPDF and
   * most "searchable PDF" tools embed): every glyph is a blank 0.5 em, and Tesseract
   * stretches (`Tz`) each word so that it and its trailing space span the word's box on
   * the scan (OCRmyPDF's hOCR renderer shows the space as a string of its own).
   */
  glyphless: boolean;
  /** TeX's math extension font (`cmex10`): its glyphs are read by their codes (`mathExtensionText`). */
  mathExtension: boolean;
  /** The font's name, subset prefix removed (`NotoSansCJKsc-Regular`), when it has one: see {@link TextRun.face}. */
  face?: string;
}

interface Glyph {
  /** The glyph's code in the font (pdfjs `originalCharCode`). */
  originalCharCode?: number;
  unicode: string;
  width: number;
  isSpace: boolean;
  vmetric?: number[] | null;
}

/** Options for {@link walkOperators}. */
export interface WalkOptions {
  /** Per-glyph positions on runs (char_details). */
  chars: boolean;
  /** Drop rotated, transparent or very light large text. */
  removeWatermark: boolean;
  /** Ruling segments kept per page at most. */
  maxSegments: number;
  /** Font lookup by pdfjs font id. */
  font: (id: string) => FontInfo;
  /** The page's crop box in display space: glyphs wholly outside it are not read. */
  page?: Rect;
}

export interface WalkedImage {
  box: { x0: number; y0: number; x1: number; y1: number };
  width: number;
  height: number;
  ref?: string;
  inline?: RawImage;
}

export interface Walked {
  runs: TextRun[];
  segments: Segment[];
  images: WalkedImage[];
  /** Characters shown (whitespace included), to tell scans from text pages. */
  textChars: number;
  /**
   * Small closed shapes that may be list bullets drawn as paths (Chromium, Skia): none
   * when the page draws more than {@link MAX_MARKERS} (a chart or a pattern).
   */
  markers: MarkerShape[];
  /**
   * Boxes of the visible paths the page paints (display space), the first
   * {@link MAX_DRAWINGS}: what vector figures (charts, diagrams) are found from.
   */
  drawings: Drawing[];
}

/** Painted paths whose boxes are kept per page at most: enough to place a chart or a diagram. */
export const MAX_DRAWINGS = 2000;

/**
 * Bullet candidates kept per page at most. A page of text holds at most ~80 lines, so
 * ~80 bullets; a page with more small discs and squares than this is a scatter plot, a
 * map or a dotted pattern, whose marks are not bullets.
 */
export const MAX_MARKERS = 256;

/**
 * Longest ActualText read, in UTF-16 units. Writers put one on a conjunct, a word or at
 * most a line or paragraph (a few hundred characters); a span megabytes long is hostile
 * (with char_details each character becomes a box), so its glyphs read as themselves.
 */
export const MAX_ACTUAL_TEXT = 65_536;

/** Longest text one glyph reads as (a ToUnicode entry): ligatures and clusters are a few. */
export const MAX_GLYPH_TEXT = 256;

interface State {
  ctm: Matrix;
  fillAlpha: number;
  fillLight: boolean;
  /** Fill and stroke colours as pdfjs gives them (`#rrggbb`). */
  fill: string;
  stroke: string;
  font: FontInfo | undefined;
  size: number;
  /** -1 when the font size was negative (mirrored text). */
  dir: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  /** pdfjs keeps leading negated: `nextLine` moves by (0, leading). */
  leading: number;
  rise: number;
  /**
   * The clip region's bounding box in display space (rectangles are exact, any other path
   * is its box), or null for none. Never mutated: a clip op replaces it, so a state
   * copied by `q` may share it.
   */
  clip: Rect | null;
}

// Compatibility characters fonts map glyphs to (ﬁ ligatures, Kangxi radicals such as ⽂
// for 文, CJK compatibility ideographs, Hebrew and Arabic presentation forms such as ﻻ
// for لا, vertical forms such as ︒ for 。): read as their ordinary characters, like
// pdftotext does. Full-width punctuation (，。) is left alone.
const COMPAT = /[\u2e80-\u2eff\u2f00-\u2fdf\uf900-\ufaff\ufb00-\ufdff\ufe10-\ufe19\ufe30-\ufe4f\ufe70-\ufefe]/;
// Right-to-left letters (Hebrew, Arabic and their presentation forms).
const RTL_GLYPH = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const WHITESPACE = /^\s+$/;
// Control characters a glyph maps to when its font says nothing better (a bitmap font's
// bullet as U+0088). They are no text, and a NUL would be refused by PostgreSQL's text and
// jsonb: the glyph is read as blank space, as poppler drops it. So are the private-use
// pieces Adobe's glyph list gives the parts of tall brackets, braces and radicals
// (U+F8E5–F8E7, U+F8EB–F8FE: `parenlefttp`, `braceex`), which Symbol and TeX fonts draw.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\uf8e5-\uf8e7\uf8eb-\uf8fe]/g;
const CONTROL_IN = /[\u0000-\u001f\u007f-\u009f\uf8e5-\uf8e7\uf8eb-\uf8fe]/;

/** Walks the operator list of one page; `base` maps user space to display space. */
export function walkOperators(fnArray: readonly number[], argsArray: readonly unknown[], base: Matrix, options: WalkOptions): Walked {
  const { maxSegments } = options;
  const segments: Segment[] = [];
  const images: WalkedImage[] = [];
  const runs: TextRun[] = [];
  let markers: MarkerShape[] = [];
  let markersOverflow = false;
  // Inside an annotation's appearance stream: radio buttons and checkboxes draw small
  // discs and squares there, and they are form widgets, not bullets.
  let inAnnotation = 0;
  let textChars = 0;
  const drawings: Drawing[] = [];
  const page = options.page ?? null;
  let gs: State = { ctm: base, fillAlpha: 1, fillLight: false, fill: "#000000", stroke: "#000000", font: undefined, size: 0, dir: 1, charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0, clip: null };
  const stack: State[] = [];
  // `W`/`W*` come as a clip op before the path's constructPath (painted or `n`), as pdfjs'
  // canvas consumes them; a transparency group's box comes with beginGroup, before its form.
  let pendingClip = false;
  let groupBox: ArrayLike<number> | null = null;
  const clipTo = (minMax: ArrayLike<number> | null | undefined): void => {
    const box = minMax && minMax.length >= 4 ? pathBox(pt, minMax) : undefined;
    if (!box) return;
    const c = gs.clip;
    gs.clip = c ? { x0: Math.max(c.x0, box.x0), y0: Math.max(c.y0, box.y0), x1: Math.min(c.x1, box.x1), y1: Math.min(c.y1, box.y1) } : box;
  };
  // Marked content open now (BMC/BDC without their EMC yet), the outermost ActualText span
  // among it (one inside is part of its text), and the depth at each form or annotation
  // being drawn: a span left open in one ends with it.
  let markedDepth = 0;
  let actual: ActualTextSpan | null = null;
  const markedAt: number[] = [];
  // A tagged PDF's marked-content ids (MCID) open now, one entry per open marked content
  // (undefined for one without), and the innermost: a run shown in it carries it, for the
  // structure tree to say what the run is part of (pdf-struct.ts). Only the page's own
  // content: a form's MCIDs belong to the form's own structure parents.
  const mcids: (number | undefined)[] = [];
  let mcid: number | undefined;
  const endMarked = (depth: number): void => {
    markedDepth = Math.max(0, depth);
    if (actual !== null && actual.depth > markedDepth) actual = null;
    if (mcids.length > markedDepth) {
      mcids.length = markedDepth;
      mcid = mcids.findLast((id) => id !== undefined);
    }
  };
  // Text object state (not part of the graphics state stack).
  let tm: Matrix = [1, 0, 0, 1, 0, 0];
  let x = 0;
  let y = 0;
  let lineX = 0;
  let lineY = 0;
  const moveText = (dx: number, dy: number): void => {
    x = lineX += dx;
    y = lineY += dy;
  };
  const pt = (px: number, py: number): [number, number] => {
    const m = gs.ctm;
    return [m[0] * px + m[2] * py + m[4], m[1] * px + m[3] * py + m[5]];
  };
  const addSeg = (ax: number, ay: number, bx: number, by: number): void => {
    if (segments.length >= maxSegments) return;
    if (Math.abs(ay - by) < 0.8) segments.push({ horizontal: true, at: (ay + by) / 2, from: Math.min(ax, bx), to: Math.max(ax, bx) });
    else if (Math.abs(ax - bx) < 0.8) segments.push({ horizontal: false, at: (ax + bx) / 2, from: Math.min(ay, by), to: Math.max(ay, by) });
  };

  const showText = (glyphs: readonly (Glyph | number)[] | undefined): void => {
    const font = gs.font;
    if (!glyphs || !font || gs.size === 0) return;
    const size = gs.size;
    const widthScale = size * (font.matrix[0] || 0.001);
    const hScale = gs.hScale * gs.dir;
    // Text space (Td units, baseline at y + rise) → display space.
    const m = mul(gs.ctm, tm);
    const vertical = font.vertical;
    const spacingDir = vertical ? 1 : -1;
    const ascent = font.ascent;
    const descent = font.descent;
    const baseY = y + gs.rise;
    const dispSize = size * Math.hypot(m[2], m[3]);
    const angleDeg = vertical ? 270 : ((Math.round((Math.atan2(-m[1] * gs.dir, m[0] * gs.dir) * 180) / Math.PI) % 360) + 360) % 360;
    const watermarkish = options.removeWatermark && ((angleDeg % 90 > 5 && angleDeg % 90 < 85) || ((gs.fillAlpha < 0.6 || gs.fillLight) && dispSize >= 14));
    // A glyph is read when its centre is inside the clip and it is not wholly off the page
    // (its box: the centre ± half its advance along the line, ± acrossX/Y across it). Its
    // centre at advance u is (ox + dx·u, oy + dy·u) in display space, halfway between
    // ascent and descent. Per glyph, one test against the clip and the page together
    // ([bx0, bx1] × [by0, by1]); a glyph outside is looked at again, off the hot path.
    const clip = gs.clip;
    const clipping = clip !== null || page !== null;
    let ox = 0;
    let oy = 0;
    let dx = 0;
    let dy = 0;
    let bx0 = -Infinity;
    let by0 = -Infinity;
    let bx1 = Infinity;
    let by1 = Infinity;
    let acrossX = 0;
    let acrossY = 0;
    if (clipping) {
      const cy = baseY + ((ascent + descent) * size) / 2;
      ox = vertical ? m[0] * x + m[2] * baseY + m[4] : m[0] * x + m[2] * cy + m[4];
      oy = vertical ? m[1] * x + m[3] * baseY + m[5] : m[1] * x + m[3] * cy + m[5];
      dx = vertical ? -m[2] : m[0] * hScale;
      dy = vertical ? -m[3] : m[1] * hScale;
      if (clip) ({ x0: bx0, y0: by0, x1: bx1, y1: by1 } = clip);
      if (page) {
        const across = vertical ? 0.5 * size : ((ascent - descent) * size) / 2;
        acrossX = Math.abs(vertical ? m[0] : m[2]) * across;
        acrossY = Math.abs(vertical ? m[1] : m[3]) * across;
        bx0 = Math.max(bx0, page.x0);
        by0 = Math.max(by0, page.y0);
        bx1 = Math.min(bx1, page.x1);
        by1 = Math.min(by1, page.y1);
      }
    }
    let acc = 0;
    let text = "";
    let pendingSpace = false;
    // Spaces shown since the last glyph (only monospace text keeps more than one).
    let spaces = 0;
    // A spacing accent just read (TeX's OT1 `\'o`: `´` moved back over its letter): where
    // it stands in `text` and where its glyph ends.
    let accentAt = -1;
    let accentEnd = 0;
    let start = 0;
    let end = 0;
    let charStarts: number[] | undefined;
    let charEnds: number[] | undefined;
    // In an OCR layer's glyphless font a word's box ends where its trailing space does.
    const glyphless = font.glyphless;
    let spaceEnd = 0;
    // The ActualText span this string is shown in, if any (marked content opens and
    // closes between strings); whether its text is in the run being built (and began it),
    // the extent of its glyphs there, and where its characters start in charStarts.
    const span = actual;
    let spanPending = false;
    let spanLeads = false;
    let spanU0 = 0;
    let spanU1 = 0;
    let spanCharFrom = 0;
    const flush = (): void => {
      pendingSpace = false;
      spaces = 0;
      accentAt = -1;
      if (!text) return;
      if (!watermarkish) emit(text, start, glyphless && spaceEnd > end ? spaceEnd : end, charStarts, charEnds);
      text = "";
      charStarts = undefined;
      charEnds = undefined;
      spanPending = false;
    };
    // The box of [u0,u1] along the baseline, ascent..descent across, in display space.
    const boxOf = (u0: number, u1: number): Rect => {
      let ax0: number, ax1: number, ay0: number, ay1: number;
      if (vertical) {
        // Vertical writing: the advance runs down the text-space y axis.
        ax0 = x - 0.5 * size;
        ax1 = x + 0.5 * size;
        ay0 = baseY - u1;
        ay1 = baseY - u0;
      } else {
        ax0 = x + u0 * hScale;
        ax1 = x + u1 * hScale;
        ay0 = baseY + descent * size;
        ay1 = baseY + ascent * size;
      }
      const cx = [m[0] * ax0 + m[2] * ay0 + m[4], m[0] * ax1 + m[2] * ay0 + m[4], m[0] * ax0 + m[2] * ay1 + m[4], m[0] * ax1 + m[2] * ay1 + m[4]];
      const cy = [m[1] * ax0 + m[3] * ay0 + m[5], m[1] * ax1 + m[3] * ay0 + m[5], m[1] * ax0 + m[3] * ay1 + m[5], m[1] * ax1 + m[3] * ay1 + m[5]];
      return {
        x0: Math.min(cx[0]!, cx[1]!, cx[2]!, cx[3]!),
        x1: Math.max(cx[0]!, cx[1]!, cx[2]!, cx[3]!),
        y0: Math.min(cy[0]!, cy[1]!, cy[2]!, cy[3]!),
        y1: Math.max(cy[0]!, cy[1]!, cy[2]!, cy[3]!),
      };
    };
    const emit = (str: string, u0: number, u1: number, cs: number[] | undefined, ce: number[] | undefined): void => {
      const box = boxOf(u0, u1);
      const run: TextRun = {
        text: str,
        x0: box.x0,
        x1: box.x1,
        y0: box.y0,
        y1: box.y1,
        fontSize: dispSize,
        angle: angleDeg,
        bold: font.style.bold,
        italic: font.style.italic,
        mono: font.style.mono,
        math: font.style.math,
        colour: gs.fill,
      };
      if (font.face) run.face = font.face;
      if (glyphless) run.ocr = true;
      if (inAnnotation > 0) run.annotation = true;
      if (mcid !== undefined) run.mcid = mcid;
      if (cs && ce && !vertical) {
        // Glyph extents along the baseline → display x (exact for unrotated text).
        const list: RunChar[] = [];
        const glyphsText = [...str];
        const n = Math.min(glyphsText.length, cs.length);
        // Glyphless OCR glyphs are evenly spaced guesses: spread them over the word's box.
        const from = cs[0] ?? u0;
        const stretch = glyphless && n > 0 && ce[n - 1]! > from ? (u1 - u0) / (ce[n - 1]! - from) : 1;
        // A baseline not level on the display (a running head up the edge of a page turned
        // by /Rotate, sideways text) runs along y too: each glyph keeps its whole box, or
        // its x alone would be one and the same for every glyph of an upright column.
        const level = Math.abs(m[1]) <= 1e-3 * Math.abs(m[0]);
        for (let i = 0; i < n; i++) {
          const ga = u0 + (cs[i]! - from) * stretch;
          const gb = u0 + (ce[i]! - from) * stretch;
          if (!level) {
            list.push({ text: glyphsText[i]!, ...boxOf(Math.min(ga, gb), Math.max(ga, gb)) });
            continue;
          }
          const a = m[0] * (x + ga * hScale) + m[4] + m[2] * baseY;
          const b = m[0] * (x + gb * hScale) + m[4] + m[2] * baseY;
          list.push({ text: glyphsText[i]!, x0: Math.min(a, b), x1: Math.max(a, b) });
        }
        run.chars = list;
      }
      // Marks alone, drawn with no advance (LibreOffice raises a Thai tone mark over a vowel
      // sign with a text matrix of its own), belong to the run they sit on.
      const last = u1 === u0 ? runs[runs.length - 1] : undefined;
      if (last && sitsOn(last, run) && MARKS_ONLY.test(str)) {
        if (spanPending) {
          span!.run = last;
          span!.charFrom = (last.chars?.length ?? 0) + spanCharFrom;
        }
        last.text += str;
        if (last.chars && run.chars) last.chars.push(...run.chars);
        return;
      }
      if (spanPending) {
        span!.run = run;
        span!.charFrom = spanCharFrom;
      }
      runs.push(run);
    };
    // A later glyph of the span (u..u + w along the baseline) adds its box to the run
    // holding the span's text, whose characters are spread over the span's glyphs. One on
    // another line (a span left open by a broken writer) adds nothing.
    const widenSpan = (s: ActualTextSpan, u: number, w: number): void => {
      if (spanPending) {
        spanU0 = Math.min(spanU0, u);
        spanU1 = Math.max(spanU1, u + w);
        end = Math.max(end, spanU1);
        if (spanLeads) start = Math.min(start, spanU0);
        if (charStarts) spreadChars(charStarts, charEnds!, spanCharFrom, s.charCount, spanU0, spanU1);
        return;
      }
      const run = s.run;
      if (!run) return;
      const box = boxOf(u, u + w);
      if (!onLineOf(run, box)) return;
      run.x0 = Math.min(run.x0, box.x0);
      run.x1 = Math.max(run.x1, box.x1);
      run.y0 = Math.min(run.y0, box.y0);
      run.y1 = Math.max(run.y1, box.y1);
      const chars = run.chars;
      if (chars && s.charCount > 0 && s.charFrom + s.charCount <= chars.length) {
        const first = chars[s.charFrom]!;
        const last = chars[s.charFrom + s.charCount - 1]!;
        const x0 = Math.min(first.x0, box.x0);
        const step = (Math.max(last.x1, box.x1) - x0) / s.charCount;
        for (let k = 0; k < s.charCount; k++) {
          const c = chars[s.charFrom + k]!;
          c.x0 = x0 + k * step;
          c.x1 = x0 + (k + 1) * step;
        }
      }
    };
    // Ghostscript spells word spaces as character spacing: `2.5 Tc [(da) 250 (sal)] TJ`
    // is "d as a l" — Tc opens a space after every glyph and TJ pulls back, exactly, the
    // ones that are none. A Tc gap left open is a word break where TJ pulls one back
    // between two glyphs, or in a string of three glyphs or fewer: Ghostscript cuts its
    // strings at every such gap (`ne` `(wa)` `rchive`, `55 Tc (bB) Tj` for a tag and its
    // description). Longer text under a wide Tc is letter-spaced (a tracked heading):
    // one word, as is CJK set apart. A tracked word of three letters or fewer shown on
    // its own reads letter by letter: Ghostscript's strings look just like it.
    const tc = gs.charSpacing * gs.dir;
    let tcBreaks = !vertical && tc > 0.15 * size;
    if (tcBreaks) {
      let letters = 0;
      let pulled = false;
      let cjk = false;
      for (let i = 0; i < glyphs.length; i++) {
        const g = glyphs[i]!;
        if (typeof g !== "number") {
          letters++;
          if (CJK_GLYPH.test(g.unicode)) cjk = true;
        } else if (letters > 0 && i + 1 < glyphs.length && typeof glyphs[i + 1] !== "number" && Math.abs((spacingDir * g * size) / 1000 + tc) <= 0.01 * size) {
          pulled = true;
        }
      }
      tcBreaks = !cjk && (pulled || letters <= 3);
    }
    let slack = 0;
    for (const g of glyphs) {
      if (typeof g === "number") {
        const adv = (spacingDir * g * size) / 1000;
        // A TJ gap wider than ~0.15 em is a word break the text never spelt out, unless it
        // only moves back past where the text reached: LibreOffice sets a mark (an anusvara,
        // a vowel sign below, a Thai tone) back over its base and then moves on.
        if (!vertical && adv > 0.15 * size && acc + adv > end + 0.15 * size) flush();
        acc += adv;
        slack += adv;
        continue;
      }
      if (tcBreaks && slack > 0.15 * size) flush();
      slack = tcBreaks ? tc : 0;
      const spacing = (g.isSpace ? gs.wordSpacing : 0) + gs.charSpacing;
      let width = g.width;
      if (vertical) width = g.vmetric ? -(g.vmetric[0] ?? 0) : width;
      const advance = vertical ? width * widthScale - spacing * gs.dir : width * widthScale + spacing * gs.dir;
      if (clipping) {
        const half = (width * widthScale) / 2;
        const px = ox + dx * (acc + half);
        const py = oy + dy * (acc + half);
        if (
          (px < bx0 || px > bx1 || py < by0 || py > by1) &&
          ((clip !== null && outside(clip, px, py, 0, 0)) || (page !== null && outside(page, px, py, Math.abs(dx * half) + acrossX, Math.abs(dy * half) + acrossY)))
        ) {
          // Clipped away (a cell's overflow, a sheet cut at the page edge): not text.
          flush();
          acc += advance;
          continue;
        }
      }
      let u = font.mathExtension ? extensionGlyph(g) : g.unicode;
      if (u.length > MAX_GLYPH_TEXT) u = u.slice(0, MAX_GLYPH_TEXT);
      let placing = false;
      if (span !== null) {
        if (span.text === "") {
          // An empty ActualText: the span's glyphs are no text (decoration), but a wide
          // one still parts the words either side of it, as a TJ gap would.
          if (advance > 0.15 * size) flush();
          acc += advance;
          continue;
        }
        if (span.placed) {
          widenSpan(span, acc, width * widthScale);
          acc += advance;
          continue;
        }
        span.placed = placing = true;
        u = span.text;
      }
      // Printable ASCII (most glyphs) is neither a compatibility character nor blank; a
      // plain space (most of the rest) is blank.
      const code = u.length === 1 ? u.charCodeAt(0) : -1;
      const ascii = code > 32 && code < 0x7f;
      const plain = ascii || code === 32;
      // Ligature glyphs (ﬁ, ﬂ) become their letters, each sharing the glyph's box.
      // Isolated Arabic vowel forms (ﹰ) decompose to a space and the mark: keep the mark.
      if (!plain && COMPAT.test(u)) u = u.normalize("NFKC").trimStart() || u;
      // A glyph for several right-to-left letters (lam-alef, a letter with its points) maps
      // to them in reading order, but runs stay in drawing order (left to right) until the
      // line's bidi pass (layout/bidi.ts) reverses them: put them in drawing order too.
      if (!plain && u.length > 1 && RTL_GLYPH.test(u)) u = [...u].reverse().join("");
      if (!plain && (u.length === 1 ? code < 32 || (code >= 0x7f && code <= 0x9f) || (code >= 0xf8e5 && code <= 0xf8fe) : CONTROL_IN.test(u))) u = u.replace(CONTROL, "");
      textChars += u.length;
      // `isSpace` is about char code 32 (where word spacing applies), not the text: a
      // subset font may map code 32 to any letter. Whitespace is judged by unicode.
      if (code === 32 || (!ascii && (!u || WHITESPACE.test(u)))) {
        // A wide space is layout (alignment), not a word break: end the run there.
        if (advance > 0.8 * size) flush();
        else if (text) {
          pendingSpace = true;
          spaceEnd = acc + advance;
          spaces++;
        }
        acc += advance;
        continue;
      }
      const first = !text;
      if (first) start = acc;
      else if (pendingSpace) {
        // Monospace text aligns with runs of spaces (a listing's columns, its trailing
        // comments): each one counts. Elsewhere spaces in a row are one word space.
        const n = font.style.mono ? spaces : 1;
        text += " ".repeat(n);
        if (options.chars) {
          for (let k = 0; k < n; k++) {
            charStarts!.push(end + ((acc - end) * k) / n);
            charEnds!.push(end + ((acc - end) * (k + 1)) / n);
          }
        }
      }
      pendingSpace = false;
      spaces = 0;
      // The letter drawn under the accent just read takes it: `´` + `o` → `ó`.
      if (accentAt >= 0 && accentAt === text.length - 1 && !placing && acc < accentEnd - 0.1 * size && u.length === 1 && /\p{L}/u.test(u)) {
        const letter = accented(u, combiningMark(text.charCodeAt(accentAt))!);
        text = text.slice(0, accentAt) + letter;
        if (options.chars) {
          charStarts![charStarts!.length - 1] = acc;
          charEnds![charEnds!.length - 1] = acc + width * widthScale;
          // No precomposed letter (`q́`): the mark shares the letter's box.
          if (letter.length > 1) {
            charStarts!.push(acc);
            charEnds!.push(acc + width * widthScale);
          }
        }
        accentAt = -1;
        end = Math.max(end, acc + width * widthScale);
        acc += advance;
        continue;
      }
      if (placing) {
        spanPending = true;
        spanLeads = first;
        spanU0 = acc;
        spanU1 = acc + width * widthScale;
      }
      text += u;
      accentAt = (!plain || code === 0x60 || code === 0x5e || code === 0x7e) && combiningMark(code) !== undefined ? text.length - 1 : -1;
      accentEnd = acc + width * widthScale;
      if (options.chars) {
        (charStarts ??= []).push(acc);
        (charEnds ??= []).push(acc + width * widthScale);
        // Multi-code-unit glyphs (ligature text, astral characters) share the glyph's box.
        // Counted once: an ActualText can be megabytes long (counting it per step was quadratic).
        for (let k = 1, count = codePoints(u); k < count; k++) {
          charStarts.push(acc);
          charEnds!.push(acc + width * widthScale);
        }
      }
      if (placing) {
        span!.charCount = codePoints(u);
        spanCharFrom = (charStarts?.length ?? 0) - span!.charCount;
      }
      // The run reaches as far as its furthest glyph: a mark set back over its base ends
      // no earlier than the base.
      end = first ? acc + width * widthScale : Math.max(end, acc + width * widthScale);
      acc += advance;
    }
    flush();
    if (vertical) y -= acc;
    else x += acc * hScale;
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
        markedAt.push(markedDepth);
        stack.push(gs);
        gs = { ...gs };
        const m = args?.[0] as number[] | null | undefined;
        if (m && m.length === 6) gs.ctm = mul(gs.ctm, m);
        // A form draws only inside its BBox (a group's, when it is one).
        clipTo((args?.[1] as ArrayLike<number> | null | undefined) ?? groupBox);
        groupBox = null;
        break;
      }
      case OP.beginGroup:
        groupBox = (args?.[0] as { bbox?: ArrayLike<number> | null } | undefined)?.bbox ?? null;
        break;
      case OP.paintFormXObjectEnd:
        gs = stack.pop() ?? gs;
        endMarked(markedAt.pop() ?? markedDepth);
        break;
      case OP.beginAnnotation: {
        // An annotation's appearance stream (form field values, stamps) draws in its own
        // space: the page transform, then the annotation's transform and matrix.
        stack.push(gs);
        markedAt.push(markedDepth);
        const t = args?.[2] as number[] | undefined;
        const m = args?.[3] as number[] | undefined;
        let ctm = base;
        if (t && t.length === 6) ctm = mul(ctm, t);
        if (m && m.length === 6) ctm = mul(ctm, m);
        gs = { ...gs, ctm, fillAlpha: 1, fillLight: false, fill: "#000000", stroke: "#000000", charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0, clip: null };
        inAnnotation++;
        break;
      }
      case OP.endAnnotation:
        gs = stack.pop() ?? gs;
        endMarked(markedAt.pop() ?? markedDepth);
        if (inAnnotation > 0) inAnnotation--;
        break;
      case OP.beginMarkedContent:
        markedDepth++;
        mcids.push(undefined);
        break;
      case OP.beginMarkedContentProps: {
        markedDepth++;
        const id = markedAt.length === 0 && Number.isInteger(args?.[1]) ? (args![1] as number) : undefined;
        mcids.push(id);
        if (id !== undefined) mcid = id;
        // The ActualText our pdfjs patch passes on (pdfjs-patch.ts `actual-text`).
        const text = args?.[2];
        if (actual === null && typeof text === "string" && text.length <= MAX_ACTUAL_TEXT) actual = { text, depth: markedDepth, placed: false, run: undefined, charFrom: 0, charCount: 0 };
        break;
      }
      case OP.endMarkedContent:
        endMarked(markedDepth - 1);
        break;
      case OP.setGState:
        for (const entry of (args?.[0] as [string, unknown][] | undefined) ?? []) {
          if (entry[0] === "ca" && typeof entry[1] === "number") gs.fillAlpha = entry[1];
        }
        break;
      case OP.setFillTransparent:
        gs.fillAlpha = 0;
        break;
      case OP.setFillRGBColor:
      case OP.setFillGray:
      case OP.setFillCMYKColor: {
        const c = args?.[0];
        gs.fillLight = typeof c === "string" && lightColour(c);
        gs.fill = typeof c === "string" ? c : "#000000";
        break;
      }
      case OP.setStrokeRGBColor: {
        const c = args?.[0];
        gs.stroke = typeof c === "string" ? c : "#000000";
        break;
      }
      case OP.beginText:
        tm = [1, 0, 0, 1, 0, 0];
        x = y = lineX = lineY = 0;
        break;
      case OP.setTextMatrix: {
        const m = (Array.isArray(args?.[0]) || ArrayBuffer.isView(args?.[0]) ? args![0] : args) as ArrayLike<number>;
        tm = [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!];
        x = y = lineX = lineY = 0;
        break;
      }
      case OP.setCharSpacing:
        gs.charSpacing = Number(args?.[0]) || 0;
        break;
      case OP.setWordSpacing:
        gs.wordSpacing = Number(args?.[0]) || 0;
        break;
      case OP.setHScale:
        gs.hScale = (Number(args?.[0]) || 100) / 100;
        break;
      case OP.setLeading:
        gs.leading = -(Number(args?.[0]) || 0);
        break;
      case OP.setTextRise:
        gs.rise = Number(args?.[0]) || 0;
        break;
      case OP.setFont: {
        const size = Number(args?.[1]) || 0;
        gs.font = options.font(String(args?.[0]));
        gs.size = Math.abs(size);
        gs.dir = size < 0 ? -1 : 1;
        break;
      }
      case OP.moveText:
        moveText(Number(args?.[0]) || 0, Number(args?.[1]) || 0);
        break;
      case OP.setLeadingMoveText:
        gs.leading = Number(args?.[1]) || 0;
        moveText(Number(args?.[0]) || 0, Number(args?.[1]) || 0);
        break;
      case OP.nextLine:
        moveText(0, gs.leading);
        break;
      case OP.showText:
      case OP.showSpacedText:
        showText(args?.[0] as Glyph[] | undefined);
        break;
      case OP.nextLineShowText:
        moveText(0, gs.leading);
        showText(args?.[0] as Glyph[] | undefined);
        break;
      case OP.nextLineSetSpacingShowText:
        gs.wordSpacing = Number(args?.[0]) || 0;
        gs.charSpacing = Number(args?.[1]) || 0;
        moveText(0, gs.leading);
        showText(args?.[2] as Glyph[] | undefined);
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
          images.push({ box, width: img?.width ?? 0, height: img?.height ?? 0, ...(img ? { inline: img } : {}) });
        }
        break;
      }
      case OP.clip:
      case OP.eoClip:
        pendingClip = true;
        break;
      case OP.constructPath: {
        const paint = args?.[0] as number;
        if (pendingClip) {
          // `re W n` (a cell, a frame): the clip shrinks to the path's box.
          pendingClip = false;
          clipTo(args?.[2] as ArrayLike<number> | null | undefined);
        }
        const stroke =
          paint === OP.stroke || paint === OP.closeStroke || paint === OP.fillStroke || paint === OP.eoFillStroke || paint === OP.closeFillStroke || paint === OP.closeEOFillStroke;
        const fill = paint === OP.fill || paint === OP.eoFill;
        if (!stroke && !fill) break;
        const data = (args?.[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | null | undefined;
        if (!data) break;
        // Bullet candidates: only short paths are looked at (markerShape rejects the rest
        // by length and pdfjs' bounds before reading them), never invisible or very
        // light fills, never form widgets.
        if (!markersOverflow && inAnnotation === 0 && data.length <= MARKER_MAX_DATA) {
          const outline = paint === OP.stroke || paint === OP.closeStroke;
          const visible = outline || (gs.fillAlpha >= 0.5 && !gs.fillLight);
          const shape = visible ? markerShape(data, args?.[2] as ArrayLike<number> | null | undefined, pt, outline) : undefined;
          if (shape) {
            shape.colour = outline ? gs.stroke : gs.fill;
            if (markers.length >= MAX_MARKERS) {
              markersOverflow = true;
              markers = [];
            } else markers.push(shape);
          }
        }
        if (segments.length < maxSegments) pathSegments(data, pt, stroke, addSeg);
        // The path's box, from pdfjs' bounds in user space (invisible and very light
        // fills are backgrounds, form widgets are not drawings).
        const minMax = args?.[2] as ArrayLike<number> | null | undefined;
        if (minMax && drawings.length < MAX_DRAWINGS && inAnnotation === 0 && (stroke || (gs.fillAlpha >= 0.5 && !gs.fillLight))) {
          const box = pathBox(pt, minMax);
          // An outline has its stroke's colour; anything filled, its fill's.
          const outline = paint === OP.stroke || paint === OP.closeStroke;
          if (box) drawings.push({ ...box, colour: outline ? gs.stroke : gs.fill });
        }
        break;
      }
      default:
        break;
    }
  }
  return { runs, segments, images, textChars, markers, drawings };
}

/** Whether the box centred on (px, py), ex and ey either side, lies wholly outside `r`. */
function outside(r: Rect, px: number, py: number, ex: number, ey: number): boolean {
  return px + ex < r.x0 || px - ex > r.x1 || py + ey < r.y0 || py - ey > r.y1;
}

/** A path's box in display space from its user-space bounds; undefined when degenerate. */
function pathBox(pt: (x: number, y: number) => [number, number], minMax: ArrayLike<number>): Rect | undefined {
  const [ax, ay, bx, by] = [minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!];
  if (!(ax <= bx && ay <= by)) return undefined; // Infinity bounds: an empty path
  const [p, q, r, t] = [pt(ax, ay), pt(bx, ay), pt(ax, by), pt(bx, by)];
  const box = { x0: Math.min(p[0], q[0], r[0], t[0]), y0: Math.min(p[1], q[1], r[1], t[1]), x1: Math.max(p[0], q[0], r[0], t[0]), y1: Math.max(p[1], q[1], r[1], t[1]) };
  return Number.isFinite(box.x0 + box.y0 + box.x1 + box.y1) ? box : undefined;
}

/** Tesseract's invisible OCR font, as embedded by it and by tools built on it. */
const GLYPHLESS_FONT = /glyphless/i;

/** Style and metrics of a pdfjs font object (from `commonObjs`). */
export function fontInfo(obj: unknown): FontInfo {
  const f = (obj ?? {}) as {
    name?: string;
    isMonospace?: boolean;
    bold?: boolean;
    black?: boolean;
    italic?: boolean;
    fontMatrix?: number[];
    vertical?: boolean;
    ascent?: number;
    descent?: number;
  };
  const style = fontStyle(f.name, f.isMonospace === true);
  if (f.bold || f.black) style.bold = true;
  if (f.italic) style.italic = true;
  const ascent = Number.isFinite(f.ascent) && f.ascent! > 0.5 && f.ascent! <= 1.2 ? f.ascent! : 0.8;
  const descent = Number.isFinite(f.descent) && f.descent! < 0 && f.descent! >= -0.5 ? f.descent! : -0.2;
  const glyphless = GLYPHLESS_FONT.test(f.name ?? "");
  const face = (f.name ?? "").replace(/^[A-Z]{6}\+/, "") || undefined;
  // Every font's facts in one shape: the glyph loop reads them from any font.
  return { style, matrix: f.fontMatrix ?? [0.001, 0, 0, 0.001, 0, 0], vertical: f.vertical === true, ascent, descent, glyphless, mathExtension: isMathExtension(f.name), face };
}

/**
 * The text of a glyph of TeX's math extension font: by its code where pdfjs, without a
 * ToUnicode map, read it as the code's own character (∑ as `X`) or as a private-use
 * piece; a PDF's own mapping (pdfTeX's `\pdfgentounicode`) is kept.
 */
function extensionGlyph(g: Glyph): string {
  const c = g.originalCharCode;
  const u = g.unicode;
  if (c === undefined || u.length !== 1) return u;
  const v = u.charCodeAt(0);
  return v === c || (v >= 0xf8e5 && v <= 0xf8fe) ? mathExtensionText(c) : u;
}

/** The number of code points in `s` (what `[...s].length` counts), without building the array. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
