import { InvalidArgumentError } from "commander";

/** Commander parser for an integer option >= min (bad input → usage error, exit 2). */
export function intOption(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\s*-?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min) {
      throw new InvalidArgumentError(`Expected an integer >= ${min}, got ${JSON.stringify(value)}.`);
    }
    return n;
  };
}

/** Commander parser for a JSON object option. */
export function jsonOption(value: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw new InvalidArgumentError(`Expected a JSON object, got ${JSON.stringify(value)}.`);
}
