import { opendir } from "node:fs/promises";
import { join } from "node:path";
import picomatch from "picomatch";

/** Options of {@link walkDirectory}. */
export interface WalkOptions {
  /** Globs a relative path must match. @default every file */
  include?: string | string[] | undefined;
  /** Globs that drop a relative path. @default none */
  exclude?: string | string[] | undefined;
}

/**
 * Yields the files under `dir` (recursively; hidden directories and, unless an include
 * names them, hidden files are skipped) as paths relative to `dir` with forward
 * slashes, in a stable order (sorted per directory), so runs enumerate the same way.
 * Directories are read one at a time: memory does not grow with the tree's size beyond
 * one directory listing per level.
 */
export async function* walkDirectory(dir: string, options: WalkOptions = {}): AsyncGenerator<string> {
  // dot: false — `**/*.md` does not pick up `.hidden.md`; an include naming a dot-file
  // explicitly (`.env.example`) still does.
  const include = options.include ? picomatch(options.include, { dot: false }) : undefined;
  const exclude = options.exclude ? picomatch(options.exclude, { dot: true }) : undefined;
  yield* walk(dir, "", include, exclude);
}

async function* walk(
  root: string,
  rel: string,
  include: picomatch.Matcher | undefined,
  exclude: picomatch.Matcher | undefined,
): AsyncGenerator<string> {
  const entries: { name: string; isDir: boolean }[] = [];
  for await (const entry of await opendir(join(root, rel))) {
    // Symlinked directories are not followed (cycles); symlinked files are.
    if (entry.isDirectory()) entries.push({ name: entry.name, isDir: true });
    else if (entry.isFile() || entry.isSymbolicLink()) entries.push({ name: entry.name, isDir: false });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDir) {
      // Hidden directories (.git, .docparse) are never walked.
      if (entry.name.startsWith(".")) continue;
      if (exclude?.(path) || exclude?.(`${path}/`)) continue;
      yield* walk(root, path, include, exclude);
    } else {
      if (include ? !include(path) : entry.name.startsWith(".")) continue;
      if (exclude?.(path)) continue;
      yield path;
    }
  }
}
