import { invalidOption } from "../../errors.js";
import type { SqlClient } from "./sql-client.js";

/** One schema change. Versions only grow; a released migration is never edited. */
interface Migration {
  version: number;
  name: string;
  sql: (schema: string) => string;
}

/**
 * The one schema of both Postgres flavours (PGlite and PostgreSQL).
 *
 * - `chunks.metadata` (JSONB) serves filters on arbitrary flat keys (`@>`, GIN);
 *   `metadata_json` keeps the exact JSON text we were given, because JSONB reorders object
 *   keys and citations must come back byte-identical.
 * - Filter keys are real columns filled on write (arrays cannot be generated from JSONB
 *   with immutable expressions), each with an index.
 * - `vector` has no dimension until the first write fixes it (`meta.dimension`), because
 *   the embedder is not known when the store is created; HNSW needs the typed column.
 * - `tsv` holds pre-segmented text (CJK character unigrams + bigrams, words) under the
 *   `simple` configuration: Postgres' parsers do not split Chinese.
 */
const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "chunks, manifest, meta",
    sql: (s) => `
      CREATE TABLE ${s}.meta (key text PRIMARY KEY, value text NOT NULL);
      CREATE TABLE ${s}.chunks (
        id text PRIMARY KEY,
        source_id text NOT NULL,
        chunk_index integer NOT NULL DEFAULT 0,
        filename text,
        kind text,
        page_start integer,
        page_end integer,
        pages integer[] NOT NULL DEFAULT '{}',
        element_types text[] NOT NULL DEFAULT '{}',
        heading_path text[] NOT NULL DEFAULT '{}',
        text text NOT NULL,
        embed_text text NOT NULL,
        metadata jsonb NOT NULL,
        metadata_json text NOT NULL,
        vector vector NOT NULL,
        tsv tsvector NOT NULL
      );
      CREATE INDEX chunks_source_idx ON ${s}.chunks (source_id, chunk_index);
      CREATE INDEX chunks_filename_idx ON ${s}.chunks (filename);
      CREATE INDEX chunks_kind_idx ON ${s}.chunks (kind);
      CREATE INDEX chunks_pages_range_idx ON ${s}.chunks (page_start, page_end);
      CREATE INDEX chunks_pages_idx ON ${s}.chunks USING gin (pages);
      CREATE INDEX chunks_element_types_idx ON ${s}.chunks USING gin (element_types);
      CREATE INDEX chunks_heading_path_idx ON ${s}.chunks USING gin (heading_path);
      CREATE INDEX chunks_metadata_idx ON ${s}.chunks USING gin (metadata jsonb_path_ops);
      CREATE INDEX chunks_tsv_idx ON ${s}.chunks USING gin (tsv);
      CREATE TABLE ${s}.manifest (
        source_id text PRIMARY KEY,
        entry jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];

/** The newest schema version this code knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Checks a schema name before it is spliced into SQL. */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw invalidOption(`Expected \`schema\` to be a lower-case SQL identifier (letters, digits, _), got ${JSON.stringify(schema)}`);
  }
  return schema;
}

/**
 * Brings the schema up to date. An advisory lock serialises concurrent openers on a
 * shared PostgreSQL (several ingest workers starting at once).
 */
export async function migrate(client: SqlClient, schema: string): Promise<void> {
  await client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`docparse-rag:${schema}`]);
    await tx.exec(`
      CREATE EXTENSION IF NOT EXISTS vector;
      CREATE SCHEMA IF NOT EXISTS ${schema};
      CREATE TABLE IF NOT EXISTS ${schema}.migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      );
    `);
    const rows = await tx.query<{ version: number }>(`SELECT version FROM ${schema}.migrations`);
    const applied = new Set(rows.map((r) => Number(r.version)));
    const newest = Math.max(0, ...applied);
    if (newest > SCHEMA_VERSION) {
      throw invalidOption(`The store's schema version ${newest} is newer than this docparse-rag knows (${SCHEMA_VERSION}); upgrade docparse-rag`);
    }
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await tx.exec(m.sql(schema));
      await tx.query(`INSERT INTO ${schema}.migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
    }
  });
}
