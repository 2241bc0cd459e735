import { describe, expect, it } from "vitest";
import { buildBlocks, buildLines } from "../../../src/engine/layout/index.js";
import { joinTerms } from "../../../src/engine/layout/terms.js";
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
