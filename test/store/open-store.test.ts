import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, pgliteDir } from "../../src/store/open-store.js";
import { MemoryStore } from "../../src/store/memory-store.js";

describe("openStore", () => {
  it("memory:// gives a MemoryStore", async () => {
    const store = await openStore("memory://");
    expect(store).toBeInstanceOf(MemoryStore);
    await store.close();
  });

  it("an unknown scheme is DOCPARSE_INVALID_OPTION naming what is accepted, without the password", async () => {
    const error = await openStore("mysql://u:secret@h/db").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
    expect((error as Error).message).toMatch(/memory:\/\/.*pglite:\/\/.*postgres:\/\//);
    expect((error as Error).message).not.toContain("secret");
    await expect(openStore("no-scheme")).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
    await expect(openStore("pglite://")).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
  });

  it("pglite:// directories: relative, ./relative, absolute, memory", () => {
    expect(pgliteDir("pglite://data/store")).toBe(resolve("data/store"));
    expect(pgliteDir("pglite://./data")).toBe(resolve("data"));
    expect(pgliteDir("pglite:///tmp/x y")).toBe("/tmp/x y");
    expect(pgliteDir("pglite:///tmp/x%20y")).toBe("/tmp/x y");
    expect(pgliteDir("pglite://memory")).toBeUndefined();
  });

  it("postgres:// that cannot connect fails with DOCPARSE_STORE, retryable", async () => {
    // Port 1 on localhost: refused at once, no network leaves the machine.
    const error = await openStore("postgres://u:p@127.0.0.1:1/db", { pool: { max: 1, connectionTimeoutMillis: 2000 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DOCPARSE_STORE", isRetryable: true });
  });
});
