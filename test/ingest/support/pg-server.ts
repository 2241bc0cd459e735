import type { PGlite } from "@electric-sql/pglite";

/**
 * A Postgres wire server several processes can share: in-memory PGlite + pgvector
 * behind PGLiteSocketServer with `maxConnections` (its query queue keeps a transaction
 * on one connection). Each client process uses a `pg` pool with `max: 1`.
 */
export async function startSharedPgServer(maxConnections = 6): Promise<{ url: string; db: PGlite; stop: () => Promise<void> }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections });
  await server.start();
  return {
    url: `postgres://postgres:postgres@${server.getServerConn()}/postgres`,
    db,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
