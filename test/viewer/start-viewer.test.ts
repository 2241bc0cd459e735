import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { startViewer, VIEWER_DEFAULTS, type Viewer, type ViewerResult } from "../../src/viewer/start-viewer.js";
import type { PageImageSource } from "../../src/viewer/page-images.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { makeChunk } from "../retrieve/make-chunks.js";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (p: Buffer) => parts.push(p));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("startViewer", () => {
  let viewer: Viewer;
  const renders: string[] = [];
  const parser: PageImageSource = {
    async pageImage(fileId, page) {
      renders.push(`${fileId}#${page}`);
      if (fileId !== "f1" || page !== 1) throw new Error("unknown page");
      return { bytes: PNG, mimeType: "image/png" };
    },
  };

  beforeAll(async () => {
    const store = new MemoryStore();
    const embeddings = new HashEmbeddings();
    const chunks = [
      makeChunk("a", "Refunds are accepted within thirty days. <img src=x onerror=alert(1)>", { fileId: "f1" }),
      makeChunk("b", "No image exists for this page about shipping.", { fileId: "f2", regions: [{ page: 4, elementId: "e", coordinates: [0, 0, 1, 0, 1, 0.1, 0, 0.1] }] }),
    ];
    const vectors = await embeddings.embedDocuments(chunks.map((c) => c.embedText));
    await store.upsert(chunks.map((c, i) => ({ ...c, vector: vectors[i]! })));
    viewer = await startViewer({ store, embeddings, parser });
  });
  afterAll(async () => {
    await viewer.close();
  });

  it("binds 127.0.0.1 on a free port by default", () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(viewer.port).toBeGreaterThan(0);
  });

  it("serves its page, script and stylesheet with a strict CSP, and nothing else", async () => {
    const page = await get(viewer.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(String(page.headers["content-security-policy"])).toContain("default-src 'none'");
    expect(String(page.headers["content-security-policy"])).toContain("script-src 'self'");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect((await get(`${viewer.url}app.js`)).status).toBe(200);
    expect((await get(`${viewer.url}app.css`)).status).toBe(200);
    for (const path of ["../package.json", "%2e%2e/package.json", "src/viewer/start-viewer.ts", "etc/passwd"]) {
      expect((await get(`${viewer.url}${path}`)).status).toBe(404);
    }
  });

  it("never writes document text through innerHTML", async () => {
    const js = (await get(`${viewer.url}app.js`)).body.toString();
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it("refuses a foreign Host header (DNS rebinding) and non-GET methods", async () => {
    expect((await get(viewer.url, { host: "evil.example:80" })).status).toBe(403);
    const post = await new Promise<number>((resolve, reject) => {
      const req = request(`${viewer.url}api/search?q=x`, { method: "POST" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(post).toBe(405);
  });

  it("/api/search returns ranked results with citations and page-image URLs", async () => {
    const res = await get(`${viewer.url}api/search?q=${encodeURIComponent("refunds thirty days")}`);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body.toString()) as { results: ViewerResult[] };
    const top = body.results[0]!;
    expect(top).toMatchObject({ n: 1, id: "a", sourceId: "doc.pdf", filename: "doc.pdf", pages: [1], headingPath: ["Doc"] });
    expect(top.quote.text).toBe("Refunds are accepted within thirty days.");
    expect(top.quote.regions.length).toBeGreaterThan(0);
    expect(top.pageImages).toEqual({ "1": "/api/page-image?chunk=a&page=1" });
  });

  it("/api/search bounds the query and k", async () => {
    expect((await get(`${viewer.url}api/search?q=${"x".repeat(501)}`)).status).toBe(400);
    expect((await get(`${viewer.url}api/search?q=x&k=1000`)).status).toBe(400);
    expect((await get(`${viewer.url}api/search?q=`)).status).toBe(400);
  });

  it("/api/page-image renders through the parser and caches", async () => {
    renders.length = 0;
    const first = await get(`${viewer.url}api/page-image?chunk=a&page=1`);
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("image/png");
    expect(new Uint8Array(first.body)).toEqual(PNG);
    await get(`${viewer.url}api/page-image?chunk=a&page=1`);
    expect(renders).toEqual(["f1#1"]);
  });

  it("/api/page-image says so when there is no image, and serves only pages of stored chunks", async () => {
    const none = await get(`${viewer.url}api/page-image?chunk=b&page=4`);
    expect(none.status).toBe(404);
    expect(JSON.parse(none.body.toString()).error.code).toBe("NO_PAGE_IMAGE");
    expect((await get(`${viewer.url}api/page-image?chunk=a&page=2`)).status).toBe(404);
    expect((await get(`${viewer.url}api/page-image?chunk=zzz&page=1`)).status).toBe(404);
    expect((await get(`${viewer.url}api/page-image?chunk=a&page=abc`)).status).toBe(400);
  });

  it("pins the defaults", () => {
    expect(VIEWER_DEFAULTS).toEqual({
      port: 0,
      host: "127.0.0.1",
      k: 10,
      maxQueryLength: 500,
      fetchRemoteImages: true,
      maxImageBytes: 20 * 1024 * 1024,
      imageCacheBytes: 64 * 1024 * 1024,
    });
  });

  it("validates its options", async () => {
    await expect(startViewer({ store: new MemoryStore(), port: 70000 })).rejects.toThrow(/`port`/);
  });
});

describe("page_image_url of remote parses", () => {
  it("is fetched and proxied same-origin; non-images are refused", async () => {
    const { createServer } = await import("node:http");
    const remote = createServer((req, res) => {
      if (req.url === "/p1.png") {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(PNG);
      } else {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<script>alert(1)</script>");
      }
    });
    await new Promise<void>((r) => remote.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(remote.address() as { port: number }).port}`;
    const store = new MemoryStore();
    const embeddings = new HashEmbeddings();
    const region = (page: number) => ({ page, elementId: `e${page}`, coordinates: [0, 0, 1, 0, 1, 0.1, 0, 0.1] });
    const chunk = makeChunk("r", "Remote parse text.", { regions: [region(1), region(2)], pageImageUrls: { "1": `${base}/p1.png`, "2": `${base}/page.html` } });
    await store.upsert([{ ...chunk, vector: await embeddings.embedQuery(chunk.embedText) }]);
    const viewer = await startViewer({ store, embeddings });
    try {
      const ok = await get(`${viewer.url}api/page-image?chunk=r&page=1`);
      expect(ok.status).toBe(200);
      expect(new Uint8Array(ok.body)).toEqual(PNG);
      expect((await get(`${viewer.url}api/page-image?chunk=r&page=2`)).status).toBe(404);
    } finally {
      await viewer.close();
      remote.close();
    }
  });
});

describe("stores without getByIds (LangChain bridge)", () => {
  it("serve page images of chunks from recent results", async () => {
    const { MemoryVectorStore } = await import("@langchain/classic/vectorstores/memory");
    const { LangChainStore } = await import("../../src/store/langchain-store.js");
    const embeddings = new HashEmbeddings();
    const store = new LangChainStore(new MemoryVectorStore(embeddings));
    const chunk = makeChunk("lc", "Bridged text about invoices.", { fileId: "f1" });
    await store.upsert([{ ...chunk, vector: await embeddings.embedQuery(chunk.embedText) }]);
    const parser: PageImageSource = { pageImage: async () => ({ bytes: PNG, mimeType: "image/png" }) };
    const viewer = await startViewer({ store, embeddings, parser });
    try {
      // Unknown before any search: the bridge cannot look chunks up by id.
      expect((await get(`${viewer.url}api/page-image?chunk=lc&page=1`)).status).toBe(404);
      const body = JSON.parse((await get(`${viewer.url}api/search?q=invoices`)).body.toString()) as { results: ViewerResult[] };
      expect(body.results[0]!.id).toBe("lc");
      expect((await get(`${viewer.url}${body.results[0]!.pageImages["1"]!.slice(1)}`)).status).toBe(200);
    } finally {
      await viewer.close();
    }
  });
});

describe("options.parser", () => {
  it("the default local engine and parser: false both answer an unknown file with NO_PAGE_IMAGE", async () => {
    const store = new MemoryStore();
    const embeddings = new HashEmbeddings();
    const chunk = makeChunk("u", "Text of a file the engine never saw.", { fileId: "0".repeat(64) });
    await store.upsert([{ ...chunk, vector: await embeddings.embedQuery(chunk.embedText) }]);
    for (const parser of [undefined, false as const]) {
      const viewer = await startViewer({ store, embeddings, ...(parser === undefined ? {} : { parser }) });
      try {
        const res = await get(`${viewer.url}api/page-image?chunk=u&page=1`);
        expect(res.status).toBe(404);
        expect(JSON.parse(res.body.toString()).error.code).toBe("NO_PAGE_IMAGE");
      } finally {
        await viewer.close();
      }
    }
  });
});
