import { DocParseError, LocalErrorCode } from "../../errors.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

/** Options for the `pg` pool behind a postgres:// store. */
export interface PgPoolOptions {
  /**
   * Most connections at once. Use 1 against servers that take a single connection
   * (e.g. a pglite-socket server).
   * @default 10
   */
  max?: number;
  /**
   * Milliseconds an idle connection stays open.
   * @default 10000
   */
  idleTimeoutMillis?: number;
  /**
   * Milliseconds to wait for a connection before failing.
   * @default 0 (no limit)
   */
  connectionTimeoutMillis?: number;
}

/** Opens a `pg` Pool on a PostgreSQL URL (lazy import of `pg`). */
export async function openNodePgClient(url: string, options: PgPoolOptions = {}): Promise<SqlClient> {
  let pg: typeof import("pg");
  try {
    const mod = (await import("pg")) as typeof import("pg") & { default?: typeof import("pg") };
    pg = mod.default ?? mod;
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.MissingDependency, "postgres:// stores need the `pg` driver: npm i pg", { cause });
  }
  const pool = new pg.Pool({ connectionString: url, ...options });
  // An idle client's network error is emitted on the pool; without a listener it would
  // crash the process. The next query reports the failure instead.
  pool.on("error", () => {});
  const exec = (client: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> }): SqlExecutor => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return (await client.query(sql, [...params])).rows as T[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  return {
    dialect: "postgres",
    ...exec(pool),
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query("BEGIN");
        const result = await fn(exec(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        try {
          await client.query("ROLLBACK");
        } catch (rollbackError) {
          broken = rollbackError; // the connection is unusable; drop it from the pool
        }
        throw error;
      } finally {
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: () => pool.end(),
  };
}
