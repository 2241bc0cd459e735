import type { Chunk } from "../../chunk/chunk.js";
import { DocParseError, LocalErrorCode, invalidOption } from "../../errors.js";
import type {
  ChunkQuery,
  ChunkStore,
  ChunkStoreCapabilities,
  ManifestEntry,
  ScoredChunk,
  StoredChunk,
} from "../chunk-store.js";
import { checkK, checkQueryVector, checkRecords, dimensionMismatch } from "../check-records.js";
import { checkFilter } from "../match-filter.js";
import { checkEntry } from "../memory-manifest.js";
import { querySql, type ChunkRow, type QueryRow } from "./query-sql.js";
import { checkSchemaName, migrate } from "./migrations.js";
import { PgManifest, putManifestEntry } from "./pg-manifest.js";
import { UPSERT_COLUMNS, fromRow, parseVector, toColumns } from "./pg-rows.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

/** How a Postgres store searches vectors. */
export type VectorIndexMode = "auto" | "exact" | "hnsw";

/** Options of the Postgres adapters (PGlite and PostgreSQL). */
export interface PgStoreOptions {
  /**
   * Postgres schema holding the tables (`chunks`, `manifest`, `meta`, `migrations`).
   * @default "docparse"
   */
  schema?: string;
  /**
   * `auto`: exact search (sequential scan) until the table holds `hnswThreshold` chunks,
   * then an HNSW index (cosine) is built once, after the write that crossed it — for
   * dense vectors only: sparse ones (most components zero, as HashEmbeddings makes) stay
   * exact, because HNSW finds their neighbours poorly (measured).
   * `exact`: never index (call `createIndex()` yourself after a bulk load).
   * `hnsw`: index from the first write (every insert then updates the graph: slow in PGlite).
   * @default "auto"
   */
  index?: VectorIndexMode;
  /**
   * Chunk count from which `auto` builds the HNSW index. Measured in
   * test/bench/store (see docs/performance.md): below it an exact scan answers within a
   * few milliseconds and is always right.
   * @default 20000
   */
  hnswThreshold?: number;
  /**
   * HNSW candidate list size at query time (`hnsw.ef_search`); raised to 2·k when k is
   * larger. Higher is slower and more accurate.
   * @default 100
   */
  efSearch?: number;
  /**
   * Rows per INSERT statement inside one upsert transaction.
   * @default 1000
   */
  insertBatchSize?: number;
  /**
   * `maintenance_work_mem` while the HNSW index is built. pgvector builds far faster when
   * the whole graph fits (100k × 384 dimensions needs about 250 MB; PGlite's default is
   * 64 MB). Memory is taken only as the build needs it.
   * @default "512MB"
   */
  indexBuildMemory?: string;
}

/** The defaults of {@link PgStoreOptions}, pinned by a test. */
export const PG_STORE_DEFAULTS = {
  schema: "docparse",
  index: "auto",
  hnswThreshold: 20_000,
  efSearch: 100,
  insertBatchSize: 1000,
  indexBuildMemory: "512MB",
} as const;

const INDEX_NAME = "chunks_vector_hnsw_idx";
/** Above this fraction of zero components, `auto` treats vectors as sparse (lexical) and keeps exact search. */
const SPARSE_ZERO_FRACTION = 0.5;
/** Widest vector kept inline (4 bytes a number; 1800 × 4 leaves room in an 8 kB page). */
const PLAIN_STORAGE_MAX_DIMENSION = 1800;

/**
 * The pgvector adapter, on PGlite (`pglite://dir`) or PostgreSQL (`postgres://...`) through
 * the same SQL. Every write is one transaction; hybrid queries fuse vector rank and
 * `ts_rank` rank with reciprocal rank fusion. Create it with `openStore()`.
 */
export class PgStore implements ChunkStore {
  readonly capabilities: ChunkStoreCapabilities = { listBySource: true, hybridSearch: true, transactional: true, manifest: true };
  readonly manifest: PgManifest;
  readonly #client: SqlClient;
  readonly #schema: string;
  readonly #options: Required<Omit<PgStoreOptions, "schema">>;
  #dimension: number | undefined;
  #indexed = false;
  /** `auto` found the vectors sparse and keeps exact search. */
  #sparse = false;
  #closed = false;

  private constructor(client: SqlClient, schema: string, options: Required<Omit<PgStoreOptions, "schema">>) {
    this.#client = client;
    this.#schema = schema;
    this.#options = options;
    this.manifest = new PgManifest((fn) => this.#run(fn), schema);
  }

  /** Migrates the schema and loads the store's state. Closes `client` if that fails. */
  static async open(client: SqlClient, options: PgStoreOptions = {}): Promise<PgStore> {
    const {
      schema = PG_STORE_DEFAULTS.schema,
      index = PG_STORE_DEFAULTS.index,
      hnswThreshold = PG_STORE_DEFAULTS.hnswThreshold,
      efSearch = PG_STORE_DEFAULTS.efSearch,
      insertBatchSize = PG_STORE_DEFAULTS.insertBatchSize,
      indexBuildMemory = PG_STORE_DEFAULTS.indexBuildMemory,
    } = options;
    try {
      checkSchemaName(schema);
      if (!["auto", "exact", "hnsw"].includes(index)) throw invalidOption(`Expected \`index\` to be auto, exact or hnsw, got ${String(index)}`);
      for (const [name, value] of Object.entries({ hnswThreshold, efSearch, insertBatchSize })) {
        if (!Number.isInteger(value) || value < 1) throw invalidOption(`Expected \`${name}\` to be an integer >= 1, got ${String(value)}`);
      }
      if (!/^\d+\s*(kB|MB|GB)$/.test(indexBuildMemory)) {
        throw invalidOption(`Expected \`indexBuildMemory\` to look like "512MB" (kB, MB or GB), got ${JSON.stringify(indexBuildMemory)}`);
      }
      const store = new PgStore(client, schema, { index, hnswThreshold, efSearch: Math.min(efSearch, 1000), insertBatchSize, indexBuildMemory });
      await store.#run(async () => {
        await migrate(client, schema);
        await store.#loadState(client);
      });
      return store;
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
  }

  /** `pglite` or `postgres`. */
  get dialect(): SqlClient["dialect"] {
    return this.#client.dialect;
  }

  /** The vector dimension fixed by the first write, if any. */
  get dimension(): number | undefined {
    return this.#dimension;
  }

  /** Whether the HNSW index exists. */
  get indexed(): boolean {
    return this.#indexed;
  }

  async upsert(records: readonly StoredChunk[]): Promise<void> {
    this.#open();
    const checked = checkRecords(records, this.#dimension);
    if (checked.records.length === 0) return;
    const dimension = await this.#run(() => this.#client.transaction((tx) => this.#write(tx, checked.records, checked.dimension!)));
    this.#dimension = dimension;
    await this.#maybeIndex();
  }

  async delete(ids: readonly string[]): Promise<void> {
    this.#open();
    if (ids.length === 0) return;
    await this.#run((exec) => exec.query(`DELETE FROM ${this.#schema}.chunks WHERE id = ANY($1::text[])`, [[...ids]]));
  }

  async deleteBySource(sourceId: string): Promise<number> {
    this.#open();
    const rows = await this.#run((exec) =>
      exec.query<{ n: number | string }>(
        `WITH d AS (DELETE FROM ${this.#schema}.chunks WHERE source_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
        [sourceId],
      ),
    );
    return Number(rows[0]?.n ?? 0);
  }

  async getByIds(ids: readonly string[]): Promise<Chunk[]> {
    this.#open();
    if (ids.length === 0) return [];
    const rows = await this.#run((exec) =>
      exec.query<ChunkRow>(`SELECT id, text, embed_text, metadata_json FROM ${this.#schema}.chunks WHERE id = ANY($1::text[])`, [[...new Set(ids)]]),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [fromRow(row)] : [];
    });
  }

  async idsBySource(sourceId: string): Promise<string[]> {
    this.#open();
    const rows = await this.#run((exec) =>
      exec.query<{ id: string }>(`SELECT id FROM ${this.#schema}.chunks WHERE source_id = $1 ORDER BY chunk_index, id COLLATE "C"`, [sourceId]),
    );
    return rows.map((r) => r.id);
  }

  async replaceSource(sourceId: string, records: readonly StoredChunk[], entry: ManifestEntry): Promise<void> {
    this.#open();
    const checked = checkRecords(records, this.#dimension);
    checkEntry(entry);
    for (const record of checked.records) {
      if (record.metadata.sourceId !== sourceId) throw invalidOption(`Record ${record.id} belongs to ${record.metadata.sourceId}, not ${sourceId}`);
    }
    const dimension = await this.#run(() =>
      this.#client.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${this.#schema}.chunks WHERE source_id = $1 AND NOT (id = ANY($2::text[]))`, [
          sourceId,
          checked.records.map((r) => r.id),
        ]);
        const dim = checked.records.length > 0 ? await this.#write(tx, checked.records, checked.dimension!) : this.#dimension;
        await putManifestEntry(tx, this.#schema, entry);
        return dim;
      }),
    );
    this.#dimension = dimension;
    await this.#maybeIndex();
  }

  async removeSource(sourceId: string): Promise<void> {
    this.#open();
    await this.#run(() =>
      this.#client.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${this.#schema}.chunks WHERE source_id = $1`, [sourceId]);
        await tx.query(`DELETE FROM ${this.#schema}.manifest WHERE source_id = $1`, [sourceId]);
      }),
    );
  }

  async query(query: ChunkQuery): Promise<ScoredChunk[]> {
    this.#open();
    checkK(query.k);
    checkQueryVector(query.vector, this.#dimension);
    const filter = checkFilter(query.filter);
    if (this.#dimension === undefined) {
      // Another process sharing the database may have written since we opened.
      await this.#run((exec) => this.#loadState(exec));
      if (this.#dimension === undefined) return []; // nothing was ever written
      checkQueryVector(query.vector, this.#dimension);
    }
    const { sql, params } = querySql(this.#schema, query, filter);
    const run = async (exec: SqlExecutor) => exec.query<QueryRow>(sql, params);
    const rows = await this.#run(() =>
      this.#indexed
        ? this.#client.transaction(async (tx) => {
            // SET LOCAL: the settings die with the transaction, so pooled connections stay clean.
            await tx.exec(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(this.#options.efSearch, 2 * query.k))}`);
            // With a filter, keep scanning the graph until k rows pass it (pgvector >= 0.8).
            if (filter !== undefined) await tx.exec("SET LOCAL hnsw.iterative_scan = strict_order");
            return run(tx);
          })
        : run(this.#client),
    );
    return rows.map((row) => ({
      chunk: fromRow(row),
      score: Number(row.score),
      ...(query.includeVectors && row.vector !== undefined ? { vector: parseVector(row.vector) } : {}),
    }));
  }

  /** Number of stored chunks. */
  async count(): Promise<number> {
    this.#open();
    const rows = await this.#run((exec) => exec.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.#schema}.chunks`));
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Builds the HNSW (cosine) index now, if it does not exist. Do this after a bulk load:
   * building once is far faster than updating the graph on every insert.
   */
  async createIndex(): Promise<void> {
    this.#open();
    if (this.#indexed) return;
    if (this.#dimension === undefined) throw invalidOption("Cannot index an empty store: the vector dimension is fixed by the first write");
    await this.#run(() =>
      this.#client.transaction(async (tx) => {
        await tx.exec(`SET LOCAL maintenance_work_mem = '${this.#options.indexBuildMemory}'`);
        await tx.exec(`CREATE INDEX IF NOT EXISTS ${INDEX_NAME} ON ${this.#schema}.chunks USING hnsw (vector vector_cosine_ops)`);
      }),
    );
    this.#indexed = true;
  }

  /** Drops the HNSW index (queries become exact scans). */
  async dropIndex(): Promise<void> {
    this.#open();
    await this.#run((exec) => exec.exec(`DROP INDEX IF EXISTS ${this.#schema}.${INDEX_NAME}`));
    this.#indexed = false;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#client.close();
  }

  /** Upserts inside a transaction; fixes the dimension on the first write. Returns the dimension. */
  async #write(tx: SqlExecutor, records: readonly StoredChunk[], dimension: number): Promise<number> {
    const s = this.#schema;
    if (this.#dimension === undefined) {
      // Another writer (a shared PostgreSQL) may fix the dimension at the same moment.
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`docparse-rag:${s}:dimension`]);
      const rows = await tx.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'dimension'`);
      if (rows[0] !== undefined) {
        if (Number(rows[0].value) !== dimension) throw dimensionMismatch(dimension, Number(rows[0].value));
      } else {
        await tx.query(`INSERT INTO ${s}.meta (key, value) VALUES ('dimension', $1)`, [String(dimension)]);
        await tx.exec(`ALTER TABLE ${s}.chunks ALTER COLUMN vector TYPE vector(${dimension})`);
        // Rows here exceed Postgres' 2 kB TOAST target, so by default the vector is moved
        // out of line and every distance computation fetches it back: exact scans measured
        // 4-5× slower. PLAIN keeps it in the row (pgvector's own advice); the row must then
        // fit an 8 kB page, so very wide vectors keep the default.
        if (dimension <= PLAIN_STORAGE_MAX_DIMENSION) await tx.exec(`ALTER TABLE ${s}.chunks ALTER COLUMN vector SET STORAGE PLAIN`);
      }
    }
    const names = UPSERT_COLUMNS.map(([name]) => name);
    const unnest = UPSERT_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
    const sql = `INSERT INTO ${s}.chunks (id, source_id, chunk_index, filename, kind, page_start, page_end, pages, element_types,
                   heading_path, text, embed_text, metadata, metadata_json, vector, tsv)
                 SELECT u.id, u.source_id, u.chunk_index, u.filename, u.kind, u.page_start, u.page_end, u.pages::int[],
                   u.element_types::text[], u.heading_path::text[], u.text, u.embed_text, u.meta::jsonb, u.meta,
                   u.vector::vector, to_tsvector('simple', u.fts)
                 FROM unnest(${unnest}) AS u(${names.join(", ")})
                 ON CONFLICT (id) DO UPDATE SET source_id = excluded.source_id, chunk_index = excluded.chunk_index,
                   filename = excluded.filename, kind = excluded.kind, page_start = excluded.page_start,
                   page_end = excluded.page_end, pages = excluded.pages, element_types = excluded.element_types,
                   heading_path = excluded.heading_path, text = excluded.text, embed_text = excluded.embed_text,
                   metadata = excluded.metadata, metadata_json = excluded.metadata_json, vector = excluded.vector,
                   tsv = excluded.tsv`;
    for (let i = 0; i < records.length; i += this.#options.insertBatchSize) {
      await tx.query(sql, toColumns(records.slice(i, i + this.#options.insertBatchSize)));
    }
    return dimension;
  }

  async #maybeIndex(): Promise<void> {
    if (this.#options.index === "exact" || this.#indexed || this.#sparse || this.#dimension === undefined) return;
    if (this.#options.index === "auto") {
      const rows = await this.#run((exec) =>
        exec.query(`SELECT 1 FROM ${this.#schema}.chunks OFFSET ${this.#options.hnswThreshold - 1} LIMIT 1`),
      );
      if (rows.length === 0) return;
      // Measured (docs/performance.md): HNSW recall@10 on sparse lexical vectors such as
      // HashEmbeddings' was 0.36 at 100k chunks (0.59 with ef_search 400), against 1.0
      // on dense model vectors. Sparse stores stay exact rather than silently lose hits.
      if (await this.#looksSparse()) {
        this.#sparse = true;
        return;
      }
    }
    await this.createIndex();
  }

  /** Whether most components of a sample of stored vectors are zero. */
  async #looksSparse(): Promise<boolean> {
    const rows = await this.#run((exec) => exec.query<{ v: string }>(`SELECT vector::text AS v FROM ${this.#schema}.chunks LIMIT 64`));
    let zeros = 0;
    let total = 0;
    for (const row of rows) {
      for (const x of parseVector(row.v)) {
        total++;
        if (x === 0) zeros++;
      }
    }
    return total > 0 && zeros / total > SPARSE_ZERO_FRACTION;
  }

  async #loadState(exec: SqlExecutor): Promise<void> {
    const dims = await exec.query<{ value: string }>(`SELECT value FROM ${this.#schema}.meta WHERE key = 'dimension'`);
    this.#dimension = dims[0] === undefined ? undefined : Number(dims[0].value);
    const idx = await exec.query(`SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = $2`, [this.#schema, INDEX_NAME]);
    this.#indexed = idx.length > 0;
  }

  /** Runs database work, turning driver errors into DocParseError DOCPARSE_STORE (cause kept). */
  async #run<T>(fn: (exec: SqlExecutor) => Promise<T>): Promise<T> {
    try {
      return await fn(this.#client);
    } catch (error) {
      if (DocParseError.isInstance(error)) throw error;
      const code = (error as { code?: unknown } | null)?.code;
      const network = typeof code === "string" && /^(ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|57P01)/.test(code);
      throw new DocParseError(LocalErrorCode.Store, `Store (${this.#client.dialect}) failed: ${(error as Error)?.message ?? String(error)}`, {
        cause: error,
        isRetryable: network,
      });
    }
  }

  #open(): void {
    if (this.#closed) throw invalidOption("The store is closed");
  }
}
