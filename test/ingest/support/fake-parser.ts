import { readFile } from "node:fs/promises";
import { DocParseError, LocalErrorCode, abortError } from "../../../src/errors.js";
import type { ParsedDocument, Parser, ParseInput, ParseOptions } from "../../../src/parser.js";
import type { Element } from "../../../src/wire/index.js";

/** Options of {@link FakeParser}. */
export interface FakeParserOptions {
  /** Milliseconds each parse takes. */
  latencyMs?: number;
  /** Fail the first N attempts of each document with a retryable QPS error. */
  transientFailures?: number;
}

/**
 * A Parser for ingest tests: each paragraph of a text document becomes an element on
 * page 1 + (index / 3). A document containing `CORRUPT` fails with 40422 (permanent).
 * Counts calls and the most parses running at once.
 */
export class FakeParser implements Parser {
  readonly name: string = "fake";
  calls = 0;
  running = 0;
  maxRunning = 0;
  readonly attempts = new Map<string, number>();
  readonly options: FakeParserOptions;

  constructor(options: FakeParserOptions = {}) {
    this.options = options;
  }

  async parse(input: ParseInput, options: ParseOptions = {}): Promise<ParsedDocument> {
    this.calls++;
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      const text = await readText(input);
      const name = options.filename ?? "doc.txt";
      const attempt = (this.attempts.get(name + text) ?? 0) + 1;
      this.attempts.set(name + text, attempt);
      if (this.options.latencyMs) await delay(this.options.latencyMs, options.signal);
      if (options.signal?.aborted) throw abortError(options.signal);
      if (attempt <= (this.options.transientFailures ?? 0)) throw new DocParseError(40306, "QPS limit (injected)");
      if (text.includes("CORRUPT")) throw new DocParseError(40422, "corrupt file (injected)");
      return textResult(text, name);
    } finally {
      this.running--;
    }
  }
}

/** The parse result the fake produces for a text. */
export function textResult(text: string, filename: string): ParsedDocument {
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const elements: Element[] = paragraphs.map((p, i) => ({
    element_id: `e${i}`,
    type: p.startsWith("#") ? "Title" : "NarrativeText",
    text: p.replace(/^#+\s*/, ""),
    page_number: 1 + Math.floor(i / 3),
    coordinates: [0.1, 0.1, 0.9, 0.1, 0.9, 0.2, 0.1, 0.2],
  }));
  const pageCount = Math.max(1, Math.ceil(paragraphs.length / 3));
  return {
    schema_version: "1.4.0",
    file_id: `f-${filename}`,
    metadata: { filename, filetype: "text/plain", page_count: pageCount },
    elements,
  };
}

async function readText(input: ParseInput): Promise<string> {
  if (typeof input === "string") return readFile(input, "utf8");
  if (input instanceof Uint8Array) return Buffer.from(input).toString("utf8");
  if (typeof input === "object" && input !== null && "url" in input) return (await fetch(input.url)).text();
  throw new DocParseError(LocalErrorCode.InvalidOption, "FakeParser reads paths, bytes and { url } only");
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      reject(abortError(signal));
    }, { once: true });
  });
}
