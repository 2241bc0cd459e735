/**
 * HashEmbeddings throughput on English and Chinese texts, against the reference of
 * extracting the same terms alone (`textTerms`), measured in the same run.
 *
 *   npx tsx test/bench/store/hash-embeddings.ts [--texts 5000]
 */
import { HashEmbeddings } from "../../../src/embed/hash-embeddings.js";
import { textTerms } from "../../../src/embed/text-terms.js";

const at = process.argv.indexOf("--texts");
const n = at > 0 ? Number(process.argv[at + 1]) : 5000;
const english = Array.from({ length: n }, (_, i) => Array.from({ length: 60 }, (_, j) => `word${(i * 31 + j * 17) % 5000}`).join(" "));
const chinese = Array.from({ length: n }, (_, i) => `${"向量数据库支持混合检索和全文检索，中文文本没有空格。".repeat(4)}${i}`);
const embeddings = new HashEmbeddings();

function rate(fn: (text: string) => unknown, texts: string[]): number {
  for (const t of texts.slice(0, 100)) fn(t); // warm-up
  const start = performance.now();
  for (const t of texts) fn(t);
  return texts.length / ((performance.now() - start) / 1000);
}

console.log("| texts | textTerms only (texts/s) | HashEmbeddings 384 (texts/s) | embedding time vs terms |");
console.log("|---|---:|---:|---:|");
for (const [name, texts] of [["English, 60 words", english], ["Chinese, ~100 characters", chinese]] as const) {
  const terms = rate((t) => textTerms(t, { wordBigrams: true }), texts);
  const embed = rate((t) => embeddings.embedSync(t), texts);
  console.log(`| ${name} | ${terms.toFixed(0)} | ${embed.toFixed(0)} | ${(terms / embed).toFixed(2)}× |`);
}
