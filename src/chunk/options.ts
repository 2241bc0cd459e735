import { z } from "zod";
import { invalidOption } from "../errors.js";
import { resolveTokenizer, type Tokenizer, type TokenizerName } from "./tokenizer.js";

/** How the chunker groups elements. */
export type ChunkStrategy = "hierarchy" | "by_page" | "by_element";

/** What an `embedTemplate` function receives. */
export interface EmbedTemplateContext {
  /** The chunk body. */
  text: string;
  /** Titles from the root to the chunk's section (titles already in `text` left out). */
  headingPath: string[];
  /** The heading path joined with `" > "`, plus a table's caption on later table pieces. */
  context: string;
}

/** A problem the chunker worked around (it never throws on a bad document). */
export interface ChunkWarning {
  /** Stable code, e.g. `hierarchy_missing`, `dangling_parent`, `continuation_unresolved`. */
  code: string;
  message: string;
  elementId?: string;
}

/** Options of {@link chunkDocument}. Every member is optional. */
export interface ChunkOptions {
  /**
   * Most tokens of `embedText` (heading path + body) in one chunk. A chunk goes over it
   * only when one unsplittable run forces it (`metadata.oversized`).
   * @default 512
   */
  maxTokens?: number;
  /**
   * A chunk that has reached this many tokens does not absorb a following sub-heading
   * (a heading deeper than `headingLevel`); smaller pieces merge with their siblings
   * up to `maxTokens`.
   * @default 64
   */
  minTokens?: number;
  /**
   * Tokens repeated between consecutive pieces of one oversized text element.
   * @default 0
   */
  overlapTokens?: number;
  /**
   * Deepest heading level (1-based, like `title_tree.level`) that starts a section. A
   * chunk never spans two sections; deeper headings stay inside their section's chunks.
   * @default 3
   */
  headingLevel?: number;
  /**
   * How tokens are counted: `"cl100k_base"` (exact, js-tiktoken), `"approximate"`
   * (1 per CJK character, ~1 per 4 other characters) or your own {@link Tokenizer}.
   * @default "cl100k_base"
   */
  tokenizer?: TokenizerName | Tokenizer;
  /**
   * How tables with a known cell grid are written into chunk text.
   * @default "html"
   */
  tableFormat?: "html" | "markdown";
  /**
   * Element types left out of every chunk.
   * @default ["Header", "Footer", "PageNumber"]
   */
  dropTypes?: string[];
  /**
   * How `embedText` is made: a template with `{headingPath}` (or `{context}`) and
   * `{text}`, or a function. With an empty heading path the template's leading blank
   * lines are removed.
   * @default "{context}\n\n{text}"
   */
  embedTemplate?: string | ((ctx: EmbedTemplateContext) => string);
  /**
   * `"hierarchy"`: sections from the heading tree. `"by_page"`: one chunk per page
   * (split when over budget). `"by_element"`: one chunk per element (continuations
   * joined, captions kept with their table or image).
   * @default "hierarchy"
   */
  strategy?: ChunkStrategy;
  /**
   * The document's stable id in `metadata.sourceId` and in chunk ids.
   * @default the result's `file_id`, else `metadata.filename`, else `"document"`
   */
  sourceId?: string;
  /** Flat values copied into every chunk's metadata; names the chunker uses (`sourceId`, `oversized`, ...) are ignored. */
  metadata?: Record<string, string | number | boolean | null>;
  /** Called for each {@link ChunkWarning}. */
  onWarning?: (warning: ChunkWarning) => void;
}

/** The options after defaults, as the chunker uses them. */
export interface ResolvedChunkOptions {
  maxTokens: number;
  minTokens: number;
  overlapTokens: number;
  headingLevel: number;
  tokenizer: Tokenizer;
  tableFormat: "html" | "markdown";
  dropTypes: string[];
  embedTemplate: string | ((ctx: EmbedTemplateContext) => string);
  strategy: ChunkStrategy;
  sourceId: string | undefined;
  metadata: Record<string, string | number | boolean | null>;
  onWarning: ((warning: ChunkWarning) => void) | undefined;
}

/** The defaults, exactly as documented above and in docs/chunking.md. */
export const CHUNK_OPTION_DEFAULTS = {
  maxTokens: 512,
  minTokens: 64,
  overlapTokens: 0,
  headingLevel: 3,
  tokenizer: "cl100k_base",
  tableFormat: "html",
  dropTypes: ["Header", "Footer", "PageNumber"],
  embedTemplate: "{context}\n\n{text}",
  strategy: "hierarchy",
} as const;

function int(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return z.unknown().superRefine((v, ctx) => {
    if (v === undefined) return;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      ctx.addIssue({ code: "custom", message: `Expected \`${name}\` to be an integer ${range}, got ${show(v)}` });
    }
  }).optional();
}

function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "function") return "a function";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function oneOf<T extends string>(name: string, values: readonly T[]) {
  return z.unknown().superRefine((v, ctx) => {
    if (v === undefined || (typeof v === "string" && (values as readonly string[]).includes(v))) return;
    ctx.addIssue({
      code: "custom",
      message: `Expected \`${name}\` to be one of ${values.map((x) => `"${x}"`).join(", ")}, got ${show(v)}`,
    });
  }).optional();
}

const isTokenizer = (v: unknown): v is Tokenizer =>
  typeof v === "object" && v !== null && typeof (v as Tokenizer).count === "function" && typeof (v as Tokenizer).name === "string";

const OptionsSchema = z
  .strictObject({
    maxTokens: int("maxTokens", 16),
    minTokens: int("minTokens", 0),
    overlapTokens: int("overlapTokens", 0),
    headingLevel: int("headingLevel", 1, 10),
    tokenizer: z.unknown().superRefine((v, ctx) => {
      if (v === undefined || v === "cl100k_base" || v === "approximate" || isTokenizer(v)) return;
      ctx.addIssue({
        code: "custom",
        message: `Expected \`tokenizer\` to be "cl100k_base", "approximate" or an object with count(text) and name, got ${show(v)}`,
      });
    }).optional(),
    tableFormat: oneOf("tableFormat", ["html", "markdown"]),
    dropTypes: z.unknown().superRefine((v, ctx) => {
      if (v === undefined || (Array.isArray(v) && v.every((x) => typeof x === "string"))) return;
      ctx.addIssue({ code: "custom", message: `Expected \`dropTypes\` to be an array of element type names, got ${show(v)}` });
    }).optional(),
    embedTemplate: z.unknown().superRefine((v, ctx) => {
      if (v === undefined || typeof v === "function") return;
      if (typeof v === "string" && v.includes("{text}")) return;
      ctx.addIssue({
        code: "custom",
        message: `Expected \`embedTemplate\` to be a function or a string containing "{text}", got ${show(v)}`,
      });
    }).optional(),
    strategy: oneOf("strategy", ["hierarchy", "by_page", "by_element"]),
    sourceId: z.unknown().superRefine((v, ctx) => {
      if (v === undefined || (typeof v === "string" && v.length > 0)) return;
      ctx.addIssue({ code: "custom", message: `Expected \`sourceId\` to be a non-empty string, got ${show(v)}` });
    }).optional(),
    metadata: z.unknown().superRefine((v, ctx) => {
      if (v === undefined) return;
      const flat =
        typeof v === "object" &&
        v !== null &&
        !Array.isArray(v) &&
        Object.values(v).every((x) => x === null || ["string", "number", "boolean"].includes(typeof x));
      if (!flat) ctx.addIssue({ code: "custom", message: `Expected \`metadata\` to be an object of flat values (string, number, boolean, null), got ${show(v)}` });
    }).optional(),
    onWarning: z.unknown().superRefine((v, ctx) => {
      if (v === undefined || typeof v === "function") return;
      ctx.addIssue({ code: "custom", message: `Expected \`onWarning\` to be a function, got ${show(v)}` });
    }).optional(),
  })
  .superRefine((o, ctx) => {
    const max = typeof o.maxTokens === "number" ? o.maxTokens : CHUNK_OPTION_DEFAULTS.maxTokens;
    if (typeof o.minTokens === "number" && o.minTokens >= max) {
      ctx.addIssue({ code: "custom", message: `Expected \`minTokens\` (${o.minTokens}) to be less than \`maxTokens\` (${max})` });
    }
    if (typeof o.overlapTokens === "number" && o.overlapTokens * 2 > max) {
      ctx.addIssue({ code: "custom", message: `Expected \`overlapTokens\` (${o.overlapTokens}) to be at most half of \`maxTokens\` (${max})` });
    }
  });

/**
 * Validates options and applies defaults. Throws a `DocParseError` with code
 * `DOCPARSE_INVALID_OPTION` listing every problem; unknown keys are rejected so typos
 * do not pass silently.
 */
export function resolveChunkOptions(options: ChunkOptions = {}): ResolvedChunkOptions {
  if (typeof options !== "object" || options === null) {
    throw invalidOption(`Expected chunk options to be an object, got ${show(options)}`);
  }
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((i) =>
      i.code === "unrecognized_keys" ? `Unknown chunk option(s): ${i.keys.map((k) => `\`${k}\``).join(", ")}` : i.message,
    );
    throw invalidOption(`Invalid chunk options: ${messages.join("; ")}`, parsed.error.issues);
  }
  const d = CHUNK_OPTION_DEFAULTS;
  return {
    maxTokens: options.maxTokens ?? d.maxTokens,
    minTokens: options.minTokens ?? d.minTokens,
    overlapTokens: options.overlapTokens ?? d.overlapTokens,
    headingLevel: options.headingLevel ?? d.headingLevel,
    tokenizer: resolveTokenizer(options.tokenizer ?? d.tokenizer),
    tableFormat: options.tableFormat ?? d.tableFormat,
    dropTypes: options.dropTypes ?? [...d.dropTypes],
    embedTemplate: options.embedTemplate ?? d.embedTemplate,
    strategy: options.strategy ?? d.strategy,
    sourceId: options.sourceId,
    metadata: options.metadata ?? {},
    onWarning: options.onWarning,
  };
}

/**
 * The options that change chunk text or boundaries, as a stable string. It goes into
 * chunk ids, so ids change when (and only when) chunking would.
 */
export function optionsFingerprint(o: ResolvedChunkOptions): string {
  return JSON.stringify([
    o.maxTokens,
    o.minTokens,
    o.overlapTokens,
    o.headingLevel,
    o.tokenizer.name,
    o.tableFormat,
    [...o.dropTypes].sort(),
    typeof o.embedTemplate === "string" ? o.embedTemplate : "fn",
    o.strategy,
  ]);
}
