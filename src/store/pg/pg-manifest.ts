import type { Manifest, ManifestEntry } from "../chunk-store.js";
import { checkEntry } from "../memory-manifest.js";
import type { SqlExecutor } from "./sql-client.js";

/** Writes one manifest entry through any executor (the client, or a transaction). */
export async function putManifestEntry(exec: SqlExecutor, schema: string, entry: ManifestEntry): Promise<void> {
  checkEntry(entry);
  await exec.query(
    `INSERT INTO ${schema}.manifest (source_id, entry, updated_at) VALUES ($1, $2::jsonb, now())
     ON CONFLICT (source_id) DO UPDATE SET entry = excluded.entry, updated_at = excluded.updated_at`,
    [entry.sourceId, JSON.stringify(entry)],
  );
}

/** The manifest table of a Postgres store. */
export class PgManifest implements Manifest {
  constructor(
    private readonly run: <T>(fn: (exec: SqlExecutor) => Promise<T>) => Promise<T>,
    private readonly schema: string,
  ) {}

  get(sourceId: string): Promise<ManifestEntry | undefined> {
    return this.run(async (exec) => {
      const rows = await exec.query<{ entry: unknown }>(`SELECT entry FROM ${this.schema}.manifest WHERE source_id = $1`, [sourceId]);
      return rows[0] === undefined ? undefined : parseEntry(rows[0].entry);
    });
  }

  list(): Promise<ManifestEntry[]> {
    return this.run(async (exec) => {
      const rows = await exec.query<{ entry: unknown }>(`SELECT entry FROM ${this.schema}.manifest ORDER BY source_id COLLATE "C"`);
      return rows.map((r) => parseEntry(r.entry));
    });
  }

  put(entry: ManifestEntry): Promise<void> {
    return this.run((exec) => putManifestEntry(exec, this.schema, entry));
  }

  delete(sourceId: string): Promise<void> {
    return this.run(async (exec) => {
      await exec.query(`DELETE FROM ${this.schema}.manifest WHERE source_id = $1`, [sourceId]);
    });
  }
}

// Both drivers parse jsonb into objects; a string here means a driver configured otherwise.
function parseEntry(value: unknown): ManifestEntry {
  return (typeof value === "string" ? JSON.parse(value) : value) as ManifestEntry;
}
