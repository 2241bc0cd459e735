/**
 * PDF fuzz driver (not run in CI): `npx tsx test/bench/pdf/fuzz.ts [options]`.
 *
 * Mutates valid PDFs from pdf-lib, LibreOffice, Chromium and pdflatex (`fuzz-seeds.ts`,
 * `fuzz-mutate.ts`) and runs every case through `LocalParser` and, with `--server`,
 * through the real local service on port 0 via `DocParseClient` (sync and async). Checks
 * for each case: a result or a `DocParseError` with a stable code; every result passes
 * the wire schema and `check-result.ts`' invariants; wall time under the parse timeout
 * plus slack; RSS bounded; the service answers the next request; no unhandled
 * rejection or uncaught exception. Prints outcomes by code, the slowest cases and every
 * violation; writes one JSON line per case to `--out`.
 *
 * Options: `--seeds=pdflib,soffice,chromium,pdflatex` `--flips=40` (bit-flip cases per
 * seed) `--filter=<regex>` (case names) `--server` `--server-every=1` `--timeout=20000`
 * (engine timeoutMs) `--images=alt|0|1` (include_image_data on every third case, never, always) `--seed-dir=/tmp/fuzz-seeds` `--out=/tmp/fuzz.jsonl`
 * `--dump=<dir>` (write each case's file there) `--verbose` (print each case's record).
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { DocParseClient } from "../../../src/client/index.js";
import { MemoryAssetStore } from "../../../src/engine/assets.js";
import { LocalParser } from "../../../src/engine/local-parser.js";
import { DocParseError } from "../../../src/errors.js";
import type { ParsedDocument } from "../../../src/parser.js";
import { startServer } from "../../../src/server/index.js";
import type { ParseConfig } from "../../../src/wire/index.js";
import { buildPdf } from "../../support/pdf-fixtures.js";
import { expectConsistentResult } from "../../engine/check-result.js";
import { STRUCTURAL, byteMutations, structural, handWritten, prng, type FuzzCase } from "./fuzz-mutate.js";
import { fuzzSeeds } from "./fuzz-seeds.js";
import { PDFDocument } from "pdf-lib";

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string?]).map(([k, v]) => [k, v ?? "1"]));
const seedNames = (args.get("seeds") ?? "pdflib,soffice,chromium,pdflatex").split(",");
const flips = Number(args.get("flips") ?? 40);
const filter = new RegExp(args.get("filter") ?? ".");
const timeoutMs = Number(args.get("timeout") ?? 20_000);
const withServer = args.has("server");
const serverEvery = Number(args.get("server-every") ?? 1);
const out = args.get("out") ?? "/tmp/fuzz.jsonl";
const images = args.get("images") ?? "alt";
const SLACK_MS = 10_000;
const MAX_RSS_MB = 3_000;

const CONFIG: ParseConfig = {
  capabilities: { pages: true, title_tree: true, include_table_structure: true, include_char_details: true, include_inline_objects: true },
};
const WITH_IMAGES: ParseConfig = { capabilities: { ...CONFIG.capabilities, include_image_data: true } };

let current = "(none)";
const processFaults: string[] = [];
process.on("unhandledRejection", (reason) => processFaults.push(`unhandledRejection during ${current}: ${String((reason as Error)?.stack ?? reason)}`));
process.on("uncaughtException", (err) => processFaults.push(`uncaughtException during ${current}: ${String(err?.stack ?? err)}`));

interface Outcome {
  outcome: string;
  ms: number;
  violation?: string;
}

async function outcomeOf(run: () => Promise<ParsedDocument>): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const r = await run();
    const ms = performance.now() - t0;
    try {
      expectConsistentResult(r);
    } catch (err) {
      return { outcome: r.partial ? "50207" : "ok", ms, violation: `invariant: ${(err as Error).message.slice(0, 300)}` };
    }
    return { outcome: r.partial ? "50207" : "ok", ms };
  } catch (err) {
    const ms = performance.now() - t0;
    if (!DocParseError.isInstance(err)) return { outcome: "THROWN", ms, violation: `not a DocParseError: ${String((err as Error)?.stack ?? err).slice(0, 400)}` };
    return { outcome: String(err.code), ms, ...(err.code === 500 || err.code === "DOCPARSE_INVALID_RESPONSE" ? { violation: `code ${err.code}: ${err.message.slice(0, 300)}` } : {}) };
  }
}

async function* cases(seeds: Map<string, Uint8Array>): AsyncGenerator<FuzzCase> {
  const random = prng(20261202);
  for (const c of handWritten()) yield c;
  for (const [name, seed] of seeds) {
    for (const [m, mutate] of Object.entries(STRUCTURAL)) {
      const caseName = `${name}/${m}`;
      if (!filter.test(caseName)) continue;
      let bytes: Uint8Array;
      try {
        bytes = await structural(seed, mutate);
      } catch (err) {
        console.error(`${caseName}: mutation failed (${(err as Error).message}), skipped`);
        continue;
      }
      yield { name: caseName, bytes };
    }
    // Byte-level mutations of the file as written and of its flat (no object streams) copy.
    const flat = await PDFDocument.load(seed, { updateMetadata: false }).then((d) => d.save({ useObjectStreams: false }));
    for (const c of byteMutations(name, seed, random, flips)) yield c;
    for (const c of byteMutations(`${name}-flat`, flat, random, Math.ceil(flips / 4))) yield c;
  }
}

const seeds = await fuzzSeeds(args.get("seed-dir") ?? "/tmp/fuzz-seeds");
for (const k of [...seeds.keys()]) if (!seedNames.includes(k)) seeds.delete(k);
const parser = new LocalParser({ assets: new MemoryAssetStore(), limits: { timeoutMs } });
const health = await buildPdf([{ texts: [{ text: "Health check", x: 72, y: 72 }] }]);
const service = withServer
  ? await startServer({ appId: "fuzz-app-id", secretCode: "fuzz-secret-code", port: 0, env: {}, parser: new LocalParser({ assets: new MemoryAssetStore(), limits: { timeoutMs } }), concurrency: 2 })
  : undefined;
const client = service
  ? new DocParseClient({ baseUrl: service.url, appId: "fuzz-app-id", secretCode: "fuzz-secret-code", requestsPerSecond: Infinity, maxRetries: 0, pollMs: 50, timeoutMs: timeoutMs + SLACK_MS, env: {} })
  : undefined;

writeFileSync(out, "");
const byCode = new Map<string, number>();
const violations: string[] = [];
const slowest: { name: string; ms: number; outcome: string }[] = [];
let count = 0;
let peakRss = 0;
const started = Date.now();
for await (const c of cases(seeds)) {
  if (!filter.test(c.name)) continue;
  current = c.name;
  if (args.has("dump")) writeFileSync(`${args.get("dump")}/${c.name.replace(/[^\w.-]+/g, "_")}.pdf`, c.bytes);
  const config = (images === "alt" ? count % 3 === 2 : images === "1") ? WITH_IMAGES : CONFIG;
  const local = await outcomeOf(() => parser.parse(c.bytes, { filename: "fuzz.pdf", config }));
  const rss = process.memoryUsage().rss / 1e6;
  peakRss = Math.max(peakRss, rss);
  const record: Record<string, unknown> = { name: c.name, size: c.bytes.length, ...local, rssMb: Math.round(rss) };
  const note = (where: string, o: Outcome): void => {
    byCode.set(`${where}:${o.outcome}`, (byCode.get(`${where}:${o.outcome}`) ?? 0) + 1);
    if (o.violation) violations.push(`${c.name} [${where}] ${o.violation}`);
    if (o.ms > timeoutMs + SLACK_MS) violations.push(`${c.name} [${where}] took ${Math.round(o.ms)} ms`);
    slowest.push({ name: `${c.name} [${where}]`, ms: o.ms, outcome: o.outcome });
  };
  note("local", local);
  if (rss > MAX_RSS_MB) violations.push(`${c.name}: RSS ${Math.round(rss)} MB`);
  if (client && count % serverEvery === 0) {
    const sync = await outcomeOf(() => client.parse(c.bytes, { filename: "fuzz.pdf", config }));
    const job = await outcomeOf(() => client.parseAsync(c.bytes, { filename: "fuzz.pdf", config }));
    note("sync", sync);
    note("async", job);
    record.sync = sync.outcome;
    record.async = job.outcome;
    // The async path reports a failed job as DOCPARSE_JOB_FAILED; the sync one carries the engine's code.
    if (sync.outcome !== local.outcome && !(local.outcome === "DOCPARSE_TIMEOUT" || sync.outcome === "DOCPARSE_TIMEOUT")) {
      violations.push(`${c.name}: local ${local.outcome} but sync ${sync.outcome}`);
    }
    const next = await outcomeOf(() => client.parse(health, { filename: "health.pdf" }));
    if (next.outcome !== "ok") violations.push(`${c.name}: the service then failed a valid PDF (${next.outcome} ${next.violation ?? ""})`);
  }
  appendFileSync(out, JSON.stringify(record) + "\n");
  count++;
  if (args.has("verbose")) console.error(JSON.stringify(record));
  if (count % 25 === 0) console.error(`${count} cases, ${Math.round((Date.now() - started) / 1000)} s, rss ${Math.round(rss)} MB, ${violations.length + processFaults.length} violations`);
}
await service?.close();

slowest.sort((a, b) => b.ms - a.ms);
console.log(`\n${count} cases in ${Math.round((Date.now() - started) / 1000)} s; peak RSS ${Math.round(peakRss)} MB`);
console.log("outcomes:", Object.fromEntries([...byCode].sort()));
console.log("slowest:", slowest.slice(0, 8).map((s) => `${s.name} ${Math.round(s.ms)} ms (${s.outcome})`));
console.log(`violations (${violations.length + processFaults.length}):`);
for (const v of [...violations, ...processFaults]) console.log(" -", v);
process.exit(0);
