import { spawn } from "node:child_process";
import { accessSync, constants, rmSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { DocParseError, abortError } from "../../../errors.js";
import { processTempDir } from "../../process-temp.js";

/**
 * Document conversion with LibreOffice (`soffice --headless --convert-to`).
 *
 * One conversion at a time per process, all sharing one LibreOffice user profile in a
 * temp dir: a fresh profile costs seconds on every call, and two instances on one
 * profile fight over its lock. Each call has a timeout; on timeout or abort the whole
 * process group is killed (soffice forks `soffice.bin`).
 */

/** Where LibreOffice is looked for after `DOCPARSE_SOFFICE` and the PATH. */
const KNOWN_PATHS = [
  "/usr/bin/soffice",
  "/usr/lib/libreoffice/program/soffice",
  "/opt/libreoffice/program/soffice",
  "/Applications/LibreOffice.app/Contents/MacOS/soffice",
  "C:\\Program Files\\LibreOffice\\program\\soffice.exe",
];

/** How to enable conversions, for error messages. */
export const INSTALL_HINT =
  "Install LibreOffice to enable it (Debian/Ubuntu: apt-get install -y libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui; macOS: brew install --cask libreoffice) or point DOCPARSE_SOFFICE at the soffice binary";

let cachedPath: string | null | undefined;

/**
 * Absolute path of `soffice`, or undefined when LibreOffice is not installed (or
 * `DOCPARSE_SOFFICE=off`). Looks at `DOCPARSE_SOFFICE`, the PATH, then usual places.
 */
export function findSoffice(): string | undefined {
  if (cachedPath !== undefined) return cachedPath ?? undefined;
  // An explicit "off" disables conversions even where LibreOffice is installed.
  if (process.env.DOCPARSE_SOFFICE === "off") return undefined;
  const candidates = [
    process.env.DOCPARSE_SOFFICE,
    ...(process.env.PATH ?? "").split(delimiter).flatMap((d) => (d ? [join(d, "soffice"), join(d, "libreoffice")] : [])),
    ...KNOWN_PATHS,
  ];
  cachedPath = null;
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      cachedPath = c;
      break;
    } catch {
      // not here
    }
  }
  return cachedPath ?? undefined;
}

/** Forgets the cached soffice path (tests that change PATH or DOCPARSE_SOFFICE). */
export function resetSofficeCache(): void {
  cachedPath = undefined;
}

/** Options of {@link convertWithLibreOffice}. */
export interface ConvertOptions {
  /** Extension of the input, which LibreOffice uses to pick an import filter (`doc`, `rtf`, ...). */
  fromExt: string;
  /** Target format: an extension LibreOffice knows as an export (`docx`, `xlsx`, `pptx`, `pdf`). */
  to: string;
  /** Import filter to force (`HTML (StarWriter)` reads HTML as a paged Writer document). */
  infilter?: string;
  /** Milliseconds before the conversion is killed. @default 120000 */
  timeoutMs?: number;
  signal?: AbortSignal;
}

let queue: Promise<unknown> = Promise.resolve();
let profileDir: string | undefined;

/**
 * Converts a document with LibreOffice.
 * @throws DocParseError 40428 when LibreOffice is missing (not retryable; the message says
 *   how to install it), fails, or times out; DOCPARSE_ABORTED on abort.
 */
export function convertWithLibreOffice(bytes: Uint8Array, options: ConvertOptions): Promise<Uint8Array> {
  const run = queue.then(() => convertNow(bytes, options));
  queue = run.catch(() => undefined);
  return run;
}

async function convertNow(bytes: Uint8Array, { fromExt, to, infilter, timeoutMs = 120_000, signal }: ConvertOptions): Promise<Uint8Array> {
  if (signal?.aborted) throw abortError(signal);
  const soffice = findSoffice();
  if (!soffice) {
    throw new DocParseError(40428, `Converting .${fromExt} needs LibreOffice, which is not installed. ${INSTALL_HINT}`, { isRetryable: false });
  }
  if (!profileDir) {
    profileDir = processTempDir("docparse-soffice-profile-");
    const dir = profileDir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  const work = processTempDir("docparse-soffice-work-");
  try {
    const input = join(work, `input.${fromExt.replace(/[^a-z0-9]/gi, "")}`);
    const outDir = join(work, "out");
    await mkdir(outDir);
    await writeFile(input, bytes);
    const args = [
      `-env:UserInstallation=${pathToFileURL(profileDir).href}`,
      "--headless",
      "--invisible",
      "--norestore",
      "--nologo",
      "--nodefault",
      "--nolockcheck",
      ...(infilter ? [`--infilter=${infilter}`] : []),
      "--convert-to",
      to,
      "--outdir",
      outDir,
      input,
    ];
    await runProcess(soffice, args, timeoutMs, signal);
    const produced = (await readdir(outDir)).find((f) => f.toLowerCase().endsWith(`.${to.split(":")[0]!.toLowerCase()}`));
    if (!produced) throw new DocParseError(40428, `LibreOffice produced no .${to} from the .${fromExt} input (the file may be corrupt or of another type)`);
    return new Uint8Array(await readFile(join(outDir, produced)));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function runProcess(cmd: string, args: string[], timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"], detached: true, env: { ...process.env, HOME: process.env.HOME ?? tmpdir() } });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      kill();
      reject(new DocParseError(40428, `LibreOffice did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => {
      kill();
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (cause) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      reject(new DocParseError(40428, `LibreOffice could not start: ${cause.message}`, { cause }));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (code === 0) resolve();
      else reject(new DocParseError(40428, `LibreOffice failed (exit ${code}): ${stderr.trim().slice(0, 500)}`));
    });
  });
}
