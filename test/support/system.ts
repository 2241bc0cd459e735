import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * System parts the tests start for real (Debian packages). Locally, a test whose part is
 * missing is skipped with the reason; with DOCPARSE_REQUIRE_ALL=1 (CI) it fails instead.
 */
export type SystemPart = "redis-server" | "chromium" | "pdftotext" | "pdfinfo" | "pdftoppm" | "soffice" | "pdflatex" | "groff" | "ps2pdf" | "tesseract" | "reportlab";

/** Debian's Python, which has Debian's python3-reportlab (a `python3` earlier on PATH may not). */
export const DEBIAN_PYTHON = "/usr/bin/python3";

const found = new Map<SystemPart, string | undefined>();

/** Absolute path of a system binary, or undefined. */
export function which(part: SystemPart): string | undefined {
  if (!found.has(part)) {
    let path: string | undefined;
    try {
      if (part === "reportlab") {
        // A Python module: found when Debian's Python imports it. Its charts need the
        // renderPM extension, which is a package of its own (python3-renderpm).
        execFileSync(DEBIAN_PYTHON, ["-c", "import reportlab.graphics.charts.barcharts"], { stdio: "ignore" });
        path = DEBIAN_PYTHON;
      } else path = execFileSync("sh", ["-c", `command -v ${part}`], { encoding: "utf8" }).trim() || undefined;
    } catch {
      path = undefined;
    }
    found.set(part, path);
  }
  return found.get(part);
}

/**
 * For `describe.skipIf(...)`: true when the part is missing and skipping is allowed.
 * Throws when the part is missing and DOCPARSE_REQUIRE_ALL=1, so CI fails loudly.
 */
export function missing(...parts: SystemPart[]): boolean {
  const absent = parts.filter((p) => !which(p));
  if (absent.length === 0) return false;
  const reason = `missing system part(s): ${absent.join(", ")} (apt-get install -y redis-server chromium poppler-utils libreoffice-writer-nogui texlive-latex-base groff-base ghostscript tesseract-ocr python3-reportlab python3-renderpm)`;
  if (process.env.DOCPARSE_REQUIRE_ALL === "1") throw new Error(`${reason}; DOCPARSE_REQUIRE_ALL=1 forbids skipping`);
  console.warn(`[skip] ${reason}`);
  return true;
}

/** A fresh temp directory and its cleanup. */
export function tempDir(prefix = "docparse-test-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Chromium flags for headless tests on this machine (no network, root, no GPU). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
] as const;
