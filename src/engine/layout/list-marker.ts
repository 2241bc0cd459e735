/*
 * The list markers every stage of the layout knows: the block builder starts items at
 * them, the row cuts keep a marker with the words a tab after it, bullets drawn as shapes
 * become one of them. Its own module, so those stages need not import one another.
 */

/**
 * A list marker at the start of a line: bullets, `1.`, `1)`, `(a)`, `iv.`, `①`, `一、`. An
 * em dash opens a quotation's attribution (`— CTO, regional bank`), not an item.
 */
export const LIST_MARKER =
  /^(?:[\u2022\u25e6\u25aa\u25ab\u25cf\u25cb\u25a0\u25a1\u27a2\u25ba\u25b6\u2713\u2714\u00b7\uf0b7\uf0a7]\s*|[-\u2013*]\s+|\(?\d{1,3}[.)]\s+|\d{1,3}(?:\.\d{1,3}){1,3}\.\s+|\(\d{1,3}\)\s*|\(?[a-zA-Z]\)\s+|\([a-zA-Z]\)\s*|\(?[ivxIVX]{1,4}[.)]\s+|[\u2460-\u2473]\s*|\d{1,3}\u3001|[一二三四五六七八九十]+\u3001)/;
