import type { EngineLimits } from "./draft.js";
import { invalidOption } from "../errors.js";

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
    (out as unknown as Record<string, number>)[key] = value;
  }
  return out;
}
