import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ElementSchema, EnvelopeSchema, JobStatusSchema, ParseResultSchema, WebhookBodySchema } from "../../src/wire/index.js";

// A result as the hosted service might send it, with fields and element types the
// schemas do not know: all of it must survive parse → serialize.
const sample = {
  schema_version: "1.4.0",
  file_id: "file-1",
  job_id: "job-1",
  success_count: 2,
  future_top_level: { nested: [1, 2, 3] },
  metadata: { filename: "报告.pdf", filetype: "application/pdf", page_count: 2, data_source: { url: "https://x.test/a.pdf", extra: true }, producer: "x" },
  markdown: "# 标题\n\n<table><tr><td>a</td></tr></table>",
  elements: [
    {
      element_id: "e1",
      type: "Title",
      text: "标题",
      page_number: 1,
      coordinates: [0.1, 0.1, 0.9, 0.1, 0.9, 0.2, 0.1, 0.2],
      metadata: { category_depth: 0, children_ids: ["e2", "e3"], unknown_meta: "kept" },
    },
    {
      element_id: "e2",
      type: "Table",
      text: "a b\nc d",
      page_number: 1,
      coordinates: [0, 0, 1, 0, 1, 1, 0, 1],
      metadata: { parent_id: "e1", ref_element_id: "e4", is_continuation: false },
      table_structure: { rows: 2, cols: 2, cells: [{ cell_id: "c1", row: 1, col: 1, row_span: 1, col_span: 1, content_type: "text", text: "a", coordinates: [0, 0, 1, 0, 1, 1, 0, 1], cell_extra: 1 }] },
    },
    {
      element_id: "e3",
      type: "HolographicDiagram",
      sub_type: "hologram",
      text: "",
      page_number: 2,
      coordinates: [0, 0, 1, 0, 1, 1, 0, 1],
      objects: [{ object_id: "o1", type: "formula", text: "x^2", text_range: [0, 3], metadata: { display_mode: "inline" } }],
      char_details: [{ index: 0, text: "x", coordinates: [0, 0, 1, 0, 1, 1, 0, 1], recognition: { confidence: 0.9, candidates: [{ text: "x", confidence: 0.9 }] } }],
      image_data: { image_url: "https://x.test/i.png", mime_type: "image/png", dims: [1, 2] },
      brand_new_member: { a: 1 },
    },
  ],
  title_tree: [{ element_id: "e1", title: "标题", level: 1, page_number: 1, children: [], node_extra: "kept" }],
  pages: [{ page_number: 1, page_width: 1000, page_height: 1400, page_image_url: "https://x.test/p1.png", element_ids: ["e1", "e2"], dpi: 144, angle: 0, status: "Success", page_extra: 3 }],
  summary: { duration_ms: 1234, cost: 5 },
};

describe("ParseResultSchema round trip", () => {
  it("keeps unknown fields and element types, everywhere", () => {
    const parsed = ParseResultSchema.parse(structuredClone(sample));
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(sample);
    expect(parsed.elements[2]!.type).toBe("HolographicDiagram");
  });

  it("defaults a missing title_tree children to []", () => {
    const parsed = ParseResultSchema.parse({ ...sample, title_tree: [{ element_id: "e1", title: "t", level: 1, page_number: 1 }] });
    expect(parsed.title_tree?.[0]?.children).toEqual([]);
  });

  it("rejects a result without elements or with a mistyped member", () => {
    expect(ParseResultSchema.safeParse({ schema_version: "1.4.0", file_id: "f" }).success).toBe(false);
    expect(ParseResultSchema.safeParse({ ...sample, elements: [{ ...sample.elements[0], page_number: "1" }] }).success).toBe(false);
  });

  it("keeps any extra member on any element (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(k in sample.elements[0]!) && k !== "__proto__"),
        fc.jsonValue(),
        fc.string(),
        (key, value, type) => {
          const el = { ...sample.elements[0]!, type, [key]: value };
          const back = JSON.parse(JSON.stringify(ElementSchema.parse(el))) as Record<string, unknown>;
          expect(back[key]).toEqual(JSON.parse(JSON.stringify(value)));
          expect(back.type).toBe(type);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("envelope, job status and webhook body", () => {
  it("keep unknown fields", () => {
    expect(EnvelopeSchema.parse({ code: 200, message: "success", data: {}, trace: "t" })).toMatchObject({ trace: "t" });
    expect(EnvelopeSchema.parse({ code: 40004 })).toMatchObject({ message: "" });
    expect(JobStatusSchema.parse({ job_id: "j", status: "completed", result_url: "https://r", progress: 1 })).toMatchObject({ progress: 1 });
    expect(WebhookBodySchema.parse({ job_id: "j", status: "failed", reason: "x" })).toMatchObject({ reason: "x" });
  });

  it("refuse an unknown job status and a non-integer code", () => {
    expect(JobStatusSchema.safeParse({ job_id: "j", status: "done" }).success).toBe(false);
    expect(EnvelopeSchema.safeParse({ code: "200" }).success).toBe(false);
  });
});
