/**
 * The little SQL surface the Postgres adapters need, so the same store code runs on
 * PGlite (in process, one connection) and on PostgreSQL through `pg` (a pool).
 */
export interface SqlExecutor {
  /** One parameterised statement; rows as plain objects. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  /** Which engine is behind the client. */
  readonly dialect: "pglite" | "postgres";
  /**
   * Runs `fn` in one transaction on one connection: COMMIT when it resolves, ROLLBACK
   * when it throws. Statements inside must use `tx`, never the client itself.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Releases the connection(s) or the database files. */
  close(): Promise<void>;
}
