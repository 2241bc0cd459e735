import type { Chunk } from "../../chunk/chunk.js";
import { textTerms } from "../../embed/text-terms.js";
import type { StoredChunk } from "../chunk-store.js";

/** Column names of an upsert, in the order of {@link toColumns}' arrays. */
export const UPSERT_COLUMNS = [
  ["id", "text"],
  ["source_id", "text"],
  ["chunk_index", "int"],
  ["filename", "text"],
  ["kind", "text"],
  ["page_start", "int"],
  ["page_end", "int"],
  ["pages", "text"],
  ["element_types", "text"],
  ["heading_path", "text"],
  ["text", "text"],
  ["embed_text", "text"],
  ["meta", "text"],
  ["vector", "text"],
  ["fts", "text"],
] as const;

/**
 * A batch as one array per column, for `INSERT ... SELECT FROM unnest($1, $2, ...)`:
 * one statement and 15 parameters whatever the batch size (a VALUES list would need
 * 15 per row and hit the 65535-parameter limit).
 */
export function toColumns(records: readonly StoredChunk[]): unknown[][] {
  const columns: unknown[][] = UPSERT_COLUMNS.map(() => []);
  for (const r of records) {
    const m = r.metadata;
    const values = [
      r.id,
      m.sourceId,
      Number.isInteger(m.chunkIndex) ? m.chunkIndex : 0,
      typeof m.filename === "string" ? m.filename : null,
      typeof m.kind === "string" ? m.kind : null,
      Number.isInteger(m.pageStart) ? m.pageStart : null,
      Number.isInteger(m.pageEnd) ? m.pageEnd : null,
      arrayLiteral(Array.isArray(m.pages) ? m.pages.map(String) : []),
      arrayLiteral(Array.isArray(m.elementTypes) ? m.elementTypes : []),
      arrayLiteral(Array.isArray(m.headingPath) ? m.headingPath : []),
      r.text,
      r.embedText ?? r.text,
      JSON.stringify(m),
      vectorText(r.vector),
      ftsText(r.embedText || r.text),
    ];
    values.forEach((v, i) => columns[i]!.push(v));
  }
  return columns;
}

/** Text pre-segmented for `to_tsvector('simple', ...)`: CJK n-grams and words, space-separated. */
export function ftsText(text: string): string {
  return textTerms(text).join(" ");
}

/**
 * An OR-query over the distinct terms of a text for `to_tsquery('simple', ...)`, or
 * undefined when the text has no terms. Terms are quoted, so no term is read as an operator.
 */
export function ftsQuery(text: string, maxTerms = 64): string | undefined {
  const terms = [...new Set(textTerms(text, { cjkUnigrams: false }))].slice(0, maxTerms);
  if (terms.length === 0) return undefined;
  return terms.map((t) => `'${t.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`).join(" | ");
}

/** A Postgres array literal of text elements, every element quoted and escaped. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${String(v).replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
}

/**
 * pgvector's input text for a vector. A plain join: rounding to float4 digits in JS
 * would halve the text but measured twice as slow as the join it saves parsing for.
 */
export function vectorText(vector: readonly number[]): string {
  return `[${vector.join(",")}]`;
}

/** A selected row back into a chunk (metadata from the exact JSON text we stored). */
export function fromRow(row: { id: string; text: string; embed_text: string; metadata_json: string }): Chunk {
  return { id: row.id, text: row.text, embedText: row.embed_text, metadata: JSON.parse(row.metadata_json) as Chunk["metadata"] };
}

/** pgvector's text output (`[1,2.5,-3e-05]`) is valid JSON. */
export function parseVector(text: string): number[] {
  return JSON.parse(text) as number[];
}
