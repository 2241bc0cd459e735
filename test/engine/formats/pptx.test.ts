import { describe, expect, it } from "vitest";
import { DocParseError } from "../../../src/errors.js";
import { pptxFormat } from "../../../src/engine/formats/pptx.js";
import { buildPptx, formatContext, renderTextImage } from "../../support/office-fixtures.js";

const EMU = 914_400;
const codeOf = (e: unknown) => (DocParseError.isInstance(e) ? e.code : e);

describe("pptx: pages and geometry", () => {
  it("gives one page per slide with the slide size at 96 dpi and boxes from shape offsets", async () => {
    const bytes = await buildPptx([
      {
        shapes: [
          { kind: "body", paragraphs: [{ text: "Body text 中文" }], x: 1 * EMU, y: 3 * EMU, cx: 4 * EMU, cy: 1 * EMU },
          { kind: "title", text: "Quarterly review", x: 0.5 * EMU, y: 0.5 * EMU, cx: 12 * EMU, cy: 1 * EMU },
        ],
      },
    ]);
    const doc = await pptxFormat.parse(bytes, formatContext());
    expect(doc.estimatedLayout).toBeFalsy();
    expect(doc.pages).toEqual([{ number: 1, width: 1280, height: 720, dpi: 96 }]);
    const [title, body] = doc.elements;
    expect([title!.type, title!.headingLevel, title!.text]).toEqual(["Title", 1, "Quarterly review"]);
    expect(title!.box!.x0).toBeCloseTo(0.5 / 13.333, 3);
    expect(title!.box!.y0).toBeCloseTo(0.5 / 7.5, 3);
    expect([body!.type, body!.text]).toEqual(["NarrativeText", "Body text 中文"]);
    expect(body!.box!.x0).toBeCloseTo(1 / 13.333, 3);
    expect(body!.box!.x1).toBeCloseTo(5 / 13.333, 3);
    expect(body!.box!.y0).toBeCloseTo(3 / 7.5, 3);
  });

  it("takes a title placeholder's position from the layout when the slide omits it", async () => {
    const bytes = await buildPptx([{ shapes: [{ kind: "title", text: "Inherited", x: 0, y: 0, cx: 0, cy: 0, inheritFromLayout: true }] }]);
    const [title] = (await pptxFormat.parse(bytes, formatContext())).elements;
    expect(title!.type).toBe("Title");
    // The fixture's layout puts the title at (838200, 365125) EMU.
    expect(title!.box!.x0).toBeCloseTo(838200 / 12192000, 4);
    expect(title!.box!.y0).toBeCloseTo(365125 / 6858000, 4);
  });

  it("maps shapes inside a group through the group's child coordinate space", async () => {
    // The group shows child space (0,0)-(1000,1000) at (2 in, 1 in) with size 4 × 2 in.
    const bytes = await buildPptx([
      {
        shapes: [
          {
            kind: "group",
            x: 2 * EMU,
            y: EMU,
            cx: 4 * EMU,
            cy: 2 * EMU,
            chX: 0,
            chY: 0,
            chCx: 1000,
            chCy: 1000,
            children: [{ kind: "body", paragraphs: [{ text: "In a group" }], x: 500, y: 500, cx: 500, cy: 500 }],
          },
        ],
      },
    ]);
    const [el] = (await pptxFormat.parse(bytes, formatContext())).elements;
    expect(el!.text).toBe("In a group");
    expect(el!.box!.x0).toBeCloseTo(4 / 13.333, 3); // 2 in + 0.5 × 4 in
    expect(el!.box!.y0).toBeCloseTo(2 / 7.5, 3); // 1 in + 0.5 × 2 in
    expect(el!.box!.x1).toBeCloseTo(6 / 13.333, 3);
  });

  it("keeps bullet levels as list levels", async () => {
    const bytes = await buildPptx([
      {
        shapes: [
          {
            kind: "body",
            paragraphs: [{ text: "Top", level: 0 }, { text: "Sub", level: 1 }, { text: "Subsub", level: 2 }, { text: "Plain" }],
            x: EMU,
            y: EMU,
            cx: 8 * EMU,
            cy: 4 * EMU,
          },
        ],
      },
    ]);
    const els = (await pptxFormat.parse(bytes, formatContext())).elements;
    expect(els.map((e) => [e.type, e.listLevel, e.text])).toEqual([
      ["ListItem", 0, "Top"],
      ["ListItem", 1, "Sub"],
      ["ListItem", 2, "Subsub"],
      ["NarrativeText", undefined, "Plain"],
    ]);
    for (let i = 1; i < els.length; i++) expect(els[i]!.box!.y0).toBeGreaterThanOrEqual(els[i - 1]!.box!.y1 - 1e-9);
  });
});

describe("pptx: tables, pictures, notes, hidden slides", () => {
  it("keeps table structure exactly, with cell boxes inside the frame", async () => {
    const bytes = await buildPptx([
      {
        shapes: [
          {
            kind: "table",
            x: EMU,
            y: 2 * EMU,
            cx: 8 * EMU,
            cy: 3 * EMU,
            rows: [
              [{ text: "Region", vMerge: "restart" }, { text: "Sales", gridSpan: 2 }],
              [{ text: "", vMerge: "continue" }, { text: "H1" }, { text: "H2" }],
              [{ text: "北" }, { text: "1" }, { text: "2" }],
            ],
          },
        ],
      },
    ]);
    const [t] = (await pptxFormat.parse(bytes, formatContext())).elements;
    expect(t!.type).toBe("Table");
    expect(t!.table!.cells.map(({ box: _b, ...c }) => c)).toEqual([
      { row: 1, col: 1, rowSpan: 2, text: "Region" },
      { row: 1, col: 2, colSpan: 2, text: "Sales" },
      { row: 2, col: 2, text: "H1" },
      { row: 2, col: 3, text: "H2" },
      { row: 3, col: 1, text: "北" },
      { row: 3, col: 2, text: "1" },
      { row: 3, col: 3, text: "2" },
    ]);
    expect([t!.table!.rows, t!.table!.cols]).toEqual([3, 3]);
    const region = t!.table!.cells[0]!.box!;
    expect(region.y1 - region.y0).toBeCloseTo((2 / 3) * (3 / 7.5), 3);
  });

  it("returns pictures with bytes, alt text and box; notes only when asked; hidden slides skipped", async () => {
    const png = await renderTextImage(["pic"], { width: 300 });
    const bytes = await buildPptx([
      { shapes: [{ kind: "picture", png, alt: "Logo", x: EMU, y: EMU, cx: 2 * EMU, cy: EMU }], notes: "Say hello first." },
      { shapes: [{ kind: "title", text: "Secret", x: 0, y: 0, cx: EMU, cy: EMU }], hidden: true },
      { shapes: [{ kind: "title", text: "Third", x: 0, y: 0, cx: EMU, cy: EMU }] },
    ]);
    const doc = await pptxFormat.parse(bytes, formatContext());
    expect(doc.pageCount).toBe(3);
    expect(doc.pages.map((p) => p.number)).toEqual([1, 3]);
    expect(doc.elements.map((e) => [e.type, e.page, e.text])).toEqual([
      ["Image", 1, "Logo"],
      ["Title", 3, "Third"],
    ]);
    expect(doc.elements[0]!.image!.bytes!.length).toBe(png.length);
    const withNotes = await pptxFormat.parse(bytes, formatContext({ engineParams: { include_speaker_notes: true, include_hidden: true } }));
    expect(withNotes.elements.map((e) => e.text)).toEqual(["Logo", "Say hello first.", "Secret", "Third"]);
  });

  it("turns a chart into an Image (sub_type chart) with its title, series and categories as text", async () => {
    const bytes = await buildPptx([
      {
        shapes: [
          {
            kind: "chart",
            title: "Revenue 收入",
            series: [
              { name: "2023", categories: ["North", "South"], values: [10, 12] },
              { name: "2024", categories: ["North", "South"], values: [11, 15] },
            ],
            x: EMU,
            y: EMU,
            cx: 6 * EMU,
            cy: 4 * EMU,
          },
        ],
      },
    ]);
    const [chart] = (await pptxFormat.parse(bytes, formatContext())).elements;
    expect([chart!.type, chart!.subType, chart!.text]).toEqual(["Image", "chart", "Revenue 收入\nSeries: 2023, 2024\nCategories: North, South"]);
    expect(chart!.box!.x0).toBeCloseTo(1 / 13.333, 3);
    expect(chart!.image!.width).toBe(576);
  });

  it("rejects page_range beyond the deck and a corrupt file", async () => {
    const bytes = await buildPptx([{ shapes: [] }]);
    const ctx = formatContext();
    ctx.pageRange = [{ from: 2, to: 2 }];
    expect(codeOf(await pptxFormat.parse(bytes, ctx).catch((e: unknown) => e))).toBe(40424);
    expect(codeOf(await pptxFormat.parse(bytes.subarray(0, 100), formatContext()).catch((e: unknown) => e))).toBe(40422);
  });
});
