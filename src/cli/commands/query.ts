import type { Command } from "commander";
import { defaultEmbeddings } from "../../ingest/defaults.js";
import { openExistingStore } from "../read-store.js";
import { CitationRetriever, citationsToJson, type CitedDocument } from "../../retrieve/index.js";
import type { CliIo } from "../cli-io.js";
import { CLI_DEFAULTS, jsonLine, storeUrl } from "../defaults.js";
import { EXIT } from "../exit-codes.js";
import { intOption } from "./options.js";

/** `docparse-rag query "<text>"`: ranked passages with file, pages, heading path and regions. */
export function queryCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("query")
    .description("search a store; prints ranked passages with file, pages, heading path, quote and regions")
    .argument("<text>", "the question or search text")
    .option("--store <url>", "the store to search (default $DOCPARSE_STORE or pglite://./.docparse)")
    .option("-k, --k <n>", `passages to return (default ${CLI_DEFAULTS.k})`, intOption(1))
    .option("--source <sourceId>", "only this document")
    .option("--json", "one JSON object per passage (JSON Lines)")
    .action(async (text: string, opts: { store?: string; k?: number; source?: string; json?: boolean }) => {
      const store = await openExistingStore(storeUrl(opts.store, io));
      try {
        const retriever = new CitationRetriever({
          store,
          embeddings: await defaultEmbeddings(),
          k: opts.k ?? CLI_DEFAULTS.k,
          ...(opts.source ? { filter: { sourceId: opts.source } } : {}),
        });
        const docs = await retriever.search(text);
        if (opts.json) printJson(io, docs);
        else io.stdout.write(formatPassages(docs));
      } finally {
        await store.close();
      }
      setExit(EXIT.ok);
    });
}

function printJson(io: CliIo, docs: CitedDocument[]): void {
  const citations = citationsToJson(docs);
  docs.forEach((doc, i) => {
    const c = citations.find((x) => x.n === i + 1);
    jsonLine(io, { rank: i + 1, score: doc.metadata.score, text: doc.pageContent, ...c });
  });
}

/** Ranked passages for people: `[n] file · pp. · heading path (score)`, the quote, the boxes. */
export function formatPassages(docs: readonly CitedDocument[]): string {
  if (docs.length === 0) return "no matching passages\n";
  const lines: string[] = [];
  docs.forEach((doc, i) => {
    const m = doc.metadata;
    const c = m.citation;
    const pages = c.pages.length === 0 ? "" : c.pages.length === 1 ? `p. ${c.pages[0]}` : `pp. ${c.pages[0]}–${c.pages.at(-1)}`;
    const heading = c.headingPath.length ? ` · ${c.headingPath.join(" > ")}` : "";
    lines.push(`[${i + 1}] ${c.filename ?? c.sourceId} · ${pages}${heading}  (score ${m.score.toFixed(3)})`);
    lines.push(`    “${c.quote.text.replace(/\s+/g, " ").trim()}”`);
    const boxes = (c.quote.regions.length ? c.quote.regions : c.regions).slice(0, 3).map((r) => `p${r.page} [${r.coordinates.map((x) => x.toFixed(3)).join(",")}]`);
    if (boxes.length) lines.push(`    regions: ${boxes.join("  ")}${c.regions.length > 3 ? " …" : ""}`);
  });
  return `${lines.join("\n")}\n`;
}
