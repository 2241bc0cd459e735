import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocParseError } from "../../src/errors.js";
import { dispositionFilename, fetchBounded } from "../../src/net/address-guard.js";

let server: Server;
let base: string;
let port: number;
const allow = { allowedHosts: ["127.0.0.1"] };

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/hop") return void res.writeHead(302, { location: "/doc.txt" }).end();
    if (url === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
    if (url === "/elsewhere") return void res.writeHead(302, { location: `http://localhost:${port}/doc.txt` }).end();
    if (url === "/doc.txt") return void res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("hello");
    if (url === "/named") return void res.writeHead(200, { "content-disposition": "attachment; filename*=UTF-8''%E6%8A%A5%E5%91%8A.md" }).end("# x");
    if (url === "/big") return void res.writeHead(200, { "content-length": "5000" }).end(Buffer.alloc(5000));
    if (url === "/stream") {
      // No content-length: the cap must hold while streaming.
      res.writeHead(200);
      const tick = setInterval(() => res.write(Buffer.alloc(1000)), 1);
      res.on("close", () => clearInterval(tick));
      return;
    }
    if (url === "/slow") return void setTimeout(() => res.end("late"), 2_000);
    if (url === "/missing") return void res.writeHead(404).end();
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

async function failure(p: Promise<unknown>): Promise<DocParseError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!DocParseError.isInstance(e)) throw new Error(`expected a DocParseError, got ${String(e)}`);
  return e;
}

describe("fetchBounded", () => {
  it("follows redirects and reports type and filename", async () => {
    const got = await fetchBounded(`${base}/hop`, { policy: allow });
    expect(Buffer.from(got.bytes).toString()).toBe("hello");
    expect(got.contentType).toBe("text/plain");
    expect(got.filename).toBe("doc.txt");
    expect(got.url).toBe(`${base}/doc.txt`);
  });

  it("takes the filename from content-disposition (RFC 5987)", async () => {
    const got = await fetchBounded(`${base}/named`, { policy: allow });
    expect(got.filename).toBe("报告.md");
  });

  it("re-checks every redirect hop against the policy", async () => {
    const e = await failure(fetchBounded(`${base}/elsewhere`, { policy: allow }));
    expect(e.code).toBe("DOCPARSE_FORBIDDEN_ADDRESS");
  });

  it("refuses a private host that is not allow-listed", async () => {
    expect((await failure(fetchBounded(`${base}/doc.txt`))).code).toBe("DOCPARSE_FORBIDDEN_ADDRESS");
  });

  it("stops after maxRedirects", async () => {
    const e = await failure(fetchBounded(`${base}/loop`, { policy: allow, maxRedirects: 3 }));
    expect(e.code).toBe("DOCPARSE_HTTP");
  });

  it("refuses a declared body over maxBytes with 40302", async () => {
    expect((await failure(fetchBounded(`${base}/big`, { policy: allow, maxBytes: 1000 }))).code).toBe(40302);
  });

  it("cuts a streamed body over maxBytes with 40302", async () => {
    expect((await failure(fetchBounded(`${base}/stream`, { policy: allow, maxBytes: 20_000 }))).code).toBe(40302);
  });

  it("times out", async () => {
    const e = await failure(fetchBounded(`${base}/slow`, { policy: allow, timeoutMs: 100 }));
    expect(e.code).toBe("DOCPARSE_TIMEOUT");
    expect(e.isRetryable).toBe(true);
  });

  it("aborts", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    expect((await failure(fetchBounded(`${base}/slow`, { policy: allow, signal: ac.signal }))).code).toBe("DOCPARSE_ABORTED");
  });

  it("reports HTTP errors with the status", async () => {
    const e = await failure(fetchBounded(`${base}/missing`, { policy: allow }));
    expect(e.code).toBe("DOCPARSE_HTTP");
    expect(e.httpStatus).toBe(404);
    expect(e.isRetryable).toBe(false);
  });
});

describe("dispositionFilename", () => {
  it("reads plain and quoted forms", () => {
    expect(dispositionFilename('attachment; filename="a b.pdf"')).toBe("a b.pdf");
    expect(dispositionFilename("inline; filename=x.txt")).toBe("x.txt");
    expect(dispositionFilename(undefined)).toBeUndefined();
  });
});
