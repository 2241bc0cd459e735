import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_DEFAULTS, EXIT, runCli } from "../../src/cli/index.js";
import { tempDir } from "../support/system.js";
import { bufferIo } from "./support.js";

const SAMPLES = resolve("examples/docs");

describe("runCli usage", () => {
  it("--help lists every command and exits 0", async () => {
    const io = bufferIo();
    expect(await runCli(["--help"], io)).toBe(EXIT.ok);
    for (const name of ["serve", "parse", "chunk", "ingest", "query", "view", "worker", "demo"]) expect(io.out()).toContain(name);
  });

  it("an unknown command, a bad number or a missing required option exits 2 with a message", async () => {
    let io = bufferIo();
    expect(await runCli(["frobnicate"], io)).toBe(EXIT.usage);
    expect(io.err()).toMatch(/unknown command 'frobnicate'/);
    io = bufferIo();
    expect(await runCli(["query", "x", "-k", "zero"], io)).toBe(EXIT.usage);
    expect(io.err()).toContain('Expected an integer >= 1, got "zero"');
    io = bufferIo();
    expect(await runCli(["worker"], io)).toBe(EXIT.usage);
    expect(io.err()).toMatch(/--queue/);
    io = bufferIo();
    expect(await runCli(["ingest", SAMPLES, "--store", "bogus://x"], io)).toBe(EXIT.usage);
    expect(io.err()).toMatch(/Unknown store URL.*DOCPARSE_INVALID_OPTION/);
    io = bufferIo();
    expect(await runCli(["parse", "x.md", "--config", "[1]"], io)).toBe(EXIT.usage);
  });

  it("pins the defaults", () => {
    expect(CLI_DEFAULTS).toEqual({ store: "pglite://./.docparse", k: 5, host: "127.0.0.1", viewPort: 8765, servePort: 8080 });
  });
});

describe("parse and chunk", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => (dir = tempDir("cli-parse-")));
  afterAll(() => dir.cleanup());

  it("parse prints the result as JSON; chunk turns it into JSON Lines", async () => {
    const io = bufferIo();
    expect(await runCli(["parse", join(SAMPLES, "en/returns-policy.md"), "--compact"], io)).toBe(EXIT.ok);
    const result = JSON.parse(io.out()) as { elements: { type: string; text: string }[] };
    expect(result.elements.find((e) => e.type === "Title")?.text).toBe("Returns and Refunds Policy");
    const file = join(dir.path, "result.json");
    writeFileSync(file, io.out());

    const chunked = bufferIo();
    expect(await runCli(["chunk", file, "--source-id", "policy", "--max-tokens", "64"], chunked)).toBe(EXIT.ok);
    const chunks = chunked.out().trim().split("\n").map((l) => JSON.parse(l) as { id: string; metadata: { sourceId: string; headingPath: string[] } });
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((c) => c.metadata.sourceId === "policy")).toBe(true);
    expect(chunks.some((c) => c.metadata.headingPath.includes("Refund period"))).toBe(true);

    // A document (not a result) is parsed first.
    const direct = bufferIo();
    expect(await runCli(["chunk", join(SAMPLES, "zh/product-faq.txt")], direct)).toBe(EXIT.ok);
    expect(direct.out()).toContain("智能门锁");
  });

  it("parse of a missing file exits 1 with the error code", async () => {
    const io = bufferIo();
    expect(await runCli(["parse", join(dir.path, "nope.pdf")], io)).toBe(EXIT.failed);
    expect(io.err()).toMatch(/^docparse-rag: .+\(.+\)\n$/);
  });
});

describe("ingest and query", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => (dir = tempDir("cli-ingest-")));
  afterAll(() => dir.cleanup());

  it("ingests into pglite, skips unchanged documents on a rerun, and answers queries with citations", async () => {
    const store = `pglite://${join(dir.path, "store")}`;
    let io = bufferIo({ cwd: SAMPLES });
    expect(await runCli(["ingest", SAMPLES, "--store", store, "--json", "--exclude", "*.ts"], io)).toBe(EXIT.ok);
    const lines = io.out().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ type: "report", added: 6, failed: [] });
    expect(lines.some((l) => l.type === "progress")).toBe(true);

    io = bufferIo({ cwd: SAMPLES });
    expect(await runCli(["ingest", SAMPLES, "--store", store, "--exclude", "*.ts"], io)).toBe(EXIT.ok);
    expect(io.out()).toMatch(/^0 added, 0 updated, 6 unchanged, 0 deleted, 0 failed/);

    io = bufferIo();
    expect(await runCli(["query", "How do I reset the purifier to factory settings?", "--store", store, "-k", "2"], io)).toBe(EXIT.ok);
    expect(io.out()).toMatch(/^\[1\] device-manual\.txt · p\. 1[ ·].*\(score \d/m);
    expect(io.out()).toMatch(/“To reset the purifier to factory settings, hold the power button/);
    expect(io.out()).toMatch(/regions: p1 \[/);

    io = bufferIo();
    expect(await runCli(["query", "报销需要在多长时间内提交？", "--store", store, "--json", "-k", "1"], io)).toBe(EXIT.ok);
    const hit = JSON.parse(io.out().trim()) as { rank: number; sourceId: string; pages: number[]; headingPath: string[]; quote: string };
    expect(hit).toMatchObject({ rank: 1, sourceId: "zh/employee-handbook.md", pages: [1] });
    expect(hit.headingPath).toContain("费用报销");
    expect(hit.quote).toContain("30天内提交");
  }, 120_000);

  it("draws a cli-progress bar on stderr when it is a terminal", async () => {
    const io = bufferIo({ tty: true, cwd: SAMPLES });
    expect(await runCli(["ingest", SAMPLES, "--store", "memory://", "--exclude", "*.ts"], io)).toBe(EXIT.ok);
    expect(io.err()).toMatch(/█+ 6\/6 docs \| [\d.]+ pages\/s \| ETA 0s \| parse 0 · chunk 0 · embed 0 · store 0 \| failed 0/);
    expect(io.out()).toMatch(/^6 added/);
  }, 60_000);

  it("exits 1 and lists the failure when a document fails, after ingesting the others", async () => {
    const docs = join(dir.path, "mixed");
    mkdirSync(docs);
    writeFileSync(join(docs, "good.md"), "# Good\n\nFine text.");
    writeFileSync(join(docs, "broken.pdf"), "%PDF-1.7\n1 0 obj garbage\n");
    const io = bufferIo();
    expect(await runCli(["ingest", docs, "--store", "memory://", "--root", docs], io)).toBe(EXIT.failed);
    expect(io.out()).toMatch(/^1 added, .* 1 failed/);
    expect(io.err()).toMatch(/^failed broken\.pdf \[parse\] 40422: /);
  });
});

describe("demo", () => {
  it("ingests the samples into a temporary store and prints a cited answer to every question", async () => {
    const { DEMO_QUESTIONS } = await import("../../src/cli/index.js");
    const io = bufferIo({ env: { DOCPARSE_BASE_URL: "http://127.0.0.1:9" } });
    // Offline whatever the environment says: DOCPARSE_BASE_URL points nowhere and is ignored.
    expect(await runCli(["demo"], io)).toBe(EXIT.ok);
    const out = io.out();
    expect(out).toMatch(/^6 added, 0 updated, 0 unchanged, 0 deleted, 0 failed/m);
    for (const q of DEMO_QUESTIONS) expect(out).toContain(`Q: ${q}\nA: `);
    expect(out).toMatch(/\[1\] warranty-terms\.pdf, p\. 1 — .*Coverage period: "The fan motor is covered for five years/);
    expect(out).toMatch(/\[1\] travel-policy\.docx, p\. 1 — 差旅管理制度 › 出差审批/);
    expect(out).not.toContain("make-samples");
  }, 120_000);
});

describe("serve and view", () => {
  async function waitFor(read: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
    for (let i = 0; i < 600; i++) {
      const m = read().match(pattern);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${pattern}; got ${read()}`);
  }

  it("serve runs the parse service until interrupted; a client parses through it", async () => {
    const io = bufferIo();
    const running = runCli(["serve", "--port", "0"], io);
    const [, url] = await waitFor(io.out, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const { DocParseClient } = await import("../../src/client/index.js");
    const client = new DocParseClient({ baseUrl: url!, requestsPerSecond: Infinity });
    const result = await client.parse(join(SAMPLES, "en/returns-policy.md"));
    expect(result.elements[0]?.text).toBe("Returns and Refunds Policy");
    io.interrupt();
    expect(await running).toBe(EXIT.ok);
  }, 60_000);

  it("view serves the viewer page until interrupted", async () => {
    const io = bufferIo();
    const running = runCli(["view", "--port", "0", "--store", "memory://"], io);
    const [, url] = await waitFor(io.out, /viewer at (http:\/\/127\.0\.0\.1:\d+\/?)/);
    const response = await fetch(url!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    await response.text();
    io.interrupt();
    expect(await running).toBe(EXIT.ok);
  }, 60_000);
});

describe("error lines", () => {
  it("print the code once, whether or not the message already carries it", async () => {
    const { DocParseError } = await import("../../src/errors.js");
    const { errorLine } = await import("../../src/cli/program.js");
    expect(errorLine(new DocParseError(40102, "AUTH_INVALID (40102): x-ti-app-id or x-ti-secret-code is wrong"))).toBe(
      "docparse-rag: AUTH_INVALID (40102): x-ti-app-id or x-ti-secret-code is wrong",
    );
    expect(errorLine(new DocParseError("DOCPARSE_STORE", "the store is gone"))).toBe("docparse-rag: the store is gone (DOCPARSE_STORE)");
  });
});
