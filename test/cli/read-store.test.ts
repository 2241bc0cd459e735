import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT, runCli } from "../../src/cli/index.js";
import { tempDir } from "../support/system.js";
import { bufferIo } from "./support.js";

describe("query and view on a pglite:// directory that does not exist", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => (dir = tempDir("cli-read-store-")));
  afterAll(() => dir.cleanup());

  it("query exits 2 saying so, and creates nothing", async () => {
    const missing = join(dir.path, "typo-store");
    const io = bufferIo();
    expect(await runCli(["query", "refund", "--store", `pglite://${missing}`], io)).toBe(EXIT.usage);
    expect(io.out()).toBe("");
    expect(io.err()).toMatch(/^docparse-rag: No store at pglite:\/\/.*typo-store: the directory .* does not exist\. .*\(DOCPARSE_INVALID_OPTION\)\n$/);
    expect(existsSync(missing)).toBe(false);
  });

  it("view exits 2 too, from DOCPARSE_STORE as well", async () => {
    const missing = join(dir.path, "other-typo");
    const io = bufferIo({ env: { DOCPARSE_STORE: `pglite://${missing}` } });
    expect(await runCli(["view", "--port", "0"], io)).toBe(EXIT.usage);
    expect(io.err()).toMatch(/does not exist.*DOCPARSE_INVALID_OPTION/);
    expect(existsSync(missing)).toBe(false);
  });

  it("an existing store still opens (an empty one answers with no passages)", async () => {
    const store = `pglite://${join(dir.path, "real")}`;
    const empty = join(dir.path, "empty-docs");
    mkdirSync(empty);
    expect(await runCli(["ingest", empty, "--store", store], bufferIo())).toBe(EXIT.ok);
    const io = bufferIo();
    expect(await runCli(["query", "refund", "--store", store], io)).toBe(EXIT.ok);
    expect(io.out()).toBe("no matching passages\n");
  }, 60_000);
});
