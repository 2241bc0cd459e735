import { z } from "zod";

/**
 * The `config` form field: a JSON object sent as a string. Every member is optional;
 * the service's defaults are `include_hierarchy: true` and every other capability false.
 * Objects stay open so engine-specific members pass through untouched.
 */

/** `1-2,5-10`: 1-based closed ranges (or single pages) joined by commas. */
export const PAGE_RANGE_PATTERN = /^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/;

export interface PageSpan {
  /** First page, 1-based. */
  readonly from: number;
  /** Last page, inclusive. */
  readonly to: number;
}

/**
 * Parses a `page_range` string into sorted, merged spans.
 * Returns an error message instead of throwing, for use inside zod refinements.
 */
export function parsePageRange(value: string): PageSpan[] | string {
  if (!PAGE_RANGE_PATTERN.test(value)) {
    return `page_range must be 1-based pages or ranges joined by commas, like "1-2,5-10"; got ${JSON.stringify(value)}`;
  }
  const spans: PageSpan[] = [];
  for (const part of value.split(",")) {
    const [a, b] = part.split("-").map((s) => Number.parseInt(s.trim(), 10));
    const from = a!;
    const to = b ?? from;
    if (from < 1) return `page_range pages start at 1; got ${from}`;
    if (to < from) return `page_range "${part.trim()}" ends before it starts`;
    spans.push({ from, to });
  }
  spans.sort((x, y) => x.from - y.from);
  const merged: PageSpan[] = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s.from <= last.to + 1) merged[merged.length - 1] = { from: last.from, to: Math.max(last.to, s.to) };
    else merged.push(s);
  }
  return merged;
}

/** Whether a 1-based page is inside the spans. */
export function inPageRange(spans: readonly PageSpan[] | undefined, page: number): boolean {
  return !spans || spans.some((s) => page >= s.from && page <= s.to);
}

const pageRange = z.string().superRefine((value, ctx) => {
  const parsed = parsePageRange(value);
  if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
});

export const ParseModeSchema = z.enum(["auto", "scan", "parse", "lite", "vlm"]);
export const TableViewSchema = z.enum(["html", "markdown"]);
export const ImageOutputTypeSchema = z.enum(["url", "base64"]);
export const ForceEngineSchema = z.enum(["textin", "textin_gui"]);

export const CapabilitiesSchema = z.looseObject({
  include_hierarchy: z.boolean().optional(),
  include_inline_objects: z.boolean().optional(),
  include_char_details: z.boolean().optional(),
  include_image_data: z.boolean().optional(),
  include_table_structure: z.boolean().optional(),
  pages: z.boolean().optional(),
  title_tree: z.boolean().optional(),
  table_view: TableViewSchema.optional(),
  remove_watermark: z.boolean().optional(),
  crop_dewarp: z.boolean().optional(),
});

export const EngineParamsSchema = z.looseObject({
  parse_mode: ParseModeSchema.optional(),
  formula_level: z.union([z.literal(0), z.literal(1)]).optional(),
  image_output_type: ImageOutputTypeSchema.optional(),
});

export const ParseConfigSchema = z.looseObject({
  document: z.looseObject({ password: z.string().optional() }).optional(),
  capabilities: CapabilitiesSchema.optional(),
  scope: z.looseObject({ page_range: pageRange.optional() }).optional(),
  config: z
    .looseObject({
      force_engine: ForceEngineSchema.optional(),
      engine_params: EngineParamsSchema.optional(),
    })
    .optional(),
});

export type ParseConfig = z.infer<typeof ParseConfigSchema>;
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
export type ParseMode = z.infer<typeof ParseModeSchema>;
export type TableView = z.infer<typeof TableViewSchema>;

/** Capabilities with every default applied, as an engine sees them. */
export interface ResolvedCapabilities {
  /** @default true */
  include_hierarchy: boolean;
  /** @default false */
  include_inline_objects: boolean;
  /** @default false */
  include_char_details: boolean;
  /** @default false */
  include_image_data: boolean;
  /** @default false */
  include_table_structure: boolean;
  /** @default false */
  pages: boolean;
  /** @default false */
  title_tree: boolean;
  /** @default "html" */
  table_view: TableView;
  /** @default false */
  remove_watermark: boolean;
  /** @default false */
  crop_dewarp: boolean;
}

/** The service's documented capability defaults. */
export const CAPABILITY_DEFAULTS: Readonly<ResolvedCapabilities> = Object.freeze({
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

/** Applies the documented defaults to a (validated) config's capabilities. */
export function resolveCapabilities(config: ParseConfig | undefined): ResolvedCapabilities {
  const c = config?.capabilities ?? {};
  const out: ResolvedCapabilities = { ...CAPABILITY_DEFAULTS };
  for (const key of Object.keys(out) as (keyof ResolvedCapabilities)[]) {
    const v = c[key];
    if (v !== undefined) (out as unknown as Record<string, unknown>)[key] = v;
  }
  return out;
}
