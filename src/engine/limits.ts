import type { EngineLimits } from "./draft.js";
import { availableParallelism } from "node:os";
import { invalidOption } from "../errors.js";

/**
 * Parser threads a PDF is read on at most by default: one core is left to the calling
 * thread, at most 2 threads (each holds its own pdfjs and heap, ~50 MB). On 2 cores one
 * thread measured best: a second one halves the pages per thread but doubles pdfjs'
 * warm-up and font loading, and both then compete with the caller (docs/performance.md).
 */
export const DEFAULT_PDF_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));

/**
 * The engine's default bounds. 500 MiB is the hosted service's documented file limit;
 * the others keep a hostile file (zip bomb, page flood, pathological layout) bounded.
 */
export const ENGINE_LIMIT_DEFAULTS: Readonly<EngineLimits> = Object.freeze({
  maxBytes: 500 * 1024 * 1024,
  maxPages: 5000,
  maxUnzippedBytes: 1024 * 1024 * 1024,
  maxZipRatio: 200,
  timeoutMs: 600_000,
  maxImagePixels: 100_000_000,
  pdfThreads: DEFAULT_PDF_THREADS,
});

/** Applies the defaults and checks each limit is a positive number. */
export function resolveLimits(limits: Partial<EngineLimits> | undefined): EngineLimits {
  const out: EngineLimits = { ...ENGINE_LIMIT_DEFAULTS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (value === undefined) continue;
    if (!(key in out)) throw invalidOption(`Unknown engine limit \`${key}\``);
    if (typeof value !== "number" || !(value > 0)) {
      throw invalidOption(`Expected \`limits.${key}\` to be a number > 0, got ${String(value)}`);
    }
    (out as unknown as Record<string, number>)[key] = key === "pdfThreads" ? Math.max(1, Math.floor(value)) : value;
  }
  return out;
}
