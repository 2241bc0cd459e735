import { createServer, type Server } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { ingest, resolveSources, sourceIdFor, walkDirectory } from "../../src/ingest/index.js";
import { tempDir } from "../support/system.js";
import { fakeChunker } from "./support/fake-chunker.js";
import { FakeParser } from "./support/fake-parser.js";
import { FakeStore } from "./support/fake-store.js";

describe("walkDirectory", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir("walk-");
    for (const rel of ["b.md", "a.txt", "sub/c.md", "sub/deeper/d.pdf", ".git/config", ".env.example", "sub/.hidden.md"]) {
      mkdirSync(join(dir.path, rel, ".."), { recursive: true });
      writeFileSync(join(dir.path, rel), rel);
    }
  });
  afterAll(() => dir.cleanup());

  const list = async (options = {}) => {
    const out: string[] = [];
    for await (const p of walkDirectory(dir.path, options)) out.push(p);
    return out;
  };

  it("walks recursively in sorted order, skipping hidden files and directories", async () => {
    expect(await list()).toEqual(["a.txt", "b.md", "sub/c.md", "sub/deeper/d.pdf"]);
  });

  it("options.include / options.exclude filter relative paths; an explicit include picks a dot-file", async () => {
    expect(await list({ include: "**/*.md" })).toEqual(["b.md", "sub/c.md"]);
    expect(await list({ exclude: ["sub/deeper/**", "*.txt"] })).toEqual(["b.md", "sub/c.md"]);
    expect(await list({ include: [".env.example", "*.txt"] })).toEqual([".env.example", "a.txt"]);
  });
});

describe("sourceIdFor", () => {
  it("is the path relative to root with forward slashes, absolute outside root", () => {
    expect(sourceIdFor("/data/docs/a/b.pdf", "/data")).toBe("docs/a/b.pdf");
    expect(sourceIdFor("/elsewhere/x.pdf", "/data")).toBe("/elsewhere/x.pdf");
  });
});

describe("URL sources", () => {
  let server: Server;
  let base: string;
  let body = "# Page\n\nFirst version.";
  let etag = '"v1"';
  let hits = 0;
  const methods: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      methods.push(`${req.method} ${req.url}`);
      if (req.url === "/tagged.md") {
        res.writeHead(200, { "content-type": "text/markdown", etag });
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      if (req.url === "/big.txt") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("x".repeat(5000));
      } else if (req.url === "/missing.md") {
        res.writeHead(404).end();
      } else {
        res.writeHead(200, { "content-type": "text/markdown" });
        res.end(body);
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const run = (store: FakeStore, sources: Parameters<typeof ingest>[0]["sources"]) =>
    ingest({ sources, store, parser: new FakeParser(), chunker: fakeChunker, embeddings: new HashEmbeddings({ dimensions: 8 }), downloadLimits: { maxBytes: 1000 }, retryDelayMs: 1 });

  it("downloads, names the document by the URL and skips it when the bytes are unchanged", async () => {
    const docs = [];
    for await (const d of resolveSources(`${base}/guide/page.md`)) docs.push(d);
    expect(docs.map((d) => [d.sourceId, d.filename])).toEqual([[`${base}/guide/page.md`, "page.md"]]);

    const store = new FakeStore();
    expect(await run(store, `${base}/guide/page.md`)).toMatchObject({ added: 1 });
    expect(await run(store, [{ url: `${base}/guide/page.md` }])).toMatchObject({ unchanged: 1 });
    body = "# Page\n\nSecond version.";
    expect(await run(store, new URL(`${base}/guide/page.md`))).toMatchObject({ updated: 1 });
    expect((await store.getByIds(await store.idsBySource(`${base}/guide/page.md`))).map((c) => c.text)).toEqual(["Page", "Second version."]);
  });

  it("downloadLimits.mode \"parser\" hands { url } to the parser and tells changes by the HEAD validators", async () => {
    const store = new FakeStore();
    const url = `${base}/tagged.md`;
    const byParser = (s: FakeStore) =>
      ingest({ sources: url, store: s, parser: new FakeParser(), chunker: fakeChunker, embeddings: new HashEmbeddings({ dimensions: 8 }), downloadLimits: { mode: "parser" } });
    methods.length = 0;
    expect(await byParser(store)).toMatchObject({ added: 1 });
    expect(methods).toEqual(["HEAD /tagged.md", "GET /tagged.md"]);
    methods.length = 0;
    expect(await byParser(store)).toMatchObject({ unchanged: 1 });
    expect(methods).toEqual(["HEAD /tagged.md"]);
    etag = '"v2"';
    expect(await byParser(store)).toMatchObject({ updated: 1 });
  });

  it("reports a download over downloadLimits.maxBytes and an HTTP error at stage source", async () => {
    const before = hits;
    const report = await run(new FakeStore(), [`${base}/big.txt`, `${base}/missing.md`]);
    expect([...report.failed].sort((a, b) => (a.sourceId < b.sourceId ? -1 : 1))).toEqual([
      expect.objectContaining({ sourceId: `${base}/big.txt`, code: "DOCPARSE_LIMIT_EXCEEDED", stage: "source" }),
      expect.objectContaining({ sourceId: `${base}/missing.md`, code: "DOCPARSE_HTTP", stage: "source" }),
    ]);
    // A 404 is permanent: not retried.
    expect(hits - before).toBe(2);
  });
});
