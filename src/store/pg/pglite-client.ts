import { mkdirSync } from "node:fs";
import { DocParseError, LocalErrorCode } from "../../errors.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

type PGliteLike = SqlExecutorSource & {
  transaction<T>(fn: (tx: SqlExecutorSource) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};
interface SqlExecutorSource {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}

/**
 * Opens PGlite (Postgres compiled to WebAssembly) with the pgvector extension, persisted
 * in `dataDir` (created if missing), or in memory when `dataDir` is undefined.
 *
 * PGlite is a single connection. It queues statements itself and holds a lock for the
 * length of `transaction()`, so concurrent callers are serialised: a query issued while a
 * transaction runs waits for it instead of seeing its half-done state.
 */
export async function openPgliteClient(dataDir: string | undefined): Promise<SqlClient> {
  let PGlite: typeof import("@electric-sql/pglite").PGlite;
  let vector: typeof import("@electric-sql/pglite-pgvector").vector;
  try {
    ({ PGlite } = await import("@electric-sql/pglite"));
    ({ vector } = await import("@electric-sql/pglite-pgvector"));
  } catch (cause) {
    throw new DocParseError(
      LocalErrorCode.MissingDependency,
      "pglite:// stores need @electric-sql/pglite and @electric-sql/pglite-pgvector: npm i @electric-sql/pglite@0.5.14 @electric-sql/pglite-pgvector@0.0.15",
      { cause },
    );
  }
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  let db: PGliteLike;
  try {
    db = (await PGlite.create(dataDir, { extensions: { vector } })) as unknown as PGliteLike;
    await db.exec("CREATE EXTENSION IF NOT EXISTS vector");
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.Store, `Cannot open PGlite in ${dataDir ?? "memory"}: ${String((cause as Error)?.message ?? cause)}`, { cause });
  }
  return {
    dialect: "pglite",
    ...executor(db),
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    close: () => db.close(),
  };
}

function executor(source: SqlExecutorSource): SqlExecutor {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return (await source.query<T>(sql, [...params])).rows;
    },
    async exec(sql: string) {
      await source.exec(sql);
    },
  };
}
