import type { DraftElement } from "../../draft.js";

/**
 * Links captions to what they caption (both ways, through `refIndex`), for formats
 * that give captions as ordinary paragraphs (DOCX, HTML without <figure>).
 *
 * A paragraph is a caption when its style says so (`subType: "caption"`) or when it
 * reads like one ("Table 2:", "Figure 3.", "图 1", "表1") and sits right next to a
 * table or image. "Table …" prefers the neighbouring table, anything else the image;
 * the element before wins over the one after for figures (captions sit below figures)
 * and the one after wins for tables (captions sit above tables).
 */

const TABLE_WORD = /^(table|tab\.|表)\s*[0-9一二三四五六七八九十]/i;
const FIGURE_WORD = /^(figure|fig\.|图|圖|chart|image|photo)\s*[0-9一二三四五六七八九十]/i;

/** Sets `refIndex` both ways between captions and their tables/images; retypes the captions. */
export function linkCaptions(elements: DraftElement[]): void {
  elements.forEach((el, i) => {
    if (el.refIndex !== undefined) return;
    const styled = el.subType === "caption";
    const text = el.text.trim();
    const looksTable = TABLE_WORD.test(text);
    const looksFigure = FIGURE_WORD.test(text);
    if (!styled && !((looksTable || looksFigure) && text.length <= 300 && el.type === "NarrativeText")) return;
    const prev = elements[i - 1];
    const next = elements[i + 1];
    const free = (e: DraftElement | undefined, type: string) => e !== undefined && e.type === type && e.refIndex === undefined;
    let target: number | undefined;
    if (looksTable) target = free(next, "Table") ? i + 1 : free(prev, "Table") ? i - 1 : undefined;
    else target = free(prev, "Image") ? i - 1 : free(next, "Image") ? i + 1 : undefined;
    if (target === undefined && styled) {
      // A styled caption with an unusual wording: take any adjacent table or image.
      for (const j of [i - 1, i + 1]) {
        const e = elements[j];
        if (e && (e.type === "Table" || e.type === "Image") && e.refIndex === undefined) {
          target = j;
          break;
        }
      }
    }
    if (target === undefined) {
      if (styled) {
        el.type = "NarrativeText";
        delete el.subType;
      }
      return;
    }
    const captioned = elements[target]!;
    el.type = captioned.type === "Table" ? "TableCaption" : "FigureCaption";
    delete el.subType;
    el.refIndex = target;
    captioned.refIndex = i;
  });
}
