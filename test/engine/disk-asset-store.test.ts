import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DiskAssetStore } from "../../src/engine/disk-asset-store.js";
import { MemoryAssetStore, type AssetStore } from "../../src/engine/assets.js";
import { tempDir } from "../support/system.js";

const ID = "a".repeat(64);

function suite(name: string, make: () => { store: AssetStore; cleanup: () => void }) {
  describe(name, () => {
    it("puts, gets, overwrites and reports existence", async () => {
      const { store, cleanup } = make();
      try {
        expect(await store.get(ID, "page-1.png")).toBeUndefined();
        expect(await store.has(ID, "page-1.png")).toBe(false);
        await store.put(ID, "page-1.png", new Uint8Array([1, 2]));
        await store.put(ID, "page-1.png", new Uint8Array([3]));
        expect(await store.get(ID, "page-1.png")).toEqual(new Uint8Array([3]));
        expect(await store.has(ID, "page-1.png")).toBe(true);
        await store.delete(ID, "page-1.png");
        await store.delete(ID, "page-1.png");
        expect(await store.get(ID, "page-1.png")).toBeUndefined();
      } finally {
        cleanup();
      }
    });
  });
}

suite("MemoryAssetStore", () => ({ store: new MemoryAssetStore(), cleanup: () => {} }));
suite("DiskAssetStore", () => {
  const dir = tempDir();
  return { store: new DiskAssetStore({ directory: dir.path }), cleanup: dir.cleanup };
});

describe("DiskAssetStore paths", () => {
  it("locates files as file:// URLs under the directory", async () => {
    const dir = tempDir();
    try {
      const store = new DiskAssetStore({ directory: dir.path });
      await store.put(ID, "img-0.png", new Uint8Array([9]));
      const url = store.locate(ID, "img-0.png");
      expect(url.startsWith("file://")).toBe(true);
      expect(readFileSync(fileURLToPath(url))).toEqual(Buffer.from([9]));
    } finally {
      dir.cleanup();
    }
  });

  it("refuses ids and names that could escape the directory", () => {
    const store = new DiskAssetStore({ directory: "/tmp/x" });
    expect(() => store.locate("../etc", "page-1.png")).toThrow();
    expect(() => store.locate(ID, "../page-1.png")).toThrow();
    expect(() => store.locate(ID, "page-1.png/../../x")).toThrow();
  });
});

describe("DiskAssetStore.prune", () => {
  it("removes documents unused for longer than the given time, keeps recent ones", async () => {
    const dir = tempDir();
    try {
      const store = new DiskAssetStore({ directory: dir.path });
      const old = "b".repeat(64);
      await store.put(old, "page-1.png", new Uint8Array([1]));
      await store.put(ID, "page-1.png", new Uint8Array([2]));
      const { utimesSync } = await import("node:fs");
      const { join } = await import("node:path");
      const past = new Date(Date.now() - 3_600_000);
      utimesSync(join(dir.path, old), past, past);
      expect(await store.prune(60_000)).toBe(1);
      expect(await store.get(old, "page-1.png")).toBeUndefined();
      expect(await store.get(ID, "page-1.png")).toEqual(new Uint8Array([2]));
      expect(await new DiskAssetStore({ directory: join(dir.path, "missing") }).prune(0)).toBe(0);
    } finally {
      dir.cleanup();
    }
  });
});
