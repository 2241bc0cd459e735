import type { TextRun } from "../../../src/engine/layout/index.js";

/** A horizontal run at (x, top) with a width from the text length (0.5 em per character). */
export function run(text: string, x: number, top: number, opts: Partial<TextRun> = {}): TextRun {
  const fontSize = opts.fontSize ?? 10;
  return {
    text,
    x0: x,
    x1: x + text.length * fontSize * 0.5,
    y0: top,
    y1: top + fontSize,
    fontSize,
    bold: false,
    italic: false,
    mono: false,
    math: false,
    angle: 0,
    ...opts,
  };
}
