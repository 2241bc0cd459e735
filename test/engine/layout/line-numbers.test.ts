import { describe, expect, it } from "vitest";
import { dropLineNumbers } from "../../../src/engine/layout/line-numbers.js";
import type { TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const texts = (runs: readonly TextRun[]) => runs.map((r) => r.text);

describe("dropLineNumbers", () => {
  it("drops pleading paper's 1–28 down the margin, a glyph a run, blank lines numbered too", () => {
    const runs: TextRun[] = [];
    const words = ["the defendant never sent", "any written notice of", "termination. Instead, it", "simply stopped paying"];
    for (let n = 1; n <= 28; n++) {
      const top = 72 + 24 * (n - 1);
      // Chromium draws each digit as a run of its own, right-aligned at x 65.
      [...String(n)].forEach((d, i, all) => runs.push(run(d, 65 - 6 * (all.length - i), top, { fontSize: 12, x1: 65 - 6 * (all.length - i - 1) })));
      if (n % 7 !== 0) runs.push(run(words[n % 4]!, 108, top, { fontSize: 12 }));
    }
    expect(texts(dropLineNumbers(runs))).toEqual(runs.filter((r) => !/^\d$/.test(r.text)).map((r) => r.text));
  });

  it("drops a word processor's every fifth line number in the margin, and a patent's numbers in its gutter", () => {
    // Sentences running on over the numbered lines.
    const lines = Array.from({ length: 20 }, (_, i) => run(`and the plaintiff states in line ${i + 1} that`, 108, 100 + 28 * i, { fontSize: 12 }));
    const fifths = [5, 10, 15, 20].map((n) => run(String(n), 90 - 6 * String(n).length, 100 + 28 * (n - 1), { fontSize: 12 }));
    expect(texts(dropLineNumbers([...lines, ...fifths]))).toEqual(texts(lines));
    const columns = Array.from({ length: 40 }, (_, i) => [run("chamber the seat pressure", 60, 100 + 14 * i), run("member deflects the valve", 324, 100 + 14 * i)]).flat();
    const gutter = Array.from({ length: 8 }, (_, i) => 5 * (i + 1)).map((n) => run(String(n), 306 - 2 * String(n).length, 100 + 14 * (n - 1), { fontSize: 8, x1: 306 + 2 * String(n).length }));
    expect(texts(dropLineNumbers([...columns, ...gutter]))).toEqual(texts(columns));
  });

  it("keeps a table's row numbers under their header, an empty row's number alone and the cells beside in lower case", () => {
    const rows = Array.from({ length: 12 }, (_, i) => [run(String(i + 1), 50, 114 + 14 * i), ...(i === 6 ? [] : [run(`user_${i}`, 90, 114 + 14 * i), run("integer", 200, 114 + 14 * i)])]).flat();
    const table = [run("No.", 50, 100), run("Column", 90, 100), run("Type", 200, 100), ...rows];
    expect(dropLineNumbers(table)).toBe(table);
  });

  it("keeps a list numbered without punctuation, and a table's column of figures inside the page", () => {
    const list = Array.from({ length: 10 }, (_, i) => [run(String(i + 1), 50, 100 + 14 * i), run(`Closed the warehouse number ${i + 1}`, 75, 100 + 14 * i)]).flat();
    expect(dropLineNumbers(list)).toBe(list);
    const table = [5, 10, 15, 20].flatMap((n, i) => [run("tablet", 50, 100 + 14 * i), run(String(n), 200, 100 + 14 * i), run("twice daily", 300, 100 + 14 * i)]);
    expect(dropLineNumbers(table)).toBe(table);
  });
});
