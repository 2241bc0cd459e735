/**
 * Client overhead per request: DocParseClient.parse vs a raw undici.request carrying the
 * same 1 MB multipart upload to the same local service, in the same run.
 *
 *   npx tsx test/bench/client/overhead.ts [rounds=150]
 *
 * The service runs the real HTTP stack (auth, busboy spooling the upload to disk, the
 * work queue, the envelope) in front of a trivial parser, so the parse itself does not
 * hide the transport cost being measured. Goal: client within 5% of raw.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FormData, request } from "undici";
import { DocParseClient } from "../../../src/client/index.js";
import type { Parser } from "../../../src/parser.js";
import { startServer } from "../../../src/server/index.js";
import { ParseResultSchema } from "../../../src/wire/index.js";
import { CREDS, fakeResult } from "../../support/server.js";
import { tempDir } from "../../support/system.js";

const rounds = Number(process.argv[2] ?? 150);
const SIZE = 1024 * 1024;
const bytes = new Uint8Array(SIZE).map((_, i) => 97 + (i % 26));
const dir = tempDir("docparse-bench-");
const path = join(dir.path, "one-mb.txt");
writeFileSync(path, bytes);

const trivial: Parser = { name: "trivial", parse: async () => fakeResult() };
const service = await startServer({ ...CREDS, parser: trivial, concurrency: 4, env: {} });
const url = `${service.url}/api/v1/docparse/parse/sync`;
const client = new DocParseClient({ baseUrl: service.url, ...CREDS, requestsPerSecond: Infinity, concurrency: 4, env: {} });
const blob = new Blob([bytes]);

async function raw(): Promise<void> {
  const form = new FormData();
  form.append("file", blob, "one-mb.txt");
  const res = await request(url, {
    method: "POST",
    headers: { "x-ti-app-id": CREDS.appId, "x-ti-secret-code": CREDS.secretCode },
    body: form,
  });
  const env = JSON.parse(await res.body.text()) as { code: number; data: unknown };
  if (env.code !== 200) throw new Error(`raw request failed: ${env.code}`);
  // Same validation work the client does, so the comparison is of transport overhead.
  ParseResultSchema.parse(env.data);
}

// The strictest reference: the multipart body encoded once up front, sent as one Buffer.
const boundary = "----bench-boundary-7d1f";
const preEncoded = Buffer.concat([
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="one-mb.txt"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  bytes,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
async function rawPreEncoded(): Promise<void> {
  const res = await request(url, {
    method: "POST",
    headers: { "x-ti-app-id": CREDS.appId, "x-ti-secret-code": CREDS.secretCode, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: preEncoded,
  });
  const env = JSON.parse(await res.body.text()) as { code: number; data: unknown };
  if (env.code !== 200) throw new Error(`raw request failed: ${env.code}`);
  ParseResultSchema.parse(env.data);
}

const viaClientBytes = async () => void (await client.parse(bytes, { filename: "one-mb.txt" }));
const viaClientPath = async () => void (await client.parse(path));

async function time(fn: () => Promise<void>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

// Warm up every path (JIT, keep-alive sockets, lazy imports).
for (let i = 0; i < 20; i++) {
  await raw();
  await rawPreEncoded();
  await viaClientBytes();
  await viaClientPath();
}
const samples = { raw: [] as number[], pre: [] as number[], clientBytes: [] as number[], clientPath: [] as number[] };
// Interleaved so that drift (other processes on the machine) hits all three alike.
for (let i = 0; i < rounds; i++) {
  samples.raw.push(await time(raw));
  samples.pre.push(await time(rawPreEncoded));
  samples.clientBytes.push(await time(viaClientBytes));
  samples.clientPath.push(await time(viaClientPath));
}
await service.close();
dir.cleanup();

const ref = median(samples.pre);
const line = (name: string, xs: number[]) => console.log(`  ${name.padEnd(40)} ${median(xs).toFixed(2).padStart(7)} ms   ratio ${(median(xs) / ref).toFixed(3)}`);
console.log(`client overhead, 1 MB upload, ${rounds} rounds, median ms per request (ratio vs pre-encoded raw request)`);
line("raw undici.request, pre-encoded Buffer", samples.pre);
line("raw undici.request, undici FormData", samples.raw);
line("client.parse(Uint8Array)", samples.clientBytes);
line("client.parse(path), streamed from disk", samples.clientPath);
