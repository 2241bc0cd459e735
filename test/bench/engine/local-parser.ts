/**
 * LocalParser throughput on text and Markdown, against the parsing it cannot avoid,
 * measured in the same run: for Markdown, markdown-it's own `parse` of the same source;
 * for text, decoding + splitting into lines. The ratio is the cost of everything the
 * engine adds (headings, hierarchy, layout, ids, markdown, pages).
 *
 *   npx tsx test/bench/engine/local-parser.ts [MB]
 */
import MarkdownIt from "markdown-it";
import { LocalParser } from "../../../src/engine/local-parser.js";
import { MemoryAssetStore } from "../../../src/engine/assets.js";

const targetMb = Number(process.argv[2] ?? 4);

function corpus(markdown: boolean): string {
  const en = "The quick brown fox jumps over the lazy dog while the committee reviews the annual budget. ";
  const zh = "本公司在报告期内继续推进数字化转型，营业收入同比增长百分之十二，净利润保持稳定。";
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetMb * 1e6; i++) {
    let block: string;
    if (i % 40 === 0) block = markdown ? `## ${i / 40 + 1} Section` : `${i / 40 + 1} Section`;
    else if (i % 13 === 0) block = ["- first item", "- second item", "  - nested item"].join("\n");
    else if (markdown && i % 29 === 0) block = "| Name | Value |\n|---|---|\n| a | 1 |\n| b | 2 |";
    else block = (i % 2 ? en : zh).repeat(3);
    parts.push(block);
    size += Buffer.byteLength(block) + 2;
  }
  return parts.join("\n\n");
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await fn();
  return [out, performance.now() - t];
}

const parser = new LocalParser({ assets: new MemoryAssetStore() });
const rows: string[] = [];
for (const kind of ["txt", "md"] as const) {
  const text = corpus(kind === "md");
  const bytes = Buffer.from(text);
  const mb = bytes.byteLength / 1e6;
  const reference = kind === "md" ? () => new MarkdownIt({ html: true }).parse(text, {}).length : () => new TextDecoder().decode(bytes).split("\n").length;
  const full = { capabilities: { pages: true, title_tree: true, include_table_structure: true } };
  // One warm-up pass of each, then the best of two timed passes (a shared machine).
  reference();
  const [plain] = await timeAsync(() => parser.parse(bytes, { filename: `doc.${kind}` }));
  await parser.parse(bytes, { filename: `doc.${kind}`, config: full });
  const best = async (fn: () => Promise<unknown> | unknown) => Math.min((await timeAsync(async () => fn()))[1], (await timeAsync(async () => fn()))[1]);
  const refMs = await best(reference);
  const ms = await best(() => parser.parse(bytes, { filename: `doc.${kind}` }));
  const fullMs = await best(() => parser.parse(bytes, { filename: `doc.${kind}`, config: full }));
  rows.push(
    `| ${kind} | ${mb.toFixed(1)} | ${plain.elements.length} | ${plain.metadata?.page_count} | ${(mb / (ms / 1000)).toFixed(1)} | ${(mb / (fullMs / 1000)).toFixed(1)} | ${(mb / (refMs / 1000)).toFixed(1)} | ${(ms / refMs).toFixed(1)} |`,
  );
}
console.log("| format | MB | elements | pages | ours MB/s (defaults) | ours MB/s (pages, title_tree, tables) | reference MB/s | time ratio (ours/reference) |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(`\nnode ${process.version}, ${new Date().toISOString()}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
