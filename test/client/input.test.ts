import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { resolveInput } from "../../src/client/input.js";
import type { ParseInput } from "../../src/parser.js";
import { tempDir } from "../support/system.js";

const dir = tempDir();
afterAll(() => dir.cleanup());

describe("resolveInput", () => {
  it("opens a path lazily with its size and name", async () => {
    const path = join(dir.path, "a.md");
    writeFileSync(path, "# hi");
    const up = await resolveInput(path);
    expect(up).toMatchObject({ kind: "file", filename: "a.md", size: 4, replayable: true });
  });

  it("names bytes, Blobs and Files", async () => {
    expect(await resolveInput(new Uint8Array(3))).toMatchObject({ filename: "document", size: 3 });
    expect(await resolveInput(new Blob(["xy"]), "b.txt")).toMatchObject({ filename: "b.txt", size: 2 });
    expect(await resolveInput(new File(["xyz"], "c.txt"))).toMatchObject({ filename: "c.txt", size: 3 });
  });

  it("reads a stream once only", async () => {
    const up = await resolveInput(Readable.from(["x"]));
    if (up.kind !== "file") throw new Error("expected a file");
    expect(up.replayable).toBe(false);
    up.open();
    expect(() => up.open()).toThrow(/only once/);
  });

  it("accepts { url } with http(s) only", async () => {
    expect(await resolveInput({ url: "https://x.test/a.pdf" })).toEqual({ kind: "url", url: "https://x.test/a.pdf" });
    await expect(resolveInput({ url: "file:///etc/passwd" })).rejects.toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
  });

  it.each([
    [{ url: "https://x.test/a", path: "/tmp/a" }, "exactly one"],
    [{ path: "/tmp/a" }, "exactly one"],
    [null, "exactly one"],
    [42, "exactly one"],
    ["", "empty"],
    ["/definitely/not/here.pdf", "Cannot read file"],
    ["https://x.test/a.pdf", "pass { url"],
  ])("refuses %j before sending", async (input, message) => {
    const err = await resolveInput(input as unknown as ParseInput).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "DOCPARSE_INVALID_OPTION" });
    expect((err as Error).message).toContain(message);
  });
});
