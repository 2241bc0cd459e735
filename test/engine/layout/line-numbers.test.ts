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

  it("drops a poem's every fifth line number out past its lines, under a full-width headnote and over its notes", () => {
    // Chromium: 35 verse lines, the numbers (smaller) set at one place a little past the
    // usual line; one line runs up to its number, another's comma (drawn alone) into it.
    const verse = Array.from({ length: 35 }, (_, i) => {
      const top = 200 + 15 * i;
      if (i === 19) return [run("Wast present, and, with mighty wings outspread,", 99, top, { fontSize: 10.5, x1: 360 })];
      if (i === 25) return [run("Say first for Heaven hides nothing from thy view", 99, top, { fontSize: 10.5, x1: 364 }), run(",", 364, top, { fontSize: 10.5, x1: 367.7 })];
      return [run("Of Man's first disobedience, and the fruit", 99, top, { fontSize: 10.5, x1: 300 + (i % 4) * 12 })];
    }).flat();
    const numbers = [5, 10, 15, 20, 25, 30, 35].map((n) => run(String(n), 363, 200 + 15 * (n - 1), { fontSize: 8, x1: 363 + 5.1 * String(n).length }));
    const headnote = [run("The Argument. This First Book proposes, first in brief, the whole subject", 78, 130, { fontSize: 9, x1: 534 })];
    const notes = [run("6 Heavenly Muse: Urania, muse of astronomy, here identified with the Holy Spirit", 78, 740, { fontSize: 8.5, x1: 534 })];
    const page = [...headnote, ...verse, ...numbers, ...notes];
    expect(texts(dropLineNumbers(page))).toEqual(texts([...headnote, ...verse, ...notes]));
    // pdflatex: an epigraph set flush right over the numbers, the notes two lines under the last.
    const ode = Array.from({ length: 30 }, (_, i) => run("My heart aches, and a drowsy numbness pains", 107, 161 + 13.5 * i, { fontSize: 10.9, x1: 330 + (i % 3) * 10 }));
    const fifths = [5, 10, 15, 20, 25, 30].map((n) => run(String(n), 505.5 - 4.6 * String(n).length, 161 + 13.5 * (n - 1), { fontSize: 9, x1: 505.5 }));
    const epigraph = [run("Forlorn! the very word is like a bell", 362, 107, { fontSize: 10.9, x1: 532.8 }), run("Keats, stanza VII", 443, 120, { fontSize: 10.9, x1: 532.8 })];
    const footer = [run("Notes. Line 4: Lethe-wards, towards Lethe. Line 16: Hippocrene, the fountain", 79, 161 + 13.5 * 29 + 24, { fontSize: 10.9, x1: 532.8 })];
    expect(texts(dropLineNumbers([...epigraph, ...ode, ...fifths, ...footer]))).toEqual(texts([...epigraph, ...ode, ...footer]));
  });

  it("keeps years counting by five closing a timeline's rows, and figures under a table's text", () => {
    const timeline = [1990, 1995, 2000, 2005, 2010].flatMap((y, i) => [run("Plant capacity expanded", 72, 100 + 14 * i), run(String(y), 400, 100 + 14 * i)]);
    const page = [run("The company grew steadily over two decades of expansion.", 72, 60, { x1: 540 }), ...timeline];
    expect(dropLineNumbers(page)).toBe(page);
    const figures = [5, 10, 15, 20].flatMap((n, i) => [run("tablet", 50, 100 + 14 * i), run(String(n), 200, 100 + 14 * i, { fontSize: 8 })]);
    const crossing = [...figures, run("Doses are given with water, twice daily, and with food.", 50, 100 + 14 * 4, { x1: 400 })];
    expect(dropLineNumbers(crossing)).toBe(crossing);
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
