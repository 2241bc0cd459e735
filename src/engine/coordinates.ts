import type { Box } from "./draft.js";

const clamp = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, Math.round(v * 1e6) / 1e6)) : 0);

/** A box as the contract's 8 numbers: top-left, top-right, bottom-right, bottom-left, in [0, 1]. */
export function boxToCoordinates(box: Box): number[] {
  const x0 = clamp(Math.min(box.x0, box.x1));
  const x1 = clamp(Math.max(box.x0, box.x1));
  const y0 = clamp(Math.min(box.y0, box.y1));
  const y1 = clamp(Math.max(box.y0, box.y1));
  return [x0, y0, x1, y0, x1, y1, x0, y1];
}

/** The whole page, for an element whose position is unknown. */
export const FULL_PAGE: Box = Object.freeze({ x0: 0, y0: 0, x1: 1, y1: 1 });
