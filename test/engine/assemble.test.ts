import { describe, expect, it } from "vitest";
import { assemble, type AssembleOptions } from "../../src/engine/assemble.js";
import type { DraftDocument } from "../../src/engine/draft.js";
import { FLOW_PAGE } from "../../src/engine/flow-layout.js";
import { CAPABILITY_DEFAULTS, parsePageRange, type PageSpan } from "../../src/wire/index.js";
import { DocParseError } from "../../src/errors.js";
import { expectConsistentResult } from "./check-result.js";

const FILE_ID = "f".repeat(64);

function options(extra: Partial<AssembleOptions> = {}): AssembleOptions {
  return {
    fileId: FILE_ID,
    filename: "x",
    capabilities: { ...CAPABILITY_DEFAULTS, pages: true, title_tree: true, include_table_structure: true },
    assetUrl: (name) => `http://assets/${FILE_ID}/${name}`,
    canRenderPages: false,
    ...extra,
  };
}

const range = (s: string) => parsePageRange(s) as PageSpan[];

/** Like a spreadsheet handler: one page per sheet, sheet pages final, page_range applied by the handler. */
function sheets(pageRange?: PageSpan[]): DraftDocument {
  const all = [1, 2, 3].flatMap((n) => [
    { type: "Title", text: `Sheet${n}`, page: n, headingLevel: 1, subType: "sheet_name" },
    {
      type: "Table",
      text: "",
      page: n,
      table: { rows: n * 10, cols: 2, headerRows: 1, cells: Array.from({ length: n * 10 }, (_, r) => [{ row: r + 1, col: 1, text: `a${r}` }, { row: r + 1, col: 2, text: `b${r}` }]).flat() },
    },
  ]);
  return {
    filetype: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    pageCount: 3,
    pages: [],
    estimatedLayout: true,
    fixedPages: true,
    elements: all.filter((e) => !pageRange || pageRange.some((s) => e.page >= s.from && e.page <= s.to)),
  };
}

describe("assemble: estimated layout with fixed pages", () => {
  it("keeps one page per sheet, growing tall sheets, and never splits their tables", () => {
    const { result } = assemble(sheets(), options());
    expectConsistentResult(result);
    expect(result.metadata!.page_count).toBe(3);
    expect(result.elements.map((e) => [e.type, e.page_number])).toEqual([
      ["Title", 1], ["Table", 1], ["Title", 2], ["Table", 2], ["Title", 3], ["Table", 3],
    ]);
    const heights = result.pages!.map((p) => p.page_height);
    expect(heights[0]).toBe(FLOW_PAGE.height);
    expect(heights[2]).toBeGreaterThan(heights[1]!);
    expect(result.elements[5]!.table_structure!.rows).toBe(30);
    // The table's text is derived from its cells when the handler leaves it empty.
    expect(result.elements[1]!.text.split("\n")[0]).toBe("a0 b0");
  });

  it("keeps the handler's page numbers under page_range, and checks the range", () => {
    const { result } = assemble(sheets(range("2-3")), options({ pageRange: range("2-3") }));
    expectConsistentResult(result);
    expect(result.pages!.map((p) => p.page_number)).toEqual([2, 3]);
    expect(result.elements.map((e) => e.page_number)).toEqual([2, 2, 3, 3]);
    expect(() => assemble(sheets(), options({ pageRange: range("4") }))).toThrow(DocParseError);
  });
});

describe("assemble: real pages", () => {
  const draft: DraftDocument = {
    filetype: "application/pdf",
    pageCount: 2,
    pages: [
      { number: 1, width: 1000, height: 2000, dpi: 144 },
      { number: 2, width: 1000, height: 2000, dpi: 144, angle: 90 },
    ],
    elements: [
      { type: "Header", text: "ACME", page: 1, box: { x0: 0.1, y0: 0.01, x1: 0.2, y1: 0.02 } },
      { type: "Title", text: "Intro", page: 1, headingLevel: 1, box: { x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.12 } },
      { type: "NarrativeText", text: "The first part of a sentence", page: 1, box: { x0: 0.1, y0: 0.9, x1: 0.9, y1: 0.95 } },
      { type: "Footer", text: "page 1", page: 1, box: { x0: 0.1, y0: 0.97, x1: 0.2, y1: 0.99 } },
      { type: "NarrativeText", text: "continues here.", page: 2, box: { x0: 0.1, y0: 0.05, x1: 0.9, y1: 0.1 }, continuationOf: 2 },
      { type: "Formula", text: "a^2+b^2=c^2", page: 2, box: { x0: 0.3, y0: 0.2, x1: 0.7, y1: 0.25 } },
    ],
  };

  it("writes page sizes, angles and page image URLs; joins continued paragraphs in the markdown", () => {
    const { result } = assemble(draft, options({ canRenderPages: true }));
    expectConsistentResult(result);
    expect(result.pages!.map((p) => [p.page_width, p.page_height, p.angle, p.page_image_url])).toEqual([
      [1000, 2000, 0, `http://assets/${FILE_ID}/page-1.png`],
      [1000, 2000, 90, `http://assets/${FILE_ID}/page-2.png`],
    ]);
    expect(result.markdown).toBe("# Intro\n\nThe first part of a sentence continues here.\n\n$$\na^2+b^2=c^2\n$$\n");
    const [header, title, , footer, cont] = result.elements;
    expect(header!.metadata).not.toHaveProperty("parent_id");
    expect(footer!.metadata).not.toHaveProperty("parent_id");
    expect(cont!.metadata).toMatchObject({ parent_id: title!.element_id, is_continuation: true });
  });

  it("has no page image URLs when the format cannot render pages", () => {
    const { result } = assemble(draft, options());
    expect(result.pages!.every((p) => p.page_image_url === undefined)).toBe(true);
  });
});
