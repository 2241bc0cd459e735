/**
 * Question answering with citations, end to end:
 *
 *   npx tsx examples/qa/main.ts "How many days do I have to get a refund?"
 *   npx tsx examples/qa/main.ts "退货运费谁承担？"
 *   npx tsx examples/qa/main.ts --store pglite://./qa-db --docs ./my-docs "question"
 *
 * Ingests `--docs` (default: this folder's `docs/`) into `--store` (default `memory://`)
 * with the local parser and the built-in embeddings, then answers. With OPENAI_API_KEY
 * and @langchain/openai installed a chat model writes the answer; otherwise the answer is
 * the best quotes, so it runs offline on a fresh machine.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { HashEmbeddings } from "../../src/embed/hash-embeddings.js";
import { ingest } from "../../src/ingest/ingest.js";
import { CitationRetriever } from "../../src/retrieve/citation-retriever.js";
import { openStore } from "../../src/store/open-store.js";
import { buildQaChain, loadChatModel } from "./qa-chain.js";

const here = dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    store: { type: "string", default: "memory://" },
    docs: { type: "string", default: join(here, "docs") },
    k: { type: "string", default: "3" },
    "no-ingest": { type: "boolean", default: false },
  },
});
const question = positionals.join(" ") || "How many days do I have to get a refund?";

const store = await openStore(values.store);
const embeddings = new HashEmbeddings();
try {
  if (!values["no-ingest"]) {
    const report = await ingest({ sources: [values.docs], store, embeddings });
    if (report.failed.length) console.warn("ingest failures:", report.failed);
  }
  const retriever = new CitationRetriever({ store, embeddings, k: Number(values.k) });
  const chain = buildQaChain(retriever, await loadChatModel());
  const result = await chain.invoke(question);
  console.log(`Q: ${result.question}\n`);
  console.log(`A (${result.mode}): ${result.answer}\n`);
  console.log(`Sources:\n${result.sources}`);
} finally {
  await store.close();
}
