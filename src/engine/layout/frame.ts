import type { PlacedImage, Rect, Segment, TextRun } from "./types.js";

/**
 * A reading frame: display space turned so that a page's dominant text direction runs
 * left to right. Pages whose text is sideways (a /Rotate without upright text, or a
 * landscape table printed on a portrait page) are laid out in their frame, and boxes
 * go back to display space at the end. `angle` is the dominant baseline direction in
 * display space, counter-clockwise: 0, 90, 180 or 270.
 */
export interface Frame {
  angle: 0 | 90 | 180 | 270;
  /** Display size. */
  width: number;
  height: number;
}

/** Size of the frame (swapped for 90/270). */
export function frameSize(f: Frame): { width: number; height: number } {
  return f.angle === 90 || f.angle === 270 ? { width: f.height, height: f.width } : { width: f.width, height: f.height };
}

/** Display rect → frame rect. */
export function toFrame(r: Rect, f: Frame): Rect {
  const { width: W, height: H } = f;
  switch (f.angle) {
    case 0:
      return { x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1 };
    case 270: // baseline points down: (x, y) → (y, W - x)
      return { x0: r.y0, x1: r.y1, y0: W - r.x1, y1: W - r.x0 };
    case 90: // baseline points up: (x, y) → (H - y, x)
      return { x0: H - r.y1, x1: H - r.y0, y0: r.x0, y1: r.x1 };
    case 180:
      return { x0: W - r.x1, x1: W - r.x0, y0: H - r.y1, y1: H - r.y0 };
  }
}

/** Frame rect → display rect. */
export function fromFrame(r: Rect, f: Frame): Rect {
  const { width: W, height: H } = f;
  switch (f.angle) {
    case 0:
      return { x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1 };
    case 270:
      return { x0: W - r.y1, x1: W - r.y0, y0: r.x0, y1: r.x1 };
    case 90:
      return { x0: r.y0, x1: r.y1, y0: H - r.x1, y1: H - r.x0 };
    case 180:
      return { x0: W - r.x1, x1: W - r.x0, y0: H - r.y1, y1: H - r.y0 };
  }
}

/** The direction (0/90/180/270) most text characters run in. */
export function dominantAngle(runs: readonly TextRun[]): Frame["angle"] {
  const votes = [0, 0, 0, 0];
  for (const r of runs) {
    const q = Math.round(r.angle / 90) % 4;
    if (Math.abs(r.angle - q * 90) % 360 < 3) votes[q]! += r.text.length;
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (votes[i]! > votes[best]!) best = i;
  return (best * 90) as Frame["angle"];
}

/** Moves runs (with their glyph boxes), segments and images into the frame (runs' angles become relative). */
export function contentToFrame(
  f: Frame,
  runs: readonly TextRun[],
  segments: readonly Segment[],
  images: readonly PlacedImage[],
): { runs: TextRun[]; segments: Segment[]; images: PlacedImage[] } {
  if (f.angle === 0) return { runs: [...runs], segments: [...segments], images: [...images] };
  return {
    runs: runs.map((r) => {
      const moved: TextRun = { ...r, ...toFrame(r, f), angle: (r.angle - f.angle + 360) % 360 };
      // Glyph boxes turn with their run: a glyph without an extent across has the run's.
      if (r.chars) moved.chars = r.chars.map((c) => ({ text: c.text, ...toFrame({ x0: c.x0, x1: c.x1, y0: c.y0 ?? r.y0, y1: c.y1 ?? r.y1 }, f) }));
      return moved;
    }),
    segments: segments.map((s) => {
      const r = toFrame(s.horizontal ? { x0: s.from, x1: s.to, y0: s.at, y1: s.at } : { x0: s.at, x1: s.at, y0: s.from, y1: s.to }, f);
      const horizontal = r.y1 - r.y0 < r.x1 - r.x0;
      return horizontal ? { horizontal, at: r.y0, from: r.x0, to: r.x1 } : { horizontal, at: r.x0, from: r.y0, to: r.y1 };
    }),
    images: images.map((im) => ({ ...im, ...toFrame(im, f) })),
  };
}
