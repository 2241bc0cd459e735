import { BaseDocumentLoader } from "@langchain/core/document_loaders/base";
import { Document } from "@langchain/core/documents";
import type { ChunkOptions } from "../chunk/options.js";
import { invalidOption } from "../errors.js";
import type { ParseInput, ParsedDocument, Parser } from "../parser.js";
import type { ParseConfig } from "../wire/index.js";
import { chunkToDocument } from "./documents.js";

/** What the loader emits: one Document per chunk, per element, or per document. */
export type DocParseLoaderMode = "chunks" | "elements" | "document";

/** One input, optionally named (a filename for bytes or streams, a source id for chunk ids). */
export interface NamedInput {
  input: ParseInput;
  /** Names a byte, Blob or stream input (type detection and metadata). */
  filename?: string;
  /**
   * The document's stable id in `metadata.sourceId` and in chunk ids.
   * @default the path or URL for those inputs, else the chunker's default (the result's `file_id`)
   */
  sourceId?: string;
}

/** Options of {@link DocParseLoader}. */
export interface DocParseLoaderOptions {
  /**
   * Who parses: any `Parser` — `new DocParseClient(...)` for the hosted service, or
   * the in-process engine.
   * @default new LocalParser()
   */
  parser?: Parser;
  /** The parse configuration, as on the wire (`page_range`, capabilities, ...). */
  config?: ParseConfig;
  /** Chunker options (`maxTokens`, `strategy`, ...), passed to `chunkDocument`. */
  chunk?: ChunkOptions;
  /**
   * `chunks`: one Document per chunk. `elements`: one per parsed element (as LangChain's
   * Unstructured loader does). `document`: one per input, the whole Markdown.
   * @default "chunks"
   */
  mode?: DocParseLoaderMode;
  /** Names a single byte/stream input; for many inputs use `{ input, filename }`. */
  filename?: string;
  /** Cancels parsing. */
  signal?: AbortSignal;
}

/** The defaults of {@link DocParseLoaderOptions}, pinned by a test. */
export const DOCPARSE_LOADER_DEFAULTS = { mode: "chunks" } as const;

const MODES = new Set<DocParseLoaderMode>(["chunks", "elements", "document"]);

/**
 * A LangChain document loader over docparse-rag: parses files, URLs or bytes and gives
 * citation-ready Documents. In `chunks` mode `pageContent` is the chunk text, `id` the
 * chunk id, and the metadata is the chunk's flat metadata plus `regions` (page + box of
 * every contributing element), so an answer can be shown on its page.
 *
 * @example
 * ```ts
 * const docs = await new DocParseLoader(["report.pdf", "notes.docx"], { chunk: { maxTokens: 400 } }).load();
 * ```
 */
export class DocParseLoader extends BaseDocumentLoader {
  readonly #inputs: NamedInput[];
  readonly #options: DocParseLoaderOptions;
  readonly #mode: DocParseLoaderMode;
  #parser: Parser | undefined;

  constructor(inputs: ParseInput | NamedInput | readonly (ParseInput | NamedInput)[], options: DocParseLoaderOptions = {}) {
    super();
    const { mode = DOCPARSE_LOADER_DEFAULTS.mode } = options;
    if (!MODES.has(mode)) throw invalidOption(`Expected \`mode\` to be chunks, elements or document, got ${String(mode)}`);
    const list = Array.isArray(inputs) ? inputs : [inputs];
    if (list.length === 0) throw invalidOption("DocParseLoader needs at least one input");
    if (options.filename !== undefined && list.length > 1) {
      throw invalidOption("`filename` names a single input; for many inputs pass { input, filename } objects");
    }
    this.#inputs = list.map((item) => (isNamed(item) ? item : { input: item as ParseInput, ...(options.filename ? { filename: options.filename } : {}) }));
    this.#options = options;
    this.#mode = mode;
    this.#parser = options.parser;
  }

  /** Parses every input and returns all Documents. */
  override async load(): Promise<Document[]> {
    const out: Document[] = [];
    for await (const doc of this.lazyLoad()) out.push(doc);
    return out;
  }

  /**
   * {@link load}, then the splitter over the Documents when one is given. Chunks are
   * already sized, so usually there is nothing to split. Also present because
   * `index()` from `@langchain/core/indexing` recognises a loader by this method (the
   * 1.x base class no longer defines it), so the loader can be passed to it directly.
   */
  async loadAndSplit(splitter?: { splitDocuments(documents: Document[]): Promise<Document[]> }): Promise<Document[]> {
    const docs = await this.load();
    return splitter ? splitter.splitDocuments(docs) : docs;
  }

  /** Parses input by input, yielding each document's Documents before parsing the next. */
  async *lazyLoad(): AsyncGenerator<Document> {
    const { chunkDocument } = await import("../chunk/chunk-document.js");
    const parser = await this.#getParser();
    for (const item of this.#inputs) {
      const result = await parser.parse(item.input, {
        ...(item.filename !== undefined ? { filename: item.filename } : {}),
        ...(this.#options.config !== undefined ? { config: this.#options.config } : {}),
        ...(this.#options.signal !== undefined ? { signal: this.#options.signal } : {}),
      });
      const sourceId = item.sourceId ?? this.#options.chunk?.sourceId ?? defaultSourceId(item.input);
      if (this.#mode === "chunks") {
        const chunks = chunkDocument(result, { ...this.#options.chunk, ...(sourceId !== undefined ? { sourceId } : {}) });
        for (const chunk of chunks) yield chunkToDocument(chunk);
      } else if (this.#mode === "elements") {
        yield* elementDocuments(result, sourceId ?? result.file_id, item.filename);
      } else {
        yield wholeDocument(result, sourceId ?? result.file_id, item.filename);
      }
    }
  }

  async #getParser(): Promise<Parser> {
    // Imported on first use so that importing the LangChain surface stays light.
    this.#parser ??= new (await import("../engine/local-parser.js")).LocalParser();
    return this.#parser;
  }
}

function isNamed(item: unknown): item is NamedInput {
  return typeof item === "object" && item !== null && "input" in item && !("url" in item);
}

function defaultSourceId(input: ParseInput): string | undefined {
  if (typeof input === "string") return input;
  if (typeof input === "object" && input !== null && "url" in input && typeof input.url === "string") return input.url;
  return undefined;
}

function documentInfo(result: ParsedDocument, sourceId: string, filename: string | undefined): Record<string, string | number | boolean> {
  const info: Record<string, string | number | boolean> = { sourceId, fileId: result.file_id, schemaVersion: result.schema_version };
  const name = result.metadata?.filename ?? filename;
  if (name !== undefined) info.filename = name;
  if (result.metadata?.filetype !== undefined) info.filetype = result.metadata.filetype;
  if (result.job_id !== undefined) info.jobId = result.job_id;
  if (result.partial) info.partial = true;
  return info;
}

/** One Document per element; `category` as LangChain's Unstructured loader names the type. */
function* elementDocuments(result: ParsedDocument, sourceId: string, filename: string | undefined): Generator<Document> {
  const info = documentInfo(result, sourceId, filename);
  for (const [index, element] of result.elements.entries()) {
    const meta = element.metadata;
    yield new Document({
      id: element.element_id,
      pageContent: element.text,
      metadata: {
        ...info,
        elementId: element.element_id,
        category: element.type,
        elementIndex: index,
        pageNumber: element.page_number,
        ...(meta?.parent_id !== undefined ? { parentId: meta.parent_id } : {}),
        ...(meta?.category_depth !== undefined ? { categoryDepth: meta.category_depth } : {}),
        regions: [{ page: element.page_number, coordinates: element.coordinates, elementId: element.element_id }],
      },
    });
  }
}

/** The whole document as Markdown (elements' text joined when the result has no Markdown). */
function wholeDocument(result: ParsedDocument, sourceId: string, filename: string | undefined): Document {
  const pageContent = result.markdown ?? result.elements.map((e) => e.text).join("\n\n");
  const pages = [...new Set(result.elements.map((e) => e.page_number))].sort((a, b) => a - b);
  return new Document({
    id: sourceId,
    pageContent,
    metadata: { ...documentInfo(result, sourceId, filename), pageCount: result.metadata?.page_count ?? pages.length, pages },
  });
}
