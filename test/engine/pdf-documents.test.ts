import { beforeAll, describe, expect, it } from "vitest";
import type { DraftDocument, DraftElement } from "../../src/engine/draft.js";
import { chromiumPdf, latexPdf, popplerWords, randomProse, writerPdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { ofType, parsePdf, TEX_EXTENSION_LETTER, wordsNotHeld } from "./pdf-helpers.js";

// Shapes of document every writer produces and users ingest every day — a report's
// contents, running heads, long tables, references; a policy's numbered clauses, forms and
// footnotes; a web page's tables, lists, listings and sidebars — each written by the tool
// that makes them, and read back whole.

const texts = (doc: DraftDocument, type: string): string[] => ofType(doc, type).map((e) => e.text);
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The element `e` goes on from, if any. */
const from = (doc: DraftDocument, e: DraftElement): DraftElement | undefined => (e.continuationOf === undefined ? undefined : doc.elements[e.continuationOf]);

const PARAMETERS = Array.from({ length: 36 }, (_, k) => `param${String(k).padStart(2, "0")}`);

const REPORT = String.raw`\documentclass[11pt]{report}
\usepackage{amsmath}
\usepackage{longtable}
\pagestyle{headings}
\begin{document}
\tableofcontents
\chapter{Architecture Overview}
\section{Design goals}
${randomProse(1, 260)}.
The journal is replicated three times\footnote{Replicas are placed in separate racks.} and flushed in batches\footnote{See the Parameters section.} before a write is acknowledged\footnote{Acknowledgement waits for the slowest of the two nearest replicas, which bounds the latency of a write by the network between the racks.}.
\section{Components}
${randomProse(2, 200)}.
\begin{description}
\item[Random] passages sampled uniformly from the corpus, drawn again for every batch of the training run and never reused afterwards.
\item[Hard] passages ranked highly by BM25 but not relevant to the query.
\end{description}
The total cost follows from the sum and the integral below.
\begin{equation}
C = \int_0^T \sqrt{\frac{a(t)}{b(t)}}\,dt + \sum_{i=1}^{n} \left\{ x_i^2 \right\} + \prod_{j=1}^{m} \Bigl[ y_j \Bigr]
\end{equation}
\chapter{The Write Path}
\section{Parameters}
The table below lists every parameter of the write path.
\begin{longtable}{|l|r|p{6cm}|}
\hline Parameter & Default & Meaning \\ \hline \endhead
${PARAMETERS.map((p, k) => String.raw`${p} & ${37 * k} & Controls how often the journal segment ${k} is flushed to the disk under load. \\`).join("\n")}
\hline
\end{longtable}
\section{Recovery}
${randomProse(3, 900)}.
\chapter{Compaction}
\section{Merging}
${randomProse(4, 500)}.
\begin{thebibliography}{9}
\bibitem{a} S.~Robertson and H.~Zaragoza. The probabilistic relevance framework: BM25 and beyond. \emph{Foundations and Trends in Information Retrieval}, 3(4):333--389, 2009.
\bibitem{b} J.~Lin. A proposed conceptual framework for a representational approach to information retrieval. \emph{SIGIR Forum}, 55(2), 2021.
\end{thebibliography}
\end{document}
`;

const NOTE_RIGHT = "Check the valve log before any shutdown.";
const NOTE_LEFT = "Tell the control room which valves were closed and when they were opened again.";
const BOOK = String.raw`\documentclass[11pt]{book}
\begin{document}
\chapter{Pumps}
${randomProse(11, 150)}. The reservoir holds enough water for three dry summers\marginpar{\footnotesize ${NOTE_RIGHT}} when the intake is kept clear of silt. ${randomProse(12, 120)}.

${randomProse(13, 260)}. The telemetry system reports tank levels and alarms\marginpar{\footnotesize ${NOTE_LEFT}} to the central control room every minute. ${randomProse(14, 120)}.
\end{document}
`;

describe.skipIf(missing("pdflatex", "pdftotext"))("pdf: margin notes in a LaTeX book (right on odd pages, left on even ones)", () => {
  let doc: DraftDocument;
  beforeAll(async () => {
    doc = await parsePdf(await latexPdf(BOOK));
  }, 120_000);

  it("reads each note whole, apart from the paragraph beside it, after it, and the paragraph whole", () => {
    for (const [note, sentence] of [
      [NOTE_RIGHT, "The reservoir holds enough water for three dry summers when the intake is kept clear of silt."],
      [NOTE_LEFT, "The telemetry system reports tank levels and alarms to the central control room every minute."],
    ] as const) {
      const at = doc.elements.findIndex((e) => e.text.replace(/\s+/g, " ") === note);
      expect(at, note).toBeGreaterThan(0);
      const beside = doc.elements.findIndex((e) => e.text.includes(sentence));
      expect(beside, sentence).toBeGreaterThanOrEqual(0);
      expect(beside).toBeLessThan(at);
    }
  });
});

describe.skipIf(missing("pdflatex", "pdftotext"))("pdf: a LaTeX report (contents, running heads, a long table, references)", () => {
  let bytes: Uint8Array;
  let doc: DraftDocument;
  beforeAll(async () => {
    bytes = await latexPdf(REPORT);
    doc = await parsePdf(bytes);
  }, 120_000);

  it("reads every entry of the contents whole, its number first and its page last, one element each", () => {
    const entries = doc.elements.filter((e) => e.page === 1 && /\.\s*\.\s*\./.test(e.text));
    // Each entry: its number, its title, the leader, its page.
    expect(entries.map((e) => e.text.replace(/(?:\s*\.){3,}\s*/, " … ").replace(/\d+$/, "N"))).toEqual(["1.1 Design goals … N", "1.2 Components … N", "2.1 Parameters … N", "2.2 Recovery … N", "3.1 Merging … N"]);
  });

  it("reads each chapter's label and title as one heading, its sections under it", () => {
    const titles = ofType(doc, "Title").filter((e) => e.page > 1);
    expect(titles.map((e) => e.text).filter((t) => /^Chapter/.test(t))).toEqual(["Chapter 1 Architecture Overview", "Chapter 2 The Write Path", "Chapter 3 Compaction"]);
    const level = (text: string) => titles.find((e) => e.text === text)?.headingLevel;
    expect(level("1.1 Design goals")).toBeGreaterThan(level("Chapter 1 Architecture Overview")!);
  });

  it("takes every chapter's running head for a Header, however few pages the chapter has", () => {
    const heads = doc.elements.filter((e) => /^CHAPTER \d\./.test(e.text));
    expect(heads.length).toBeGreaterThanOrEqual(4);
    expect(heads.filter((e) => e.type !== "Header").map((e) => [e.page, e.type, e.text])).toEqual([]);
  });

  it("gives each parameter of the long table its own row, the description wrapped inside it, the parts linked across pages", () => {
    const parts = ofType(doc, "Table");
    expect(parts.length).toBeGreaterThanOrEqual(2);
    const rows = parts.flatMap((t) => Array.from({ length: t.table!.rows }, (_, r) => t.table!.cells.filter((c) => c.row === r + 1).map((c) => c.text)));
    const body = rows.filter((r) => r[0]!.startsWith("param"));
    expect(body.map((r) => r[0])).toEqual(PARAMETERS);
    expect(body[7]).toEqual(["param07", "259", "Controls how often the journal segment 7 is flushed to the disk under load."]);
    for (const part of parts.slice(1)) expect(from(doc, part)).toBe(parts[parts.indexOf(part) - 1]);
  });

  it("keeps each reference and each description item whole, its hanging lines included", () => {
    expect(doc.elements.filter((e) => /^\[\d\]/.test(e.text)).map((e) => e.text)).toEqual([
      "[1] S. Robertson and H. Zaragoza. The probabilistic relevance framework: BM25 and beyond. Foundations and Trends in Information Retrieval, 3(4):333–389, 2009.",
      "[2] J. Lin. A proposed conceptual framework for a representational approach to information retrieval. SIGIR Forum, 55(2), 2021.",
    ]);
    expect(doc.elements.filter((e) => /^(?:Random|Hard) passages/.test(e.text)).map((e) => e.text)).toEqual([
      "Random passages sampled uniformly from the corpus, drawn again for every batch of the training run and never reused afterwards.",
      "Hard passages ranked highly by BM25 but not relevant to the query.",
    ]);
  });

  it("keeps each footnote with its raised mark, one element each", () => {
    expect(doc.elements.filter((e) => /^\d (?:Replicas|See the|Acknowledgement)/.test(e.text)).map((e) => [e.type, e.text])).toEqual([
      ["NarrativeText", "1 Replicas are placed in separate racks."],
      ["NarrativeText", "2 See the Parameters section."],
      ["NarrativeText", "3 Acknowledgement waits for the slowest of the two nearest replicas, which bounds the latency of a write by the network between the racks."],
    ]);
  });

  it("writes no control character (TeX's big delimiters have none) and holds every word poppler finds", async () => {
    expect(doc.elements.filter((e) => CONTROL.test(e.text)).map((e) => JSON.stringify(e.text))).toEqual([]);
    const oracle = await popplerWords(bytes);
    expect(doc.pages).toHaveLength(oracle.pages.length);
    // Words hyphenated at a line end are joined in our text (`seg-` + `ment`); poppler
    // passes a delimiter's control character on as a word of its own, and a big operator
    // as its code's letter.
    expect(wordsNotHeld(doc, oracle, (w) => w.endsWith("-") || CONTROL.test(w) || TEX_EXTENSION_LETTER.test(w))).toEqual([]);
  });
});

// A Writer list style whose markers all stand at the margin, each level's text a wider
// tab in: Word's legal numbering (1. / 1.1. / 1.1.1.).
const level = (n: number, tab: number, extra: string) =>
  `<text:list-level-style-number text:level="${n}" style:num-suffix="." style:num-format="1" ${extra}><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="${tab}cm" fo:text-indent="-${tab}cm" fo:margin-left="${tab}cm"/></style:list-level-properties></text:list-level-style-number>`;
const LEGAL = `<text:list-style style:name="Legal">${level(1, 1, "")}${level(2, 1.6, 'text:display-levels="2"')}${level(3, 2.3, 'text:display-levels="3"')}</text:list-style>
 <style:style style:name="FormRow" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm"><style:tab-stops><style:tab-stop style:position="5cm"/></style:tab-stops></style:paragraph-properties></style:style>`;
const p = (text: string, style = "Standard") => `<text:p text:style-name="${style}">${text}</text:p>`;
type Clause = string | [string, Clause[]];
const clauses = (items: Clause[]): string =>
  `<text:list text:style-name="Legal">${items.map((c) => `<text:list-item>${typeof c === "string" ? p(c) : p(c[0]) + clauses(c[1])}</text:list-item>`).join("")}</text:list>`;
const note = (n: number, text: string) => `<text:note text:id="n${n}" text:note-class="footnote"><text:note-citation>${n}</text:note-citation><text:note-body>${p(text, "Footnote")}</text:note-body></text:note>`;
const field = (label: string, value: string) => p(`<text:span text:style-name="B">${label}:</text:span><text:tab/>${value}`, "FormRow");

const POLICY = [
  p("Obligations of the supplier:"),
  clauses([["The supplier shall:", ["maintain an information security policy;", ["notify the Company of any breach:", ["within 24 hours of discovery;", "in writing to the Data Protection Officer."]]]], "The Company may audit the supplier once a year."]),
  p("Supplier details:"),
  field("Company name", "Blue Harbour Logistics Ltd"),
  field("Registration number", "09876543"),
  field("Date of incorporation", "03/06/2015"),
  p(`This policy covers all information assets${note(1, "Information assets include paper records, electronic files and the systems that hold them.")}. Access is granted on the principle of least privilege and reviewed every quarter.`),
  p(`Exceptions are recorded in the risk register and reviewed at least once a year.${note(2, "See also the Data Protection Policy, section 4, for the legal definitions used by the regulator.")}`),
].join("\n");

describe.skipIf(missing("soffice"))("pdf: a LibreOffice policy (legal numbering, a form, footnotes)", () => {
  let doc: DraftDocument;
  beforeAll(async () => {
    doc = await parsePdf(await writerPdf(POLICY, LEGAL));
  }, 180_000);

  it("reads clauses numbered at the margin as items, each with its number and its level", () => {
    expect(ofType(doc, "ListItem").filter((e) => /^\d\./.test(e.text)).map((e) => [e.text, e.listLevel])).toEqual([
      ["1. The supplier shall:", 0],
      ["1.1. maintain an information security policy;", 1],
      ["1.2. notify the Company of any breach:", 1],
      ["1.2.1. within 24 hours of discovery;", 2],
      ["1.2.2. in writing to the Data Protection Officer.", 2],
      ["2. The Company may audit the supplier once a year.", 0],
    ]);
    expect(texts(doc, "NarrativeText")).toContain("Obligations of the supplier:");
  });

  it("reads each form row as its label and value, no heading", () => {
    expect(texts(doc, "NarrativeText")).toEqual(expect.arrayContaining(["Company name: Blue Harbour Logistics Ltd", "Registration number: 09876543", "Date of incorporation: 03/06/2015"]));
    expect(ofType(doc, "Title").filter((e) => /:/.test(e.text))).toEqual([]);
  });

  it("keeps each footnote with its number, one element each", () => {
    const notes = doc.elements.filter((e) => /^[12] (?:Information|See also)/.test(e.text)).map((e) => e.text);
    expect(notes).toEqual(["1 Information assets include paper records, electronic files and the systems that hold them.", "2 See also the Data Protection Policy, section 4, for the legal definitions used by the regulator."]);
  });
});

const STYLE = `<style>body { font: 10pt Arial, sans-serif; margin: 0 } table { border-collapse: collapse; width: 100% }
  th { text-align: left; border-bottom: 2px solid #333; padding: 5px } td { padding: 5px; vertical-align: top }
  tr:nth-child(even) td { background: #f0f4fa } pre { font-size: 9pt; line-height: 1.4 } .quote { font-size: 16pt; font-style: italic }</style>`;
const ENDPOINTS = [
  ["/v1/users", "GET", "Returns a paginated list of users in the organisation, sorted by creation date with the newest first.", "100/min"],
  ["/v1/users/{id}", "DELETE", "Removes the user and revokes every access token issued to them. This cannot be undone.", "10/min"],
  ["/v1/projects", "POST", "Creates a project.", "20/min"],
  ["/v1/teams", "PUT", "Replaces the member list of the project with the list given in the request body, sending an invitation email to every new member.", "20/min"],
];
// Compound words a browser breaks lines after (it never hyphenates unless asked).
const COMPOUNDS = ["long-debated", "well-known", "state-funded", "year-on-year", "user-facing", "follow-up", "e-mailed", "cross-border"];
const PAGE = `<html><head>${STYLE}</head><body>
<h2>API endpoints</h2>
<table><thead><tr><th style="width:20%">Endpoint</th><th style="width:10%">Method</th><th>Description</th><th style="width:14%">Limit</th></tr></thead>
<tbody>${ENDPOINTS.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>
<p>All endpoints require a bearer token.</p>
<p>Before you start:</p><ol type="a"><li>Clear the ground.</li><li>Mark the boundaries.</li><li>Order the materials.</li></ol>
<h3>The vote</h3><p>The council voted seven to two on Tuesday night to approve the new park along the river.</p>
<p class="quote">“This is the biggest investment in public space the east side has seen in forty years.”</p>
<p>Supporters said the park would give residents a green space within walking distance of their homes.</p>
<p>The service reads this file at start-up:</p>
<pre>services:
  web:
    image: nginx
    ports:
      - "80:80"
    environment:
      - DEBUG=false</pre>
<p style="width: 11em">${COMPOUNDS.map((w) => `a ${w} plan`).join(", ")}.</p>
<p>End of the page.</p></body></html>`;

describe.skipIf(missing("chromium", "pdftotext"))("pdf: web pages printed by Chromium (tables, lists, listings, a sidebar)", () => {
  let page: DraftDocument;
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = await chromiumPdf(PAGE);
    page = await parsePdf(bytes);
  }, 120_000);

  it("keeps the hyphen of a compound broken at a line's end: a browser does not hyphenate", async () => {
    // The narrow paragraph breaks lines after some of the compounds' hyphens.
    const { words } = await popplerWords(bytes);
    expect(words.filter((w) => /\p{L}-$/u.test(w.text)).length).toBeGreaterThan(0);
    const text = page.elements.find((e) => e.text.startsWith("a long-debated plan"))?.text;
    expect(text).toBe(`${COMPOUNDS.map((w) => `a ${w} plan`).join(", ")}.`);
  });

  it("reads a borderless table whose description cells wrap as one table, a row per endpoint", () => {
    const [table] = ofType(page, "Table");
    expect([table?.table?.rows, table?.table?.cols]).toEqual([5, 4]);
    const rows = Array.from({ length: 5 }, (_, r) => table!.table!.cells.filter((c) => c.row === r + 1).map((c) => c.text));
    expect(rows).toEqual([["Endpoint", "Method", "Description", "Limit"], ...ENDPOINTS]);
  });

  it("reads a lettered list as items, a pull quote as text, a YAML listing as one snippet", () => {
    expect(texts(page, "ListItem")).toEqual(["a. Clear the ground.", "b. Mark the boundaries.", "c. Order the materials."]);
    expect(ofType(page, "Title").map((e) => e.text)).toEqual(["API endpoints", "The vote"]);
    expect(texts(page, "NarrativeText")).toContain("“This is the biggest investment in public space the east side has seen in forty years.”");
    expect(texts(page, "CodeSnippet")).toEqual(['services:\n  web:\n    image: nginx\n    ports:\n      - "80:80"\n    environment:\n      - DEBUG=false']);
  });

  it("links a paragraph across a page break past the sidebar read after it, and a listing cut by the break", async () => {
    // Paragraphs of sentences (a capital, a full stop) too long for a page to end between them only.
    const sentence = (seed: number) => {
      const words = randomProse(seed, 14);
      return `${words[0]!.toUpperCase()}${words.slice(1)}.`;
    };
    const long = [7, 19, 11, 15].map((n, k) => `<p>${Array.from({ length: n }, (_, j) => sentence(10 + 20 * k + j)).join(" ")}</p>`).join("");
    const html = `<html><head><style>@page { size: A6; margin: 15mm } body { font: 11pt Georgia, serif; margin: 0; line-height: 1.5 }
      .wrap { display: grid; grid-template-columns: 2fr 1fr; gap: 18px } aside { background: #f3f3f3; padding: 8px; font-size: 9pt }
      pre { font-size: 8pt; line-height: 1.4 }</style></head>
      <body><div class="wrap"><main>${long}</main><aside><b>Related</b><p>Budget talks stall over transit funding.</p></aside></div>
      <pre>${Array.from({ length: 60 }, (_, k) => `const value${k} = compute(${k});`).join("\n")}</pre></body></html>`;
    const doc = await parsePdf(await chromiumPdf(html));
    // Every page of the main column that opens in mid-sentence goes on from the main column's last paragraph, not the sidebar.
    const goOn = doc.elements.filter((e) => e.type === "NarrativeText" && e.page > 1 && /^[a-z]/.test(e.text));
    expect(goOn.length).toBeGreaterThanOrEqual(1);
    for (const e of goOn) {
      const before = from(doc, e);
      expect(before?.page).toBe(e.page - 1);
      expect(before?.text).not.toMatch(/Budget talks|Related/);
      expect(before?.text).not.toMatch(/\.$/);
    }
    const code = ofType(doc, "CodeSnippet");
    expect(code.length).toBeGreaterThanOrEqual(2);
    for (const part of code.slice(1)) expect(from(doc, part)).toBe(code[code.indexOf(part) - 1]);
  }, 60_000);
});
