import { describe, expect, it } from "vitest";
import { markVerticalWriting, uprightLinesAsRuns } from "../../../src/engine/layout/vertical.js";
import type { TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

/** One upright glyph per run, 10 pt square, at (x, top). */
const glyph = (ch: string, x: number, top: number): TextRun => ({ ...run(ch, x, top), x1: x + 10 });

/** Columns of glyphs, right to left, each going down from `top`. */
function columns(texts: string[], right = 500, top = 50): TextRun[] {
  return texts.flatMap((t, c) => [...t].map((ch, i) => glyph(ch, right - c * 16, top + i * 11)));
}

/** Rows of glyphs, each going right from `left`. */
function rows(texts: string[], left = 50, top = 50): TextRun[] {
  return texts.flatMap((t, r) => [...t].map((ch, i) => glyph(ch, left + i * 11, top + r * 16)));
}

describe("markVerticalWriting", () => {
  it("marks upright CJK glyphs set in columns as running down", () => {
    const runs = columns(["縦書きの見出しです", "これは縦書きの段落", "です次の段落"]);
    expect(markVerticalWriting(runs)).toBe(true);
    expect(new Set(runs.map((r) => r.angle))).toEqual(new Set([270]));
  });

  it("leaves CJK glyphs set in rows alone", () => {
    const runs = rows(["横書きの見出しです", "これは横書きの段落", "です次の段落"]);
    expect(markVerticalWriting(runs)).toBe(false);
    expect(runs.every((r) => r.angle === 0)).toBe(true);
  });

  it("leaves a grid of single characters (as many neighbours beside as below) alone", () => {
    const grid = rows(["一二三四五", "六七八九十", "上中下左右", "東西南北央"], 50, 50).map((r, i) => r);
    // Rows 11 pt apart, so each glyph also has one right below it.
    for (const [i, r] of grid.entries()) {
      const row = Math.floor(i / 5);
      r.y0 = 50 + row * 11;
      r.y1 = r.y0 + 10;
    }
    expect(markVerticalWriting(grid)).toBe(false);
  });

  it("needs a few characters and ignores Latin and multi-character runs", () => {
    expect(markVerticalWriting(columns(["縦書き"]))).toBe(false);
    const latin = columns(["verticaltext", "morewords"]);
    expect(markVerticalWriting(latin)).toBe(false);
    const words = [run("横書きの文章", 50, 50), run("二行目の文章", 50, 61), run("三行目の文章", 50, 72)];
    expect(markVerticalWriting(words)).toBe(false);
  });

  it("turns only the glyphs in columns: an upright heading across the page stays upright", () => {
    const body = columns(["縦書きの見出しです", "これは縦書きの段落", "です次の段落"], 500, 80);
    const head = rows(["社内報第十二号"], 50, 30);
    const runs = [...head, ...body];
    expect(markVerticalWriting(runs)).toBe(true);
    expect(body.every((r) => r.angle === 270)).toBe(true);
    expect(head.every((r) => r.angle === 0)).toBe(true);
    // What stays upright becomes one run per line; the columns are left as they are.
    const merged = uprightLinesAsRuns(runs);
    expect(merged.filter((r) => r.angle === 0).map((r) => r.text)).toEqual(["社内報第十二号"]);
    expect(merged.filter((r) => r.angle === 270)).toHaveLength(body.length);
  });
});
