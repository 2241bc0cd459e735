// Module-resolution hook that appends every resolved node_modules package to the file named
// by RECORD_IMPORTS_FILE. Used by test/index.test.ts to prove the main entry stays light.
import { appendFileSync } from "node:fs";
import { register } from "node:module";

if (process.env.RECORD_IMPORTS_HOOK !== "1") {
  register(new URL(import.meta.url), { data: process.env.RECORD_IMPORTS_FILE });
}

let out;
export function initialize(file) {
  out = file;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(result.url);
  if (out && match) appendFileSync(out, `${match[1]}\n`);
  return result;
}
