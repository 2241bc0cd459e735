import { describe, expect, it } from "vitest";
import { DocParseError, LocalErrorCode } from "../../src/errors.js";
import { CHUNK_OPTION_DEFAULTS, optionsFingerprint, resolveChunkOptions, type ChunkOptions } from "../../src/chunk/options.js";
import { approximateTokenizer, cl100kTokenizer } from "../../src/chunk/tokenizer.js";

function error(options: unknown): DocParseError {
  try {
    resolveChunkOptions(options as ChunkOptions);
  } catch (e) {
    if (DocParseError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("expected an error");
}

describe("chunk option defaults", () => {
  it("are pinned (docs/chunking.md and the TSDoc @default tags say the same)", () => {
    expect(CHUNK_OPTION_DEFAULTS).toEqual({
      maxTokens: 512,
      minTokens: 64,
      overlapTokens: 0,
      headingLevel: 3,
      tokenizer: "cl100k_base",
      tableFormat: "html",
      dropTypes: ["Header", "Footer", "PageNumber"],
      embedTemplate: "{context}\n\n{text}",
      strategy: "hierarchy",
    });
  });

  it("are what resolveChunkOptions applies to an empty object", () => {
    const o = resolveChunkOptions({});
    expect(o).toMatchObject({ ...CHUNK_OPTION_DEFAULTS, tokenizer: cl100kTokenizer(), dropTypes: [...CHUNK_OPTION_DEFAULTS.dropTypes] });
    expect(o.sourceId).toBeUndefined();
    expect(o.metadata).toEqual({});
    expect(resolveChunkOptions()).toEqual(o);
  });
});

describe("options.maxTokens", () => {
  it("must be an integer >= 16, and the message says so with the value", () => {
    const e = error({ maxTokens: 0 });
    expect(e.code).toBe(LocalErrorCode.InvalidOption);
    expect(e.message).toContain("Expected `maxTokens` to be an integer >= 16, got 0");
    expect(error({ maxTokens: 12.5 }).message).toContain("got 12.5");
    expect(error({ maxTokens: "512" }).message).toContain('got "512"');
    expect(resolveChunkOptions({ maxTokens: 16 }).maxTokens).toBe(16);
  });
});

describe("options.minTokens", () => {
  it("must be below maxTokens", () => {
    expect(error({ maxTokens: 100, minTokens: 100 }).message).toContain("Expected `minTokens` (100) to be less than `maxTokens` (100)");
    expect(error({ minTokens: -1 }).message).toContain("`minTokens`");
  });
});

describe("options.overlapTokens", () => {
  it("must be at most half of maxTokens", () => {
    expect(error({ maxTokens: 100, overlapTokens: 51 }).message).toContain("at most half of `maxTokens` (100)");
    expect(resolveChunkOptions({ maxTokens: 100, overlapTokens: 50 }).overlapTokens).toBe(50);
  });
});

describe("options.headingLevel", () => {
  it("is 1 to 10", () => {
    expect(error({ headingLevel: 0 }).message).toContain("Expected `headingLevel` to be an integer from 1 to 10, got 0");
    expect(resolveChunkOptions({ headingLevel: 1 }).headingLevel).toBe(1);
  });
});

describe("options.tokenizer", () => {
  it("takes a name or an object with count and name", () => {
    expect(resolveChunkOptions({ tokenizer: "approximate" }).tokenizer).toBe(approximateTokenizer());
    const mine = { name: "chars", count: (s: string) => s.length };
    expect(resolveChunkOptions({ tokenizer: mine }).tokenizer).toBe(mine);
    expect(error({ tokenizer: "gpt2" }).message).toContain('Expected `tokenizer` to be "cl100k_base", "approximate" or an object');
    expect(error({ tokenizer: { count: 1 } }).message).toContain("`tokenizer`");
  });
});

describe("options.tableFormat / strategy / dropTypes / embedTemplate / sourceId / metadata / onWarning", () => {
  it("reject bad values with a message naming the option", () => {
    expect(error({ tableFormat: "csv" }).message).toContain('Expected `tableFormat` to be one of "html", "markdown", got "csv"');
    expect(error({ strategy: "semantic" }).message).toContain('"hierarchy", "by_page", "by_element"');
    expect(error({ dropTypes: "Header" }).message).toContain("`dropTypes`");
    expect(error({ embedTemplate: "{headingPath}" }).message).toContain('containing "{text}"');
    expect(error({ sourceId: "" }).message).toContain("`sourceId`");
    expect(error({ metadata: { nested: { a: 1 } } }).message).toContain("flat values");
    expect(error({ onWarning: "log" }).message).toContain("`onWarning`");
  });

  it("lists every problem at once and keeps the zod issues", () => {
    const e = error({ maxTokens: -1, strategy: "x" });
    expect(e.message).toContain("`maxTokens`");
    expect(e.message).toContain("`strategy`");
    expect(e.issues?.length).toBeGreaterThanOrEqual(2);
  });

  it("rejects unknown options so typos do not pass silently", () => {
    expect(error({ maxToken: 100 }).message).toContain("Unknown chunk option(s): `maxToken`");
  });

  it("rejects a non-object", () => {
    expect(error(42).message).toContain("Expected chunk options to be an object");
  });
});

describe("optionsFingerprint", () => {
  it("changes with options that change chunks, not with onWarning, metadata or sourceId", () => {
    const a = optionsFingerprint(resolveChunkOptions({}));
    expect(optionsFingerprint(resolveChunkOptions({ onWarning: () => {}, metadata: { a: 1 }, sourceId: "x" }))).toBe(a);
    expect(optionsFingerprint(resolveChunkOptions({ maxTokens: 300 }))).not.toBe(a);
    expect(optionsFingerprint(resolveChunkOptions({ tokenizer: "approximate" }))).not.toBe(a);
    expect(optionsFingerprint(resolveChunkOptions({ dropTypes: ["Footer", "Header", "PageNumber"] }))).toBe(a);
  });
});
