import { inflateRawSync } from "node:zlib";
import { DocParseError } from "../../../errors.js";
import type { EngineLimits } from "../../draft.js";

/**
 * A bounded zip reader for OOXML containers (DOCX/XLSX/PPTX).
 *
 * Why not JSZip: it inflates whatever an entry produces, so a zip bomb (a 10 KB entry
 * that inflates to 10 GB) takes the process down before any check can run. Here the
 * central directory is read first, declared sizes and ratios are checked against the
 * limits, and every inflate runs with `maxOutputLength` set to what is left of the
 * budget, so an entry that lies about its size stops at the limit, not at OOM.
 */

/** One entry of the central directory. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

// Entries under this size are not ratio-checked: tiny XML parts compress 100:1 legitimately.
const RATIO_MIN_BYTES = 1024 * 1024;

/** An opened OOXML container. Reads are bounded by the limits it was opened with. */
export class OfficeZip {
  private readonly byName = new Map<string, ZipEntry>();
  private used = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    readonly entries: readonly ZipEntry[],
    private readonly limits: Pick<EngineLimits, "maxUnzippedBytes" | "maxZipRatio">,
  ) {
    for (const e of entries) this.byName.set(e.name, e);
  }

  /**
   * Reads the central directory and checks declared sizes.
   * @throws DocParseError 40422 when the bytes are not a zip, or a size/ratio limit is exceeded.
   */
  static open(bytes: Uint8Array, limits: Pick<EngineLimits, "maxUnzippedBytes" | "maxZipRatio">): OfficeZip {
    if (bytes.length === 0) throw new DocParseError(40422, "The file is empty");
    const entries = readCentralDirectory(bytes);
    let total = 0;
    for (const e of entries) {
      total += e.uncompressedSize;
      if (e.uncompressedSize > RATIO_MIN_BYTES && e.uncompressedSize / Math.max(1, e.compressedSize) > limits.maxZipRatio) {
        throw new DocParseError(
          40422,
          `Zip entry "${e.name}" expands ${Math.round(e.uncompressedSize / Math.max(1, e.compressedSize))}:1 (limit ${limits.maxZipRatio}:1); refusing a likely zip bomb`,
        );
      }
    }
    if (total > limits.maxUnzippedBytes) {
      throw new DocParseError(40422, `The container declares ${total} uncompressed bytes (limit ${limits.maxUnzippedBytes}); refusing a likely zip bomb`);
    }
    return new OfficeZip(bytes, entries, limits);
  }

  /** Whether an entry exists (name without a leading slash). */
  has(name: string): boolean {
    return this.byName.has(stripSlash(name));
  }

  /** Entry names, in directory order. */
  names(): string[] {
    return this.entries.map((e) => e.name);
  }

  /** The inflated bytes of an entry, or undefined when it does not exist. */
  read(name: string): Uint8Array | undefined {
    const e = this.byName.get(stripSlash(name));
    if (!e) return undefined;
    const b = this.bytes;
    const at = e.localHeaderOffset;
    if (at + 30 > b.length || u32(b, at) !== 0x04034b50) throw new DocParseError(40422, `Zip entry "${e.name}" has a broken local header`);
    const start = at + 30 + u16(b, at + 26) + u16(b, at + 28);
    const data = b.subarray(start, start + e.compressedSize);
    if (data.length < e.compressedSize) throw new DocParseError(40422, `Zip entry "${e.name}" is truncated`);
    const budget = this.limits.maxUnzippedBytes - this.used;
    // An entry may inflate to at most its declared size (and never past the budget);
    // the ratio limit is enforced on the real output too, not only on the declaration.
    const cap = Math.min(budget, Math.max(e.uncompressedSize, 1), Math.max(RATIO_MIN_BYTES, e.compressedSize * this.limits.maxZipRatio));
    let out: Uint8Array;
    if (e.method === 0) {
      out = data;
    } else if (e.method === 8) {
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, cap) });
      } catch (cause) {
        const tooBig = cause instanceof RangeError || (cause as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
        throw new DocParseError(
          40422,
          tooBig ? `Zip entry "${e.name}" inflates past its limit; refusing a likely zip bomb` : `Zip entry "${e.name}" is corrupt`,
          { cause },
        );
      }
    } else {
      throw new DocParseError(40425, `Zip entry "${e.name}" uses compression method ${e.method}, which is not supported`);
    }
    this.used += out.length;
    if (this.used > this.limits.maxUnzippedBytes) throw new DocParseError(40422, "The container inflates past the uncompressed-size limit");
    return out;
  }

  /** An entry decoded as UTF-8 (UTF-16 with a BOM is honoured), or undefined. */
  text(name: string): string | undefined {
    const b = this.read(name);
    if (!b) return undefined;
    if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder("utf-16le").decode(b.subarray(2));
    if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder("utf-16be").decode(b.subarray(2));
    return new TextDecoder("utf-8").decode(b);
  }

  /**
   * Inflates every entry once, within the limits, without keeping the output. For
   * containers handed to a library that unzips by itself (exceljs): the bomb must
   * trip here, bounded, rather than inside the library.
   */
  verifyAll(): void {
    for (const e of this.entries) if (!e.name.endsWith("/")) this.read(e.name);
    this.used = 0;
  }
}

function stripSlash(name: string): string {
  return name.startsWith("/") ? name.slice(1) : name;
}

const u16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

function readCentralDirectory(b: Uint8Array): ZipEntry[] {
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 65_557); i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 0x05 && b[i + 3] === 0x06) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new DocParseError(40422, "The file is not a valid zip container (no central directory)");
  const count = u16(b, eocd + 10);
  const cdSize = u32(b, eocd + 12);
  let p = u32(b, eocd + 16);
  if (count === 0xffff || p === 0xffffffff) throw new DocParseError(40425, "ZIP64 containers are not supported");
  if (p + cdSize > b.length) throw new DocParseError(40422, "The zip central directory points past the end of the file");
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder("utf-8");
  for (let i = 0; i < count; i++) {
    if (p + 46 > b.length || u32(b, p) !== 0x02014b50) throw new DocParseError(40422, "The zip central directory is corrupt");
    const nameLen = u16(b, p + 28);
    const extraLen = u16(b, p + 30);
    const commentLen = u16(b, p + 32);
    const flags = u16(b, p + 8);
    if (flags & 0x1) throw new DocParseError(40425, "The container is encrypted");
    entries.push({
      name: decoder.decode(b.subarray(p + 46, p + 46 + nameLen)),
      method: u16(b, p + 10),
      compressedSize: u32(b, p + 20),
      uncompressedSize: u32(b, p + 24),
      localHeaderOffset: u32(b, p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}
