import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Temp folders that name the process owning them (`<prefix><host>-<pid>-XXXXXX`), so the
 * ones a process left behind when it ended without an exit event (a signal, a crash, a
 * killed test worker: the LibreOffice profile, the OCR workers' folders) are removed by
 * the next process that makes one. Only folders of this host whose process is gone are
 * touched: another user's (not ours to check) or another container's sharing the temp
 * directory (another host name) stay.
 */

/** A new temp folder for this process; the caller removes it when done. Sweeps leftovers of `prefix` first. */
export function processTempDir(prefix: string): string {
  sweepTempDirs(prefix);
  return mkdtempSync(join(tmpdir(), `${prefix}${host()}-${process.pid}-`));
}

/** Removes the `prefix` folders of this host whose process no longer runs. Returns how many. */
export function sweepTempDirs(prefix: string): number {
  const mine = `${prefix}${host()}-`;
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(mine)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(mine.length))?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || running(pid)) continue;
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
      removed++;
    } catch {
      // Not ours after all, or gone meanwhile: leave it.
    }
  }
  return removed;
}

/** The host name as a file name part. */
function host(): string {
  return hostname().replace(/[^A-Za-z0-9.]/g, "_").slice(0, 64) || "host";
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
