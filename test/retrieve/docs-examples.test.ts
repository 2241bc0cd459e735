/**
 * docs/retrieval.md shows output pasted from runs. These tests run the documented code
 * and commands and compare, so the docs and the behaviour cannot drift apart.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/system.js";

const ROOT = resolve(import.meta.dirname, "../..");
const DOC = readFileSync(join(ROOT, "docs/retrieval.md"), "utf8");
const run = promisify(execFile);

/** Every fenced block of the doc, in order: its language and body. */
function blocks(markdown: string): { lang: string; body: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]!.trimEnd() }));
}

/** Runs a TypeScript file with tsx from the repository root, offline (no chat model). */
async function tsx(file: string, args: string[] = []): Promise<string> {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  const { stdout } = await run(process.execPath, ["--import", "tsx", file, ...args], { cwd: ROOT, env, timeout: 60_000 });
  return stdout.trimEnd();
}

describe("docs/retrieval.md", () => {
  const dir = tempDir("retrieval-docs-");
  afterAll(() => dir.cleanup());
  const all = blocks(DOC);

  it("the quick start prints what the doc says it prints", async () => {
    const quick = DOC.slice(DOC.indexOf("## Quick start"));
    const [code, output] = blocks(quick);
    expect(code?.lang).toBe("ts");
    expect(output?.lang).toBe("text");
    const file = join(dir.path, "quick-start.mts");
    writeFileSync(file, code!.body.replace(/from "docparse-rag"/, `from ${JSON.stringify(join(ROOT, "src/index.ts"))}`));
    expect(await tsx(file)).toBe(output!.body);
  }, 90_000);

  const commands = all.filter((b) => b.lang === "sh" && b.body.startsWith("$ npx tsx examples/qa/main.ts "));
  it("documents the English, Chinese and weak-overlap example questions", () => {
    expect(commands.map((c) => c.body.split("\n")[0])).toEqual([
      '$ npx tsx examples/qa/main.ts "How many days do I have to get a refund?"',
      '$ npx tsx examples/qa/main.ts "退货运费谁承担？"',
      '$ npx tsx examples/qa/main.ts "How long do I have to return a product?"',
    ]);
  });

  it("each documented examples/qa command prints what the doc shows", async () => {
    const outputs = await Promise.all(
      commands.map((c) => {
        const question = JSON.parse(c.body.split("\n")[0]!.slice("$ npx tsx examples/qa/main.ts ".length)) as string;
        return tsx("examples/qa/main.ts", [question]);
      }),
    );
    commands.forEach((c, i) => expect(outputs[i]).toBe(c.body.split("\n").slice(1).join("\n")));
  }, 120_000);
});
