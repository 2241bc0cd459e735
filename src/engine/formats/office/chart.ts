import type { OfficeZip } from "./zip.js";
import { child, find, findAll, parseXml, textOf, type XNode } from "./xml.js";

/** Media type given to chart "images" (they have no bitmap; their text is what they say). */
export const CHART_MIME = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml";

/**
 * What a reader can see of a DrawingML chart part (DOCX and PPTX share the format): the
 * title, the series names and the category labels, from the caches the chart keeps.
 * Undefined when the part is missing.
 */
export async function chartText(zip: OfficeZip, path: string): Promise<string | undefined> {
  const xml = zip.text(path);
  if (!xml) return undefined;
  const root = await parseXml(xml, path);
  const title = findAll(find(root, "c:title"), "a:t")
    .map((t) => textOf(t))
    .join("")
    .trim();
  const cached = (n: XNode | undefined) =>
    findAll(n, "c:pt")
      .map((pt) => textOf(child(pt, "c:v")).trim())
      .filter(Boolean);
  const series = findAll(root, "c:ser");
  const names = series.flatMap((s) => cached(child(s, "c:tx")));
  const categories = series.length ? cached(child(series[0], "c:cat")) : [];
  return [title, names.length ? `Series: ${names.join(", ")}` : "", categories.length ? `Categories: ${categories.join(", ")}` : ""]
    .filter(Boolean)
    .join("\n");
}
