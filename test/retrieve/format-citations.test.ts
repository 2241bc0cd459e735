import { Document } from "@langchain/core/documents";
import { describe, expect, it } from "vitest";
import { citationsToJson, formatCitations } from "../../src/retrieve/format-citations.js";
import type { Citation } from "../../src/retrieve/citation.js";

const citation = (over: Partial<Citation> = {}): Citation => ({
  sourceId: "docs/report.pdf",
  filename: "report.pdf",
  chunkIds: ["c1"],
  pages: [3, 4],
  headingPath: ["Intro", "Scope"],
  regions: [{ page: 3, elementId: "e", coordinates: [0, 0, 1, 0, 1, 1, 0, 1] }],
  quote: { text: "The *scope* is [limited].", start: 0, end: 25, score: 1, regions: [], approximate: false },
  ...over,
});

describe("formatCitations", () => {
  const docs = [
    new Document({ pageContent: "x", metadata: { citation: citation() } }),
    new Document({ pageContent: "y", metadata: {} }),
    new Document({ pageContent: "z", metadata: { citation: citation({ filename: undefined, sourceId: "notes.txt", pages: [1], headingPath: [], url: "https://example.com/n" }) } }),
  ];

  it("markdown: numbered list with file, pages, heading path and escaped quote", () => {
    expect(formatCitations(docs)).toBe(
      [
        '[1] report.pdf, pp. 3–4 — Intro › Scope: "The \\*scope\\* is \\[limited\\]."',
        '[3] [notes.txt](<https://example.com/n>), p. 1: "The \\*scope\\* is \\[limited\\]."',
      ].join("\n"),
    );
  });

  it("markdown: shows HTML table quotes as cell text", () => {
    const html = [new Document({ pageContent: "", metadata: { citation: citation({ quote: { text: "<tr><td>Refund</td><td>30 days</td></tr>", start: 0, end: 40, score: 1, regions: [], approximate: true } }) } })];
    expect(formatCitations(html)).toMatch(/: "Refund 30 days"$/);
  });

  it("markdown: shortens long quotes", () => {
    const long = [new Document({ pageContent: "", metadata: { citation: citation({ quote: { text: "a".repeat(300), start: 0, end: 300, score: 1, regions: [], approximate: false } }) } })];
    expect(formatCitations(long, { maxQuoteLength: 10 })).toMatch(/"aaaaaaaaaa…"$/);
  });

  it("json: numbers kept, documents without a citation skipped", () => {
    const items = JSON.parse(formatCitations(docs, { style: "json" })) as ReturnType<typeof citationsToJson>;
    expect(items.map((i) => i.n)).toEqual([1, 3]);
    expect(items[0]).toMatchObject({ sourceId: "docs/report.pdf", filename: "report.pdf", pages: [3, 4], quote: "The *scope* is [limited].", chunkIds: ["c1"] });
  });
});
