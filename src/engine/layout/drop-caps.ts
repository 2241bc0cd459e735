/**
 * Drop caps: a large initial letter seated on its paragraph's first line before rows are
 * grouped, so that it joins the word it begins rather than the lines it spans.
 */
import type { TextRun } from "./types.js";

/**
 * Drop caps, seated on their paragraph's first line: a single capital at least 2.2 times
 * the page's usual size, with lines of smaller text beside it on two baselines or more
 * starting within 2 em of its right, the top one going on in lower case. Its box would make one row of the lines it spans
 * (their words interleaved, a letter of a lower line taken into the first); seated, it is
 * the first line's first letter (`A` + `lder` → `Alder`), in that line's band and size.
 * The run is replaced by a copy; its character boxes stay the glyph's own.
 */
export function seatDropCaps(runs: TextRun[]): void {
  // Most calls have no single letter twice the size of the smallest text: done at once.
  let smallest = Infinity;
  for (const r of runs) if (r.fontSize < smallest) smallest = r.fontSize;
  if (!runs.some((r) => r.fontSize >= 2.2 * smallest && r.text.trim().length === 1)) return;
  let chars = 0;
  const sizes = new Map<number, number>();
  for (const r of runs) {
    sizes.set(r.fontSize, (sizes.get(r.fontSize) ?? 0) + r.text.length);
    chars += r.text.length;
  }
  let usual = 0;
  let best = 0;
  for (const [size, n] of sizes) if (n > best) [usual, best] = [size, n];
  if (usual <= 0 || chars < 20) return;
  for (let i = 0; i < runs.length; i++) {
    const cap = runs[i]!;
    if (cap.fontSize < 2.2 * usual || !/^\p{Lu}$/u.test(cap.text.trim())) continue;
    const beside = runs.filter((r) => r !== cap && r.fontSize < 0.6 * cap.fontSize && r.x0 >= cap.x1 - 1 && r.x0 <= cap.x1 + 2 * r.fontSize && (r.y0 + r.y1) / 2 > cap.y0 && (r.y0 + r.y1) / 2 < cap.y1);
    const baselines = new Set(beside.map((r) => Math.round(r.y1)));
    if (baselines.size < 2) continue;
    const top = beside.reduce((a, b) => (b.y0 < a.y0 ? b : a));
    // A drop cap's word goes on in lower case beside it (`A` + `lder`); a large letter
    // before a capital is a label or a title's initial standing alone.
    const first = beside.filter((r) => Math.abs(r.y1 - top.y1) <= 1).reduce((a, b) => (b.x0 < a.x0 ? b : a));
    if (!/^\p{Ll}/u.test(first.text)) continue;
    runs[i] = { ...cap, y0: top.y0, y1: top.y1, fontSize: top.fontSize, dropCap: true };
  }
}
