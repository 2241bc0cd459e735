import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DocParseClient, type DocParseClientOptions } from "../../src/client/index.js";
import type { ParsedDocument, ParseInput, ParseOptions, Parser } from "../../src/parser.js";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server/index.js";
import { LOCAL_SCHEMA_VERSION } from "../../src/wire/index.js";
import { tempDir } from "./system.js";

/** Credentials the test service is started with. Long enough to be masked in messages. */
export const CREDS = Object.freeze({ appId: "test-app-id-7f3a", secretCode: "test-secret-code-9c41e0" });

/**
 * The real local service on 127.0.0.1:0 with {@link CREDS}. `allowedHosts` has
 * 127.0.0.1 so `file_url` and webhooks can reach other test servers (the default
 * refuses loopback, as it should).
 */
export async function startTestServer(options: ServerOptions = {}): Promise<RunningServer> {
  // Its own asset directory: other test files parse the same documents (same file ids).
  const assets = tempDir("docparse-assets-");
  const running = await startServer({ ...CREDS, allowedHosts: ["127.0.0.1"], env: {}, webhookBackoffMs: 10, assetDirectory: assets.path, ...options });
  return {
    ...running,
    close: async (graceMs?: number) => {
      await running.close(graceMs);
      assets.cleanup();
    },
  };
}

/** A client for a test service: no rate limit, tiny backoff, quick polls. */
export function testClient(service: { url: string }, options: DocParseClientOptions = {}): DocParseClient {
  return new DocParseClient({
    baseUrl: service.url,
    ...CREDS,
    requestsPerSecond: Infinity,
    concurrency: 8,
    retryBaseMs: 5,
    retryMaxMs: 50,
    pollMs: 20,
    timeoutMs: 10_000,
    env: {},
    ...options,
  });
}

/** A request seen by a {@link Recorder}. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A plain HTTP server on 127.0.0.1:0 that records every request ("another host"). */
export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecorder(
  respond: (req: RecordedRequest, res: ServerResponse) => void | Promise<void> = (_r, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  },
): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rec: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(rec);
      Promise.resolve(respond(rec, res)).catch(() => {
        res.writeHead(500);
        res.end();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A minimal valid parse result for fake parsers. */
export function fakeResult(overrides: Partial<ParsedDocument> = {}): ParsedDocument {
  return {
    schema_version: LOCAL_SCHEMA_VERSION,
    file_id: "f".repeat(64),
    metadata: { filename: "fake.txt", filetype: "text/plain", page_count: 1 },
    elements: [{ element_id: "e1", type: "NarrativeText", text: "hello", page_number: 1, coordinates: [0, 0, 1, 0, 1, 1, 0, 1] }],
    ...overrides,
  };
}

/**
 * A Parser whose parses wait until `release()` — to observe job states and fill queues.
 * Records the options each call received.
 */
export class GatedParser implements Parser {
  readonly name = "gated";
  readonly calls: { input: ParseInput; options: ParseOptions }[] = [];
  #open!: () => void;
  #gate = new Promise<void>((r) => (this.#open = r));

  constructor(private readonly result: () => ParsedDocument | Promise<ParsedDocument> = () => fakeResult()) {}

  release(): void {
    this.#open();
  }

  async parse(input: ParseInput, options: ParseOptions = {}): Promise<ParsedDocument> {
    this.calls.push({ input, options });
    await this.#gate;
    return this.result();
  }
}

/** Polls `check` until true (or fails after `timeoutMs`). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
