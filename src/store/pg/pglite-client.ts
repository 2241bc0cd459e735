import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { DocParseError, LocalErrorCode, invalidOption } from "../../errors.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

type PGliteLike = SqlExecutorSource & {
  transaction<T>(fn: (tx: SqlExecutorSource) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};
interface SqlExecutorSource {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}

/** Directories with an open PGlite in this process (resolved paths). */
const OPEN_DIRS = new Set<string>();

/**
 * Opens PGlite (Postgres compiled to WebAssembly) with the pgvector extension, persisted
 * in `dataDir` (created if missing), or in memory when `dataDir` is undefined.
 *
 * PGlite is a single connection. It queues statements itself and holds a lock for the
 * length of `transaction()`, so concurrent callers are serialised: a query issued while a
 * transaction runs waits for it instead of seeing its half-done state.
 */
export async function openPgliteClient(dir: string | undefined): Promise<SqlClient> {
  const dataDir = dir === undefined ? undefined : resolve(dir);
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
  if (dataDir !== undefined) {
    // Two PGlite instances on one directory do not see each other's writes and corrupt
    // the files; refuse a second open in this process instead.
    if (OPEN_DIRS.has(dataDir)) {
      throw invalidOption(`The PGlite directory ${dataDir} is already open in this process; share that store (close it before reopening)`);
    }
    mkdirSync(dataDir, { recursive: true });
    OPEN_DIRS.add(dataDir);
  }
  let db: PGliteLike;
  try {
    db = (await PGlite.create(dataDir, { extensions: { vector } })) as unknown as PGliteLike;
    await db.exec("CREATE EXTENSION IF NOT EXISTS vector");
  } catch (cause) {
    if (dataDir !== undefined) OPEN_DIRS.delete(dataDir);
    throw new DocParseError(LocalErrorCode.Store, `Cannot open PGlite in ${dataDir ?? "memory"}: ${String((cause as Error)?.message ?? cause)}`, { cause });
  }
  return {
    dialect: "pglite",
    ...executor(db),
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    close: async () => {
      try {
        await db.close();
      } finally {
        if (dataDir !== undefined) OPEN_DIRS.delete(dataDir);
      }
    },
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
