import { describe, expect, it } from "vitest";
import { addCitationGeometry, withCitationGeometry } from "../../src/chunk/citation-geometry.js";
import { rectOf, rectToCoordinates } from "../../src/chunk/rect.js";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { CitationRetriever } from "../../src/retrieve/citation-retriever.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import type { ParseResult } from "../../src/wire/index.js";
import { makeChunk } from "../retrieve/make-chunks.js";

// One character = 0.01 of the page wide; line 1 at y 0.10–0.12, line 2 at y 0.13–0.15.
const LINE1 = "Opening hours are nine to six. Returns need the";
const LINE2 = "original receipt.";
const TEXT = `${LINE1} ${LINE2}`;

function charDetails(): { index: number; text: string; coordinates: number[] }[] {
  const out: { index: number; text: string; coordinates: number[] }[] = [];
  [...TEXT].forEach((ch, index) => {
    const onLine2 = index > LINE1.length;
    const col = onLine2 ? index - LINE1.length - 1 : index;
    const y0 = onLine2 ? 0.13 : 0.1;
    out.push({ index, text: ch, coordinates: rectToCoordinates({ x0: 0.1 + col * 0.01, y0, x1: 0.1 + (col + 1) * 0.01, y1: y0 + 0.02 }) });
  });
  return out;
}

const result = {
  schema_version: "1.4.0",
  file_id: "f",
  elements: [
    { element_id: "h", type: "Title", text: "Store rules", page_number: 1, coordinates: rectToCoordinates({ x0: 0.1, y0: 0.05, x1: 0.3, y1: 0.08 }) },
    { element_id: "p", type: "NarrativeText", text: TEXT, page_number: 1, coordinates: rectToCoordinates({ x0: 0.1, y0: 0.1, x1: 0.57, y1: 0.15 }), char_details: charDetails() },
  ],
  pages: [{ page_number: 1, page_width: 1000, page_height: 2000, page_image_url: "https://example.com/p1.png" }],
} as unknown as ParseResult;

const chunk = () =>
  makeChunk("c", `Store rules\n\n${TEXT}`, {
    elementIds: ["h", "p"],
    regions: [
      { page: 1, elementId: "h", coordinates: result.elements[0]!.coordinates },
      { page: 1, elementId: "p", coordinates: result.elements[1]!.coordinates },
    ],
  });

describe("addCitationGeometry", () => {
  it("adds page sizes, http page image URLs and measured text spans", () => {
    const [c] = addCitationGeometry(result, [chunk()]);
    expect(c!.metadata["pageSizes"]).toEqual({ "1": { width: 1000, height: 2000 } });
    expect(c!.metadata["pageImageUrls"]).toEqual({ "1": "https://example.com/p1.png" });
    const spans = c!.metadata["textSpans"] as { start: number; end: number; granularity: string }[];
    const texts = spans.map((s) => [c!.text.slice(s.start, s.end), s.granularity]);
    expect(texts).toEqual([
      ["Store rules", "element"],
      ["Opening hours are nine to six.", "run"],
      ["Returns need the", "run"],
      ["original receipt.", "run"],
    ]);
    // Pure: the input chunk is untouched, ids and text unchanged.
    const original = chunk();
    addCitationGeometry(result, [original]);
    expect(original.metadata["textSpans"]).toBeUndefined();
    expect(c!.id).toBe("c");
  });

  it("gives exact quote boxes, one per line, for a quote starting mid-line", async () => {
    const store = new MemoryStore();
    const embeddings = new HashEmbeddings();
    const chunker = withCitationGeometry((_result: ParseResult) => [chunk()]);
    const [c] = await chunker(result);
    await store.upsert([{ ...c!, vector: await embeddings.embedQuery(c!.embedText) }]);
    const [doc] = await new CitationRetriever({ store, embeddings, k: 1 }).invoke("original receipt for returns");
    const q = doc!.metadata.citation.quote;
    expect(q.text).toBe("Returns need the original receipt.");
    expect(q.approximate).toBe(false);
    const rects = q.regions.map((r) => rectOf(r.coordinates));
    expect(rects).toHaveLength(2);
    const start = LINE1.indexOf("Returns");
    expect(rects[0]!.x0).toBeCloseTo(0.1 + start * 0.01, 6);
    expect(rects[0]!.x1).toBeCloseTo(0.1 + LINE1.length * 0.01, 6);
    expect(rects[0]!.y0).toBeCloseTo(0.1, 6);
    expect(rects[1]!.x0).toBeCloseTo(0.1, 6);
    expect(rects[1]!.x1).toBeCloseTo(0.1 + LINE2.length * 0.01, 6);
    expect(rects[1]!.y0).toBeCloseTo(0.13, 6);
    expect(q.regions[0]!.pixels).toEqual(q.regions[0]!.coordinates.map((v, i) => v * (i % 2 === 0 ? 1000 : 2000)));
  });

  it("marks a quote box approximate when it cuts a measured run", async () => {
    const [c] = addCitationGeometry(result, [chunk()]);
    const { boxesForRange } = await import("../../src/retrieve/chunk-geometry.js");
    const at = c!.text.indexOf("hours");
    const boxes = boxesForRange(c!, at, at + 5, () => undefined);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.approximate).toBe(true);
    const r = rectOf(boxes[0]!.coordinates);
    expect(r.x0).toBeGreaterThan(0.1);
    expect(r.x1).toBeLessThan(0.1 + 30 * 0.01);
  });
});

/** An element set on one line at `y` (one character = 0.01 of the page wide), with char_details. */
function lineElement(id: string, page: number, text: string, y: number, extra: Record<string, unknown> = {}) {
  const box = (col: number, n: number) => rectToCoordinates({ x0: 0.1 + col * 0.01, y0: y, x1: 0.1 + (col + n) * 0.01, y1: y + 0.02 });
  return {
    element_id: id,
    type: "NarrativeText",
    text,
    page_number: page,
    coordinates: box(0, text.length),
    char_details: [...text].map((ch, index) => ({ index, text: ch, coordinates: box(index, 1) })),
    ...extra,
  };
}

describe("addCitationGeometry on a paragraph cut by a page break", () => {
  const cases = [
    { lang: "English", head: "Refunds are paid within ten", tail: "days. Keep the receipt.", quote: "Refunds are paid within ten days." },
    { lang: "Chinese", head: "退货须在三十天", tail: "内申请。请保留收据。", quote: "退货须在三十天内申请。" },
  ];
  for (const c of cases) {
    it(`measures both halves of the joined paragraph (${c.lang})`, async () => {
      const { chunkDocument } = await import("../../src/chunk/chunk-document.js");
      const { boxesForRange } = await import("../../src/retrieve/chunk-geometry.js");
      const split = {
        schema_version: "1.4.0",
        file_id: "f",
        elements: [lineElement("a", 1, c.head, 0.9), lineElement("b", 2, c.tail, 0.1, { metadata: { is_continuation: true, continuation_of: "a" } })],
        pages: [
          { page_number: 1, page_width: 1000, page_height: 1400 },
          { page_number: 2, page_width: 1000, page_height: 1400 },
        ],
      } as unknown as ParseResult;
      const [chunk] = addCitationGeometry(split, chunkDocument(split, { minTokens: 0 }));
      // The chunker joins the halves into one paragraph (no space between CJK characters).
      const at = chunk!.text.indexOf(c.quote);
      expect(at).toBeGreaterThanOrEqual(0);
      const spans = chunk!.metadata["textSpans"] as { start: number; end: number; page: number; granularity: string }[];
      expect(spans.map((s) => s.granularity)).not.toContain("element");
      expect(new Set(spans.map((s) => s.page))).toEqual(new Set([1, 2]));
      // The sentence crossing the break: its words on page 1, its end on page 2, measured.
      const boxes = boxesForRange(chunk!, at, at + c.quote.length, () => undefined);
      expect(boxes.map((b) => [b.page, b.approximate])).toEqual([
        [1, false],
        [2, false],
      ]);
      const [p1, p2] = boxes.map((b) => rectOf(b.coordinates));
      expect(p1!.x0).toBeCloseTo(0.1, 6);
      expect(p1!.x1).toBeCloseTo(0.1 + c.head.length * 0.01, 6);
      expect(p2!.x0).toBeCloseTo(0.1, 6);
      expect(p2!.x1).toBeCloseTo(0.1 + (c.quote.length - c.head.length - (c.lang === "English" ? 1 : 0)) * 0.01, 6);
    });
  }
});

/**
 * `TEXT` set sideways: each line a column one character (0.01 of the page) tall a step,
 * read down the page (`down`, a page turned by /Rotate 90 with text drawn level) or up it,
 * line 1 in the column at x 0.80–0.82, line 2 in the one left of it at x 0.77–0.79.
 */
function sidewaysResult(down: boolean): ParseResult {
  const box = (line: number, col: number, n: number) => {
    const x0 = line === 1 ? 0.8 : 0.77;
    const [y0, y1] = down ? [0.1 + col * 0.01, 0.1 + (col + n) * 0.01] : [0.9 - (col + n) * 0.01, 0.9 - col * 0.01];
    return rectToCoordinates({ x0, y0, x1: x0 + 0.02, y1 });
  };
  const char_details = [...TEXT].map((ch, index) => {
    const onLine2 = index > LINE1.length;
    return { index, text: ch, coordinates: box(onLine2 ? 2 : 1, onLine2 ? index - LINE1.length - 1 : index, 1) };
  });
  const whole = rectToCoordinates({ x0: 0.77, y0: down ? 0.1 : 0.9 - LINE1.length * 0.01, x1: 0.82, y1: down ? 0.1 + LINE1.length * 0.01 : 0.9 });
  return {
    ...result,
    elements: [{ element_id: "p", type: "NarrativeText", text: TEXT, page_number: 1, coordinates: whole, char_details }],
  } as unknown as ParseResult;
}

describe("addCitationGeometry on text set sideways", () => {
  for (const down of [true, false]) {
    it(`measures one span per line and sentence, read ${down ? "down" : "up"} the page`, async () => {
      const r = sidewaysResult(down);
      const [c] = addCitationGeometry(r, [makeChunk("c", TEXT, { elementIds: ["p"], regions: [{ page: 1, elementId: "p", coordinates: r.elements[0]!.coordinates }] })]);
      const spans = c!.metadata["textSpans"] as { start: number; end: number; coordinates: number[] }[];
      expect(spans.map((s) => c!.text.slice(s.start, s.end))).toEqual(["Opening hours are nine to six.", "Returns need the", "original receipt."]);
      const first = rectOf(spans[0]!.coordinates);
      const n = "Opening hours are nine to six.".length;
      expect(first.x0).toBeCloseTo(0.8, 6);
      expect(first.x1).toBeCloseTo(0.82, 6);
      expect(first.y1 - first.y0).toBeCloseTo(n * 0.01, 6);
      // A quote of both sentences of line 1 and line 2: one box a line.
      const { boxesForRange } = await import("../../src/retrieve/chunk-geometry.js");
      const boxes = boxesForRange(c!, 0, TEXT.length, () => undefined);
      expect(boxes.map((b) => rectOf(b.coordinates).x0)).toEqual([0.8, 0.77].map((x) => expect.closeTo(x, 6)));
      expect(boxes.every((b) => !b.approximate)).toBe(true);
    });
  }
});
