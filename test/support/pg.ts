import type { PGlite } from "@electric-sql/pglite";

/**
 * A real Postgres wire server for `pg` tests: an in-memory PGlite with pgvector behind
 * `PGLiteSocketServer` on 127.0.0.1, port 0. It serves one connection at a time, so
 * give `pg` pools `max: 1`.
 */
export async function startPgServer(): Promise<{ url: string; db: PGlite; idle: () => Promise<void>; stop: () => Promise<void> }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0 });
  await server.start();
  // getServerConn() gives "host:port" once listening.
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres:postgres@${conn}/postgres`,
    db,
    // A client that just disconnected is released a moment later; a new connection
    // arriving before that is refused (one at a time). Wait until the slot is free.
    idle: async () => {
      for (let i = 0; i < 200 && server.getStats().activeConnections > 0; i++) await new Promise((r) => setTimeout(r, 10));
    },
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
