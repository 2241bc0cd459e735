import { invalidOption } from "../errors.js";
import type { Manifest, ManifestEntry } from "./chunk-store.js";

/** A manifest in a Map. Entries are copied in and out, so callers cannot change stored state. */
export class MemoryManifest implements Manifest {
  readonly #entries = new Map<string, ManifestEntry>();

  async get(sourceId: string): Promise<ManifestEntry | undefined> {
    const entry = this.#entries.get(sourceId);
    return entry && structuredClone(entry);
  }

  async list(): Promise<ManifestEntry[]> {
    return [...this.#entries.keys()].sort(compareStrings).map((id) => structuredClone(this.#entries.get(id)!));
  }

  async put(entry: ManifestEntry): Promise<void> {
    this.putSync(entry);
  }

  async delete(sourceId: string): Promise<void> {
    this.#entries.delete(sourceId);
  }

  /** Synchronous put, for callers that must change chunks and manifest in one step. */
  putSync(entry: ManifestEntry): void {
    checkEntry(entry);
    this.#entries.set(entry.sourceId, structuredClone(entry));
  }

  /** Synchronous delete. */
  deleteSync(sourceId: string): void {
    this.#entries.delete(sourceId);
  }
}

/** Boundary check of a manifest entry. */
export function checkEntry(entry: ManifestEntry): void {
  if (typeof entry?.sourceId !== "string" || entry.sourceId === "") throw invalidOption("A manifest entry needs a non-empty `sourceId`");
  if (!Array.isArray(entry.chunkIds)) throw invalidOption(`Manifest entry ${entry.sourceId} needs \`chunkIds\` (an array)`);
}

/** Code-unit order, the same as Postgres' `COLLATE "C"`, so every adapter lists alike. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
