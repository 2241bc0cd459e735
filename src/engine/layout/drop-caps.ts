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
    const seated: TextRun = { ...cap, y0: top.y0, y1: top.y1, fontSize: top.fontSize, dropCap: true };
    if (wordAlone(cap.text.trim(), firstWord(beside, first))) {
      seated.text = `${cap.text.trim()} `;
      if (cap.chars) seated.chars = [...cap.chars, { text: " ", x0: cap.x1, x1: first.x0 }];
    }
    runs[i] = seated;
  }
}

/**
 * The first word of the line beside a drop cap, from its first run: runs drawn a glyph
 * each (Chromium) are read on while they touch (0.12 em).
 */
function firstWord(beside: readonly TextRun[], first: TextRun): string {
  const row = beside.filter((r) => Math.abs(r.y1 - first.y1) <= 1 && r.x0 >= first.x0).sort((a, b) => a.x0 - b.x0);
  let text = "";
  for (let k = 0; k < row.length && !/\s/.test(text); k++) {
    if (k > 0 && row[k]!.x0 - row[k - 1]!.x1 > 0.12 * row[k]!.fontSize) break;
    text += row[k]!.text;
  }
  return (/^\p{L}+/u.exec(text)?.[0] ?? "").toLowerCase();
}

/**
 * Words that follow `I` or `A` standing alone (`I read them…`, `A few days…`). A drop cap
 * set by CSS's `::first-letter` takes the word's first letter, but also a word of one
 * letter, and the space after it is not drawn (the line beside the float starts at its
 * padding whichever it was): the letter is a word alone only when the word beside it is
 * one such a letter opens a sentence with, not the rest of a word (`A` + `lder`, `I` +
 * `ngrid`, `I` + `t`). Kept small and common: a joined word wrongly spaced is worse than
 * a pronoun glued.
 */
const AFTER_ALONE: Record<string, ReadonlySet<string>> = {
  I: new Set(
    "am was had have did do could would should will shall can might must may never always still just only also once often think thought know knew remember remembered read saw see said say went go came come felt feel found find took take made make told tell asked heard hear wanted want looked got began tried love loved wish hope suppose believe met left sat stood ran woke lay walked turned kept lived grew used called wrote".split(" "),
  ),
  A: new Set("few little lot man woman boy girl child moment minute week month year day night morning evening new great good small young single strange cold light".split(" ")),
};

/** Whether a drop cap is a word alone, the word beside it another (see {@link AFTER_ALONE}). */
const wordAlone = (cap: string, next: string): boolean => AFTER_ALONE[cap]?.has(next) === true;
