import { z } from "zod";

/**
 * The parse result (`data` of a successful sync response). Every object is open
 * (`looseObject`): fields and element types this schema does not know survive a
 * parse → serialize round trip. Optional members are those the seed marks as present
 * only where applicable, or gated by a capability.
 */

/**
 * Four corner points as x,y pairs: top-left, top-right, bottom-right, bottom-left,
 * as fractions (0..1) of the page width/height. Eight numbers on every known result;
 * the schema accepts any length so one odd element cannot sink a whole document.
 */
export const CoordinatesSchema = z.array(z.number());
export type Coordinates = number[];

export const DataSourceSchema = z.looseObject({
  record_locator: z
    .looseObject({ protocol: z.string().optional(), remote_file_path: z.string().optional() })
    .optional(),
  url: z.string().optional(),
});
export type DataSource = z.infer<typeof DataSourceSchema>;

export const CandidateSchema = z.looseObject({ text: z.string(), confidence: z.number() });

export const CharDetailSchema = z.looseObject({
  /** 0-based position of the character in the element's text. */
  index: z.number().int(),
  text: z.string(),
  coordinates: CoordinatesSchema,
  recognition: z
    .looseObject({
      confidence: z.number(),
      candidates: z.array(CandidateSchema).optional(),
    })
    .optional(),
});
export type CharDetail = z.infer<typeof CharDetailSchema>;

export const TableCellSchema = z.looseObject({
  cell_id: z.string().optional(),
  /** 1-based row. */
  row: z.number().int(),
  /** 1-based column. */
  col: z.number().int(),
  row_span: z.number().int().optional(),
  col_span: z.number().int().optional(),
  /** `text` or `formula` seen. */
  content_type: z.string().optional(),
  text: z.string(),
  coordinates: CoordinatesSchema.optional(),
  char_details: z.array(CharDetailSchema).optional(),
});
export type TableCell = z.infer<typeof TableCellSchema>;

export const TableStructureSchema = z.looseObject({
  rows: z.number().int(),
  cols: z.number().int(),
  cells: z.array(TableCellSchema),
});
export type TableStructure = z.infer<typeof TableStructureSchema>;

export const InlineObjectSchema = z.looseObject({
  object_id: z.string().optional(),
  /** `handwriting` or `formula` seen. */
  type: z.string(),
  text: z.string(),
  /** [start, end) positions of the object inside the element's text. */
  text_range: z.array(z.number().int()),
  coordinates: CoordinatesSchema.optional(),
  /** Empty for handwriting; `display_mode` (`inline`/`display`) for formulas. */
  metadata: z.looseObject({ display_mode: z.string().optional() }).optional(),
});
export type InlineObject = z.infer<typeof InlineObjectSchema>;

export const ElementMetadataSchema = z.looseObject({
  /** 0-based depth in the hierarchy; 0 on a top-level Title. */
  category_depth: z.number().int().optional(),
  children_ids: z.array(z.string()).optional(),
  parent_id: z.string().optional(),
  /** Links a table/image to its caption (or back). */
  ref_element_id: z.string().optional(),
  is_continuation: z.boolean().optional(),
  continuation_of: z.string().optional(),
  has_inline_objects: z.boolean().optional(),
  inline_object_types: z.array(z.string()).optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  data_source: DataSourceSchema.optional(),
  /**
   * docparse-rag extension: true when the local engine could not measure real
   * geometry and laid the document out itself, so boxes are approximate.
   */
  coordinates_estimated: z.boolean().optional(),
});
export type ElementMetadata = z.infer<typeof ElementMetadataSchema>;

/**
 * Element types seen in results. `type` stays an open string: unknown types survive.
 */
export const KNOWN_ELEMENT_TYPES = [
  "Title",
  "NarrativeText",
  "ListItem",
  "Table",
  "Image",
  "CodeSnippet",
  "UncategorizedText",
  "Formula",
  "Chemical",
  "Header",
  "Footer",
  "PageNumber",
  "FigureCaption",
  "TableCaption",
  "PageBreak",
] as const;
export type KnownElementType = (typeof KNOWN_ELEMENT_TYPES)[number];
// `string & {}` keeps editor completion for known types while accepting any string.
export type ElementType = KnownElementType | (string & {});

export const ElementSchema = z.looseObject({
  element_id: z.string(),
  type: z.string() as z.ZodType<ElementType>,
  sub_type: z.string().optional(),
  /** For a table: cells separated by spaces, rows by newlines (may be Markdown or HTML). */
  text: z.string(),
  /** 1-based page. */
  page_number: z.number().int(),
  coordinates: CoordinatesSchema,
  metadata: ElementMetadataSchema.optional(),
  table_structure: TableStructureSchema.optional(),
  image_data: z
    .looseObject({ image_url: z.string().optional(), mime_type: z.string().optional(), base64: z.string().optional() })
    .optional(),
  objects: z.array(InlineObjectSchema).optional(),
  char_details: z.array(CharDetailSchema).optional(),
});
export type Element = z.infer<typeof ElementSchema>;

export interface TitleNode {
  element_id: string;
  title: string;
  /** 1-based heading level. */
  level: number;
  page_number: number;
  children: TitleNode[];
  [key: string]: unknown;
}

export const TitleNodeSchema: z.ZodType<TitleNode> = z.lazy(() =>
  z.looseObject({
    element_id: z.string(),
    title: z.string(),
    level: z.number().int(),
    page_number: z.number().int(),
    children: z.array(TitleNodeSchema).default([]),
  }),
) as unknown as z.ZodType<TitleNode>;

export const PageSchema = z.looseObject({
  /** 1-based. */
  page_number: z.number().int(),
  /** Pixels at `dpi`. */
  page_width: z.number(),
  page_height: z.number(),
  page_image_url: z.string().optional(),
  element_ids: z.array(z.string()).optional(),
  dpi: z.number().optional(),
  /** Page rotation in degrees. */
  angle: z.number().optional(),
  /** `Success` seen; anything else means the page failed. */
  status: z.string().optional(),
});
export type Page = z.infer<typeof PageSchema>;

export const DocumentMetadataSchema = z.looseObject({
  filename: z.string().optional(),
  /** A media type. */
  filetype: z.string().optional(),
  page_count: z.number().int().optional(),
  data_source: DataSourceSchema.optional(),
});
export type DocumentMetadata = z.infer<typeof DocumentMetadataSchema>;

export const ParseResultSchema = z.looseObject({
  /** Dotted version, e.g. 1.3.0 or 1.4.0. */
  schema_version: z.string(),
  /** Stable per document. */
  file_id: z.string(),
  job_id: z.string().optional(),
  success_count: z.number().int().optional(),
  metadata: DocumentMetadataSchema.optional(),
  /** The whole document as Markdown; tables as HTML (or Markdown with table_view). */
  markdown: z.string().optional(),
  elements: z.array(ElementSchema),
  title_tree: z.array(TitleNodeSchema).optional(),
  pages: z.array(PageSchema).optional(),
  summary: z.looseObject({ duration_ms: z.number().optional() }).optional(),
});
export type ParseResult = z.infer<typeof ParseResultSchema>;

/** The schema version the local engine writes. */
export const LOCAL_SCHEMA_VERSION = "1.4.0";
