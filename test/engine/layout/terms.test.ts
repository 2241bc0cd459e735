import { describe, expect, it } from "vitest";
import { buildBlocks, buildLines } from "../../../src/engine/layout/index.js";
import { joinMarks, joinTerms, splitAtLabels } from "../../../src/engine/layout/terms.js";
import { run } from "./support.js";

const texts = (runs: Parameters<typeof buildLines>[0]) => joinTerms(buildBlocks(buildLines(runs))).map((b) => b.text);

describe("joinTerms", () => {
  it("opens each definition of a two-column definitions clause with its term", () => {
    expect(
      texts([
        run('"Affiliate"', 74, 78),
        run("means, in relation to a party, any entity that controls, is", 187, 78),
        run("controlled by, or is under common control with that party.", 187, 91),
        run('"Business Day"', 74, 128),
        run("means a day other than a Saturday, Sunday or public", 187, 128),
        run("holiday in England when banks in London are open.", 187, 141),
      ]),
    ).toEqual([
      '"Affiliate" means, in relation to a party, any entity that controls, is controlled by, or is under common control with that party.',
      '"Business Day" means a day other than a Saturday, Sunday or public holiday in England when banks in London are open.',
    ]);
  });

  it("leaves a side heading, a capitalised word in bold beside a section opening with a capital, a heading", () => {
    const side = texts([
      run("Installation", 40, 100, { bold: true }),
      run("Unpack the archive into a folder of your choice and run the", 180, 100),
      run("installer from there as an administrator of the machine.", 180, 113),
      run("Configuration", 40, 150, { bold: true }),
      run("The settings live in one file beside the program, read at", 180, 150),
      run("start and checked again whenever the file changes on disk.", 180, 163),
    ]);
    expect(side).toContain("Installation");
    expect(side).toContain("Configuration");
  });

  it("leaves two columns of an index, or a heading in a page's left column of prose, apart", () => {
    const index = texts([run("absorption, 73", 74, 100), run("maintenance, 71", 300, 100), run("acidity, 33", 74, 130), run("chlorine, 1, 50, 94", 300, 130)]);
    expect(index).toHaveLength(4);
    const page = texts([
      run("2 Method", 50, 100, { bold: true }),
      run("The right column's paragraph starts level with the heading", 310, 100),
      run("The left column's prose goes on under the heading here.", 50, 113),
      run("Results", 50, 140, { bold: true }),
      run("and another paragraph starts level with this one too, as", 310, 140),
    ]);
    expect(page.some((t) => t.startsWith("2 Method The right"))).toBe(false);
  });
});

describe("splitAtLabels", () => {
  // A Sphinx field list set as a table (Chromium): the labels' lines stand apart from the
  // values' (each cell is set on its own), the value set back at the list's edge.
  const labels = [run("Parameters:", 81, 89, { fontSize: 8, bold: true }), run("Returns:", 81, 119.8, { fontSize: 8, bold: true })];
  const values = (returns: string) => [
    run("• bucket (str) – Name of the target bucket.", 148, 89, { fontSize: 8 }),
    run("• prefix (str) – Key prefix for every object written.", 148, 98.8, { fontSize: 8 }),
    run("• max_retries (int) – Attempts after the first failed upload.", 148, 108.6, { fontSize: 8 }),
    run(returns, 148, 119.8, { fontSize: 8 }),
  ];
  const blocks = (returns: string) => buildBlocks([...buildLines(labels), ...buildLines(values(returns))]);

  it("cuts a field's value off the last item of the field above, level with its label", () => {
    const split = splitAtLabels(blocks("A configured sink, ready to be registered."));
    expect(split.map((b) => [b.kind, b.text])).toContainEqual(["list", "• max_retries (int) – Attempts after the first failed upload."]);
    expect(split.map((b) => [b.kind, b.text])).toContainEqual(["text", "A configured sink, ready to be registered."]);
  });

  it("leaves a line that goes on from an open sentence, or a block beside one label only, whole", () => {
    const open = values("the sink retries forever when zero.");
    open[2] = run("• max_retries (int) – Attempts after the first failed upload, or", 148, 108.6, { fontSize: 8 });
    const runOn = splitAtLabels(buildBlocks([...buildLines(labels), ...buildLines(open)]));
    expect(runOn.some((b) => b.text.endsWith("upload, or the sink retries forever when zero."))).toBe(true);
    const one = splitAtLabels(buildBlocks([...buildLines(labels.slice(1)), ...buildLines(values("A configured sink, ready to be registered."))]));
    expect(one.some((b) => b.text.endsWith("upload. A configured sink, ready to be registered."))).toBe(true);
  });
});

describe("joinMarks", () => {
  const marks = (runs: Parameters<typeof buildLines>[0]) => joinMarks(buildBlocks(buildLines(runs))).map((b) => b.text);

  it("ends each part of an exam paper with the mark set flush right beside it", () => {
    // Parts a tab after their markers, marks out at the right margin level with each part's first line.
    expect(
      marks([
        run("(a) Show that f is a valid probability density function.", 80, 100),
        run("[3 marks]", 480, 100),
        run("(b) Find the cumulative distribution function of X and hence", 80, 117),
        run("[5 marks]", 480, 117),
        run("compute the probability that X exceeds one half.", 96, 129),
        run("(c) Explain why the estimate is biased.", 80, 146),
        run("[4 marks]", 480, 146),
      ]),
    ).toEqual([
      "(a) Show that f is a valid probability density function. [3 marks]",
      "(b) Find the cumulative distribution function of X and hence compute the probability that X exceeds one half. [5 marks]",
      "(c) Explain why the estimate is biased. [4 marks]",
    ]);
  });

  it("leaves equation numbers beside prose, and a lone mark, where they are", () => {
    const numbered = marks([run("where the sum runs over every cell of the table", 80, 100), run("(3)", 480, 100), run("and the counts are taken from the sample above", 80, 140), run("(4)", 480, 140)]);
    expect(numbered).toContain("(3)");
    const lone = marks([run("(a) Show that f is a valid probability density function.", 80, 100), run("[3 marks]", 480, 100)]);
    expect(lone).toContain("[3 marks]");
  });
});
