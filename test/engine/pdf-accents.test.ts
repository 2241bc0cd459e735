import { describe, expect, it } from "vitest";
import { latexPdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { parsePdf } from "./pdf-helpers.js";

// pdflatex without `fontenc` (OT1) has no accented letters: `\'o` draws the spacing acute
// and moves back over an `o`; a capital's accent is raised on its own.
const SOURCE = [
  "\\documentclass{article}",
  "\\begin{document}",
  "\\section{R\\'esum\\'e of \\AA ngstr\\\"om's work}",
  "\\'Etude de l'\\^etre: \\`A la fa\\c con de Ma\\~nana, \\v{C}apek, Krak\\'ow and na\\\"ive caf\\'e.",
  "Code: \\verb|`echo hi`| and \\texttt{a\\~{}b}.",
  "\\end{document}",
].join("\n");

describe.skipIf(missing("pdflatex"))("pdf: accents TeX draws over their letters (OT1)", () => {
  it("reads each accented letter as one character, its box the letter's, and leaves a backtick and a tilde in code alone", async () => {
    const doc = await parsePdf(await latexPdf(SOURCE), { capabilities: { include_char_details: true } });
    const [title, body] = doc.elements;
    expect(title!.text).toBe("1 Résumé of Ångström’s work");
    expect(body!.text).toBe("Étude de l’être: À la façon de Mañana, Čapek, Kraków and naïve café. Code: ‘echo hi‘ and a~b.");
    // One box a character: the accents are in their letters.
    for (const e of [title!, body!]) expect((e.chars ?? []).map((c) => c.text).join("")).toBe(e.text);
  });
});
