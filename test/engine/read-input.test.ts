import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readInput } from "../../src/engine/read-input.js";
import type { ParseInput } from "../../src/parser.js";
import { DocParseError } from "../../src/errors.js";
import { tempDir } from "../support/system.js";

async function code(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    expect(DocParseError.isInstance(err), String(err)).toBe(true);
    return (err as DocParseError).code;
  }
  throw new Error("expected a rejection");
}

describe("readInput", () => {
  it("reads a web ReadableStream and names it with the filename option", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("ab"));
        c.enqueue(new TextEncoder().encode("c"));
        c.close();
      },
    });
    const out = await readInput(stream as unknown as ParseInput, { maxBytes: 10, filename: "x.txt" });
    expect(new TextDecoder().decode(out.bytes)).toBe("abc");
    expect(out.filename).toBe("x.txt");
  });

  it("stops reading a stream as soon as it is over the limit", async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(1024));
      },
    });
    expect(await code(readInput(endless, { maxBytes: 4096 }))).toBe(40302);
    expect(pulled).toBeLessThan(20);
    expect(endless.destroyed).toBe(true);
  });

  it("refuses a directory, a missing input and an input of the wrong kind", async () => {
    const dir = tempDir();
    try {
      expect(await code(readInput(dir.path, { maxBytes: 10 }))).toBe(40305);
    } finally {
      dir.cleanup();
    }
    expect(await code(readInput(undefined as unknown as ParseInput, { maxBytes: 10 }))).toBe(40305);
    expect(await code(readInput(42 as unknown as ParseInput, { maxBytes: 10 }))).toBe("DOCPARSE_INVALID_OPTION");
  });

  it("honours an aborted signal", async () => {
    expect(await code(readInput(Buffer.from("x"), { maxBytes: 10, signal: AbortSignal.abort() }))).toBe("DOCPARSE_ABORTED");
  });
});
