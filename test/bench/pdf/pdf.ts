/**
 * PDF engine benchmark: `npx tsx test/bench/pdf/pdf.ts [pages=120] [bigPages=1000]`.
 *
 * Measures, in one run, on the same generated PDF: the local engine (full element tree
 * through LocalParser, char_details off), poppler's `pdftotext` (reference) and
 * LlamaIndex's LiteParse, each in its own process; prints pages/s, peak RSS and the
 * ratios against pdftotext. Then peak RSS of the local engine on a 1,000-page PDF.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPdf } from "../../support/pdf-fixtures.js";
import { benchPdf } from "./corpus.js";

const pages = Number(process.argv[2] ?? 120);
const bigPages = Number(process.argv[3] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), "pdf-bench-"));
const child = new URL("./child.mjs", import.meta.url).pathname;
const root = new URL("../../../", import.meta.url).pathname;
// The engine runs compiled, as users run it; inside node_modules so bare imports resolve.
// DOCPARSE_BENCH_DIST puts it elsewhere (any folder with node_modules above it): worktrees
// sharing one node_modules would otherwise compile over each other's copy.
const dist = process.env.DOCPARSE_BENCH_DIST ?? join(root, "node_modules/.cache/docparse-bench");

interface Measured {
  ok: boolean;
  ms?: number;
  pages?: number;
  peakRssMb?: number;
  error?: string;
}

/** Runs of the same file in one process for the steady-state rows (the median of the 4th onwards is reported). */
const STEADY_RUNS = 10;

/** pdftotext runs per file; the median wall time is the reference. */
const PDFTOTEXT_RUNS = 5;

function inChild(engine: string, file: string, warm: string, runs = 1): Measured {
  try {
    const out = execFileSync(process.execPath, [child, engine, file, warm, dist, String(runs)], { encoding: "utf8", maxBuffer: 1 << 26, timeout: 1_800_000, cwd: root });
    return JSON.parse(out.trim().split("\n").at(-1)!) as Measured;
  } catch (error) {
    return { ok: false, error: String((error as Error).message).slice(0, 300) };
  }
}

function pdftotext(file: string, n: number): Measured {
  // Wall time from here (process start-up included, 10 µs resolution instead of GNU
  // time's 10 ms), median of a few runs; GNU time prints the max RSS (KB) on stderr.
  const times: number[] = [];
  let kb = 0;
  for (let i = 0; i < PDFTOTEXT_RUNS; i++) {
    const t0 = performance.now();
    const res = execFileSync("sh", ["-c", `/usr/bin/time -f "%M" pdftotext "${file}" /dev/null 2>&1 1>/dev/null`], { encoding: "utf8" });
    times.push(performance.now() - t0);
    kb = Math.max(kb, Number(res.trim().split("\n").at(-1)));
  }
  times.sort((a, b) => a - b);
  return { ok: true, ms: times[Math.floor(times.length / 2)]!, pages: n, peakRssMb: kb / 1024 };
}

const rate = (m: Measured): number => (m.ok && m.ms ? (m.pages! / m.ms) * 1000 : NaN);
const fmt = (v: number, d = 1): string => (Number.isFinite(v) ? v.toFixed(d) : "n/a");

/**
 * The same file parsed STEADY_RUNS times in one process, the median of the 4th run
 * onwards reported: what a server or an ingestion job sees once the JIT has compiled
 * pdfjs' hot paths. pdftotext is native code with nothing to warm: its median stays the
 * reference.
 */
function steady(file: string, warm: string, ref: Measured): void {
  const ours = inChild("docparse", file, warm, STEADY_RUNS);
  const lite = inChild("liteparse", file, warm, STEADY_RUNS);
  const line = (name: string, m: Measured): string =>
    `  ${name.padEnd(10)}  ${fmt(rate(m))} pages/s   ratio ${fmt(rate(m) / rate(ref), 2)}x pdftotext${m.ok ? "" : `   FAILED: ${m.error}`}`;
  console.log(`  steady state (median of parses 4-${STEADY_RUNS} of the same file in one process):`);
  console.log(line("docparse", ours));
  console.log(line("liteparse", lite));
}

try {
  console.log("compiling src with tsc (the engine is measured as compiled JavaScript)...");
  try {
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json"), "--outDir", dist], { stdio: "ignore" });
  } catch {
    // Type errors elsewhere in the tree still emit JavaScript; the run below shows whether it works.
  }
  const file = join(dir, `bench-${pages}.pdf`);
  const warm = join(dir, "warm.pdf");
  writeFileSync(file, await benchPdf(pages));
  writeFileSync(warm, await buildPdf([{ texts: [{ text: "warm up", x: 72, y: 72 }] }]));

  const ref = pdftotext(file, pages);
  const ours = inChild("docparse", file, warm);
  const lite = inChild("liteparse", file, warm);
  console.log(`PDF, ${pages} pages (generated report: columns, tables, lists, running text)`);
  console.log(`  pdftotext   ${fmt(rate(ref))} pages/s   peak RSS ${fmt(ref.peakRssMb!)} MB   (reference; median of ${PDFTOTEXT_RUNS} runs, process start-up included)`);
  console.log(`  docparse    ${fmt(rate(ours))} pages/s   peak RSS ${fmt(ours.peakRssMb ?? NaN)} MB   ratio ${fmt(rate(ours) / rate(ref), 2)}x pdftotext${ours.ok ? "" : `   FAILED: ${ours.error}`}`);
  console.log(`  liteparse   ${fmt(rate(lite))} pages/s   peak RSS ${fmt(lite.peakRssMb ?? NaN)} MB   ratio ${fmt(rate(lite) / rate(ref), 2)}x pdftotext${lite.ok ? "" : `   FAILED: ${lite.error}`}`);
  if (ours.ok && lite.ok) console.log(`  docparse vs liteparse: ${fmt(rate(ours) / rate(lite), 2)}x pages/s`);
  steady(file, warm, ref);

  if (bigPages > 0) {
    const big = join(dir, `bench-${bigPages}.pdf`);
    writeFileSync(big, await benchPdf(bigPages));
    const bigOurs = inChild("docparse", big, warm);
    const bigRef = pdftotext(big, bigPages);
    console.log(`PDF, ${bigPages} pages`);
    console.log(`  docparse    ${fmt(rate(bigOurs))} pages/s   peak RSS ${fmt(bigOurs.peakRssMb ?? NaN)} MB (goal <= 300 MB)${bigOurs.ok ? "" : `   FAILED: ${bigOurs.error}`}`);
    console.log(`  pdftotext   ${fmt(rate(bigRef))} pages/s   peak RSS ${fmt(bigRef.peakRssMb!)} MB`);
    console.log(`  docparse    ratio ${fmt(rate(bigOurs) / rate(bigRef), 2)}x pdftotext (first document of the process)`);
    steady(big, warm, bigRef);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
