import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT, runCli } from "../../../src/cli/index.js";
import { tempDir } from "../../support/system.js";
import { bufferIo } from "../support.js";

const SAMPLES = resolve("examples/docs");

describe("chunk <file.json>", () => {
  let dir: ReturnType<typeof tempDir>;
  let result: { metadata?: { filename?: string }; elements: unknown[] };
  beforeAll(async () => {
    dir = tempDir("cli-chunk-");
    const io = bufferIo();
    expect(await runCli(["parse", join(SAMPLES, "en/returns-policy.md"), "--compact"], io)).toBe(EXIT.ok);
    result = JSON.parse(io.out()) as typeof result;
  });
  afterAll(() => dir.cleanup());

  function write(name: string, content: string): string {
    const file = join(dir.path, name);
    writeFileSync(file, content);
    return file;
  }
  function sourceIds(out: string): string[] {
    return [...new Set(out.trim().split("\n").map((l) => (JSON.parse(l) as { metadata: { sourceId: string } }).metadata.sourceId))];
  }

  it("takes the sourceId from the result's metadata.filename, not the JSON file's name", async () => {
    expect(result.metadata?.filename).toBe("returns-policy.md");
    const io = bufferIo();
    expect(await runCli(["chunk", write("saved-result.json", JSON.stringify(result))], io)).toBe(EXIT.ok);
    expect(sourceIds(io.out())).toEqual(["returns-policy.md"]);

    // Without a filename in the result, the file name is the fallback.
    const anonymous = bufferIo();
    expect(await runCli(["chunk", write("anonymous.json", JSON.stringify({ ...result, metadata: {} }))], anonymous)).toBe(EXIT.ok);
    expect(sourceIds(anonymous.out())).toEqual(["anonymous.json"]);
  });

  it("uses data of a 200 envelope", async () => {
    const io = bufferIo();
    expect(await runCli(["chunk", write("envelope.json", JSON.stringify({ code: 200, message: "success", data: result }))], io)).toBe(EXIT.ok);
    expect(io.out()).toContain("Returns and Refunds Policy");
    expect(sourceIds(io.out())).toEqual(["returns-policy.md"]);
  });

  it("raises the code of an error envelope (exit 1), printed once", async () => {
    const io = bufferIo();
    const file = write("failed.json", JSON.stringify({ code: 40422, message: "the file is corrupt" }));
    expect(await runCli(["chunk", file], io)).toBe(EXIT.failed);
    expect(io.out()).toBe("");
    expect(io.err()).toBe("docparse-rag: CORRUPT_FILE (40422): the file is corrupt\n");
  });

  it("refuses a result that fails ParseResultSchema with DOCPARSE_INVALID_RESPONSE and the issues", async () => {
    const io = bufferIo();
    const file = write("bad-result.json", JSON.stringify({ elements: [{ type: 7, text: ["not text"] }] }));
    expect(await runCli(["chunk", file], io)).toBe(EXIT.failed);
    expect(io.out()).toBe("");
    expect(io.err()).toMatch(/does not match the contract:\n[\s\S]*elements\[0\]\.type[\s\S]*\(DOCPARSE_INVALID_RESPONSE\)\n$/);

    const badData = bufferIo();
    expect(await runCli(["chunk", write("bad-data.json", JSON.stringify({ code: 200, data: { elements: "none" } }))], badData)).toBe(EXIT.failed);
    expect(badData.err()).toMatch(/envelope's data does not match the contract[\s\S]*DOCPARSE_INVALID_RESPONSE/);
  });

  it("refuses malformed JSON with a clear error", async () => {
    const io = bufferIo();
    expect(await runCli(["chunk", write("truncated.json", '{"code": 200, "data": {"elem')], io)).toBe(EXIT.failed);
    expect(io.out()).toBe("");
    expect(io.err()).toMatch(/truncated\.json is not valid JSON .*\(DOCPARSE_INVALID_RESPONSE\)\n$/);
  });

  it("parses a .json that is not result-shaped as a document", async () => {
    const file = write("settings.json", JSON.stringify({ name: "purifier", modes: ["auto", "sleep"] }));
    const io = bufferIo();
    expect(await runCli(["chunk", file], io)).toBe(EXIT.ok);
    // The local engine reads it as text: the JSON itself is the chunk's text.
    expect(io.out()).toContain('\\"name\\":\\"purifier\\"');
    expect(sourceIds(io.out())).toEqual(["settings.json"]);
  });
});
