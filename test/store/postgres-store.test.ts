import { afterAll, beforeAll } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import { startPgServer } from "../support/pg.js";
import { adapterSuite } from "./adapter-suite.js";

// The `pg` driver against a real Postgres wire server (PGlite behind pglite-socket).
let server: Awaited<ReturnType<typeof startPgServer>>;
let n = 0;
beforeAll(async () => {
  server = await startPgServer();
});
afterAll(async () => {
  await server?.stop();
});

adapterSuite("PostgreSQL via pg", {
  // The socket server takes one connection at a time: a pool of one.
  open: async () => {
    await server.idle();
    return openStore(server.url, { schema: `pg${++n}`, insertBatchSize: 2, pool: { max: 1 } });
  },
  poison: (r) => ({ ...r, text: "bad\u0000text" }),
});
