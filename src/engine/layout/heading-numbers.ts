/*
 * The ranks of Chinese heading numbers. A Chinese document often sets several heading
 * levels in one size and weight — a government notice (GB/T 9704) sets 一、, （一）, 1. and
 * （1） all in 三号, the first two in bold — and tells its levels apart by the numbering
 * alone, in an order every Chinese writer follows: 第一编 / 第一章 / 第一节 / 第一条, then
 * 一、, （一）, 1., （1）, ①. The heading pass (`document.ts`) ranks such headings of one
 * style by these numbers.
 */

const HAN_NUMERAL = "[一二三四五六七八九十百千零〇两\\d]+";

/** The numbering forms, outermost first; a heading's rank is its form's place here. */
const FORMS: readonly RegExp[] = [
  new RegExp(`^第${HAN_NUMERAL}(?:编|篇|部分)`, "u"),
  new RegExp(`^第${HAN_NUMERAL}章`, "u"),
  new RegExp(`^第${HAN_NUMERAL}节`, "u"),
  new RegExp(`^第${HAN_NUMERAL}条`, "u"),
  /^[一二三四五六七八九十]+、/u,
  /^[（(][一二三四五六七八九十]+[）)]/u,
  // `1.` / `1．` / `1、` right before the heading's words (not `1.1`, a decimal section).
  /^\p{Nd}{1,3}[.．、](?!\p{Nd})\s*\p{Script=Han}/u,
  /^[（(]\p{Nd}{1,3}[）)]\s*\p{Script=Han}/u,
  /^[\u2460-\u2473]\s*\p{Script=Han}/u,
];

/**
 * The rank (1 = outermost) of the Chinese numbering a heading opens with (`第一章` 2,
 * `一、` 5, `（一）` 6, `1.` 7, `（1）` 8), or 0 when it opens with none of them.
 */
export function chineseNumberRank(text: string): number {
  const t = text.trimStart();
  for (let i = 0; i < FORMS.length; i++) if (FORMS[i]!.test(t)) return i + 1;
  return 0;
}
