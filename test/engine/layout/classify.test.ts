import { describe, expect, it } from "vitest";
import { FIGURE_CAPTION, TABLE_CAPTION, blockChars, classifyBlocks } from "../../../src/engine/layout/classify.js";
import { buildBlocks, buildLines, type TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";
import type { Block } from "../../../src/engine/layout/types.js";

describe("captions", () => {
  it("takes a label followed by punctuation, a capitalised word or nothing as a caption", () => {
    for (const text of ["Table 1: Retrieval quality", "Table 2. Results", "TABLE IV Results", "Table 3 (continued)", "Table 10\u2014Sales", "Table 4", "Table 3.2: Costs", "Table 2-1. Costs", "表 1 各地区收入"]) {
      expect(TABLE_CAPTION.test(text), text).toBe(true);
    }
    for (const text of ["Figure 3: Layout", "Fig. 1 Caption text", "Fig. 2.", "Figure 2a: left panel", "Fig. 3(a) Left panel", "Figure 3. The pipeline", "图 2 流程"]) {
      expect(FIGURE_CAPTION.test(text), text).toBe(true);
    }
  });

  it("reads a sentence that only starts with a reference as prose", () => {
    for (const text of ["Table 1 lists recall at 5 for three configurations", "Table A gives the details", "Tables 1 and 2 show", "Table 2-1 lists", "Table 4 (left) compares"]) {
      expect(TABLE_CAPTION.test(text), text).toBe(false);
    }
    for (const text of ["Figure 2 shows the pipeline", "Figure 2a shows the left panel", "Figure 12 and Table 3 compare", "Figure 3.2 shows the results", "Fig. 3(a) shows"]) {
      expect(FIGURE_CAPTION.test(text), text).toBe(false);
    }
  });
});

describe("classifyBlocks: numbered pseudo-code", () => {
  it("makes an algorithm's numbered steps, cut into blocks by their bold keywords, one code block a line a step", () => {
    const runs = [
      run("1: input: A, b, tolerance τ, maximum sweeps K", 72, 100),
      run("2: for k = 0, 1, …, K − 1 do", 72, 114),
      run("3: x ← s / a", 72, 128),
      run("4: end for", 72, 142, { bold: true }),
      run("5: return x", 72, 156, { bold: true }),
    ];
    const blocks = buildBlocks(buildLines(runs));
    classifyBlocks(blocks);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([["code", "1: input: A, b, tolerance τ, maximum sweeps K\n2: for k = 0, 1, …, K − 1 do\n3: x ← s / a\n4: end for\n5: return x"]]);
  });

  it("leaves numbered steps in English and a numbered transcript alone, their keywords inside sentences", () => {
    const steps = buildBlocks(
      buildLines([
        run("1: Check if the power cable is plugged in firmly", 72, 100),
        run("2: Then hold the reset button for ten seconds", 72, 114),
        run("3: If the light stays red, return the unit to the shop", 72, 128),
        run("4: Wait for the light to turn green", 72, 142),
      ]),
    );
    classifyBlocks(steps);
    expect(steps.every((b) => b.kind !== "code")).toBe(true);
    const transcript = buildBlocks(buildLines([run("1: Q: What do you do for a living?", 72, 100), run("2: A: I repair boats, and if needed I build them.", 72, 114), run("3: Q: For how long?", 72, 128)]));
    classifyBlocks(transcript);
    expect(transcript.every((b) => b.kind !== "code")).toBe(true);
  });

  it("leaves a numbered list of plain sentences alone", () => {
    const blocks = buildBlocks(buildLines([run("1: Apples are red.", 72, 100), run("2: Pears are green.", 72, 114), run("3: Plums are blue.", 72, 128)]));
    classifyBlocks(blocks);
    expect(blocks.every((b) => b.kind !== "code")).toBe(true);
  });
});

describe("blockChars", () => {
  // One glyph box per character, 5 units wide (run() makes 0.5 em characters at 10 pt).
  const glyphs = (r: TextRun): TextRun => ({ ...r, chars: [...r.text].map((text, i) => ({ text, x0: r.x0 + i * 5, x1: r.x0 + (i + 1) * 5 })) });

  it.each([
    ["in the run", [run("the market report was ser-", 72, 100)]],
    ["a run of its own", [run("the market report was ser", 72, 100), run("-", 72 + 25 * 5, 100)]],
  ])("skips a line-end hyphen the text repaired away (hyphen %s), so every box after it is its own character's", (_, first) => {
    const runs = [...first, run("vice alpha and the market report was", 72, 112), run("done in time.", 72, 124)].map(glyphs);
    const [b] = buildBlocks(buildLines(runs));
    expect(b!.text).toBe("the market report was service alpha and the market report was done in time.");
    const chars = blockChars(b!);
    expect(chars.map((c) => c.text).join("")).toBe(b!.text);
    // `vice` opens line 2; the repeated `market report` is found where it stands, not later.
    const v = b!.text.indexOf("vice");
    expect([chars[v]!.x0, chars[v]!.y0]).toEqual([72, 112]);
    const done = b!.text.indexOf("done");
    expect([chars[done]!.x0, chars[done]!.y0]).toEqual([72, 124]);
  });

  it("gives the space joining two lines no width, at the end of the first line, not a box across the next line", () => {
    const runs = [run("refunds are paid within", 72, 100), run("thirty days of the purchase", 72, 112)].map(glyphs);
    const [b] = buildBlocks(buildLines(runs));
    expect(b!.text).toBe("refunds are paid within thirty days of the purchase");
    const chars = blockChars(b!);
    const space = chars[b!.text.indexOf(" thirty")]!;
    expect(space.text).toBe(" ");
    expect([space.x0, space.x1, space.y0]).toEqual([72 + 23 * 5, 72 + 23 * 5, 100]);
    // No character box is wider than a glyph.
    expect(Math.max(...chars.map((c) => c.x1 - c.x0))).toBeLessThanOrEqual(5);
  });
});
