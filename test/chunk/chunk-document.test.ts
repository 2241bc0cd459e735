import { describe, expect, it } from "vitest";
import { chunkDocument, chunkDocumentWithReport, type ChunkWarning } from "../../src/chunk/index.js";
import { DocParseError, LocalErrorCode } from "../../src/errors.js";
import type { Element, ParseResult } from "../../src/wire/index.js";
import { box, el, result } from "./support/elements.js";

describe("chunkDocument", () => {
  it("throws DOCPARSE_INVALID_RESPONSE without an elements array, DOCPARSE_INVALID_OPTION on bad options", () => {
    for (const bad of [null, {}, { elements: "x" }]) {
      try {
        chunkDocument(bad as unknown as ParseResult);
        expect.unreachable();
      } catch (e) {
        expect(DocParseError.isInstance(e) && e.code).toBe(LocalErrorCode.InvalidResponse);
      }
    }
    expect(() => chunkDocument(result([]), { maxTokens: 1 })).toThrow(/maxTokens/);
  });

  it("returns no chunks for an empty document", () => {
    expect(chunkDocument(result([]))).toEqual([]);
    expect(chunkDocument(result([el("PageBreak", ""), el("NarrativeText", "   ")]))).toEqual([]);
  });

  it("links neighbours and numbers chunks", () => {
    const chunks = chunkDocument(result([el("Title", "A"), el("NarrativeText", "a"), el("Title", "B"), el("NarrativeText", "b")]));
    expect(chunks.map((c) => [c.metadata.chunkIndex, c.metadata.chunkCount, c.metadata.prevId, c.metadata.nextId])).toEqual([
      [0, 2, undefined, chunks[1]!.id],
      [1, 2, chunks[0]!.id, undefined],
    ]);
  });
});

describe("result.metadata (document fields)", () => {
  const elements = [el("NarrativeText", "hello")];

  it("carries source, file, job, url and schema version", () => {
    const [c] = chunkDocument(
      result(elements, { metadata: { filename: "r.pdf", filetype: "application/pdf", data_source: { url: "https://example.com/r.pdf" } } }),
    );
    expect(c!.metadata).toMatchObject({ sourceId: "file-1", fileId: "file-1", jobId: "job-1", filename: "r.pdf", filetype: "application/pdf", url: "https://example.com/r.pdf", schemaVersion: "1.4.0" });
    expect(c!.metadata.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("defaults sourceId to file_id, then metadata.filename, then 'document'; the option wins", () => {
    expect(chunkDocument(result(elements))[0]!.metadata.sourceId).toBe("file-1");
    expect(chunkDocument(result(elements, { file_id: "" }))[0]!.metadata.sourceId).toBe("doc.pdf");
    expect(chunkDocument({ elements } as unknown as ParseResult)[0]!.metadata.sourceId).toBe("document");
    expect(chunkDocument(result(elements), { sourceId: "docs/r.pdf" })[0]!.metadata.sourceId).toBe("docs/r.pdf");
  });

  it("omits fields the result does not have", () => {
    const [c] = chunkDocument({ elements } as unknown as ParseResult);
    for (const k of ["filename", "filetype", "fileId", "jobId", "url", "schemaVersion", "table", "image", "inlineObjects", "oversized"]) expect(c!.metadata).not.toHaveProperty(k);
  });

  it("copies options.metadata into every chunk without letting it override the chunker's keys", () => {
    const [c] = chunkDocument(result(elements), { metadata: { tenant: "acme", sourceId: "spoof", version: 3, oversized: true, table: null } });
    expect(c!.metadata.tenant).toBe("acme");
    expect(c!.metadata.version).toBe(3);
    expect(c!.metadata.sourceId).toBe("file-1");
    expect(c!.metadata).not.toHaveProperty("oversized");
    expect(c!.metadata).not.toHaveProperty("table");
  });
});

describe("chunk ids", () => {
  const doc = (second: string) => result([el("Title", "One", { element_id: "t1" }), el("NarrativeText", "first", { element_id: "p1" }), el("Title", "Two", { element_id: "t2" }), el("NarrativeText", second, { element_id: "p2" })]);

  it("stay the same for unchanged chunks when another part of the document changes", () => {
    const a = chunkDocument(doc("second"));
    const b = chunkDocument(doc("second, edited"));
    expect(b[0]!.id).toBe(a[0]!.id);
    expect(b[1]!.id).not.toBe(a[1]!.id);
  });

  it("change with the source and with the options", () => {
    const a = chunkDocument(doc("x"));
    expect(chunkDocument(doc("x"), { sourceId: "other" })[0]!.id).not.toBe(a[0]!.id);
    expect(chunkDocument(doc("x"), { maxTokens: 300 })[0]!.id).not.toBe(a[0]!.id);
  });

  it("are unique even for identical repeated content", () => {
    const same = Array.from({ length: 5 }, (_, i) => el("NarrativeText", "Same text.", { element_id: `s${i}`, page_number: i + 1 }));
    const chunks = chunkDocument(result(same), { strategy: "by_element" });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(5);
  });
});

describe("options.dropTypes", () => {
  const elements = [el("Header", "ACME Corp"), el("NarrativeText", "Body."), el("Footer", "Confidential"), el("PageNumber", "1")];

  it("drops headers, footers and page numbers by default", () => {
    expect(chunkDocument(result(elements)).map((c) => c.text)).toEqual(["Body."]);
  });

  it("is configurable", () => {
    expect(chunkDocument(result(elements), { dropTypes: [] })[0]!.text).toBe("ACME Corp\n\nBody.\n\nConfidential\n\n1");
    expect(chunkDocument(result(elements), { dropTypes: ["Header", "Footer", "PageNumber", "NarrativeText"] })).toEqual([]);
  });
});

describe("options.embedTemplate", () => {
  const elements = [el("Title", "Intro", { metadata: { category_depth: 0 } }), el("NarrativeText", "a".repeat(10)), el("Title", "Sub", { metadata: { category_depth: 1 } }), el("NarrativeText", "body")];

  it("takes a string with {headingPath}/{context} and {text}", () => {
    const chunks = chunkDocument(result(elements), { embedTemplate: "passage: [{headingPath}] {text}", minTokens: 0 });
    expect(chunks[1]!.embedText).toBe("passage: [Intro] Sub\n\nbody");
  });

  it("takes a function", () => {
    const chunks = chunkDocument(result(elements), { embedTemplate: ({ text, headingPath }) => `${headingPath.length}|${text}`, minTokens: 0 });
    expect(chunks[1]!.embedText).toBe("1|Sub\n\nbody");
  });

  it("counts the template in the budget", () => {
    const long = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");
    for (const c of chunkDocument(result([el("NarrativeText", long)]), { embedTemplate: "Represent this document for retrieval: {text}", maxTokens: 80 })) {
      expect(c.metadata.tokens).toBeLessThanOrEqual(80);
      expect(c.embedText.startsWith("Represent this document for retrieval: ")).toBe(true);
    }
  });
});

describe("options.strategy", () => {
  const elements: Element[] = [
    el("Title", "A", { page_number: 1, element_id: "t" }),
    el("NarrativeText", "one", { page_number: 1, element_id: "p1" }),
    el("NarrativeText", "two", { page_number: 2, element_id: "p2" }),
    el("Table", "x y\n1 2", { page_number: 2, element_id: "tb" }),
    el("NarrativeText", "three", { page_number: 3, element_id: "p3" }),
  ];

  it("by_page: one chunk per page, mixed kinds", () => {
    const chunks = chunkDocument(result(elements), { strategy: "by_page" });
    expect(chunks.map((c) => c.metadata.pages)).toEqual([[1], [2], [3]]);
    expect(chunks[1]!.metadata.kind).toBe("mixed");
    expect(chunks[1]!.metadata.table?.elementId).toBe("tb");
  });

  it("by_element: one element per chunk", () => {
    const chunks = chunkDocument(result(elements), { strategy: "by_element" });
    expect(chunks.map((c) => c.metadata.elementIds)).toEqual([["t"], ["p1"], ["p2"], ["tb"], ["p3"]]);
    expect(chunks[3]!.metadata.kind).toBe("table");
  });

  it("hierarchy: the whole small section in one chunk", () => {
    const chunks = chunkDocument(result(elements));
    expect(chunks.map((c) => c.metadata.elementIds)).toEqual([["t", "p1", "p2", "tb", "p3"]]);
  });
});

describe("images", () => {
  it("make an image chunk from caption and text, keeping image data in metadata", () => {
    const img = el("Image", "Q3 revenue by region", {
      element_id: "img",
      sub_type: "diagram",
      image_data: { image_url: "https://example.com/i.png", mime_type: "image/png" },
      metadata: { width: 640, height: 480 },
    });
    const cap = el("FigureCaption", "Figure 2: Revenue", { element_id: "cap" });
    const [c] = chunkDocument(result([img, cap]), { strategy: "by_element" });
    expect(c!.text).toBe("Figure 2: Revenue\n\nQ3 revenue by region");
    expect(c!.metadata.kind).toBe("image");
    expect(c!.metadata.image).toEqual({ url: "https://example.com/i.png", mimeType: "image/png", width: 640, height: 480 });
    expect(c!.metadata.elementIds).toEqual(["cap", "img"]);
  });

  it("leave out an image with neither text nor caption", () => {
    expect(chunkDocument(result([el("Image", ""), el("NarrativeText", "after")])).map((c) => c.text)).toEqual(["after"]);
  });
});

describe("optional members present, absent or inconsistent", () => {
  const full: Element = {
    element_id: "full",
    type: "NarrativeText",
    sub_type: "paragraph",
    text: "Full element with every member, 中文也有。",
    page_number: 2,
    coordinates: box(3),
    metadata: {
      category_depth: 1,
      children_ids: [],
      parent_id: "h",
      ref_element_id: "nothing",
      is_continuation: false,
      has_inline_objects: true,
      inline_object_types: ["handwriting"],
      width: 10,
      height: 10,
      data_source: { url: "https://example.com", record_locator: { protocol: "https", remote_file_path: "/x" } },
      coordinates_estimated: true,
      unknown_future_field: { nested: true },
    },
    objects: [{ object_id: "o", type: "handwriting", text: "中文", text_range: [32, 34], coordinates: box(4), metadata: {} }],
    char_details: [{ index: 0, text: "F", coordinates: box(5), recognition: { confidence: 0.9, candidates: [{ text: "F", confidence: 0.9 }] } }],
  };
  const variants: [string, Element[]][] = [
    ["every member present", [el("Title", "H", { element_id: "h", metadata: { category_depth: 0, children_ids: ["full"] } }), full]],
    ["no metadata at all", [{ element_id: "a", type: "NarrativeText", text: "plain", page_number: 1, coordinates: box() }]],
    ["metadata null, objects null", [{ ...full, metadata: null, objects: null, char_details: null } as unknown as Element]],
    ["parent pointing at itself and nowhere", [{ ...full, element_id: "s", metadata: { parent_id: "s" } }, { ...full, element_id: "n", metadata: { parent_id: "ghost" } }]],
    ["children naming ghosts, depth negative", [el("Title", "T", { metadata: { children_ids: ["ghost"], category_depth: -3 } })]],
    ["unknown element types", [el("Chemical", "H2O"), el("CodeSnippet", "let x = 1;"), el("SomethingNew", "future")]],
    ["table_structure garbage", [el("Table", "a b", { table_structure: { rows: -1, cols: 0, cells: [{ row: 0, col: 0, text: "x" }, null] } as never })]],
    ["huge declared table", [el("Table", "a b", { table_structure: { rows: 1e7, cols: 1e4, cells: [{ row: 1, col: 1, text: "x" }] } })]],
    ["text_range garbage", [el("NarrativeText", "abc", { objects: [{ type: "formula", text: "x", text_range: [-5, "a" as never] }] })]],
    ["page_number missing, coordinates missing", [{ element_id: "z", type: "NarrativeText", text: "no page" } as unknown as Element]],
    ["title_tree inconsistent with elements", [el("Title", "T", { element_id: "tt" }), el("NarrativeText", "x")]],
  ];

  it.each(variants)("never crashes: %s", (_, elements) => {
    const warnings: ChunkWarning[] = [];
    const r = result(elements, { title_tree: [{ element_id: "tt", title: "T", level: 9, page_number: 1, children: [{ bogus: true } as never] }], pages: [{ page_number: 1, page_width: 100, page_height: 100 }] });
    const chunks = chunkDocument(r, { onWarning: (w) => warnings.push(w) });
    for (const c of chunks) {
      expect(typeof c.text).toBe("string");
      for (const reg of c.metadata.regions) expect(c.metadata.elementIds).toContain(reg.elementId);
    }
    expect(chunkDocumentWithReport(r).warnings).toEqual(warnings);
  });

  it("maps handwriting objects too", () => {
    const [, c] = chunkDocument(result(variants[0]![1]), { strategy: "by_element" });
    const o = c!.metadata.inlineObjects![0]!;
    expect(c!.text.slice(o.textRange[0], o.textRange[1])).toBe("中文");
  });
});

describe("pieces of a long element", () => {
  const long = Array.from({ length: 120 }, (_, i) => `Sentence number ${i} is here.`).join(" ");

  it("leave room for the heading above, so the heading is never a chunk alone", () => {
    const chunks = chunkDocument(result([el("Title", "Terms and Conditions", { element_id: "h" }), el("NarrativeText", long, { element_id: "p" })]), { maxTokens: 80 });
    expect(chunks[0]!.metadata.elementIds).toEqual(["h", "p"]);
    expect(chunks[0]!.text.startsWith("Terms and Conditions\n\nSentence number 0")).toBe(true);
  });

  it("that meet in one chunk are the source text again (no inserted break, no repeated overlap)", () => {
    const text = "任何一方违反本合同约定的，应当承担违约责任；给对方造成损失的，应当赔偿损失。";
    const elements = [el("Title", "第三章 违约责任", { element_id: "h" }), el("NarrativeText", text, { element_id: "p" })];
    const chunks = chunkDocument(result(elements), { maxTokens: 32, minTokens: 0, overlapTokens: 4, tokenizer: "approximate" });
    const bodyOnly = chunks.filter((c) => c.metadata.elementIds.join() === "p");
    expect(bodyOnly.length).toBeGreaterThan(1);
    for (const c of bodyOnly) expect(text).toContain(c.text);
  });
});
