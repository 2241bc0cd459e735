/**
 * Chunker throughput against LangChain's RecursiveCharacterTextSplitter, same document,
 * same run.
 *
 *   npx tsx test/bench/chunker/throughput.ts            # 2,000 pages (~100k elements)
 *   npx tsx test/bench/chunker/throughput.ts --pages 400
 *
 * Each measurement runs in its own child process, so every contestant starts with a cold
 * token cache and its own peak memory. Every child first warms the JIT on a 20-page
 * document, then measures CPU time (user + system) and wall time of one call, then the
 * CPU time of a second call in the same process (JIT and token cache warm, as in an
 * ingest job that chunks many documents). Throughput is input characters per CPU second:
 * the elements' text for `chunkDocument`, the result's `markdown` for the splitter. Peak
 * RSS is read after the first call.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { chunkDocument, resolveTokenizer, type TokenizerName } from "../../../src/chunk/index.js";
import { largeResult } from "./large-result.js";

interface Measure {
  name: string;
  pages: number;
  elements: number;
  inputChars: number;
  outputs: number;
  cpuMs: number;
  wallMs: number;
  /** CPU time of a second call in the same process (JIT and token cache warm). */
  warmCpuMs: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

const MAX_TOKENS = 512;

async function child(kind: string, pages: number): Promise<Measure> {
  const [what, tok] = kind.split(":") as [string, TokenizerName];
  const result = largeResult(pages);
  const warm = largeResult(20, 99);
  const tokenizer = resolveTokenizer(tok);
  const splitter =
    tok === undefined
      ? new RecursiveCharacterTextSplitter({ chunkSize: MAX_TOKENS * 4, chunkOverlap: 0 })
      : new RecursiveCharacterTextSplitter({ chunkSize: MAX_TOKENS, chunkOverlap: 0, lengthFunction: (t) => tokenizer.count(t) });
  const run = async (r: typeof result): Promise<number> =>
    what === "chunker" ? chunkDocument(r, { tokenizer: tok, maxTokens: MAX_TOKENS }).length : (await splitter.splitText(r.markdown!)).length;
  await run(warm);
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const outputs = await run(result);
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const peakRss = process.resourceUsage().maxRSS;
  const warm0 = process.cpuUsage();
  await run(result);
  const warmCpu = process.cpuUsage(warm0);
  const inputChars = what === "chunker" ? result.elements.reduce((n, e) => n + e.text.length, 0) : result.markdown!.length;
  return {
    name: kind,
    pages,
    elements: result.elements.length,
    inputChars,
    outputs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
    warmCpuMs: (warmCpu.user + warmCpu.system) / 1000,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: peakRss / 1024,
  };
}

function measure(kind: string, pages: number): Measure {
  const self = fileURLToPath(import.meta.url);
  const out = spawnSync(process.execPath, [...process.execArgv, self, "--child", kind, "--pages", String(pages)], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0) throw new Error(`child ${kind} failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()!) as Measure;
}

const rate = (m: Measure) => (m.inputChars / m.cpuMs) * 1000;
const warmRate = (m: Measure) => (m.inputChars / m.warmCpuMs) * 1000;
const mb = (n: number) => `${(n / 1e6).toFixed(2)} M`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const pagesAt = args.indexOf("--pages");
  const pages = pagesAt >= 0 ? Number(args[pagesAt + 1]) : 2000;
  if (args[0] === "--child") {
    process.stdout.write(`${JSON.stringify(await child(args[1]!, pages))}\n`);
    return;
  }
  const rows: Measure[] = [];
  const show = (m: Measure) => {
    rows.push(m);
    console.log(
      `${m.name.padEnd(26)} ${String(m.pages).padStart(5)} pages ${String(m.elements).padStart(7)} el  ${mb(m.inputChars)}chars  ` +
        `${m.outputs} chunks  cpu ${m.cpuMs.toFixed(0)} ms (warm ${m.warmCpuMs.toFixed(0)})  wall ${m.wallMs.toFixed(0)} ms  ` +
        `${mb(rate(m))}chars/s  peak RSS ${m.peakRssMb.toFixed(0)} MB (before ${m.rssBeforeMb.toFixed(0)} MB)`,
    );
  };
  const pairs: [string, string][] = [
    ["chunker:cl100k_base", "splitter:cl100k_base"],
    ["chunker:approximate", "splitter:approximate"],
    ["chunker:approximate", "splitter"],
  ];
  const seen = new Map<string, Measure>();
  const get = (k: string) => {
    let m = seen.get(k);
    if (!m) {
      m = measure(k, pages);
      show(m);
      seen.set(k, m);
    }
    return m;
  };
  console.log(`chunkDocument vs RecursiveCharacterTextSplitter (maxTokens ${MAX_TOKENS}), ${pages} pages\n`);
  const ratios: string[] = [];
  for (const [a, b] of pairs) {
    const ma = get(a);
    const mbm = get(b);
    ratios.push(
      `${a} / ${b === "splitter" ? "splitter (char length, 4 chars/token)" : b}: ${(rate(ma) / rate(mbm)).toFixed(2)}x chars/s first call, ` +
        `${(warmRate(ma) / warmRate(mbm)).toFixed(2)}x second call`,
    );
  }
  const small = measure("chunker:cl100k_base", Math.max(1, Math.round(pages / 10)));
  show(small);
  const big = get("chunker:cl100k_base");
  console.log("\nThroughput ratios (chunker / splitter, > 1 means the chunker is faster):");
  for (const r of ratios) console.log(`  ${r}`);
  console.log(
    `\nLinearity: ${pages} vs ${small.pages} pages (${(big.elements / small.elements).toFixed(1)}x elements): ` +
      `${(big.cpuMs / small.cpuMs).toFixed(2)}x CPU time (goal <= 11x for 10x input)`,
  );
}

await main();
