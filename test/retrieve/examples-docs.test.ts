/** CitationRetriever over the shipped sample documents (examples/docs), as the CLI queries them. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { ingest } from "../../src/ingest/ingest.js";
import { CitationRetriever } from "../../src/retrieve/citation-retriever.js";
import { MemoryStore } from "../../src/store/memory-store.js";

const EXAMPLES = join(import.meta.dirname, "../../examples/docs");

describe("CitationRetriever over examples/docs", () => {
  const store = new MemoryStore();
  const embeddings = new HashEmbeddings();
  const retriever = new CitationRetriever({ store, embeddings, k: 3 });
  beforeAll(async () => {
    const report = await ingest({ sources: [EXAMPLES], store, embeddings, exclude: ["*.ts"] });
    expect(report.failed).toEqual([]);
  }, 60_000);
  afterAll(() => store.close());

  it("a table answer quotes the matching body row, boxed by the table alone (English)", async () => {
    const [top] = await retriever.searchPassages("Who pays shipping for damaged items");
    const chunk = top!.chunks[0]!;
    expect(chunk.metadata.kind).toBe("table");
    const quote = top!.document.metadata.citation.quote;
    expect(quote.text).toContain("Damaged on arrival");
    expect(quote.text).toContain("Northwind");
    expect(quote.text).not.toContain("<th>");
    const table = chunk.metadata.table!.elementId;
    expect(quote.regions.map((r) => r.elementId)).toEqual([table]);
    // The chunk starts with the table's title, a separate element: never in the quote's boxes.
    expect(chunk.metadata.elementIds.filter((id) => id !== table)).not.toHaveLength(0);
  });

  it("a table answer quotes the matching body row, inside the table's box (Chinese)", async () => {
    const [top] = await retriever.searchPassages("餐饮补助每天多少？");
    const quote = top!.document.metadata.citation.quote;
    expect(quote.text).toContain("餐饮补助");
    expect(quote.text).toContain("每天100元");
    const table = top!.chunks[0]!.metadata.table!.elementId;
    expect(quote.regions.map((r) => r.elementId)).toEqual([table]);
  });
});
