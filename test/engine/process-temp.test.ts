import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processTempDir, sweepTempDirs } from "../../src/engine/process-temp.js";
import { tempDir } from "../support/system.js";

describe("processTempDir", () => {
  let dir: ReturnType<typeof tempDir>;
  let previous: string | undefined;
  beforeEach(() => {
    dir = tempDir();
    previous = process.env.TMPDIR;
    process.env.TMPDIR = dir.path;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    dir.cleanup();
  });

  const host = hostname().replace(/[^A-Za-z0-9.]/g, "_").slice(0, 64) || "host";

  it("names this host and process, and removes what ended processes of this host left", () => {
    // A pid that ran and is gone: a child that has exited.
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const left = join(dir.path, `docparse-x-${host}-${gone}-abc123`);
    const live = join(dir.path, `docparse-x-${host}-${process.pid}-def456`);
    const otherHost = join(dir.path, `docparse-x-elsewhere-${gone}-ghi789`);
    const otherPrefix = join(dir.path, `docparse-y-${host}-${gone}-jkl012`);
    for (const d of [left, live, otherHost, otherPrefix]) mkdirSync(join(d, "inside"), { recursive: true });

    const made = processTempDir("docparse-x-");
    expect(made.startsWith(join(dir.path, `docparse-x-${host}-${process.pid}-`))).toBe(true);
    expect(existsSync(left)).toBe(false);
    // This process's, another host's (a container sharing the folder) and another prefix's stay.
    for (const d of [live, otherHost, otherPrefix, made]) expect(existsSync(d)).toBe(true);
    expect(sweepTempDirs("docparse-x-")).toBe(0);
    expect(readdirSync(dir.path).sort()).toHaveLength(4);
  });
});
