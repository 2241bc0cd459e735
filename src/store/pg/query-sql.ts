import type { ChunkFilter, ChunkQuery } from "../chunk-store.js";
import { RRF_K, hybridDepth } from "../rrf.js";
import { Params, filterSql } from "./filter-sql.js";
import { ftsQuery, vectorText } from "./pg-rows.js";

/** A chunk row as the queries select it. */
export interface ChunkRow {
  id: string;
  text: string;
  embed_text: string;
  metadata_json: string;
}

/** A query result row: the chunk, its score, and its vector text when asked for. */
export type QueryRow = ChunkRow & { score: number | string; vector?: string };

/**
 * The SQL of a query: pure vector search, or hybrid (vector rank and `ts_rank` rank fused
 * with reciprocal rank fusion) when the query has a text with at least one term.
 */
export function querySql(schema: string, query: ChunkQuery, filter: ChunkFilter | undefined): { sql: string; params: unknown[] } {
  const s = schema;
  const params = new Params();
  const vector = params.add(vectorText(query.vector));
  const withVector = query.includeVectors ? ", c.vector::text AS vector" : "";
  const tsQuery = query.text ? ftsQuery(query.text) : undefined;
  if (tsQuery === undefined) {
    // Find the k ids first, then fetch their (TOASTed) text and metadata: sorting whole
    // rows would detoast every candidate's metadata.
    const sql = `SELECT c.id, c.text, c.embed_text, c.metadata_json, 1 - top.d AS score${withVector}
           FROM (SELECT id, vector <=> ${vector}::vector AS d FROM ${s}.chunks
                 WHERE ${filterSql(filter, params)} ORDER BY d LIMIT ${params.add(query.k)}) AS top
           JOIN ${s}.chunks c USING (id)
           ORDER BY top.d, c.id COLLATE "C"`;
    return { sql, params: params.values };
  }
  const depth = params.add(hybridDepth(query.k));
  const ts = params.add(tsQuery);
  // Each ranking takes its best `depth` candidates (the vector one through the HNSW
  // index when there is one), then ranks are fused: Σ 1 / (60 + rank).
  const sql = `WITH v AS (
             SELECT id, vector <=> ${vector}::vector AS d FROM ${s}.chunks
             WHERE ${filterSql(filter, params)} ORDER BY d LIMIT ${depth}),
           t AS (
             SELECT id, ts_rank(tsv, q) AS r FROM ${s}.chunks, to_tsquery('simple', ${ts}) AS q
             WHERE tsv @@ q AND ${filterSql(filter, params)} ORDER BY r DESC, id COLLATE "C" LIMIT ${depth}),
           fused AS (
             SELECT id, sum(rrf) AS score FROM (
               SELECT id, 1.0 / (${RRF_K} + row_number() OVER (ORDER BY d, id COLLATE "C")) AS rrf FROM v
               UNION ALL
               SELECT id, 1.0 / (${RRF_K} + row_number() OVER (ORDER BY r DESC, id COLLATE "C")) FROM t
             ) ranked GROUP BY id)
           SELECT c.id, c.text, c.embed_text, c.metadata_json, f.score::float8 AS score${withVector}
           FROM fused f JOIN ${s}.chunks c USING (id)
           ORDER BY f.score DESC, c.id COLLATE "C" LIMIT ${params.add(query.k)}`;
  return { sql, params: params.values };
}
