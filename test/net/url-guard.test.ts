import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocParseError } from "../../src/errors.js";
import { assertAllowedUrl, guardedDispatcher, guardedLookup, isHostAllowed } from "../../src/net/address-guard.js";

async function rejectsWith(p: Promise<unknown>, code: string): Promise<DocParseError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(DocParseError.isInstance(err), `expected a DocParseError, got ${String(err)}`).toBe(true);
  expect((err as DocParseError).code).toBe(code);
  return err as DocParseError;
}

describe("assertAllowedUrl", () => {
  it("accepts a public IP literal without DNS", async () => {
    await expect(assertAllowedUrl("https://8.8.8.8/doc.pdf")).resolves.toBeInstanceOf(URL);
  });

  it.each(["ftp://example.com/a", "file:///etc/passwd", "gopher://x", "not a url"])("refuses %s as invalid", async (url) => {
    await rejectsWith(assertAllowedUrl(url), "DOCPARSE_INVALID_OPTION");
  });

  it("refuses credentials embedded in the URL", async () => {
    await rejectsWith(assertAllowedUrl("http://user:pw@8.8.8.8/"), "DOCPARSE_INVALID_OPTION");
  });

  it.each(["http://127.0.0.1/", "http://[::1]:8080/", "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/", "http://0x7f.1/", "http://2130706433/", "http://[::ffff:127.0.0.1]/"])(
    "refuses private address %s",
    async (url) => {
      await rejectsWith(assertAllowedUrl(url), "DOCPARSE_FORBIDDEN_ADDRESS");
    },
  );

  it("refuses a name that resolves to loopback", async () => {
    const err = await rejectsWith(assertAllowedUrl("http://localhost:9/"), "DOCPARSE_FORBIDDEN_ADDRESS");
    expect(err.message).toContain("localhost");
    expect(err.isRetryable).toBe(false);
  });

  it("allows an allow-listed host, with or without port, and allowPrivate", async () => {
    await expect(assertAllowedUrl("http://127.0.0.1:1234/", { allowedHosts: ["127.0.0.1"] })).resolves.toBeInstanceOf(URL);
    await expect(assertAllowedUrl("http://127.0.0.1:1234/", { allowedHosts: ["127.0.0.1:1234"] })).resolves.toBeInstanceOf(URL);
    await rejectsWith(assertAllowedUrl("http://127.0.0.1:1235/", { allowedHosts: ["127.0.0.1:1234"] }), "DOCPARSE_FORBIDDEN_ADDRESS");
    await expect(assertAllowedUrl("http://localhost:1/", { allowedHosts: ["LOCALHOST"] })).resolves.toBeInstanceOf(URL);
    await expect(assertAllowedUrl("http://10.1.1.1/", { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });
});

describe("isHostAllowed", () => {
  it("matches names, ports, IPv6 and suffix patterns", () => {
    const policy = { allowedHosts: ["files.internal", "[::1]:80", "*.corp.example"] };
    expect(isHostAllowed(policy, "files.internal")).toBe(true);
    expect(isHostAllowed(policy, "[::1]", "80")).toBe(true);
    expect(isHostAllowed(policy, "::1", "81")).toBe(false);
    expect(isHostAllowed(policy, "a.b.corp.example")).toBe(true);
    expect(isHostAllowed(policy, "corp.example.evil")).toBe(false);
    expect(isHostAllowed(undefined, "files.internal")).toBe(false);
  });
});

describe("guardedDispatcher (connect-time check, DNS rebinding)", () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("refuses at connect time a name that resolves to a private address, even without a prior check", async () => {
    // This is what a rebinding attack leaves us with: the pre-check saw a public
    // answer, the connection's own lookup sees loopback. The dispatcher must refuse.
    const before = hits;
    const err = await request(`http://localhost:${port}/`, { dispatcher: guardedDispatcher({}) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeDefined();
    const found = DocParseError.isInstance(err) ? err : (err as { cause?: unknown }).cause;
    expect(DocParseError.isInstance(found) && found.code).toBe("DOCPARSE_FORBIDDEN_ADDRESS");
    expect(hits).toBe(before);
  });

  it("refuses an IP-literal private host at connect time", async () => {
    const err = await request(`http://127.0.0.1:${port}/`, { dispatcher: guardedDispatcher({}) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeDefined();
  });

  it("connects to an allow-listed host", async () => {
    const policy = { allowedHosts: ["127.0.0.1"] };
    const res = await request(`http://127.0.0.1:${port}/`, { dispatcher: guardedDispatcher(policy) });
    expect(await res.body.text()).toBe("ok");
  });

  it("guardedLookup answers public names and refuses private ones", async () => {
    const lookup = guardedLookup({});
    const err = await new Promise<unknown>((resolve) => lookup("localhost", {}, (e) => resolve(e)));
    expect(DocParseError.isInstance(err) && err.code).toBe("DOCPARSE_FORBIDDEN_ADDRESS");
    const ok = await new Promise<unknown>((resolve) => guardedLookup({ allowPrivate: true })("localhost", { all: true }, (e, a) => resolve(e ?? a)));
    expect(Array.isArray(ok)).toBe(true);
  });
});
