import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type RedisServer } from "../support/redis.js";
import { missing } from "../support/system.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLES = join(ROOT, "examples");

/**
 * Every example program: `examples/*.ts` and `examples/<name>/main.ts` (other files in a
 * folder are its modules; `examples/docs/` holds sample documents, not programs).
 */
function examplePrograms(): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(EXAMPLES, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".ts")) out.push(join(EXAMPLES, entry.name));
    if (entry.isDirectory() && entry.name !== "docs" && existsSync(join(EXAMPLES, entry.name, "main.ts"))) out.push(join(EXAMPLES, entry.name, "main.ts"));
  }
  return out.sort();
}

function run(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const needsRedis = (file: string) => file.endsWith("distributed-ingest.ts");
const programs = examplePrograms();

describe("example programs", () => {
  let redis: RedisServer | undefined;
  const redisMissing = missing("redis-server");
  beforeAll(async () => {
    if (!redisMissing) redis = await startRedis();
  });
  afterAll(async () => redis?.stop());

  it("finds the example programs", () => {
    expect(programs.map((p) => relative(EXAMPLES, p))).toEqual(expect.arrayContaining(["ingest-folder.ts", "distributed-ingest.ts"]));
  });

  it("examples/docs/make-samples.ts --check: the committed binary samples are what the script makes", async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", join(EXAMPLES, "docs/make-samples.ts"), "--check"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.once("exit", (code) => resolve({ code, stderr }));
    });
    expect(result.code, result.stderr).toBe(0);
  }, 60_000);

  for (const file of programs) {
    const name = relative(ROOT, file);
    // Skipped only where redis-server is missing (and DOCPARSE_REQUIRE_ALL is not set).
    it.skipIf(needsRedis(file) && redisMissing)(`${name} runs offline and exits 0`, async () => {
      const result = await run(file, redis ? { REDIS_URL: redis.url } : {});
      expect(result.stderr.replace(/^npm warn.*\n?/gm, ""), `${name} stderr`).not.toMatch(/Error|at .*\.ts:\d+/);
      expect(result.code, `${name} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
    }, 180_000);
  }
});
