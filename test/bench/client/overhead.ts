/**
 * Client overhead per request: DocParseClient.parse vs a raw undici.request carrying the
 * same 1 MB multipart upload to the same local service, in the same run.
 *
 *   npx tsx test/bench/client/overhead.ts [rounds=150]
 *
 * The service runs the real HTTP stack (auth, busboy spooling the upload to disk, the
 * work queue, the envelope) in front of a trivial parser, so the parse itself does not
 * hide the transport cost being measured; it runs in a child process, so this process's
 * CPU time is the client's own cost. Two numbers per variant, both paired per round
 * (variants interleaved, so load from other processes hits all alike):
 * - wall: median over rounds of (variant time / reference time) in the same round;
 * - cpu: this process's CPU time per request, over all rounds, against the reference.
 * Goal: client within 5% of raw.
 */
import { createReadStream, writeFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { join } from "node:path";
import { FormData, request } from "undici";
import { DocParseClient } from "../../../src/client/index.js";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { ParseResultSchema } from "../../../src/wire/index.js";
import { CREDS } from "../../support/server.js";
import { tempDir } from "../../support/system.js";

const rounds = Number(process.argv[2] ?? 150);
const SIZE = 1024 * 1024;
const bytes = new Uint8Array(SIZE).map((_, i) => 97 + (i % 26));
const dir = tempDir("docparse-bench-");
const path = join(dir.path, "one-mb.txt");
writeFileSync(path, bytes);

const child = spawn(process.execPath, ["--import", "tsx", new URL("./server-child.ts", import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
const [firstChunk] = (await once(child.stdout, "data")) as [Buffer];
const service = { url: firstChunk.toString().trim() };
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

// The reference: the leanest raw request — the multipart body written by hand as one
// Buffer per request (a raw caller with fresh bytes must encode them each time).
const boundary = "----bench-boundary-7d1f";
const partHead = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="one-mb.txt"\r\nContent-Type: application/octet-stream\r\n\r\n`);
const partTail = Buffer.from(`\r\n--${boundary}--\r\n`);
async function rawPreEncoded(): Promise<void> {
  const preEncoded = Buffer.concat([partHead, bytes, partTail]);
  const res = await request(url, {
    method: "POST",
    headers: { "x-ti-app-id": CREDS.appId, "x-ti-secret-code": CREDS.secretCode, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: preEncoded,
  });
  const env = JSON.parse(await res.body.text()) as { code: number; data: unknown };
  if (env.code !== 200) throw new Error(`raw request failed: ${env.code}`);
  ParseResultSchema.parse(env.data);
}

// The raw counterpart of a path input: the same file streamed from disk inside a
// hand-written multipart body with its content-length.
async function rawFileStream(): Promise<void> {
  const body = (async function* () {
    yield partHead;
    yield* createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
    yield partTail;
  })();
  const res = await request(url, {
    method: "POST",
    headers: {
      "x-ti-app-id": CREDS.appId,
      "x-ti-secret-code": CREDS.secretCode,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(partHead.length + SIZE + partTail.length),
    },
    body: body as unknown as Readable,
  });
  const env = JSON.parse(await res.body.text()) as { code: number; data: unknown };
  if (env.code !== 200) throw new Error(`raw request failed: ${env.code}`);
  ParseResultSchema.parse(env.data);
}

const viaClientBytes = async () => void (await client.parse(bytes, { filename: "one-mb.txt" }));
const viaClientPath = async () => void (await client.parse(path));

interface Sample {
  wallMs: number;
  cpuUs: number;
}

async function time(fn: () => Promise<void>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  await fn();
  const wallMs = Number(process.hrtime.bigint() - t) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuUs: used.user + used.system };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const variants: [string, () => Promise<void>][] = [
  ["raw undici.request, hand-encoded Buffer", rawPreEncoded],
  ["raw undici.request, undici FormData", raw],
  ["client.parse(Uint8Array)", viaClientBytes],
  ["raw undici.request, file streamed from disk", rawFileStream],
  ["client.parse(path), streamed from disk", viaClientPath],
];

// Warm up every path (JIT, keep-alive sockets, lazy imports).
for (let i = 0; i < 20; i++) for (const [, fn] of variants) await fn();
const samples = variants.map(() => [] as Sample[]);
for (let i = 0; i < rounds; i++) {
  // Rotate the order each round so no variant always runs first.
  for (let k = 0; k < variants.length; k++) {
    const v = (i + k) % variants.length;
    samples[v]!.push(await time(variants[v]![1]));
  }
}
child.stdin.end();
await once(child, "exit");
dir.cleanup();

const ref = samples[0]!;
const refCpu = ref.reduce((a, s) => a + s.cpuUs, 0);
console.log(`client overhead, 1 MB upload, ${rounds} rounds (reference: raw undici.request with a hand-encoded body)`);
console.log(`  ${"variant".padEnd(44)} ${"median ms".padStart(9)}  ${"wall ratio".padStart(10)}  ${"cpu µs/req".padStart(10)}  ${"cpu ratio".padStart(9)}`);
variants.forEach(([name], v) => {
  const xs = samples[v]!;
  const wallRatio = median(xs.map((s, i) => s.wallMs / ref[i]!.wallMs));
  const cpu = xs.reduce((a, s) => a + s.cpuUs, 0);
  console.log(
    `  ${name.padEnd(44)} ${median(xs.map((s) => s.wallMs)).toFixed(2).padStart(9)}  ${wallRatio.toFixed(3).padStart(10)}  ${(cpu / xs.length).toFixed(0).padStart(10)}  ${(cpu / refCpu).toFixed(3).padStart(9)}`,
  );
});
