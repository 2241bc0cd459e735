import { describe, expect, it } from "vitest";
import { buildBlocks, buildLines, classifyBlocks, inlineFormulas } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const blocksOf = (runs: Parameters<typeof buildLines>[0]) => {
  const blocks = buildBlocks(buildLines(runs));
  classifyBlocks(blocks);
  return blocks;
};

describe("buildBlocks", () => {
  it("groups close lines into a paragraph and splits at a paragraph gap", () => {
    const blocks = blocksOf([run("one two three", 10, 100), run("four five", 10, 112), run("next para", 10, 140)]);
    expect(blocks.map((b) => b.text)).toEqual(["one two three four five", "next para"]);
  });

  it("starts a new paragraph at a first-line indent", () => {
    const blocks = blocksOf([run("a long first paragraph line", 10, 100), run("ends here.", 10, 112), run("Indented start", 30, 124), run("of the next one", 10, 136)]);
    expect(blocks.map((b) => b.text)).toEqual(["a long first paragraph line ends here.", "Indented start of the next one"]);
  });

  it("ends a one-line paragraph at a sentence's end short of its column when the next line's first word would have fitted (footnotes a line each)", () => {
    const note = { fontSize: 8 };
    const raised = { fontSize: 6, y1: 0 };
    const mark = (n: string, top: number) => run(n, 60, top, { ...raised, y0: top - 1, y1: top + 4 });
    const blocks = blocksOf([
      mark("1", 600),
      run("Minutes of each meeting are kept by the secretary.", 64, 600, note),
      mark("2", 610),
      run("See Table 2 of the annual report.", 64, 610, note),
      mark("3", 620),
      run("The date was set by the board in its January session, after a long", 64, 620, note),
      run("debate about the transition period that staff would need.", 50, 630, note),
    ]);
    expect(blocks.map((b) => b.text)).toEqual([
      "1 Minutes of each meeting are kept by the secretary.",
      "2 See Table 2 of the annual report.",
      "3 The date was set by the board in its January session, after a long debate about the transition period that staff would need.",
    ]);
    // Ragged text broken before a long word goes on; so does a line whose only wider
    // neighbour is a caption spanning both columns two lines above it.
    const ragged = blocksOf([run("Short words end the sentence.", 10, 100), run("extraordinarily-long-compound words start this line", 10, 112), run("and the column is about this wide.", 10, 124)]);
    expect(ragged).toHaveLength(1);
    const caption = blocksOf([
      run("Figure 1: Recall at ten for each of the eight collections, shortest to longest, wide.", 10, 100),
      run("the vocabulary expansion jointly.", 10, 130),
      run("Passage-level training for long texts", 10, 142),
    ]);
    expect(caption.map((b) => b.text)).toEqual([
      "Figure 1: Recall at ten for each of the eight collections, shortest to longest, wide.",
      "the vocabulary expansion jointly. Passage-level training for long texts",
    ]);
  });

  it("starts the next footnote at its raised mark though the note above ends just short of the column (LaTeX)", () => {
    const note = { fontSize: 8, x1: 400 };
    const mark = (n: string, top: number) => run(n, 60, top - 1, { fontSize: 6, x1: 63.5, y1: top + 4 });
    const blocks = blocksOf([
      mark("6", 600),
      run("Douglas Laycock, The Death of the Irreparable Injury Rule, 103 Harv. L. Rev. 687 (1990).", 63.5, 600, { ...note, x1: 395 }),
      mark("7", 610),
      run("Alan Schwartz & Robert E. Scott, Precontractual Liability and Preliminary Agreements,", 63.5, 610, note),
      run("120 Harv. L. Rev. 661, 663-65 (2007).", 50, 620, { fontSize: 8 }),
    ]);
    expect(blocks.map((b) => b.text.slice(0, 7))).toEqual(["6 Dougl", "7 Alan "]);
  });

  it("keeps a centred paragraph's shorter last line, and reads an em dash's attribution as text", () => {
    const centred = (text: string, top: number) => run(text, 300 - text.length * 2.5, top);
    const blocks = blocksOf([centred("We make freight simple, reliable and", 100), centred("affordable for every small business in", 112), centred("Europe, from the first parcel to the ten", 124), centred("thousandth.", 136)]);
    expect(blocks.map((b) => b.text)).toEqual(["We make freight simple, reliable and affordable for every small business in Europe, from the first parcel to the ten thousandth."]);
    // A title's lines set apart under it, each of which would have fitted on its last line.
    const title = blocksOf([centred("Guidance on the safe storage of treatment chemicals", 100), centred("in the northern district", 112), centred("Version 2", 124)]);
    expect(title.map((b) => b.text)).toEqual(["Guidance on the safe storage of treatment chemicals in the northern district", "Version 2"]);
    const quote = blocksOf([run("“Onboarding took one afternoon.”", 10, 100), run("— CTO, regional bank", 40, 120)]);
    expect(quote.map((b) => b.kind)).toEqual(["text", "text"]);
  });

  it("reads a scene break of asterisks as no list item; an asterisk alone before words is still a bullet", () => {
    const blocks = blocksOf([run("and the door closed behind her.", 72, 100), run("* * *", 200, 130), run("Morning came grey over the harbour.", 90, 160)]);
    expect(blocks.map((b) => [b.kind, b.text])).toContainEqual(["text", "* * *"]);
    expect(blocksOf([run("* Pack the tent", 72, 100)]).map((b) => b.kind)).toEqual(["list"]);
  });

  it("keeps a list of figures' entry whole when it wraps under the words after its number", () => {
    const blocks = blocksOf([
      run("1.1", 10, 100, { x1: 24 }),
      run("Monthly output of the works in the sources of supply chapter,", 35, 100),
      run("by source, over one year of operation in every district of the network . . . . . 2", 35, 112),
      run("2.1", 10, 130, { x1: 24 }),
      run("Yearly losses of the network by district . . . . . 9", 35, 130),
    ]);
    expect(blocks.map((b) => b.text)).toEqual([
      "1.1 Monthly output of the works in the sources of supply chapter, by source, over one year of operation in every district of the network . . . . . 2",
      "2.1 Yearly losses of the network by district . . . . . 9",
    ]);
  });

  it("reads clauses numbered without a final full stop (1.1, 1.3.1) as items, each number with its words", () => {
    const blocks = blocksOf([
      run("1.", 70, 60, { x1: 80, bold: true }),
      run("COMMENCEMENT AND TERM", 107, 60, { bold: true }),
      run("1.1", 70, 80, { x1: 88 }),
      run("This Agreement shall commence on the Effective Date.", 107, 80),
      run("1.2", 70, 100, { x1: 88 }),
      run("The Customer may extend the term by notice.", 107, 100),
      run("1.2.1", 107, 120, { x1: 135 }),
      run("co-operate with the Customer in all matters;", 143, 120),
      run("1.2.2", 107, 140, { x1: 135 }),
      run("use personnel who are suitably skilled.", 143, 140),
    ]);
    expect(blocks.filter((b) => !b.bold).map((b) => [b.kind, b.text, b.listLevel])).toEqual([
      ["list", "1.1 This Agreement shall commence on the Effective Date.", 0],
      ["list", "1.2 The Customer may extend the term by notice.", 0],
      ["list", "1.2.1 co-operate with the Customer in all matters;", 1],
      ["list", "1.2.2 use personnel who are suitably skilled.", 1],
    ]);
  });

  it("ends a paragraph at a spacing under half a line (a browser's margin: 0 0 6px) and not at a sentence ending a ragged line before a long word", () => {
    // 10 pt lines 12 pt apart, paragraphs 4.5 pt further; the words drawn a glyph a run (Chromium).
    const glyphs = (text: string, top: number): ReturnType<typeof run>[] => [...text].flatMap((c, i) => (c === " " ? [] : [run(c, 10 + i * 5, top)]));
    const blocks = blocksOf([
      ...glyphs("Larch Wood is the subject of a new", 100),
      ...glyphs("survey by the county wildlife trust.", 112),
      ...glyphs("Volunteers will walk the paths once", 124),
      ...glyphs("a month to count birds and bats.", 136),
      ...glyphs("Hazel Lane will be closed to traffic", 152.5),
      ...glyphs("for two weeks from Monday on.", 164.5),
    ]);
    expect(blocks.map((b) => b.text)).toEqual([
      "Larch Wood is the subject of a new survey by the county wildlife trust. Volunteers will walk the paths once a month to count birds and bats.",
      "Hazel Lane will be closed to traffic for two weeks from Monday on.",
    ]);
  });

  it("seats a drop cap on its paragraph's first line: one word, one paragraph, the lines beside it and under it in order", () => {
    const blocks = blocksOf([
      run("A", 40, 90, { fontSize: 44, x1: 71, y1: 134 }),
      run("lder Meeting project", 74, 96),
      run("welcomed volunteers", 74, 108),
      run("plans for the spring", 74, 120),
      run("approved library museum visitors", 40, 132),
      run("reviewed the committee market.", 40, 144),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["Alder Meeting project welcomed volunteers plans for the spring approved library museum visitors reviewed the committee market."]);
  });

  it("keeps paragraphs set 1.5 lines apart whole beside a quotation set closer, and a big letter before a capital apart", () => {
    const para = (top: number, x: number, pitch: number, lines: string[]) => lines.map((t, i) => run(t, x, top + pitch * i));
    const blocks = blocksOf([
      ...para(100, 10, 16.5, ["The first paragraph runs on over three lines set", "one and a half lines apart, as a style sheet with", "line-height 1.5 sets them in a browser."]),
      ...para(160, 40, 12, ["A quotation set in, its lines single spaced,", "stands closer than the body around it here."]),
      ...para(195, 10, 16.5, ["The second paragraph runs on over three lines set", "one and a half lines apart, as the first one did,", "and ends here at last."]),
    ]);
    expect(blocks.map((b) => b.lines.length)).toEqual([3, 2, 3]);
    const quiz = blocksOf([run("A", 10, 90, { fontSize: 40, x1: 38, y1: 130 }), run("The parser reads every page and keeps the layout", 44, 96), run("of each block so that citations land on the words.", 44, 108), run("It is the first option here.", 44, 120)]);
    expect(quiz.map((b) => b.text).join(" ")).not.toMatch(/AThe/);
  });

  it("keeps a paragraph set double at its own pitch when a quotation set closer is the only text of its size measured (Chromium's boxes 1.36 em tall)", () => {
    // 10 pt type: the paragraph 20 pt apart at x 10 (four pairs, too few to measure its
    // place), the quotation 11.5 pt apart set in at x 40 (five pairs).
    const box = (text: string, x: number, top: number) => run(text, x, top, { y1: top + 13.6 });
    const para = (top: number, x: number, pitch: number, lines: string[]) => lines.map((t, i) => box(t, x, top + pitch * i));
    const blocks = blocksOf([
      ...para(100, 10, 20, [
        "Either party may terminate this Agreement upon notice to",
        "Both parties, provided that no such notice is effective",
        "Against any purchase order accepted before the notice date",
        "Unless agreed, and all accrued payment obligations survive",
        "Its termination according to their terms as set out here.",
      ]),
      ...para(205, 40, 11.5, [
        "Either party may terminate this Agreement upon",
        "ninety days' written notice to the other party,",
        "provided that no such notice shall be effective",
        "with respect to any purchase order accepted before",
        "the date on which the notice is received, and all",
        "payment obligations accrued survive it, as agreed.",
      ]),
    ]);
    expect(blocks.map((b) => b.lines.length)).toEqual([5, 6]);
  });

  it("measures a double-spaced brief's margin from its first lines set in too, so a paragraph of two lines ending the page stays whole", () => {
    // Justified: the lines end at one place.
    const box = (text: string, x: number, top: number) => run(text, x, top, { y1: top + 13.6, x1: 340 });
    const blocks = blocksOf([
      box("The supply agreement is clear on this point. Section 14.2 of the", 46, 100),
      box("Agreement, which the defendant drafted and which it now asks the", 10, 120),
      box("Court to ignore, provides in relevant part as follows, and it says", 10, 140),
      box("Nothing about any notice given by telephone or by electronic mail.", 10, 160),
      box("The defendant never sent any written notice of termination. It", 46, 180),
      box("Simply stopped paying the invoices while continuing to accept the", 10, 200),
      box("Shipments of widgets for more than eleven months without a word.", 10, 220),
      ...["Either party may terminate this Agreement upon", "ninety days' written notice to the other party,", "provided that no such notice shall be effective", "with respect to any purchase order accepted before", "the date on which the notice is received, and all", "payment obligations accrued survive it, as agreed."].map((t, i) => box(t, 40, 250 + 11.5 * i)),
      box("That course of conduct is inconsistent with any claim that the", 46, 330),
      box("Agreement had ended before the goods were shipped to the buyer.", 10, 350),
    ]);
    expect(blocks.map((b) => b.lines.length)).toEqual([4, 3, 6, 2]);
  });

  it("keeps a sentence running on at 1.55 lines apart together where a list set closer is the only text of its size measured", () => {
    // Two paragraphs of two lines (too few pairs at their place), the second one last in
    // its column; six one-line list items at normal line height beside them.
    const blocks = blocksOf([
      run("Setting the retry count to zero disables retries entirely, and a single transient", 10, 100),
      run("network error will then stop the whole pipeline.", 10, 115.5),
      run("The same settings can be passed in code. The example below builds a client,", 10, 137),
      run("overrides two options and runs one pipeline.", 10, 152.5),
      ...["region: the bucket's region, read from the environment", "endpoint_url: for S3-compatible stores such as MinIO", "statement_timeout: milliseconds, applied to each query", "application_name: shown in the activity view of the server", "max_connections: the pool size used by each worker process", "keepalive: seconds between TCP keepalive probes on idle links"].map((t, i) => run(t, 40, 190 + 11.5 * i)),
    ]);
    expect(blocks.slice(0, 2).map((b) => b.text)).toEqual([
      "Setting the retry count to zero disables retries entirely, and a single transient network error will then stop the whole pipeline.",
      "The same settings can be passed in code. The example below builds a client, overrides two options and runs one pipeline.",
    ]);
  });

  it("keeps double-spaced paragraphs whole across their gaps, a heading and short lines at that pitch apart (a Type 1 font's 1 em line box)", () => {
    const full = (text: string, x: number, top: number) => run(text, x, top, { x1: 350 });
    const blocks = blocksOf([
      run("ARGUMENT", 160, 100),
      full("The defendant never sent any written notice of termination.", 46, 124),
      full("Instead, it simply stopped paying the invoices while it went", 10, 148),
      full("on accepting shipments of widgets for more than eleven months,", 10, 172),
      full("and it kept them, paid for none of them and said nothing, in", 10, 196),
      run("a course of conduct inconsistent with its claim.", 10, 220),
      full("The agreement is clear on this point. Section 14.2 of it, which", 46, 244),
      full("the defendant drafted and now asks the Court to ignore, says so", 10, 268),
      run("in plain words that need no reading between the lines.", 10, 292),
      run("Jane Doe, Attorney at Law", 10, 340),
      run("100 Market Street, Suite 400", 10, 364),
    ]);
    expect(blocks.map((b) => b.lines.length)).toEqual([1, 5, 3, 1, 1]);
    // A transcript's one-line entries of about one length at that pitch stay a line each.
    const entries = ["09:00 Speaker B: Review summary alpha.", "09:01 Speaker A: Report method forecast.", "09:02 Speaker A: Alpha review analysis.", "09:03 Speaker B: Alpha product method.", "09:04 Speaker A: Summary growth table.", "09:05 Speaker A: Summary table quarterly.", "09:06 Speaker B: Review detail segment."];
    expect(blocksOf(entries.map((t, i) => run(t, 10, 100 + 19.5 * i, { y1: 111.6 + 19.5 * i })))).toHaveLength(7);
  });

  it("keeps a paragraph's short last line under its one line set in and full, at a 1.5 pitch, after an abbreviation, and under an epigraph's first line", () => {
    const full = (text: string, x: number, top: number) => run(text, x, top, { x1: 532 });
    const blocks = blocksOf([
      full("Courts that once treated reliance as a mere substitute for", 97, 100),
      full("consideration now speak of it as an independent ground of", 79, 123),
      run("liability, yet the remedies stay tied to expectation.", 79, 146),
      full("This Article argues that the mismatch is no accident of", 97, 169),
      full("doctrinal history but a predictable consequence of how the", 79, 192),
      run("appellate courts frame the question of damages.", 79, 215),
      full("Part I traces the emergence of the reliance measure after Hoffman v.", 97, 238),
      run("Red Owl Stores.4", 79, 261),
      full("Part II presents an empirical study of 412 reported decisions and", 97, 284),
      full("shows that the measure of recovery correlates with findings of", 79, 307),
      run("bad faith far more than with the Restatement's factors.", 79, 330),
    ]);
    expect(blocks.map((b) => b.lines.length)).toEqual([3, 3, 2, 3]);
    // LibreOffice's lines at 1.5: the short line starts left of the indented one's start.
    const libre = blocksOf([
      ...[0, 1, 2, 3, 4, 5].map((i) => full(`Prose line number ${i} of the measured paragraphs above, set at 1.5.`, 57, 100 + 21.2 * i)),
      full("Part I traces the emergence of the reliance measure after Hoffman v. Red Owl", 93, 240),
      run("Stores.", 57, 261.2, { x1: 95 }),
      run("file1 -ot file2", 57, 282.4, { x1: 110 }),
    ]);
    // A man page's next term hanging left of the description above it ends no sentence.
    expect(libre.slice(-2).map((b) => b.text)).toEqual(["Part I traces the emergence of the reliance measure after Hoffman v. Red Owl Stores.", "file1 -ot file2"]);
    // An epigraph set in 1.5 em, its short last line back at its margin.
    const epigraph = blocksOf([run("The sea has neither meaning nor", 182, 181, { fontSize: 9, x1: 332.6 }), run("pity.", 168.6, 194, { fontSize: 9, x1: 187.6 }), run("— Anton Chekhov", 265.6, 208.4, { fontSize: 9, x1: 347.2 })]);
    expect(epigraph.map((b) => b.text)).toEqual(["The sea has neither meaning nor pity.", "— Anton Chekhov"]);
  });

  it("joins lines set solid whose boxes overlap (Chromium's 1.36 em boxes, 12 pt on 12 pt), in order, and never past a line left out", () => {
    const solid = (text: string, top: number, opts = {}) => run(text, 10, top, { y1: top + 13.6, x1: 300, ...opts });
    const blocks = blocksOf([
      solid("Either party may terminate this Agreement upon ninety days'", 100),
      solid("written notice to the other party, provided that no such", 110),
      run("notice shall be effective at all.", 10, 120, { y1: 133.6 }),
      solid("The second paragraph starts a line further down the page and", 140),
      run("ends on its second line.", 10, 150, { y1: 163.6 }),
    ]);
    expect(blocks.map((b) => b.text)).toEqual([
      "Either party may terminate this Agreement upon ninety days' written notice to the other party, provided that no such notice shall be effective at all.",
      "The second paragraph starts a line further down the page and ends on its second line.",
    ]);
    const caption = blocksOf([run("GLOBEX CORPORATION, a Nevada", 10, 100, { y1: 113.6 }), run("CORPORATION; AND DOES 1-10,", 10, 110, { y1: 123.6, bold: true }), run("inclusive,", 10, 120, { y1: 133.6 })]);
    expect(caption.map((b) => b.text)).toEqual(["GLOBEX CORPORATION, a Nevada", "CORPORATION; AND DOES 1-10,", "inclusive,"]);
  });

  it("reads an index entry with the subentries set in under it as one block, the next entry back at the margin", () => {
    const blocks = blocksOf([run("absorption, 73", 10, 100), run("acidity, 33", 10, 112), run("failure, 101", 30, 124), run("cleaning, 27", 30, 136), run("aeration, 63", 10, 148)]);
    expect(blocks.map((b) => b.text)).toEqual(["absorption, 73", "acidity, 33 failure, 101 cleaning, 27", "aeration, 63"]);
  });

  it("reads endnotes numbered in lower-case roman as items, each with its number, however wide the numeral", () => {
    const note = (n: string, top: number) => [run(n, 50, top, { x1: 50 + n.length * 2.5 }), run(`See the station log book, section ${top}, for the record sheet.`, 64, top)];
    const blocks = blocksOf(["i", "ii", "iii", "iv", "v", "vi", "vii", "viii"].flatMap((n, k) => note(n, 100 + 12 * k)));
    expect(blocks.map((b) => [b.kind, b.text.split(" ")[0]])).toEqual(["i", "ii", "iii", "iv", "v", "vi", "vii", "viii"].map((n) => ["list", n]));
  });

  it("keeps a hanging indent's lines with their entry (bibliography, description list), and starts the next entry back at the margin", () => {
    const full = { x1: 300 };
    const blocks = blocksOf([
      run("Random passages sampled uniformly from the corpus, drawn again for every", 10, 100, full),
      run("batch of the training run.", 25, 112),
      run("[1] S. Robertson and H. Zaragoza. The probabilistic relevance framework of", 10, 130, full),
      run("BM25 and beyond. Foundations and Trends in Information Retrieval,", 25, 142, full),
      run("3(4):333-389, 2009.", 25, 154),
      run("[2] J. Lin. A proposed conceptual framework for a representational approach to", 10, 166, full),
      run("information retrieval. SIGIR Forum, 2021.", 25, 178),
    ]);
    expect(blocks.map((b) => b.text)).toEqual([
      "Random passages sampled uniformly from the corpus, drawn again for every batch of the training run.",
      "[1] S. Robertson and H. Zaragoza. The probabilistic relevance framework of BM25 and beyond. Foundations and Trends in Information Retrieval, 3(4):333-389, 2009.",
      "[2] J. Lin. A proposed conceptual framework for a representational approach to information retrieval. SIGIR Forum, 2021.",
    ]);
    // An entry's first line may end at a colon (`…relevance framework:`) and run on.
    const colon = blocksOf([run("[1] S. Robertson and H. Zaragoza. The probabilistic relevance framework:", 10, 100, full), run("BM25 and beyond. Foundations and Trends, 2009.", 25, 112), run("[2] J. Lin. A proposed conceptual framework for a representational approach to", 10, 124, full), run("information retrieval. SIGIR Forum, 2021.", 25, 136)]);
    expect(colon.map((b) => b.text.slice(0, 3))).toEqual(["[1]", "[2]"]);
    // An author-year entry's first line may hold its authors and date alone (`(2005).`).
    const year = blocksOf([
      run("Brown, L., Gans, N., Mandelbaum, A., Sakov, A., Shen, H., and Zhao, L. (2005).", 10, 100, full),
      run("Statistical analysis of a telephone call center. JASA, 100(469):36-50.", 25, 112, { x1: 250 }),
      run("Garnett, O., Mandelbaum, A., and Reiman, M. (2002). Designing a call center", 10, 124, full),
      run("with impatient customers. MSOM, 4(3):208-227.", 25, 136, { x1: 200 }),
    ]);
    expect(year.map((b) => b.text.slice(0, 6))).toEqual(["Brown,", "Garnet"]);
    // A one-line paragraph that ends its sentence, or stops short of the column's edge, is
    // followed by a new paragraph at a first-line indent.
    const paras = blocksOf([run("A full line of prose that ends the paragraph right at the edge.", 10, 100, full), run("Indented start of the next paragraph", 25, 112), run("Dear Sir,", 10, 140), run("I write to you about the order that reached us broken and late.", 25, 152, full), run("full reference line to set the column's right edge for the rest", 10, 164, full)]);
    expect(paras.map((b) => b.text)).toEqual(["A full line of prose that ends the paragraph right at the edge.", "Indented start of the next paragraph", "Dear Sir,", "I write to you about the order that reached us broken and late. full reference line to set the column's right edge for the rest"]);
  });

  it("reads a form's rows as label and value, each row a paragraph of its own, the label no heading", () => {
    const form = [
      ["Company name:", "Blue Harbour Logistics Ltd"],
      ["Registration number:", "09876543"],
      ["Date of incorporation:", "03/06/2015"],
    ].flatMap(([label, value], k) => [run(label!, 50, 100 + 13 * k, { bold: true }), run(value!, 190, 100 + 13 * k)]);
    const blocks = blocksOf(form);
    expect(blocks.map((b) => [b.text, b.bold])).toEqual([
      ["Company name: Blue Harbour Logistics Ltd", false],
      ["Registration number: 09876543", false],
      ["Date of incorporation: 03/06/2015", false],
    ]);
    // Two columns of prose, the left one's lines ending in colons, are still cut at their gutter.
    const prose = ["the results of the first trial were as follows:", "our second trial showed much the same picture:", "and the third one, run in spring, gave this:"].flatMap((t, k) => [run(t, 50, 100 + 13 * k, { x1: 280 }), run(`right column line ${k}`, 300, 100 + 13 * k)]);
    expect(buildLines(prose).map((l) => l.text)).toHaveLength(6);
  });

  it("keeps a listing's dash lines (YAML, Markdown) in the listing, not list items", () => {
    const mono = { mono: true };
    const yaml = blocksOf([run("services:", 10, 100, mono), run("  ports:", 10, 112, mono), run('    - "80:80"', 10, 124, mono), run("  environment:", 10, 136, mono), run("    - DEBUG=false", 10, 148, mono)]);
    expect(yaml.map((b) => [b.kind, b.text])).toEqual([["code", 'services:\n  ports:\n    - "80:80"\n  environment:\n    - DEBUG=false']]);
  });

  it("starts a form at its first row after a line leading into it, and ends it at prose back at the margin", () => {
    const blocks = blocksOf([
      run("Supplier details:", 50, 100),
      run("Company name:", 50, 113),
      run("Blue Harbour Logistics Ltd", 190, 113),
      run("Registration number:", 50, 126, { x1: 186 }),
      run("09876543", 190, 126),
      run("This policy covers all information assets held by the company.", 50, 139),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["Supplier details:", "Company name: Blue Harbour Logistics Ltd", "Registration number: 09876543", "This policy covers all information assets held by the company."]);
  });

  it("keeps a clause whose lines wrap back to the margin whole (a capital after an open line end), its last lettered item an item, YAML under a key in its listing", () => {
    const clause = blocksOf([
      run("1.", 50, 100, { x1: 58 }),
      run("The Tenant shall pay the rent monthly in advance on the first day of each month to the", 86, 100, { x1: 400 }),
      run("Landlord by standing order, without any deduction or set-off whatsoever.", 50, 112, { x1: 380 }),
      run("The parties sign below.", 50, 130),
    ]);
    expect(clause.map((b) => b.kind)).toEqual(["list", "text"]);
    const lettered = blocksOf([run("a.", 50, 100, { x1: 57 }), run("a copy of the passport", 86, 100), run("b.", 50, 113, { x1: 57 }), run("two recent photographs", 86, 113), run("c.", 50, 126, { x1: 57 }), run("proof of address", 86, 126), run("Applications without these documents will be returned unprocessed.", 50, 145, { x1: 400 })]);
    expect(lettered.map((b) => b.kind)).toEqual(["list", "list", "list", "text"]);
    const mono = { mono: true };
    const yaml = blocksOf([run("channels:", 10, 100, mono), run("  - conda-forge", 10, 112, { ...mono, x0: 16, x1: 91 }), run("  - defaults", 10, 124, { ...mono, x0: 16, x1: 76 })]);
    expect(yaml.map((b) => b.kind)).toEqual(["code"]);
  });

  it("keeps a clause whose lines wrap back to the margin whole, a README's dash lines after a label as items, a lettered heading no item", () => {
    const clause = blocksOf([
      run("1.", 50, 100, { x1: 58 }),
      run("The Tenant shall pay the rent monthly in advance on the first day of each", 86, 100, { x1: 400 }),
      run("month, by standing order, without any deduction or set-off whatsoever.", 50, 112, { x1: 380 }),
      run("2.", 50, 130, { x1: 58 }),
      run("The Tenant shall keep the premises in good repair.", 86, 130),
    ]);
    expect(clause.map((b) => b.kind)).toEqual(["list", "list"]);
    const mono = { mono: true };
    const readme = blocksOf([run("Features:", 10, 100, mono), run("- reads PDF and TIFF files", 10, 112, mono), run("- writes one CSV file per invoice", 10, 124, mono)]);
    expect(readme.map((b) => b.kind)).toEqual(["text", "list", "list"]);
    const headings = blocksOf([
      run("A. Queueing models", 50, 100, { italic: true }),
      run("Queueing models of web servers go back to the early work on time-sharing.", 50, 112, { x1: 400 }),
      run("B. Measurement studies", 50, 136, { italic: true }),
      run("Measurement studies report heavy tails in service times and bursts of load.", 50, 148, { x1: 400 }),
    ]);
    expect(headings.filter((b) => b.kind === "list")).toEqual([]);
  });

  it("ends a table of contents' entry at its page number", () => {
    const blocks = blocksOf([run("1.1 Who this policy applies to . . . . . . . . . 2", 10, 100), run("1.2 Definitions . . . . . . . . . . . . . . . . . . 2", 10, 112), run("2 Access Control . . . . . . . . . . . . . . . . 3", 10, 124)]);
    expect(blocks.map((b) => b.text)).toHaveLength(3);
  });

  it("ends a paragraph at a short line whose full stop carries a footnote mark", () => {
    const blocks = blocksOf([
      run("a long line of the paragraph that fills the column", 10, 100),
      run("ends here.", 10, 112),
      run("1", 60, 111, { fontSize: 6, y1: 117 }),
      run("Next paragraph starts flush with no gap at all", 10, 124),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["a long line of the paragraph that fills the column ends here.1", "Next paragraph starts flush with no gap at all"]);
    // The same short line with a number set on the baseline is the paragraph going on.
    const plain = blocksOf([run("a long line of the paragraph that fills the column", 10, 100), run("in version 2", 10, 112), run("and more words of the same sentence", 10, 124)]);
    expect(plain).toHaveLength(1);
  });

  it("reads a bill's items as a paragraph each, their amounts flush right whatever their widths", () => {
    const row = (key: string, value: string, top: number) => [run(key, 60, top), run(value, 535 - value.length * 5, top)];
    const blocks = blocksOf([...row("Line rental March 2024", "18.99", 100), ...row("Broadband Fibre 500", "32.00", 116), ...row("Calls to 0800 numbers", "0.00", 132), ...row("Mobile add-on 5G", "10.00", 148), ...row("Router rental", "3.50", 164)]);
    expect(blocks.map((b) => b.text)).toEqual(["Line rental March 2024 18.99", "Broadband Fibre 500 32.00", "Calls to 0800 numbers 0.00", "Mobile add-on 5G 10.00", "Router rental 3.50"]);
  });

  it("starts a paragraph at each speaker's turn in a transcript set solid, its lines as wide as the column", () => {
    const said = (lines: string[]) => blocksOf(lines.map((text, i) => run(text, 10, 100 + 12 * i))).map((b) => b.text);
    const interview = [
      "INTERVIEWER: Thank you for joining us today, could you introduce yourself?",
      "MARIA LOPEZ: Of course. I have run the bakery on Elm Street since 1994 now.",
      "INTERVIEWER: What changed most in the neighbourhood over those long years?",
      "MARIA LOPEZ: The rents, mostly. Half the shops on the street turned over —",
      "INTERVIEWER: Did the new tram line bring in more customers for you at least?",
    ];
    expect(said(interview)).toEqual(interview);
    const titled = interview.map((l) => l.replace("INTERVIEWER", "Interviewer").replace("MARIA LOPEZ", "Maria Lopez"));
    expect(said(titled)).toEqual(titled);
    // A deposition: its Q.s and A.s, and counsel in capitals speaking once.
    const deposition = [
      "Q. Where were you on the evening of the third of March, after the meeting?",
      "A. I was at the warehouse on Dock Road until about nine, doing the count.",
      "MR. KLEIN: Objection, form. You may answer the question if you understand.",
      "A. I stayed to finish the inventory count with the night guard, as usual.",
    ];
    expect(said(deposition)).toEqual(deposition);
    // A speaker's turn running on over its lines stays whole, and so does prose with a
    // label or two: no speaker speaks twice there.
    expect(said(["INTERVIEWER: Could you say a little about the years before you opened the", "bakery, when you were still working for the post office in the city centre?", "MARIA LOPEZ: I sorted letters there for eleven years, on the night shift.", "INTERVIEWER: And what made you leave the post office in the end, after all?"])).toEqual([
      "INTERVIEWER: Could you say a little about the years before you opened the bakery, when you were still working for the post office in the city centre?",
      "MARIA LOPEZ: I sorted letters there for eleven years, on the night shift.",
      "INTERVIEWER: And what made you leave the post office in the end, after all?",
    ]);
    expect(said(["The pump must be primed before its first start, as the manual explains.", "Note: a dry start damages the seal within seconds, and voids the warranty.", "Warning: the casing is hot after an hour of running; let it cool first."])).toHaveLength(1);
  });

  it("ends a caption at its short line, body text flush under it or not; keeps a label on its own line with its text", () => {
    const flush = blocksOf([run("Table 1: Budget by quarter", 10, 100), run("growth review alpha table revenue result detail region", 10, 112), run("quarterly analysis summary.", 10, 124)]);
    expect(flush.map((b) => [b.kind, b.text])).toEqual([
      ["table-caption", "Table 1: Budget by quarter"],
      ["text", "growth review alpha table revenue result detail region quarterly analysis summary."],
    ]);
    const wrapped = blocksOf([run("Figure 2: Recall at five for every configuration we", 10, 100), run("tried, by page count.", 10, 112), run("The body goes on here with a long line of prose.", 10, 124)]);
    expect(wrapped.map((b) => b.text)).toEqual(["Figure 2: Recall at five for every configuration we tried, by page count.", "The body goes on here with a long line of prose."]);
    const label = blocksOf([run("Figure 3", 10, 100), run("Recall at five for every configuration we tried", 10, 112)]);
    expect(label.map((b) => b.text)).toEqual(["Figure 3 Recall at five for every configuration we tried"]);
    // Ragged right: a line broken early before a word too long for the room left.
    const ragged = blocksOf([run("Table 3: Quarterly revenue of the division by region,", 10, 100), run("in thousands of euros after", 10, 112), run("internationalisation-adjusted and before the one-off", 10, 124), run("charges.", 10, 136)]);
    expect(ragged.map((b) => b.kind)).toEqual(["table-caption"]);
  });

  it("keeps an OCR layer's short middle line, sized smaller by its letters, in its ragged paragraph", () => {
    const o = { ocr: true };
    const blocks = blocksOf([
      run("The parser reads every page of the file and", 10, 100, { fontSize: 9, ...o }),
      run("some more common", 10, 113, { fontSize: 7, x1: 82, ...o }),
      run("builds the lines, blocks and tables of the page.", 10, 126, { fontSize: 9, ...o }),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["The parser reads every page of the file and some more common builds the lines, blocks and tables of the page."]);
  });

  it("keeps an OCR'd heading apart from the body under it, its size 30 % over the body's", () => {
    const blocks = blocksOf([run("Introduction", 10, 100, { fontSize: 14, ocr: true }), run("Most documents people ingest are PDFs and a parser", 10, 116, { fontSize: 11, ocr: true })]);
    expect(blocks.map((b) => b.text)).toEqual(["Introduction", "Most documents people ingest are PDFs and a parser"]);
  });

  it("joins an OCR layer's lines sized apart by their letters' height (no ascenders), not a text layer's", () => {
    const lines = (ocr: boolean) => blocksOf([run("a line of the paragraph, sized by its ascenders", 10, 100, { fontSize: 9, ocr }), run("mat.", 10, 113, { fontSize: 7, ocr })]).map((b) => b.text);
    expect(lines(true)).toEqual(["a line of the paragraph, sized by its ascenders mat."]);
    expect(lines(false)).toHaveLength(2);
  });

  it("keeps a bold heading apart from the body under it", () => {
    const blocks = blocksOf([run("Heading", 10, 100, { bold: true }), run("body text", 10, 112)]);
    expect(blocks.map((b) => b.text)).toEqual(["Heading", "body text"]);
  });

  it("makes each list marker a list item, hanging lines included, with levels from indent", () => {
    const blocks = blocksOf([
      run("1. first item", 10, 100),
      run("wraps here", 22, 112),
      run("a) nested item", 30, 124),
      run("2. second item", 10, 136),
    ]);
    expect(blocks.map((b) => [b.kind, b.text, b.listLevel])).toEqual([
      ["list", "1. first item wraps here", 0],
      ["list", "a) nested item", 1],
      ["list", "2. second item", 0],
    ]);
  });

  it("reads a legal-numbered list with every marker at the margin: the text a tab in, levels by where the text starts", () => {
    const item = (marker: string, text: string, textX: number, top: number) => [run(marker, 50, top, { x1: 50 + marker.length * 5 }), run(text, textX, top)];
    const blocks = blocksOf([
      ...item("1.", "The supplier shall:", 86, 100),
      ...item("1.1.", "maintain an information security policy;", 110, 113),
      ...item("1.2.", "notify the Company of any breach:", 110, 126),
      ...item("1.2.1.", "within 24 hours of discovery;", 140, 139),
      ...item("2.", "The Company may audit the supplier once a year.", 86, 152),
      run("Obligations of the customer:", 50, 165),
      ...item("a.", "Pay on time.", 86, 178),
      ...item("b.", "Give notice of changes.", 86, 191),
    ]);
    expect(blocks.map((b) => [b.kind, b.text, b.listLevel])).toEqual([
      ["list", "1. The supplier shall:", 0],
      ["list", "1.1. maintain an information security policy;", 1],
      ["list", "1.2. notify the Company of any breach:", 1],
      ["list", "1.2.1. within 24 hours of discovery;", 2],
      ["list", "2. The Company may audit the supplier once a year.", 0],
      ["text", "Obligations of the customer:", undefined],
      ["list", "a. Pay on time.", 0],
      ["list", "b. Give notice of changes.", 0],
    ]);
    // An initial opening two lines of prose is no lettered list.
    const prose = blocksOf([run("A. Smith wrote the first report on the site in the spring,", 10, 100), run("C. Jones the second one, a year later, after the floods.", 10, 112)]);
    expect(prose.map((b) => b.kind)).toEqual(["text"]);
  });

  it("makes items of a list numbered without punctuation, not of prose or headings that start with a figure", () => {
    // ReportLab's `bulletType="1"`: the number alone, the text 0.9 em on.
    const blocks = blocksOf([
      run("1", 10, 100),
      run("Closed the Lyon warehouse.", 24, 100),
      run("2", 10, 114),
      run("Signed an energy contract", 24, 114),
      run("at a fixed price.", 24, 128),
      run("3", 10, 142),
      run("Opened an office.", 24, 142),
    ]);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ["list", "1 Closed the Lyon warehouse."],
      ["list", "2 Signed an energy contract at a fixed price."],
      ["list", "3 Opened an office."],
    ]);
    // A paragraph whose lines start with figures (no item numbered one on), and
    // numbered headings far apart, stay what they are.
    const prose = blocksOf([run("We opened", 10, 100), run("3", 10, 114), run("new offices in", 24, 114), run("5", 10, 128), run("countries this year.", 24, 128)]);
    expect(prose.map((b) => b.kind)).toEqual(["text"]);
    const headings = blocksOf([run("1", 10, 100, { bold: true }), run("Introduction", 24, 100, { bold: true }), run("2", 10, 114, { bold: true }), run("Related work", 24, 114, { bold: true })]);
    expect(headings.every((b) => b.kind === "text")).toBe(true);
    // A table of contents read by OCR (no bold): chapters with their sections' leaders between.
    const toc = blocksOf([
      run("1", 10, 100),
      run("Chapter one", 24, 100),
      run("1.1 Details . . . . . . . . 3", 30, 114),
      run("2", 10, 128),
      run("Chapter two", 24, 128),
      run("2.1 Details . . . . . . . . 5", 30, 142),
    ]);
    expect(toc.some((b) => b.kind === "list")).toBe(false);
  });

  it("keeps code lines and their indentation", () => {
    const blocks = blocksOf([run("if (x) {", 10, 100, { mono: true }), run("return 1;", 22, 111, { mono: true }), run("}", 10, 122, { mono: true })]);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([["code", "if (x) {\n  return 1;\n}"]]);
  });

  it("keeps a listing whole across its blank lines, not prose set in monospace", () => {
    const mono = { mono: true, fontSize: 8 };
    // Lines 9 pt apart, a blank line (18 pt) before `print` and before `END`.
    const code = blocksOf([run("def forecast(q):", 10, 100, mono), run("return q * 1.04", 18, 109, mono), run("print(forecast(48.2))", 10, 127, mono), run("END", 10, 145, mono)]);
    expect(code.map((b) => [b.kind, b.text])).toEqual([["code", "def forecast(q):\n  return q * 1.04\n\nprint(forecast(48.2))\n\nEND"]]);
    // A plain-text file printed: paragraphs of words a blank line apart stay paragraphs, and on
    // a page set all in monospace they are prose, their lines joined.
    const text = blocksOf([
      run("The licenses for most software are designed to take away", 10, 100, mono),
      run("your freedom to share and change it.", 10, 109, mono),
      run("When we speak of free software, we are referring to freedom,", 10, 127, mono),
      run("not price.", 10, 136, mono),
    ]);
    expect(text.map((b) => [b.kind, b.text])).toEqual([
      ["text", "The licenses for most software are designed to take away your freedom to share and change it."],
      ["text", "When we speak of free software, we are referring to freedom, not price."],
    ]);
    // A listing on that page is still code: it has code's signs.
    const mixed = blocksOf([
      run("The licenses for most software are designed to take away", 10, 100, mono),
      run("your freedom to share and change it, and the example shows how.", 10, 109, mono),
      run("int main(void) {", 18, 127, mono),
      run("return 0;", 26, 136, mono),
      run("}", 18, 145, mono),
    ]);
    expect(mixed.map((b) => b.kind)).toEqual(["text", "code"]);
    // Two commands with a word of prose between them (a manual's `or`, set further left).
    const or = blocksOf([run("tar -cvf etc.tar /etc", 60, 100, mono), run("or", 30, 112), run("tar -c -v -f etc.tar /etc", 60, 124, mono)]);
    expect(or.map((b) => b.text)).toEqual(["tar -cvf etc.tar /etc", "or", "tar -c -v -f etc.tar /etc"]);
    // A browser's listing, 1.45 lines apart: a blank line is a 1.2 em gap; a line of words
    // and braces is code, not prose.
    const css = { mono: true, fontSize: 9.5 };
    const web = blocksOf([run('import { DocParseLoader } from "docparse-rag";', 91, 343.7, css), run('const loader = new DocParseLoader({ path: "./docs" });', 91, 366.2, css), run("const docs = await loader.load();", 91, 377.4, css)]);
    expect(web.map((b) => b.text)).toEqual(['import { DocParseLoader } from "docparse-rag";\n\nconst loader = new DocParseLoader({ path: "./docs" });\nconst docs = await loader.load();']);
    // A plain-text RFC printed in Courier: prose with figures and acronyms stays in paragraphs.
    const rfc = blocksOf([
      run("This document specifies HTTP/1.1 message syntax (RFC 9112) for", 10, 100, mono),
      run("clients and servers.", 10, 109, mono),
      run("Servers answer 99.9% of requests within 200 ms of the request.", 10, 127, mono),
    ]);
    expect(rfc.map((b) => b.text.slice(0, 20))).toEqual(["This document specif", "Servers answer 99.9%"]);
    // The other column's prose beside a listing's blank line does not cut the listing.
    const beside = blocksOf([
      run("const a = 1;", 10, 100, mono),
      run("The same sum is written in Python with the same names.", 300, 108, { x1: 560 }),
      run("console.log(a);", 10, 118, mono),
    ]);
    expect(beside.map((b) => b.text)).toContain("const a = 1;\n\nconsole.log(a);");
    // Double-spaced code has no blank lines of its own.
    const double = blocksOf([run("int main(void) {", 10, 100, mono), run("return 0;", 18, 116, mono), run("}", 10, 132, mono)]);
    expect(double.map((b) => b.text)).toEqual(["int main(void) {\n  return 0;\n}"]);
    // A listing with line numbers is code, not a numbered list.
    const numbered = blocksOf([run("1", 10, 100, mono), run("import sys", 24, 100, mono), run("2", 10, 109, mono), run("print(sys.argv)", 24, 109, mono)]);
    expect(numbered.map((b) => b.kind)).toEqual(["code"]);
  });

  it("keeps a highlighted listing whole: bold keywords, a short first line, two blank lines", () => {
    // Courier's 0.6 em a character: 6 pt at 10 pt, so 24 pt is four spaces.
    const code = (text: string, x: number, top: number, bold = false) => run(text, x, top, { mono: true, bold, x1: x + 6 * text.length });
    const pyg = blocksOf([
      code("def flush(self):", 10, 100),
      code("if not self._pending:", 34, 112),
      code("return", 58, 124, true),
      code("for attempt in range(3):", 34, 136),
      code("try:", 58, 148, true),
      code("break", 82, 160, true),
    ]);
    expect(pyg.map((b) => [b.kind, b.text])).toEqual([["code", "def flush(self):\n    if not self._pending:\n        return\n    for attempt in range(3):\n        try:\n            break"]]);
    // `{` and `try:` share no width with the lines indented under them.
    const json = blocksOf([code("{", 10, 100), code('"name": "orders-daily",', 22, 112), code('"retries": 5', 22, 124), code("}", 10, 136)]);
    expect(json.map((b) => b.text)).toEqual(['{\n  "name": "orders-daily",\n  "retries": 5\n}']);
    const tried = blocksOf([code("try:", 10, 100), code("client.run()", 34, 112), code("except Error:", 10, 124)]);
    expect(tried.map((b) => b.text)).toEqual(["try:\n    client.run()\nexcept Error:"]);
    // PEP 8's two blank lines (three of the listing's pitches on) go on; a listing at
    // another distance is another listing.
    const pep8 = blocksOf([code("def main():", 10, 100), code("run()", 34, 112), code("def run():", 10, 148), code("pass", 34, 160)]);
    expect(pep8.map((b) => b.text)).toEqual(["def main():\n    run()\n\n\ndef run():\n    pass"]);
    const apart = blocksOf([code("def main():", 10, 100), code("run()", 34, 112), code("def run():", 10, 154), code("pass", 34, 166)]);
    expect(apart.map((b) => b.text)).toEqual(["def main():\n    run()", "def run():\n    pass"]);
  });

  it("drops a listing's line numbers and measures its indentation from the code", () => {
    const mono = { mono: true };
    // Sphinx's numbers, right-aligned in a gutter, every line numbered (blank ones too).
    const rows: [number, string, number][] = [
      [9, "from tidepool import Client", 0],
      [10, "", 0],
      [11, "def main():", 0],
      [12, "client = Client()", 4],
    ];
    const runs = rows.flatMap(([n, code, depth], i) => {
      const top = 100 + 12 * i;
      const num = run(String(n), 20 - 5 * String(n).length, top, mono);
      return code ? [num, run(code, 30 + 5 * depth, top, mono)] : [num];
    });
    expect(blocksOf(runs).map((b) => [b.kind, b.text])).toEqual([["code", "from tidepool import Client\n\ndef main():\n    client = Client()"]]);
    // Numbers that do not count on by one per line are the text's own.
    const counts = blocksOf([run("1", 10, 100, mono), run("apple", 30, 100, mono), run("3", 10, 112, mono), run("pear", 30, 112, mono)]);
    expect(counts.map((b) => b.text)).toEqual(["1   apple\n3   pear"]);
  });

  it("keeps a hyphen at a line end for a writer that does not hyphenate", () => {
    const lines = buildLines([run("a plan long debated by a group of state-", 10, 100), run("funded planners.", 10, 112)]);
    expect(buildBlocks(lines).map((b) => b.text)).toEqual(["a plan long debated by a group of statefunded planners."]);
    expect(buildBlocks(lines, { keepLineEndHyphens: true }).map((b) => b.text)).toEqual(["a plan long debated by a group of state-funded planners."]);
  });

  it("repairs a hyphen at a line end only before a lower-case continuation", () => {
    const blocks = blocksOf([run("a hyphen-", 10, 100), run("ated word and co-", 10, 112), run("Operation", 10, 124)]);
    expect(blocks[0]!.text).toBe("a hyphenated word and co- Operation");
  });

  it("keeps a numbered paragraph whole, its number at a first-line indent and its lines wrapping back to the margin", () => {
    const blocks = blocksOf([
      // Justified: the full lines end at the column's edge.
      run("1. This action arises from Globex's repeated failure to pay for", 46, 100, { x1: 370 }),
      run("widgets that Acme manufactured and delivered under a written supply", 10, 112, { x1: 370 }),
      run("agreement dated March 3, 2021, and never paid for since that day.", 10, 124, { x1: 370 }),
      run("2. Acme seeks damages for breach of contract and a declaration.", 46, 136),
      run("Plaintiff demands a trial by jury on all issues so triable.", 10, 160),
    ]);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ["list", "1. This action arises from Globex's repeated failure to pay for widgets that Acme manufactured and delivered under a written supply agreement dated March 3, 2021, and never paid for since that day."],
      ["list", "2. Acme seeks damages for breach of contract and a declaration."],
      ["text", "Plaintiff demands a trial by jury on all issues so triable."],
    ]);
  });

  it("keeps a centred caption's second line, shorter and centred under its first", () => {
    const centred = (text: string, top: number) => run(text, 240 - text.length * 2.5, top);
    const body = run("Structure-aware chunking improves recall over fixed windows, as the table shows.", 40, 70);
    const blocks = blocksOf([body, centred("Table 1: Recall at 5 for three", 100), centred("chunkers.", 112), run("Chunker", 150, 140), run("Recall@5", 250, 140)]);
    expect(blocks.map((b) => b.text)[1]).toBe("Table 1: Recall at 5 for three chunkers.");
  });

  it("keeps the hyphen of a compound with another hyphen in it, broken at one of its own (end-to-end, state-of-the-art)", () => {
    const blocks = blocksOf([run("tests run each night, and once a day with end-", 10, 100), run("to-end tests on the state-of-", 10, 112), run("the-art cluster as well.", 10, 124)]);
    expect(blocks[0]!.text).toBe("tests run each night, and once a day with end-to-end tests on the state-of-the-art cluster as well.");
  });

  it("classifies captions and display formulas", () => {
    const blocks = blocksOf([run("Figure 3: Throughput", 10, 100), run("E = mc2", 10, 140, { math: true }), run("Tables are useful", 10, 180)]);
    expect(blocks.map((b) => b.kind)).toEqual(["figure-caption", "formula", "text"]);
  });

  it("marks math-font runs inside prose as inline formulas with their text range", () => {
    const [b] = blocksOf([run("The energy", 10, 100), run("E=mc2", 70, 100, { math: true }), run("holds for any mass", 100, 100)]);
    expect(b!.kind).toBe("text");
    const objects = inlineFormulas(b!);
    expect(objects.map((o) => [o.text, o.start, o.end, b!.text.slice(o.start, o.end)])).toEqual([["E=mc2", 11, 16, "E=mc2"]]);
  });
});

/** A Hebrew line as a PDF draws it (letters right to left, 5 units each), its right edge at `right`. */
const hebrew = (logical: string, right: number, top: number) => run([...logical].reverse().join(""), right - logical.length * 5, top);
/** A bullet drawn right against the text to its left, as LibreOffice draws an RTL list item. */
const bulletAt = (right: number, top: number) => run("•", right - 5, top);

describe("buildBlocks: right-to-left paragraphs (edge rules mirrored)", () => {
  it("starts a new paragraph at a first-line indent from the right, and keeps a short last line at the right", () => {
    const blocks = blocksOf([
      hebrew("זוהי שורה ראשונה של הפסקה", 380, 100),
      hebrew("והיא ממשיכה כאן עד הסוף של השורה", 400, 112),
      hebrew("וזה הסוף.", 400, 124),
      hebrew("פסקה שנייה מתחילה בהזחה", 380, 136),
      hebrew("ונמשכת בשורה מלאה עד הקצה השמאלי", 400, 148),
    ]);
    expect(blocks.map((b) => b.text)).toEqual([
      "זוהי שורה ראשונה של הפסקה והיא ממשיכה כאן עד הסוף של השורה וזה הסוף.",
      "פסקה שנייה מתחילה בהזחה ונמשכת בשורה מלאה עד הקצה השמאלי",
    ]);
  });

  it("closes a paragraph at a short sentence-final line ending on the left", () => {
    const blocks = blocksOf([
      hebrew("שורה מלאה של הפסקה הראשונה כאן", 400, 100),
      hebrew("סוף.", 400, 112),
      hebrew("פסקה שנייה בשורה מלאה באותו רוחב", 400, 124),
      hebrew("ועוד שורה", 400, 136),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["שורה מלאה של הפסקה הראשונה כאן סוף.", "פסקה שנייה בשורה מלאה באותו רוחב ועוד שורה"]);
  });

  it("keeps hanging lines of a list item left of its bullet, and ends the item at a line reaching further right", () => {
    const blocks = blocksOf([
      bulletAt(400, 100),
      hebrew("פריט ראשון ארוך שנמשך", 395, 100),
      hebrew("לשורה נוספת", 395, 112),
      bulletAt(400, 124),
      hebrew("פריט שני", 395, 124),
      hebrew("פסקה אחרי", 410, 136),
    ]);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ["list", "• פריט ראשון ארוך שנמשך לשורה נוספת"],
      ["list", "• פריט שני"],
      ["text", "פסקה אחרי"],
    ]);
  });

  it("keeps the left-to-right rules for an English block on a page with Hebrew", () => {
    const blocks = blocksOf([
      hebrew("כותרת בעברית", 400, 60),
      run("a long first paragraph line", 10, 100),
      run("ends here.", 10, 112),
      run("Indented start", 30, 124),
      run("of the next one", 10, 136),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["כותרת בעברית", "a long first paragraph line ends here.", "Indented start of the next one"]);
  });
});

describe("classifyBlocks: display formulas set in pieces", () => {
  it("joins a sum's limits, a fraction and the row between them into one formula, and an accent into the prose under it", () => {
    const math = { math: true };
    const blocks = blocksOf([
      run("The score of a block is", 10, 80),
      // s(b) = f(b)/f̄ + Σ_{i=1}^{n} x_i: numerator and upper limit above, denominator and lower limit below.
      run("s(b) =", 20, 103, math),
      run("f(b)", 54, 96, { ...math, fontSize: 7 }),
      run("\u00af", 56, 110, { ...math, fontSize: 7 }),
      run("f", 56, 113, { ...math, fontSize: 7 }),
      run("+", 72, 103, math),
      run("n", 86, 95, { ...math, fontSize: 7 }),
      run("\u2211", 84, 101, { ...math, fontSize: 14, x1: 91 }),
      run("i=1", 83, 115, { ...math, fontSize: 7 }),
      run("x", 95, 103, math),
      run("\u00af", 72, 126, { fontSize: 7 }),
      run("where f is the median size on the page.", 10, 134),
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(["text", "formula", "text"]);
    const formula = blocks[1]!;
    expect(formula.text).toContain("\u2211");
    expect(formula.text).toContain("i=1");
    expect([formula.y0, formula.y1]).toEqual([95, 122]);
    expect(blocks[2]!.text).toBe("where f is the median size on the page.");
    expect(blocks[2]!.y0).toBe(126);
  });

  it("joins a left-hand side level with a tall integral, a limit under it and a number after a full stop into the formula", () => {
    const math = { math: true };
    // C = ∫_0^T a(t)/b(t) dt . (1), pdflatex's pieces: `C =` touches none of the others alone.
    const blocks = blocksOf([
      run("The total cost follows from the integral below.", 10, 60),
      run("Z", 39, 82, { ...math, fontSize: 14, x1: 44 }),
      run("T", 45, 82, { ...math, fontSize: 7 }),
      run("a(t)", 50, 86, math),
      run("dt", 72, 92, math),
      run("b(t)", 50, 100, math),
      run("C =", 17.8, 92, { ...math, x1: 36.1 }),
      run("0", 40, 104, { ...math, fontSize: 7 }),
      run(". (1)", 260, 92),
      run("The weights are predicted by a small network from the context.", 10, 130),
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(["text", "formula", "text"]);
    for (const piece of ["C =", "0", "(1)", "a(t)"]) expect(blocks[1]!.text).toContain(piece);
  });

  it("leaves an arrow standing over prose alone: only accents join the line under them", () => {
    const blocks = blocksOf([
      run("Parse the PDF", 50, 100),
      run("\u2192", 150, 100),
      run("Chunk the text", 200, 100),
      run("Each stage feeds the next one without any buffering at all.", 50, 114),
    ]);
    expect(blocks.filter((b) => b.text.includes("\u2192"))).toHaveLength(1);
  });

  it("gives each line of an aligned display its equation number, out at the column's edge", () => {
    const math = { math: true };
    const blocks = blocksOf([
      run("Both sums follow from the definitions.", 10, 80),
      run("a = b + c", 120, 100, math),
      run("(1)", 280, 100),
      run("d = e + f + g", 120, 114, math),
      run("(2)", 280, 114),
      run("(3) is a list item, not an equation number: no formula is on its row.", 10, 140),
    ]);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ["text", "Both sums follow from the definitions."],
      ["formula", "a = b + c (1) d = e + f + g (2)"],
      ["list", "(3) is a list item, not an equation number: no formula is on its row."],
    ]);
  });
});

describe("buildBlocks: joining lines by script", () => {
  it("joins Korean lines with a space, Chinese and Thai lines without", () => {
    const joined = (a: string, b: string) => blocksOf([run(a, 10, 100), run(b, 10, 112)])[0]!.text;
    expect(joined("올해 복지관은 지역 주민을 위한 다양한 프로그램을 운영하였습니다. 특히", "어르신 돌봄 서비스")).toBe("올해 복지관은 지역 주민을 위한 다양한 프로그램을 운영하였습니다. 특히 어르신 돌봄 서비스");
    expect(joined("全市公共交通客运总量达到十二亿人次，比上年增长", "地铁新开通线路三条")).toBe("全市公共交通客运总量达到十二亿人次，比上年增长地铁新开通线路三条");
    expect(joined("ชาวนาขายผลผลิตราคาถูกมากในตลาดชุมชนทางภาคกลางของ", "ประเทศไทย")).toBe("ชาวนาขายผลผลิตราคาถูกมากในตลาดชุมชนทางภาคกลางของประเทศไทย");
  });

  it("reads a Greek paragraph and heading as text, not formulas", () => {
    const blocks = blocksOf([run("Ετήσια έκθεση", 10, 60, { fontSize: 16, bold: true }), run("Το 2023 ο Δήμος ολοκλήρωσε σημαντικά έργα υποδομής.", 10, 100)]);
    expect(blocks.map((b) => b.kind)).not.toContain("formula");
  });
});

describe("buildBlocks: list markers in other scripts", () => {
  const items = (texts: string[]) => blocksOf(texts.map((t, i) => run(t, 10, 100 + 12 * i))).map((b) => [b.kind, b.text]);

  it("starts items at Cyrillic, Greek and Thai letters, native digits and full-width markers", () => {
    for (const list of [
      ["а) поставщик обязуется передать товар;", "б) покупатель обязуется принять товар;"],
      ["α) Ο προμηθευτής παραδίδει τα αγαθά.", "β) Ο αγοραστής πληρώνει το τίμημα."],
      ["（一）加强组织领导，明确责任分工。", "（二）完善工作机制，确保各项措施落实到位。"],
      ["1．优化公交线网。", "2．建设智慧交通平台。"],
      ["（1）申請書を提出する。", "（2）審査結果を確認する。"],
      ["(ก) ยื่นคำขอต่อสำนักงาน", "(ข) รอผลการพิจารณา"],
      ["१. हर प्रखंड में केंद्र", "२. घर घर सर्वे"],
      ["가. 어르신 돌봄 확대", "나. 시설 개보수"],
      ["α. Πρώτο σημείο", "β. Δεύτερο σημείο"],
    ])
      expect(items(list)).toEqual(list.map((t) => ["list", t]));
  });

  it("leaves prose opening with a one-letter word alone: no bracket, no neighbour lettered one apart", () => {
    expect(items(["в. Москве прошло заседание совета директоров,", "и. было принято решение о выплате дивидендов."]).map(([k]) => k)).toEqual(["text"]);
    expect(items(["а также в соответствии с договором поставки", "и приложениями к нему стороны договорились"]).map(([k]) => k)).toEqual(["text"]);
  });
});

/**
 * An Arabic line as Chromium draws it: a glyph a run, right to left, 5 units each, its right
 * edge at `right`; `raised` lifts the top of one glyph (a tanween over its letter).
 */
const arabicGlyphs = (logical: string, right: number, top: number, raised = false) =>
  [...logical].map((ch, i) => run(ch, right - (i + 1) * 5, top, raised && i === 3 ? { y0: top - 3 } : {}));

describe("buildBlocks: right-to-left paragraphs set wide apart", () => {
  // Chromium's line-height: normal for Noto Sans Arabic is about 2.1 em: every line gap is
  // wider than a paragraph's in Latin text, so lines join only where the line above was full.
  const words = "تلتزم الشركة بتقديم خدماتها وفق أعلى معايير الجودة وتحرص على الاستماع إلى ملاحظات عملائها وتطوير منتجاتها باستمرار بما يلبي احتياجاتهم".split(" ");
  /** A paragraph of `n` lines filled to 40 characters, its last line shorter, ending a sentence. */
  const paragraph = (n: number): string[] => {
    const lines: string[] = [];
    let line = "";
    for (let i = 0; lines.length < n - 1; i++) {
      const word = words[i % words.length]!;
      if (line && line.length + 1 + word.length > 40) lines.push(line), (line = "");
      line = line ? `${line} ${word}` : word;
    }
    return [...lines, "في السوق المحلية والإقليمية."];
  };
  it("joins a ragged-left paragraph's lines drawn a glyph a run, measured from the right margin", () => {
    const [first, second] = [paragraph(5), paragraph(4)];
    const runs = [...first.map((t, i) => arabicGlyphs(t, 400, 100 + 20 * i, i === 2)), ...second.map((t, i) => arabicGlyphs(t, 400, 210 + 20 * i))];
    expect(blocksOf(runs.flat()).map((b) => b.text)).toEqual([first.join(" "), second.join(" ")]);
  });
});

describe("buildBlocks: right-to-left numbered items", () => {
  /** Words as a PDF draws them (letters reversed), ending at `right`. */
  const drawn = (logical: string, right: number, top: number) => run([...logical].reverse().join(""), right - logical.length * 5, top);

  it("makes a Hebrew clause numbered without a full stop (`1.1⇥…`) a list item, a quote opening its words", () => {
    const blocks = blocksOf(["1.1|הספק יספק את השירותים", "1.2|״השירותים״ – שירותי פיתוח", "1.3|כל שינוי בהסכם ייעשה בכתב"].flatMap((r, k) => {
      const [n, words] = r.split("|");
      return [drawn(words!, 400, 100 + 14 * k), run(n!, 415, 100 + 14 * k)];
    }));
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ["list", "1.1 הספק יספק את השירותים"],
      ["list", "1.2 ״השירותים״ – שירותי פיתוח"],
      ["list", "1.3 כל שינוי בהסכם ייעשה בכתב"],
    ]);
  });

  it("ends an Arabic item at a line back at the marker's side (a paragraph after the list)", () => {
    const blocks = blocksOf([
      drawn("تسليم جميع المخططات والوثائق الفنية.", 400, 100),
      run(".", 418, 100, { x1: 421 }),
      run("2", 421, 100),
      drawn("وفي حال التأخير في التنفيذ تطبق غرامة قدرها", 426, 114),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["2. تسليم جميع المخططات والوثائق الفنية.", "وفي حال التأخير في التنفيذ تطبق غرامة قدرها"]);
  });
});
