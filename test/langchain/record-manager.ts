import type { ListKeyOptions, RecordManagerInterface, UpdateOptions } from "@langchain/core/indexing";

/**
 * A small in-memory RecordManagerInterface (neither @langchain/core nor
 * @langchain/classic ships one). Time is a counter, so "updated before this run" is exact.
 */
export class InMemoryRecordManager implements RecordManagerInterface {
  readonly records = new Map<string, { updatedAt: number; groupId: string | null }>();
  #clock = 0;

  async createSchema(): Promise<void> {}

  async getTime(): Promise<number> {
    return ++this.#clock;
  }

  async update(keys: string[], options: UpdateOptions = {}): Promise<void> {
    const now = await this.getTime();
    if (options.timeAtLeast !== undefined && now < options.timeAtLeast) throw new Error("time went backwards");
    keys.forEach((key, i) => this.records.set(key, { updatedAt: now, groupId: options.groupIds?.[i] ?? null }));
  }

  async exists(keys: string[]): Promise<boolean[]> {
    return keys.map((key) => this.records.has(key));
  }

  async listKeys(options: ListKeyOptions = {}): Promise<string[]> {
    const out: string[] = [];
    for (const [key, r] of this.records) {
      if (options.before !== undefined && !(r.updatedAt < options.before)) continue;
      if (options.after !== undefined && !(r.updatedAt > options.after)) continue;
      if (options.groupIds !== undefined && !options.groupIds.includes(r.groupId)) continue;
      out.push(key);
    }
    return options.limit !== undefined ? out.slice(0, options.limit) : out;
  }

  async deleteKeys(keys: string[]): Promise<void> {
    for (const key of keys) this.records.delete(key);
  }
}
