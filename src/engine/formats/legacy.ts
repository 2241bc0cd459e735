import { DocParseError } from "../../errors.js";
import { MIME, detectFormat } from "../detect.js";
import type { DraftDocument, FormatContext, FormatHandler } from "../draft.js";
import { convertWithLibreOffice } from "./office/libreoffice.js";

/**
 * Legacy and other office formats (doc, xls, ppt, rtf, odt, ods, odp): converted with
 * LibreOffice to the matching OOXML format, then parsed by that format's handler, so
 * they get the same elements as DOCX/XLSX/PPTX. `metadata.filetype` stays the source's
 * media type. Without LibreOffice: 40428, whose message says how to install it.
 */

interface Route {
  ext: string;
  to: "docx" | "xlsx" | "pptx";
}

const ROUTES: Record<string, Route> = {
  [MIME.doc]: { ext: "doc", to: "docx" },
  [MIME.rtf]: { ext: "rtf", to: "docx" },
  [MIME.odt]: { ext: "odt", to: "docx" },
  [MIME.xls]: { ext: "xls", to: "xlsx" },
  [MIME.ods]: { ext: "ods", to: "xlsx" },
  [MIME.ppt]: { ext: "ppt", to: "pptx" },
  [MIME.odp]: { ext: "odp", to: "pptx" },
};

const BY_EXT: Record<string, string> = { doc: MIME.doc, rtf: MIME.rtf, odt: MIME.odt, xls: MIME.xls, ods: MIME.ods, ppt: MIME.ppt, odp: MIME.odp };

/** The legacy handler (`legacy`): LibreOffice conversion, then the OOXML handler. */
export const legacyFormat: FormatHandler = {
  id: "legacy",
  mimeType: MIME.doc,
  parse: parseLegacy,
};

/** Which legacy kind the bytes are (content first, the filename's extension as a hint). */
export function legacyMime(bytes: Uint8Array, filename?: string): string | undefined {
  const detected = detectFormat(bytes, filename);
  if (detected && ROUTES[detected.mimeType]) return detected.mimeType;
  const ext = filename?.toLowerCase().split(".").pop() ?? "";
  return BY_EXT[ext];
}

async function parseLegacy(bytes: Uint8Array, ctx: FormatContext): Promise<DraftDocument> {
  if (bytes.length === 0) throw new DocParseError(40422, "The file is empty");
  const mime = legacyMime(bytes, ctx.filename);
  const route = mime ? ROUTES[mime] : undefined;
  if (!mime || !route) throw new DocParseError(40425, "This office format is not supported (expected doc, xls, ppt, rtf, odt, ods or odp)");
  const convertOptions: Parameters<typeof convertWithLibreOffice>[1] = {
    fromExt: route.ext,
    to: route.to,
    timeoutMs: Math.min(ctx.limits.timeoutMs, 300_000),
  };
  if (ctx.signal) convertOptions.signal = ctx.signal;
  const converted = await convertWithLibreOffice(bytes, convertOptions);
  const handler =
    route.to === "docx"
      ? (await import("./docx.js")).docxFormat
      : route.to === "xlsx"
        ? (await import("./xlsx.js")).xlsxFormat
        : (await import("./pptx.js")).pptxFormat;
  const doc = await handler.parse(converted, ctx);
  return { ...doc, filetype: mime };
}
