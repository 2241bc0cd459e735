/**
 * Benchmark of the local format handlers (issue 7): documents/s and peak RSS per format
 * on generated files, OCR characters/s, and officeparser (the common Node text
 * extractor) on the same files where it applies, as ratios measured in the same run.
 *
 *   npx tsx test/bench/formats/formats.ts            # all formats
 *   npx tsx test/bench/formats/formats.ts docx pptx  # some
 *
 * Each (format, engine) pair runs in its own child process, so its peak RSS
 * (`resourceUsage().maxRSS`) is its own. officeparser extracts plain text only; ours
 * builds structure (tables with spans, levels, boxes), so a ratio below 1 is the price of
 * structure, not a like-for-like loss.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FORMATS = ["docx", "xlsx", "csv", "pptx", "html", "image"] as const;
type Format = (typeof FORMATS)[number];
const OFFICEPARSER_FORMATS = new Set<Format>(["docx", "xlsx", "pptx"]);
const COUNTS: Record<Format, number> = { docx: 20, xlsx: 8, csv: 10, pptx: 10, html: 20, image: 4 };
const IMAGE_LINES = [
  "The quick brown fox jumps over the lazy dog.",
  "Invoice number 12345 dated 2024-03-15 for services.",
  "Total amount due: $1,234.56 payable by April 30.",
  "Please keep this receipt for your tax records.",
  "Questions? Contact billing at the address below.",
  "Thank you for your business and prompt payment.",
];

interface ChildResult {
  docs: number;
  seconds: number;
  maxRssMiB: number;
  chars?: number;
}

async function generate(dir: string, format: Format): Promise<void> {
  const fx = await import("../../support/office-fixtures.js");
  const n = COUNTS[format];
  for (let i = 0; i < n; i++) {
    let bytes: Uint8Array;
    let ext: string = format;
    switch (format) {
      case "docx": {
        const blocks: import("../../support/office-fixtures.js").DocxBlock[] = [];
        for (let s = 0; s < 10; s++) {
          blocks.push({ kind: "heading", level: 1 + (s % 3), text: `Section ${s} 第${s}节` });
          for (let p = 0; p < 5; p++) blocks.push({ kind: "para", text: `Paragraph ${p} of section ${s}. `.repeat(8) + "中文内容。".repeat(5) });
          for (let l = 0; l < 4; l++) blocks.push({ kind: "list", level: l % 2, text: `item ${l}` });
          if (s % 5 === 0) {
            blocks.push({ kind: "table", rows: Array.from({ length: 10 }, (_, r) => Array.from({ length: 5 }, (_, c) => ({ text: `r${r}c${c}` }))) });
          }
        }
        bytes = await fx.buildDocx(blocks);
        break;
      }
      case "xlsx": {
        const ExcelJS = (await import("exceljs")).default;
        const wb = new ExcelJS.Workbook();
        for (let s = 0; s < 2; s++) {
          const ws = wb.addWorksheet(`Sheet ${s}`);
          ws.addRow(Array.from({ length: 10 }, (_, c) => `Header ${c}`));
          for (let r = 0; r < 500; r++) ws.addRow(Array.from({ length: 10 }, (_, c) => (c % 3 === 0 ? `text ${r}-${c}` : r * c + 0.5)));
          ws.mergeCells("A1:B1");
        }
        bytes = new Uint8Array(await wb.xlsx.writeBuffer());
        break;
      }
      case "csv":
        bytes = new TextEncoder().encode(Array.from({ length: 2000 }, (_, r) => Array.from({ length: 10 }, (_, c) => (c === 0 ? `"name, ${r}"` : `${r * c}`)).join(",")).join("\n"));
        break;
      case "pptx": {
        const EMU = 914_400;
        bytes = await fx.buildPptx(
          Array.from({ length: 20 }, (_, s) => ({
            shapes: [
              { kind: "title" as const, text: `Slide ${s} title`, x: EMU, y: EMU / 2, cx: 10 * EMU, cy: EMU },
              { kind: "body" as const, paragraphs: Array.from({ length: 6 }, (_, p) => ({ text: `Bullet ${p} on slide ${s}`, level: p % 3 })), x: EMU, y: 2 * EMU, cx: 6 * EMU, cy: 4 * EMU },
              ...(s % 4 === 0 ? [{ kind: "table" as const, rows: Array.from({ length: 5 }, (_, r) => Array.from({ length: 4 }, (_, c) => ({ text: `${r}.${c}` }))), x: 7 * EMU, y: 2 * EMU, cx: 5 * EMU, cy: 3 * EMU }] : []),
            ],
            notes: `Notes for slide ${s}`,
          })),
        );
        break;
      }
      case "html":
        bytes = new TextEncoder().encode(
          `<!doctype html><html><head><meta charset="utf-8"><script>x()</script></head><body><nav><a href="/">Home</a></nav>` +
            Array.from(
              { length: 15 },
              (_, s) =>
                `<h2>Section ${s}</h2>${"<p>Some paragraph text with <b>bold</b> and <a href='#'>links</a>. 中文。</p>".repeat(4)}<ul><li>a<ul><li>b</li></ul></li></ul>` +
                (s % 5 === 0 ? `<table><tr><th colspan=2>h</th></tr>${"<tr><td>1</td><td>2</td></tr>".repeat(10)}</table>` : ""),
            ).join("") +
            `<footer>© 2024</footer></body></html>`,
        );
        break;
      case "image":
        bytes = await fx.renderTextImage(IMAGE_LINES.map((l) => `${l} (${i})`));
        ext = "png";
        break;
    }
    writeFileSync(join(dir, `${format}-${String(i).padStart(3, "0")}.${ext}`), bytes);
  }
}

async function child(format: Format, engine: "ours" | "officeparser", dir: string): Promise<ChildResult> {
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(`${format}-`))
    .map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(dir, f))) }));
  let chars = 0;
  let run: (f: { name: string; bytes: Uint8Array }) => Promise<void>;
  if (engine === "officeparser") {
    // A non-literal specifier: the bench typechecks even where the dev dependency is absent.
    const name = "officeparser";
    const op = (await import(name)) as { parseOfficeAsync: (b: Buffer, c?: unknown) => Promise<string> };
    run = async (f) => {
      const text = await op.parseOfficeAsync(Buffer.from(f.bytes));
      chars += text.length;
    };
  } else {
    const { FORMAT_LOADERS } = await import("../../../src/engine/registry.js");
    const handler = await FORMAT_LOADERS[format]!();
    const { formatContext } = await import("../../support/office-fixtures.js");
    run = async (f) => {
      const doc = await handler.parse(f.bytes, formatContext({ filename: f.name }));
      chars += doc.elements.reduce((n, e) => n + e.text.length, 0);
    };
  }
  // One warm-up document (lazy imports, OCR worker start), then the timed pass.
  await run(files[0]!);
  chars = 0;
  const t0 = performance.now();
  for (const f of files) await run(f);
  const seconds = (performance.now() - t0) / 1000;
  if (engine === "ours" && format === "image") await (await import("../../../src/engine/ocr.js")).terminateOcr();
  return { docs: files.length, seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024, chars };
}

function runChild(format: Format, engine: "ours" | "officeparser", dir: string): ChildResult | { error: string } {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, [...process.execArgv, self, "--child", format, engine, dir], { encoding: "utf8", timeout: 300_000 });
  const line = r.stdout.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) return { error: (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" | ") };
  return JSON.parse(line.slice(7)) as ChildResult;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--child") {
    const result = await child(args[1] as Format, args[2] as "ours" | "officeparser", args[3]!);
    console.log(`RESULT ${JSON.stringify(result)}`);
    return;
  }
  const formats = (args.length ? args : FORMATS).filter((f): f is Format => (FORMATS as readonly string[]).includes(f));
  const dir = mkdtempSync(join(tmpdir(), "docparse-bench-formats-"));
  try {
    for (const f of formats) await generate(dir, f);
    const rows: string[] = [];
    rows.push("| format | docs | ours docs/s | ours peak RSS MiB | officeparser docs/s | officeparser peak RSS MiB | speed ratio (ours/op) | RSS ratio (ours/op) |");
    rows.push("|---|---|---|---|---|---|---|---|");
    let ocrLine = "";
    for (const f of formats) {
      const ours = runChild(f, "ours", dir);
      const op = OFFICEPARSER_FORMATS.has(f) ? runChild(f, "officeparser", dir) : undefined;
      const fmt = (r: ChildResult | { error: string } | undefined, key: "rate" | "rss") =>
        !r ? "n/a" : "error" in r ? `error: ${r.error.slice(0, 60)}` : key === "rate" ? (r.docs / r.seconds).toFixed(1) : r.maxRssMiB.toFixed(0);
      const ratio = (key: "rate" | "rss") => {
        if (!op || "error" in op || "error" in ours) return "n/a";
        return key === "rate" ? (ours.docs / ours.seconds / (op.docs / op.seconds)).toFixed(2) : (ours.maxRssMiB / op.maxRssMiB).toFixed(2);
      };
      const docs = "error" in ours ? "?" : String(ours.docs);
      rows.push(`| ${f} | ${docs} | ${fmt(ours, "rate")} | ${fmt(ours, "rss")} | ${fmt(op, "rate")} | ${fmt(op, "rss")} | ${ratio("rate")} | ${ratio("rss")} |`);
      if (f === "image" && !("error" in ours)) {
        ocrLine = `OCR: ${ours.chars} characters in ${ours.seconds.toFixed(2)} s = ${(ours.chars! / ours.seconds).toFixed(0)} chars/s (tesseract.js 7, eng best_int, LSTM only, one worker)`;
      }
    }
    console.log(rows.join("\n"));
    if (ocrLine) console.log(`\n${ocrLine}`);
    console.log(`\nnode ${process.version}, ${new Date().toISOString()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
