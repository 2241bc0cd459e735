import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { invalidOption } from "../errors.js";
import type { ChunkStore } from "./chunk-store.js";
import { MemoryStore } from "./memory-store.js";
import type { PgPoolOptions } from "./pg/node-pg-client.js";
import type { PgStoreOptions } from "./pg/pg-store.js";

/** Options of {@link openStore}; the Postgres ones apply to `pglite://` and `postgres://`. */
export interface OpenStoreOptions extends PgStoreOptions {
  /** `pg` pool settings, for `postgres://` only. */
  pool?: PgPoolOptions;
}

const ACCEPTED = "memory://, pglite://<dir> (relative or absolute; pglite://memory for an in-memory PGlite), postgres://… or postgresql://…";

/**
 * Opens a ChunkStore from a URL:
 *
 * - `memory://` — in process, nothing persists ({@link MemoryStore}).
 * - `pglite://<dir>` — the embedded default: PGlite + pgvector persisted in `<dir>`
 *   (`pglite://./data/store`, `pglite:///abs/path`, `pglite://data`); the directory is
 *   created if missing. `pglite://memory` keeps PGlite in memory. One process at a time.
 * - `postgres://user:pass@host:5432/db` (or `postgresql://`) — PostgreSQL with the
 *   pgvector extension, through a `pg` pool. Same schema and SQL as PGlite.
 *
 * PGlite and `pg` are imported only when their scheme is used. Rejects with
 * `DOCPARSE_INVALID_OPTION` for any other scheme.
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<ChunkStore> {
  if (typeof url !== "string") throw invalidOption(`Expected a store URL string (${ACCEPTED})`);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case "memory":
      return new MemoryStore();
    case "pglite": {
      const dir = pgliteDir(url);
      const [{ openPgliteClient }, { PgStore }] = await Promise.all([import("./pg/pglite-client.js"), import("./pg/pg-store.js")]);
      return PgStore.open(await openPgliteClient(dir), options);
    }
    case "postgres":
    case "postgresql": {
      const [{ openNodePgClient }, { PgStore }] = await Promise.all([import("./pg/node-pg-client.js"), import("./pg/pg-store.js")]);
      return PgStore.open(await openNodePgClient(url, options.pool), options);
    }
    default:
      throw invalidOption(`Unknown store URL ${JSON.stringify(redact(url))}; accepted: ${ACCEPTED}`);
  }
}

/** The directory of a pglite:// URL, resolved against the working directory; undefined for in-memory. */
export function pgliteDir(url: string): string | undefined {
  const rest = decodeURIComponent(url.slice("pglite://".length));
  if (rest === "" ) throw invalidOption(`pglite:// needs a directory, e.g. pglite://./data/store (${ACCEPTED})`);
  if (rest === "memory") return undefined;
  if (rest.startsWith("/") && url.startsWith("pglite:///")) return rest; // pglite:///abs/path
  if (rest.startsWith("file:")) return fileURLToPath(rest);
  return isAbsolute(rest) ? rest : resolve(rest);
}

/** The URL without its password, for error messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}
