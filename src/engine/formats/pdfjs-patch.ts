import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BOUND_PATCHES } from "./pdfjs-patch-bounds.js";
import { OPLIST_PATCHES } from "./pdfjs-patch-oplist.js";
import { TABLE_TREE_PATCHES } from "./pdfjs-patch-tables.js";

/**
 * Speed fixes to pdfjs-dist's worker module (the PDF parser), applied to a copy of it,
 * and one that passes on text pdfjs drops (a marked-content span's ActualText).
 *
 * Profiles of text extraction showed pdfjs spending a fifth of its time in places a small
 * change fixes without changing what it parses: a page lookup that rescans flat page
 * trees (quadratic in the page count), a reference set that builds a new string key on
 * every lookup, and a lexer that joins names and hex strings from one-character strings.
 * The fixes are plain source edits, each matched against the exact text of the pinned
 * pdfjs-dist release: a different build gets none of them (all or nothing) and runs as
 * shipped. The patched copy is written once to `$DOCPARSE_PDFJS_CACHE`, else
 * `node_modules/.cache/docparse-rag`, else a private folder in the temp directory; it is
 * checked byte for byte once per process (and rewritten if it has gone since), and
 * imported instead of the original. `DOCPARSE_PDFJS_PATCHES=0` turns them off.
 */

/** One edit of pdfjs' worker module: `find` must occur exactly once. */
export interface PdfjsPatch {
  name: string;
  /** What it fixes, for the reader of a profile. */
  why: string;
  find: string;
  replace: string;
}

/** The pdfjs-dist release the patches were written against. */
export const PATCHED_PDFJS_VERSION = "5.6.205";

export const PDFJS_PATCHES: readonly PdfjsPatch[] = [
  {
    name: "ref-string",
    why: "RefSet and RefSetCache key every lookup by ref.toString(), which built a new string each time; refs are interned, so the key is built once",
    find: `class Ref {
  constructor(num, gen) {
    this.num = num;
    this.gen = gen;
  }
  toString() {
    if (this.gen === 0) {
      return \`\${this.num}R\`;
    }
    return \`\${this.num}R\${this.gen}\`;
  }`,
    replace: `class Ref {
  constructor(num, gen) {
    this.num = num;
    this.gen = gen;
    this.key = gen === 0 ? \`\${num}R\` : \`\${num}R\${gen}\`;
  }
  toString() {
    return this.key;
  }`,
  },
  {
    name: "flat-page-tree",
    why: "getPageDict walks the page tree from its root for every page, pushing and skipping every kid before the one asked for: quadratic on the flat trees pdf-lib and LibreOffice write. When /Pages lists exactly /Count page objects, none twice, page i is kid i, each kid checked once, in order (a kid listed twice makes the walk fail some pages: those trees keep it). Kids are recorded as the walk records them, once their page is found: a call that falls back to the walk finds only what earlier calls recorded, so it fails where the walk fails",
    find: `  async getPageDict(pageIndex) {
    const nodesToVisit = [this.toplevelPagesDict];`,
    replace: `  flatKids = undefined;
  flatChecked = 0;
  flatCached = 0;
  async getPageDict(pageIndex) {
    return (await this.flatPageDict(pageIndex)) ?? this.walkPageDict(pageIndex);
  }
  async flatPageDict(pageIndex) {
    if (this.flatKids === undefined) {
      this.flatKids = null;
      const top = this.toplevelPagesDict;
      const kids = top.getRaw("Kids");
      if (Array.isArray(kids) && top.getRaw("Count") === kids.length && kids.every(kid => kid instanceof Ref) && new Set(kids.map(kid => kid.toString())).size === kids.length) {
        this.flatKids = kids;
      }
    }
    const kids = this.flatKids;
    if (!kids || pageIndex >= kids.length) {
      return null;
    }
    while (this.flatChecked <= pageIndex) {
      const index = this.flatChecked;
      const ref = kids[index];
      const obj = await (this.pageDictCache.get(ref) || this.xref.fetchAsync(ref));
      if (this.flatKids !== kids) {
        return null;
      }
      if (this.flatChecked !== index) {
        continue;
      }
      const known = this.pageIndexCache.get(ref);
      if (known !== undefined && known !== index || !(obj instanceof Dict) || !isName(obj.getRaw("Type"), "Page")) {
        this.flatKids = null;
        return null;
      }
      this.flatChecked = index + 1;
    }
    for (; this.flatCached <= pageIndex; this.flatCached++) {
      const ref = kids[this.flatCached];
      if (!this.pageKidsCountCache.has(ref)) {
        this.pageKidsCountCache.put(ref, 1);
      }
      if (!this.pageIndexCache.has(ref)) {
        this.pageIndexCache.put(ref, this.flatCached);
      }
    }
    const ref = kids[pageIndex];
    return [await (this.pageDictCache.get(ref) || this.xref.fetchAsync(ref)), ref];
  }
  async walkPageDict(pageIndex) {
    const nodesToVisit = [this.toplevelPagesDict];`,
  },
  {
    name: "lexer-codes",
    why: "The lexer builds names and hex strings as arrays of one-character strings joined at the end; as char codes turned into one string, the same tokens cost half",
    find: `class Lexer {
  constructor(stream, knownCommands = null) {
    this.stream = stream;
    this.nextChar();
    this.strBuf = [];`,
    replace: `function codesToString(codes) {
  if (codes.length <= 8192) {
    return String.fromCharCode.apply(null, codes);
  }
  let out = "";
  for (let i = 0; i < codes.length; i += 8192) {
    out += String.fromCharCode.apply(null, codes.slice(i, i + 8192));
  }
  return out;
}
class Lexer {
  constructor(stream, knownCommands = null) {
    this.stream = stream;
    this.nextChar();
    this.strBuf = [];
    this.codes = [];`,
  },
  {
    name: "lexer-names",
    why: "see lexer-codes",
    find: `  getName() {
    let ch, previousCh;
    const strBuf = this.strBuf;
    strBuf.length = 0;
    while ((ch = this.nextChar()) >= 0 && !specialChars[ch]) {
      if (ch === 0x23) {
        ch = this.nextChar();
        if (specialChars[ch]) {
          warn("Lexer_getName: " + "NUMBER SIGN (#) should be followed by a hexadecimal number.");
          strBuf.push("#");
          break;
        }
        const x = toHexDigit(ch);
        if (x !== -1) {
          previousCh = ch;
          ch = this.nextChar();
          const x2 = toHexDigit(ch);
          if (x2 === -1) {
            warn(\`Lexer_getName: Illegal digit (\${String.fromCharCode(ch)}) \` + "in hexadecimal number.");
            strBuf.push("#", String.fromCharCode(previousCh));
            if (specialChars[ch]) {
              break;
            }
            strBuf.push(String.fromCharCode(ch));
            continue;
          }
          strBuf.push(String.fromCharCode(x << 4 | x2));
        } else {
          strBuf.push("#", String.fromCharCode(ch));
        }
      } else {
        strBuf.push(String.fromCharCode(ch));
      }
    }
    if (strBuf.length > 127) {
      warn(\`Name token is longer than allowed by the spec: \${strBuf.length}\`);
    }
    return Name.get(strBuf.join(""));
  }`,
    replace: `  getName() {
    let ch, previousCh;
    const strBuf = this.codes;
    strBuf.length = 0;
    while ((ch = this.nextChar()) >= 0 && !specialChars[ch]) {
      if (ch === 0x23) {
        ch = this.nextChar();
        if (specialChars[ch]) {
          warn("Lexer_getName: " + "NUMBER SIGN (#) should be followed by a hexadecimal number.");
          strBuf.push(0x23);
          break;
        }
        const x = toHexDigit(ch);
        if (x !== -1) {
          previousCh = ch;
          ch = this.nextChar();
          const x2 = toHexDigit(ch);
          if (x2 === -1) {
            warn(\`Lexer_getName: Illegal digit (\${String.fromCharCode(ch)}) \` + "in hexadecimal number.");
            strBuf.push(0x23, previousCh);
            if (specialChars[ch]) {
              break;
            }
            strBuf.push(ch);
            continue;
          }
          strBuf.push(x << 4 | x2);
        } else {
          strBuf.push(0x23, ch);
        }
      } else {
        strBuf.push(ch);
      }
    }
    if (strBuf.length > 127) {
      warn(\`Name token is longer than allowed by the spec: \${strBuf.length}\`);
    }
    return Name.get(codesToString(strBuf));
  }`,
  },
  {
    name: "lexer-hex",
    why: "see lexer-codes",
    find: `  getHexString() {
    const strBuf = this.strBuf;
    strBuf.length = 0;`,
    replace: `  getHexString() {
    const strBuf = this.codes;
    strBuf.length = 0;`,
  },
  {
    name: "lexer-hex-codes",
    why: "see lexer-codes",
    find: `          strBuf.push(String.fromCharCode(firstDigit << 4 | digit));
          firstDigit = -1;
        }
        ch = this.nextChar();
      }
    }
    if (firstDigit !== -1) {
      strBuf.push(String.fromCharCode(firstDigit << 4));
    }
    return strBuf.join("");`,
    replace: `          strBuf.push(firstDigit << 4 | digit);
          firstDigit = -1;
        }
        ch = this.nextChar();
      }
    }
    if (firstDigit !== -1) {
      strBuf.push(firstDigit << 4);
    }
    return codesToString(strBuf);`,
  },
  {
    name: "native-sync-inflate",
    why: "Streams read synchronously (object and xref streams, font files, CMaps) were inflated by pdfjs' JavaScript inflate: on a parser thread, the first read of such a stream inflates it whole with zlib (pdf-inflate.ts), up to the same cap as the asynchronous path; input zlib refuses goes back to pdfjs' own inflate, read from where it was (the source stream is rewound, not replaced: pdfjs' asynchronous read of the same stream, which resets the source to its zlib header, must still find that header)",
    find: `  readBlock() {
    let buffer, hdr, len;
    const str = this.stream;`,
    replace: `  nativeTried = false;
  readAllNatively() {
    const inflate = globalThis[Symbol.for("docparse-rag.pdfjs.inflateRaw")];
    if (typeof inflate !== "function") {
      return false;
    }
    const str = this.stream;
    const pos = str.pos;
    const out = inflate(str.getBytes());
    if (!out) {
      str.pos = pos;
      return false;
    }
    this.buffer = out;
    this.bufferLength = out.length;
    this.eof = true;
    return true;
  }
  readBlock() {
    if (!this.nativeTried) {
      this.nativeTried = true;
      if (this.bufferLength === 0 && this.readAllNatively()) {
        return;
      }
    }
    let buffer, hdr, len;
    const str = this.stream;`,
  },
  {
    name: "type1-text-only",
    why: "Every embedded Type 1 font (TeX, and pdfjs' own files for the standard 14) was converted to OpenType for drawing: a third of the time of a LaTeX paper once warm. Parser threads never draw; there the font program is still parsed (its encoding and widths are text), but not rebuilt",
    find: `          const cff = subtype === "Type1C" || subtype === "CIDFontType0C" ? new CFFFont(file, properties) : new Type1Font(name, file, properties);
          adjustWidths(properties);
          data = this.convert(name, cff, properties);`,
    replace: `          const isCff = subtype === "Type1C" || subtype === "CIDFontType0C";
          const textOnly = !isCff && !this.disableFontFace && globalThis[Symbol.for("docparse-rag.pdfjs.textOnly")] === true;
          const cff = isCff ? new CFFFont(file, properties) : new Type1Font(name, file, properties, textOnly);
          adjustWidths(properties);
          data = textOnly ? this.convertTextOnly(properties) : this.convert(name, cff, properties);`,
  },
  {
    name: "type1-text-only-parse",
    why: "see type1-text-only",
    find: `class Type1Font {
  constructor(name, file, properties) {`,
    replace: `class Type1Font {
  constructor(name, file, properties, textOnly = false) {`,
  },
  {
    name: "type1-text-only-skip",
    why: "see type1-text-only",
    find: `    const charstrings = data.charstrings;
    const type2Charstrings = this.getType2Charstrings(charstrings);`,
    replace: `    const charstrings = data.charstrings;
    if (textOnly) {
      this.charstrings = charstrings;
      this.data = undefined;
      this.seacs = [];
      return;
    }
    const type2Charstrings = this.getType2Charstrings(charstrings);`,
  },
  {
    name: "type1-text-only-convert",
    why: "see type1-text-only: what convert() does for the text (the font's built-in encoding amends toUnicode), without the OpenType file",
    find: `  convert(fontName, font, properties) {
    properties.fixedPitch = false;`,
    replace: `  convertTextOnly(properties) {
    properties.fixedPitch = false;
    if (properties.builtInEncoding) {
      adjustType1ToUnicode(properties, properties.builtInEncoding);
    }
    return undefined;
  }
  convert(fontName, font, properties) {
    properties.fixedPitch = false;`,
  },
  {
    name: "actual-text",
    why: "Not speed: text. Chromium and LibreOffice wrap every cluster whose glyphs are not its characters one for one (Devanagari, Bengali, Tamil, Thai, CJK set with radical glyphs) in `/Span <</ActualText (...)>> BDC ... EMC`, as do LaTeX's accsupp and Word; pdfjs kept only the MCID of a BDC's properties. The ActualText (a PDF text string, decoded) is passed on as a third argument, null when there is none, for pdf-ops.ts to read the span's glyphs as it; properties given by name are looked up in the resources' /Properties. pdfjs itself ignores the extra argument",
    find: `            args = [args[0].name, args[1] instanceof Dict ? args[1].get("MCID") : null];
            break;`,
    replace: `            {
              let props = args[1];
              if (props instanceof Name) {
                const named = resources.get("Properties");
                props = named instanceof Dict ? named.get(props.name) : null;
              }
              const actualText = props instanceof Dict ? props.get("ActualText") : null;
              args = [args[0].name, args[1] instanceof Dict ? args[1].get("MCID") : null, typeof actualText === "string" ? stringToPDFString(actualText) : null];
            }
            break;`,
  },
  ...BOUND_PATCHES,
  ...TABLE_TREE_PATCHES,
  ...OPLIST_PATCHES,
];

/**
 * `source` (the module's bytes) with every patch applied, or undefined when one of them
 * does not occur exactly once (another pdfjs-dist build: it runs unpatched). Each edit is
 * found in the original; the source map comment is dropped (its lines no longer match).
 * Works on bytes: as strings, the 2.3 MB module (not all Latin-1) cost ~40 MB of heap.
 */
export function patchPdfjsWorker(source: Uint8Array): Buffer | undefined {
  const original = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const edits: { at: number; end: number; replace: Buffer }[] = [];
  for (const patch of PDFJS_PATCHES) {
    const find = Buffer.from(patch.find);
    const at = original.indexOf(find);
    if (at < 0 || original.indexOf(find, at + 1) >= 0) return undefined;
    edits.push({ at, end: at + find.length, replace: Buffer.from(patch.replace) });
  }
  edits.sort((a, b) => a.at - b.at);
  const map = original.lastIndexOf("\n//# sourceMappingURL=");
  const parts: Buffer[] = [];
  let from = 0;
  for (const edit of edits) {
    if (edit.at < from) return undefined;
    parts.push(original.subarray(from, edit.at), edit.replace);
    from = edit.end;
  }
  parts.push(original.subarray(from, map > from ? map + 1 : original.length));
  return Buffer.concat(parts);
}

/** How pdfjs' worker module is loaded in this process. */
export interface PdfjsPatchStatus {
  /** File URL of the module to import. */
  url: string;
  /** Whether that is the patched copy. */
  patched: boolean;
  /** Why not, when not. */
  reason?: string;
}

let status: PdfjsPatchStatus | undefined;

/**
 * The worker module pdfjs should run here: the patched copy when it could be made (see
 * the file comment), else the original. Computed once per process (~10 ms: the module is
 * read, patched and compared with the cached copy), and again when the copy has gone
 * since (a cleaned cache or temp folder): every new parser thread imports it from disk.
 */
export function pdfjsWorkerModule(): PdfjsPatchStatus {
  if (status?.patched && !markInUse(fileURLToPath(status.url))) status = undefined;
  status ??= resolveWorkerModule();
  return status;
}

/**
 * Marks the copy this process is about to import (a new parser thread) as in use, when
 * its mark is older than {@link IN_USE_MARK_MS}: marked only once, at resolution, the copy
 * of a process running for over a day looked stale to processes of other versions, which
 * could remove it between this check and the thread's import (the thread then died, and
 * the pages given to it failed). False when the copy has gone.
 */
function markInUse(path: string): boolean {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - mtimeMs > IN_USE_MARK_MS) touch(path);
  return true;
}

/**
 * Sets `path`'s modification time to now, if it can: a copy that cannot be marked (a
 * read-only file system, a copy made when the image was built) is used all the same, and
 * no other process can remove it either.
 */
function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Unmarked: see above.
  }
}

function resolveWorkerModule(): PdfjsPatchStatus {
  const require = createRequire(import.meta.url);
  const original = require.resolve("pdfjs-dist/legacy/build/pdf.worker.mjs");
  const unpatched = (reason: string): PdfjsPatchStatus => ({ url: pathToFileURL(original).href, patched: false, reason });
  if (process.env.DOCPARSE_PDFJS_PATCHES === "0") return unpatched("DOCPARSE_PDFJS_PATCHES=0");
  try {
    const { version } = require("pdfjs-dist/package.json") as { version: string };
    if (version !== PATCHED_PDFJS_VERSION) return warned(unpatched(`pdfjs-dist ${version} is installed; the patches are for ${PATCHED_PDFJS_VERSION}`));
    const patched = patchPdfjsWorker(readFileSync(original));
    if (patched === undefined) return warned(unpatched("pdfjs-dist's worker module is not the build the patches were written for"));
    const name = `pdf.worker-${version}-${createHash("sha256").update(patched).digest("hex").slice(0, 16)}.mjs`;
    const errors: string[] = [];
    for (const dir of cacheDirs(original)) {
      try {
        const path = writeCachedCopy(dir, name, patched);
        // In use: its age counts from now (other versions' processes sweep by age).
        touch(path);
        removeStaleCopies(dir, name);
        return { url: pathToFileURL(path).href, patched: true };
      } catch (error) {
        errors.push(`${dir}: ${(error as Error).message}`);
      }
    }
    return warned(unpatched(`no cache folder could hold the patched copy (${errors.join("; ")})`));
  } catch (error) {
    return warned(unpatched((error as Error).message));
  }
}

/** Where the patched copy may live: next to the installed packages, else a private temp folder. */
function cacheDirs(original: string): string[] {
  const dirs: string[] = [];
  // A folder of the user's choosing first (a read-only install, a shared cache).
  const chosen = process.env.DOCPARSE_PDFJS_CACHE;
  if (chosen) dirs.push(chosen);
  // .../node_modules/pdfjs-dist/legacy/build/pdf.worker.mjs → .../node_modules/.cache/docparse-rag
  const modules = dirname(dirname(dirname(dirname(original))));
  if (basename(modules) === "node_modules") dirs.push(join(modules, ".cache", "docparse-rag"));
  dirs.push(join(tmpdir(), `docparse-rag-${process.getuid?.() ?? "user"}`));
  return dirs;
}

/**
 * The path of `name` in `dir` holding exactly `content`, written there if needed
 * (temporary file, then rename: readers never see half a file). A folder others can
 * write to is refused: whatever is in it gets imported.
 */
export function writeCachedCopy(dir: string, name: string, content: Uint8Array): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // lstat: a symlink (anyone can plant one in the temp directory) passes any check on
  // its target and can be re-pointed afterwards, before a thread imports the path.
  const info = lstatSync(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && (!info.isDirectory() || info.uid !== uid || (info.mode & 0o022) !== 0)) throw new Error("the folder is not private to this user");
  const path = join(dir, name);
  if (holds(path, content)) return path;
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, content, { mode: 0o644 });
    renameSync(temp, path);
  } catch (error) {
    // A full disk or a vanished folder: no half-written file left behind.
    rmSync(temp, { force: true });
    throw error;
  }
  if (!holds(path, content)) throw new Error("the written copy reads back different");
  return path;
}

/**
 * Copies other than this one untouched for this long are removed: every docparse-rag or
 * pdfjs-dist upgrade writes a new one (2.3 MB). A process still running an old copy
 * writes it again when it next starts a parser thread. @default 1 day
 */
export const STALE_COPY_MS = 24 * 60 * 60 * 1000;

/** A copy in use gets a fresh mark when its mark is older than this, well within {@link STALE_COPY_MS}. @default 1 hour */
const IN_USE_MARK_MS = 60 * 60 * 1000;

/** Removes other patched copies (and temp files of failed writes) in `dir` older than {@link STALE_COPY_MS}. */
export function removeStaleCopies(dir: string, keep: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep || !/^pdf\.worker-.+\.mjs(\..+\.tmp)?$/.test(name)) continue;
    const path = join(dir, name);
    try {
      const info = lstatSync(path);
      if (info.isFile() && now - info.mtimeMs > STALE_COPY_MS) rmSync(path, { force: true });
    } catch {
      // Removed by another process meanwhile, or not ours to remove: left as it is.
    }
  }
}

function holds(path: string, content: Uint8Array): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return false;
  }
  try {
    const uid = process.getuid?.();
    if (uid !== undefined && fstatSync(fd).uid !== uid) return false;
    return Buffer.from(content.buffer, content.byteOffset, content.byteLength).equals(readFileSync(fd));
  } finally {
    closeSync(fd);
  }
}

let warnedOnce = false;
/** Says once per process that PDFs parse slower than they could, and why. */
function warned(result: PdfjsPatchStatus): PdfjsPatchStatus {
  if (!warnedOnce) {
    warnedOnce = true;
    process.emitWarning(`pdfjs-dist runs without docparse-rag's speed patches: ${result.reason}`, { code: "DOCPARSE_PDFJS_UNPATCHED" });
  }
  return result;
}
