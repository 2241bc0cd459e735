import { describe, expect, it } from "vitest";
import { CAPABILITY_DEFAULTS, ParseConfigSchema, inPageRange, parsePageRange, resolveCapabilities } from "../../src/wire/index.js";

describe("page_range grammar", () => {
  it.each([
    ["1", [{ from: 1, to: 1 }]],
    ["1-2", [{ from: 1, to: 2 }]],
    ["1-2,5-10", [{ from: 1, to: 2 }, { from: 5, to: 10 }]],
    [" 5 - 10 , 1 ", [{ from: 1, to: 1 }, { from: 5, to: 10 }]],
    ["1-3,2-6,7", [{ from: 1, to: 7 }]],
    ["3,3", [{ from: 3, to: 3 }]],
  ])("parses %j", (input, spans) => {
    expect(parsePageRange(input)).toEqual(spans);
  });

  it.each(["", "a", "1-", "-2", "1--2", "1,,2", "0", "0-3", "5-2", "1.5", "1;2", "1-2-3"])("refuses %j with a message", (input) => {
    const out = parsePageRange(input);
    expect(typeof out).toBe("string");
    expect(ParseConfigSchema.safeParse({ scope: { page_range: input } }).success).toBe(false);
  });

  it("inPageRange treats no range as every page", () => {
    expect(inPageRange(undefined, 99)).toBe(true);
    const spans = parsePageRange("2-3,8");
    if (typeof spans === "string") throw new Error(spans);
    expect([1, 2, 3, 4, 8, 9].map((p) => inPageRange(spans, p))).toEqual([false, true, true, false, true, false]);
  });
});

describe("capabilities defaults", () => {
  it("are pinned: include_hierarchy true, table_view html, everything else false", () => {
    expect(CAPABILITY_DEFAULTS).toEqual({
      include_hierarchy: true,
      include_inline_objects: false,
      include_char_details: false,
      include_image_data: false,
      include_table_structure: false,
      pages: false,
      title_tree: false,
      table_view: "html",
      remove_watermark: false,
      crop_dewarp: false,
    });
    expect(resolveCapabilities(undefined)).toEqual(CAPABILITY_DEFAULTS);
  });

  it("apply given members over the defaults", () => {
    const r = resolveCapabilities({ capabilities: { include_hierarchy: false, pages: true, table_view: "markdown" } });
    expect(r).toMatchObject({ include_hierarchy: false, pages: true, table_view: "markdown", title_tree: false });
  });
});

describe("ParseConfigSchema", () => {
  it("accepts every documented member and keeps engine-specific ones", () => {
    const config = {
      document: { password: "pw" },
      capabilities: { include_hierarchy: true, include_inline_objects: true, include_char_details: true, include_image_data: true, include_table_structure: true, pages: true, title_tree: true, table_view: "markdown", remove_watermark: true, crop_dewarp: true },
      scope: { page_range: "1-2,5-10" },
      config: { force_engine: "textin", engine_params: { parse_mode: "scan", formula_level: 1, image_output_type: "base64", vendor_knob: 3 } },
      top_extra: true,
    };
    expect(ParseConfigSchema.parse(config)).toEqual(config);
  });

  it.each([
    { capabilities: { table_view: "pdf" } },
    { capabilities: { pages: "yes" } },
    { config: { force_engine: "other" } },
    { config: { engine_params: { parse_mode: "fast" } } },
    { config: { engine_params: { formula_level: 2 } } },
    { config: { engine_params: { image_output_type: "file" } } },
  ])("refuses %j", (config) => {
    expect(ParseConfigSchema.safeParse(config).success).toBe(false);
  });
});
