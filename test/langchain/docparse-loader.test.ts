import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { index } from "@langchain/core/indexing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { DOCPARSE_LOADER_DEFAULTS, DocParseLoader } from "../../src/langchain/docparse-loader.js";
import { DocParseVectorStore } from "../../src/langchain/docparse-vector-store.js";
import type { ParseInput, ParseOptions, ParsedDocument, Parser } from "../../src/parser.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { tempDir } from "../support/system.js";
import { InMemoryRecordManager } from "./record-manager.js";

const GUIDE = `# Installation

Install the server with the package manager. It needs a database.

## Configuration

Set the port and the data directory in the configuration file.

# 使用说明

向量数据库支持混合检索。中文文本没有空格。
`;

/** A Parser that counts calls and delegates to the real LocalParser: proves the `parser` option is used. */
class CountingParser implements Parser {
  readonly name = "counting";
  calls = 0;
  constructor(private readonly inner: Parser) {}
  parse(input: ParseInput, options?: ParseOptions): Promise<ParsedDocument> {
    this.calls++;
    return this.inner.parse(input, options);
  }
}

describe("DocParseLoader", () => {
  const dir = tempDir("docparse-loader-");
  const guide = join(dir.path, "guide.md");
  const notes = join(dir.path, "notes.txt");
  beforeAll(() => {
    writeFileSync(guide, GUIDE);
    writeFileSync(notes, "Plain notes about revenue.\n\nA second paragraph.\n");
  });
  afterAll(() => dir.cleanup());

  it("pins its defaults", () => {
    expect(DOCPARSE_LOADER_DEFAULTS).toEqual({ mode: "chunks" });
  });

  it("load(): one Document per chunk, text, id and flat metadata with regions (default LocalParser)", async () => {
    const docs = await new DocParseLoader(guide, { chunk: { maxTokens: 40, tokenizer: "approximate" } }).load();
    expect(docs.length).toBeGreaterThan(1);
    for (const doc of docs) {
      expect(typeof doc.id).toBe("string");
      expect(doc.metadata.sourceId).toBe(guide);
      expect(Array.isArray(doc.metadata.regions)).toBe(true);
      expect(Array.isArray(doc.metadata.headingPath)).toBe(true);
      expect(typeof doc.metadata.pageStart).toBe("number");
    }
    expect(docs.some((d) => d.pageContent.includes("向量数据库"))).toBe(true);
    expect(docs.find((d) => d.pageContent.includes("data directory"))?.metadata.headingPath).toEqual(["Installation", "Configuration"]);
  });

  it("lazyLoad() yields document by document, through the given parser", async () => {
    const { LocalParser } = await import("../../src/engine/local-parser.js");
    const parser = new CountingParser(new LocalParser());
    const loader = new DocParseLoader([guide, { input: notes, sourceId: "notes" }], { parser });
    const iterator = loader.lazyLoad();
    const first = await iterator.next();
    expect(first.value?.metadata.sourceId).toBe(guide);
    expect(parser.calls).toBe(1);
    const rest = [];
    for await (const doc of iterator) rest.push(doc);
    expect(parser.calls).toBe(2);
    expect(rest.at(-1)?.metadata.sourceId).toBe("notes");
  });

  it("mode elements: one Document per element, with category and regions", async () => {
    const docs = await new DocParseLoader(guide, { mode: "elements" }).load();
    expect(docs.map((d) => d.metadata.category)).toContain("Title");
    const para = docs.find((d) => d.pageContent.startsWith("Install the server"));
    expect(para?.metadata).toMatchObject({ sourceId: guide, pageNumber: 1, category: "NarrativeText" });
    expect(para?.metadata.regions).toHaveLength(1);
  });

  it("mode document: one Document with the whole Markdown", async () => {
    const docs = await new DocParseLoader(Buffer.from(GUIDE), { mode: "document", filename: "guide.md" }).load();
    expect(docs).toHaveLength(1);
    expect(docs[0]!.pageContent).toContain("# Installation");
    expect(docs[0]!.pageContent).toContain("向量数据库");
    expect(docs[0]!.metadata.filename).toBe("guide.md");
  });

  it("validates options", () => {
    expect(() => new DocParseLoader(guide, { mode: "pages" as never })).toThrow(/mode/);
    expect(() => new DocParseLoader([], {})).toThrow(/at least one/);
    expect(() => new DocParseLoader([guide, notes], { filename: "x.md" })).toThrow(/filename/);
  });

  it("works with index(): unchanged input adds nothing, a changed file updates and cleans up", async () => {
    const vs = new DocParseVectorStore(new HashEmbeddings(), { store: new MemoryStore() });
    const recordManager = new InMemoryRecordManager();
    const options = { cleanup: "incremental" as const, sourceIdKey: "sourceId" };
    const loader = () => new DocParseLoader([guide, notes], { chunk: { maxTokens: 40, tokenizer: "approximate" } });

    const first = await index({ docsSource: loader(), recordManager, vectorStore: vs, options });
    expect(first.numAdded).toBeGreaterThan(2);
    const again = await index({ docsSource: loader(), recordManager, vectorStore: vs, options });
    expect(again).toMatchObject({ numAdded: 0, numDeleted: 0, numSkipped: first.numAdded });

    writeFileSync(notes, "Plain notes about costs.\n\nA second paragraph.\n");
    const third = await index({ docsSource: loader(), recordManager, vectorStore: vs, options });
    expect(third.numAdded).toBeGreaterThanOrEqual(1);
    expect(third.numDeleted).toBe(third.numAdded);
    const noteIds = await vs.store.idsBySource(notes);
    const texts = (await vs.store.getByIds(noteIds)).map((c) => c.text).join("\n");
    expect(texts).toContain("costs");
    expect(texts).not.toContain("revenue");
  });
});
