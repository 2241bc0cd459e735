import { describe, expect, it } from "vitest";
import { buildBlocks, buildLines } from "../../../src/engine/layout/index.js";
import type { TextRun } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const texts = (runs: TextRun[]) => buildBlocks(buildLines(runs)).map((b) => b.text);

/** Lines set one under another from `top` at `pitch`, each `[x, text]`; `null` a stanza gap (a blank line). */
const stack = (lines: Array<[number, string] | null>, top: number, pitch: number, opts: Partial<TextRun> = {}): TextRun[] => {
  const out: TextRun[] = [];
  let y = top;
  for (const l of lines) {
    if (l) out.push(run(l[1], l[0], y, opts));
    y += pitch;
  }
  return out;
};

describe("buildBlocks: verse", () => {
  it("ends a stack of lines broken one by one at a paragraph set full under it", () => {
    // Speakers' notes broken line by line (LaTeX `\\`), then a closing paragraph.
    const notes = stack(
      [
        [72, "Arrive at the venue by nine for the sound check"],
        [72, "Bring your slides on a memory stick, as a PDF"],
        [72, "Talks last twenty minutes, with five for questions."],
        [72, "Keep to time, as the sessions run back to back"],
        [72, "Lunch is served in the atrium at one."],
        [72, "Travel claims go to the office by the end of the month."],
        [72, "We look forward to seeing you at the meeting and hope you enjoy the day."],
      ],
      100,
      13.5,
      { fontSize: 11 },
    );
    const blocks = texts(notes);
    expect(blocks.at(-1)).toBe("We look forward to seeing you at the meeting and hope you enjoy the day.");
  });

  it("keeps a stanza whole across its lines set in and its lines ending a clause short of the column; a stanza gap ends it", () => {
    // Rossetti's sonnet (LibreOffice): its rhymes set in, `land;` and `stay.` with room after them.
    const sonnet = stack(
      [
        [57, "Remember me when I am gone away,"],
        [80, "Gone far away into the silent land;"],
        [57, "When you can no more hold me by the hand,"],
        [57, "Nor I half turn to go yet turning stay."],
        [57, "Remember me when no more day by day"],
        [80, "You tell me of our future that you planned:"],
        [57, "Only remember me; you understand"],
        [57, "It will be late to counsel then or pray."],
        null,
        [57, "Yet if you should forget me for a while"],
        [80, "And afterwards remember, do not grieve:"],
        [57, "For if the darkness and corruption leave"],
        [57, "A vestige of the thoughts that once I had,"],
      ],
      100,
      16,
      { fontSize: 12 },
    );
    expect(texts(sonnet)).toEqual([
      "Remember me when I am gone away, Gone far away into the silent land; When you can no more hold me by the hand, Nor I half turn to go yet turning stay. Remember me when no more day by day You tell me of our future that you planned: Only remember me; you understand It will be late to counsel then or pray.",
      "Yet if you should forget me for a while And afterwards remember, do not grieve: For if the darkness and corruption leave A vestige of the thoughts that once I had,",
    ]);
  });

  it("reads a stanza's number over it as its own line (an ode's I, II)", () => {
    const ode = stack(
      [
        [107, "I"],
        [107, "My heart aches, and a drowsy numbness pains"],
        [123, "My sense, as though of hemlock I had drunk,"],
        [107, "Or emptied some dull opiate to the drains"],
        [123, "One minute past, and Lethe-wards had sunk:"],
        [107, "’Tis not through envy of thy happy lot,"],
      ],
      150,
      13.5,
      { fontSize: 10.9 },
    );
    expect(texts(ode)).toEqual([
      "I",
      "My heart aches, and a drowsy numbness pains My sense, as though of hemlock I had drunk, Or emptied some dull opiate to the drains One minute past, and Lethe-wards had sunk: ’Tis not through envy of thy happy lot,",
    ]);
  });

  it("leaves prose alone: short sentences a line each, indented paragraphs, a manual's option descriptions", () => {
    const steps = stack(
      [
        [72, "Mix the flour and sugar."],
        [72, "Preheat the oven to two hundred degrees."],
        [72, "Bake for twenty minutes."],
        [72, "Add the eggs one at a time, beating well after each."],
      ],
      100,
      14,
    );
    expect(texts(steps)).toHaveLength(4);
    const prose = stack(
      [
        [72, "The committee met on the first of March to consider the budget for the coming"],
        [72, "year and the plans for the new building."],
        [92, "Members asked for the figures to be sent out a week before each meeting so"],
        [72, "that they could be read in good time."],
      ],
      100,
      14,
    );
    expect(texts(prose)).toHaveLength(2);
    // A manual's option descriptions (bash's ulimit), each opening with a capital, without
    // punctuation at their ends: no verse, the one ending its sentence short still ends.
    const options = stack(
      [
        [180, "All current limits are reported; no limits are set"],
        [180, "The maximum socket buffer size"],
        [180, "The maximum size of core files created"],
        [180, "The maximum number of open file descriptors (most systems do not allow this value to"],
        [180, "be set)"],
        [180, "The pipe size in 512-byte blocks (this may not be set)"],
        [180, "The maximum number of bytes in POSIX message queues"],
      ],
      542,
      12,
    );
    expect(texts(options)).toHaveLength(3);
  });
});
