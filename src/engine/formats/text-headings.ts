import { hasWide } from "../text-width.js";

/**
 * Heading detection for plain text, deliberately conservative: a wrong Title re-parents
 * everything after it, a missed one only flattens the tree. A line is a heading when it
 * has a numbering pattern used for headings (第一章, 一、, （一）, 1.2, Chapter 3, PART II),
 * is short, and does not end like a sentence. Each pattern has a rank; the ranks present
 * in a document are then mapped onto levels 1..n, so "第一章 / 一、 / （一）" and
 * "1 / 1.1 / 1.1.1" both become 1 / 2 / 3.
 */

export interface HeadingCandidate {
  /** Lower ranks are higher in the outline. */
  rank: number;
  /** Strong patterns are headings even as the first line of a paragraph block. */
  strong: boolean;
  /** Pattern kind, so runs of the same weak kind can be told apart from lists. */
  kind: string;
}

const CN_NUM = "[一二三四五六七八九十百千零〇两\\d]+";
const SENTENCE_END = /[。！？；，、.!?;,:：]$/;

const PATTERNS: { re: RegExp; rank: number; strong: boolean; kind: string }[] = [
  { re: new RegExp(`^第${CN_NUM}[编篇部卷](?:\\s|$|[^\\s条])`), rank: 20, strong: true, kind: "cn-part" },
  { re: new RegExp(`^第${CN_NUM}章(?:\\s|$|[^\\s条])`), rank: 30, strong: true, kind: "cn-chapter" },
  { re: new RegExp(`^第${CN_NUM}节(?:\\s|$|\\S)`), rank: 40, strong: true, kind: "cn-section" },
  { re: /^(?:part|book)\s+(?:[ivxlc]+|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/i, rank: 20, strong: true, kind: "part" },
  { re: /^chapter\s+(?:[ivxlc]+|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/i, rank: 30, strong: true, kind: "chapter" },
  { re: /^(?:section|appendix)\s+(?:[A-Z]|[ivxlc]+|\d+(?:\.\d+)*)\b/i, rank: 40, strong: false, kind: "section" },
  // 第X条 with a short caption ("第一条 合同期限"); an article with its text on the same
  // line ends like a sentence and is ruled out before this.
  { re: new RegExp(`^第${CN_NUM}条\\s*\\S`), rank: 49, strong: false, kind: "cn-article" },
  { re: /^[一二三四五六七八九十]{1,3}、\s*\S/, rank: 45, strong: false, kind: "cn-item" },
  { re: /^[（(][一二三四五六七八九十]{1,3}[)）]\s*\S/, rank: 47, strong: false, kind: "cn-paren" },
];

/** The heading pattern a line matches, if any (before the run/length checks). */
export function headingCandidate(line: string): HeadingCandidate | undefined {
  const text = line.trim();
  if (!text || !shortEnough(text)) return undefined;
  // A numbered question is a heading in FAQs ("一、如何添加指纹？", "3. How do I reset it?");
  // any other sentence ending rules a line out.
  const question = /[?？]$/.test(text);
  if (SENTENCE_END.test(text) && !question) return undefined;
  for (const p of PATTERNS) if (p.re.test(text)) return { rank: p.rank, strong: p.strong, kind: p.kind };
  // Decimal numbering: "1 Introduction", "2.3 Methods", "4.1.2. Results". Multi-part
  // numbers are strong; a single number must be followed by a capital or CJK text.
  const m = /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(\S.*)$/.exec(text);
  if (m) {
    const depth = m[1]!.split(".").length;
    const rest = m[2]!;
    if (!/^[\p{Lu}\p{Script=Han}]/u.test(rest)) return undefined;
    if (/^\d/.test(rest)) return undefined;
    return { rank: 50 + 10 * (depth - 1), strong: depth > 1, kind: `decimal-${depth}` };
  }
  // ALL CAPS lines ("INTRODUCTION", "TERMS AND CONDITIONS"): at least three capitals, few words.
  if (!question && /^[\p{Lu}\d][\p{Lu}\d\s&'’\-–:,/()]*$/u.test(text) && (text.match(/\p{Lu}/gu)?.length ?? 0) >= 3 && text.split(/\s+/).length <= 8) {
    return { rank: 35, strong: false, kind: "caps" };
  }
  return undefined;
}

function shortEnough(text: string): boolean {
  if (hasWide(text)) return text.length <= 40;
  return text.length <= 90 && text.split(/\s+/).length <= 14;
}

/** Whether a line could be a document title (the first line, standing alone). */
export function documentTitleCandidate(line: string): boolean {
  const text = line.trim();
  if (!text || SENTENCE_END.test(text)) return false;
  if (hasWide(text) ? text.length > 40 : text.length > 80 || text.split(/\s+/).length > 12) return false;
  // A title starts with a letter, digit or CJK character, not with a bullet or quote.
  return /^[\p{L}\p{N}《“"]/u.test(text);
}

/** Maps the ranks present onto 1-based levels: the highest rank used becomes level 1. */
export function levelsFromRanks(ranks: readonly number[]): Map<number, number> {
  const sorted = [...new Set(ranks)].sort((a, b) => a - b);
  return new Map(sorted.map((r, i) => [r, i + 1]));
}

/** Kinds of Chinese numbering: a short one may head a block without a blank line after it. */
export const CJK_KINDS = new Set(["cn-part", "cn-chapter", "cn-section", "cn-item", "cn-paren", "cn-article"]);
