// One measured run in its own plain-node process, so peak RSS is the parser's alone
// (tsx would transform pdfjs' 3 MB of modules and their source maps, adding ~400 MB):
//   node test/bench/pdf/child.mjs <docparse|liteparse> <file.pdf> <warm.pdf> [compiled dist dir] [runs]
// Prints one JSON line: parse wall ms (after a warm-up parse of a 1-page file), pages,
// elements, peak RSS in MB. With runs > 1 the file is parsed that many times and `ms` is
// the median of the 4th run onwards: the steady state of a process that parses many
// documents (JIT warm).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [engine, file, warm, dist, runsArg] = process.argv.slice(2);
const runs = Math.max(1, Number(runsArg ?? 1));
let ms = 0;
const times = [];
/** Median of the 4th run onwards (the only run when there is one). */
const steadyMs = () => {
  const tail = (times.length > 3 ? times.slice(3) : times.slice(-1)).sort((a, b) => a - b);
  return tail[Math.floor(tail.length / 2)];
};

async function run() {
  if (engine === "docparse") {
    const { LocalParser } = await import(pathToFileURL(join(dist, "engine/local-parser.js")).href);
    const { MemoryAssetStore } = await import(pathToFileURL(join(dist, "engine/assets.js")).href);
    // PDF_THREADS=n measures another parser-thread count than the engine's default.
    const pdfThreads = process.env.PDF_THREADS ? Number(process.env.PDF_THREADS) : undefined;
    const parser = new LocalParser({ assets: new MemoryAssetStore(), limits: { pdfThreads } });
    await parser.parse(new Uint8Array(readFileSync(warm)), { filename: "warm.pdf" });
    let result;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      result = await parser.parse(new Uint8Array(readFileSync(file)), { filename: "bench.pdf" });
      times.push(performance.now() - t0);
    }
    return { pages: result.metadata?.page_count ?? 0, elements: result.elements.length };
  }
  const { LiteParse } = await import("@llamaindex/liteparse");
  const parser = new LiteParse({ ocrEnabled: false, outputFormat: "json", quiet: true });
  await parser.parse(warm);
  let result;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = await parser.parse(file);
    times.push(performance.now() - t0);
  }
  return { pages: result.pages?.length ?? 0, elements: 0 };
}

try {
  const out = await run();
  ms = steadyMs();
  // resourceUsage().maxRSS is in kilobytes.
  console.log(JSON.stringify({ ok: true, ms, ...out, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error?.message ?? error) }));
}
process.exit(0);
