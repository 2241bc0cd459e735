import { DocParseError } from "../../../errors.js";
import type { FormatContext } from "../../draft.js";

/**
 * Format options read from `config.config.engine_params` (an open object on the wire),
 * so the same switches work through the local server, the CLI and LocalParser.
 */
export interface OfficeOptions {
  /** Parse hidden sheets (XLSX) and hidden slides (PPTX) too. @default false */
  include_hidden: boolean;
  /** Add PPTX speaker notes as elements after each slide's content. @default false */
  include_speaker_notes: boolean;
  /**
   * Most rows read per sheet (XLSX/CSV); the rest is dropped and the table marked
   * `truncated`. The hosted service's limit is 2000. @default Infinity
   */
  max_sheet_rows: number;
  /** Most columns read per sheet (XLSX/CSV). The hosted service's limit is 100. @default Infinity */
  max_sheet_cols: number;
  /**
   * Geometry of DOCX and HTML: `estimated` (flow layout, `coordinates_estimated`),
   * `libreoffice` (convert to PDF with LibreOffice, read it with the PDF handler and align
   * the source elements onto its pages and boxes; several seconds per document; 40428
   * without LibreOffice) or `auto` (`libreoffice` where it is installed, else `estimated`).
   * @default "estimated"
   */
  office_geometry: "estimated" | "libreoffice" | "auto";
}

/** The defaults of {@link OfficeOptions} (pinned by a test). */
export const OFFICE_OPTION_DEFAULTS: Readonly<OfficeOptions> = Object.freeze({
  include_hidden: false,
  include_speaker_notes: false,
  max_sheet_rows: Number.POSITIVE_INFINITY,
  max_sheet_cols: Number.POSITIVE_INFINITY,
  office_geometry: "estimated",
});

/** Reads and checks the options; a wrong type is 40004 (parameter error). */
export function officeOptions(ctx: Pick<FormatContext, "config">): OfficeOptions {
  const params = (ctx.config.config?.engine_params ?? {}) as Record<string, unknown>;
  const out: OfficeOptions = { ...OFFICE_OPTION_DEFAULTS };
  for (const key of ["include_hidden", "include_speaker_notes"] as const) {
    const v = params[key];
    if (v === undefined) continue;
    if (typeof v !== "boolean") throw new DocParseError(40004, `Expected \`engine_params.${key}\` to be a boolean, got ${JSON.stringify(v)}`);
    out[key] = v;
  }
  for (const key of ["max_sheet_rows", "max_sheet_cols"] as const) {
    const v = params[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      throw new DocParseError(40004, `Expected \`engine_params.${key}\` to be an integer >= 1, got ${JSON.stringify(v)}`);
    }
    out[key] = v;
  }
  const geometry = params.office_geometry;
  if (geometry !== undefined) {
    if (geometry !== "estimated" && geometry !== "libreoffice" && geometry !== "auto") {
      throw new DocParseError(40004, `Expected \`engine_params.office_geometry\` to be "estimated", "libreoffice" or "auto", got ${JSON.stringify(geometry)}`);
    }
    out.office_geometry = geometry;
  }
  return out;
}
