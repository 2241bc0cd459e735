import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";

/**
 * The `DecompressionStream` a parser thread gives pdfjs: Node's native zlib, synchronous.
 *
 * pdfjs inflates every content stream through the web `DecompressionStream` when the
 * global exists. Node's own is a web stream over zlib whose per-stream setup costs more
 * than pdfjs' JavaScript inflate on the small streams PDFs are made of; without the
 * global, pdfjs still tries it for every stream and pays a thrown ReferenceError each
 * time before falling back. This one hands the whole input to zlib in one call, which is
 * what pdfjs wants anyway (it collects every chunk before lexing).
 *
 * Installed on parser threads only: the user's main thread keeps Node's global.
 */

type Format = "deflate" | "deflate-raw" | "gzip" | "brotli";

// Sync flush: a truncated stream yields what it holds (pdfjs' own inflate gives nothing
// for it: a page cut short keeps its text).
const INFLATERS: Record<Format, (input: Uint8Array, maxOutputLength: number) => Buffer> = {
  deflate: (input, maxOutputLength) => inflateSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength }),
  "deflate-raw": (input, maxOutputLength) => inflateRawSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength }),
  gzip: (input, maxOutputLength) => gunzipSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength }),
  brotli: (input, maxOutputLength) => brotliDecompressSync(input, { maxOutputLength }),
};

/** The writer half, as pdfjs uses it: `ready`, `write`, `close`. */
interface InflateWriter {
  readonly ready: Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/**
 * A `DecompressionStream` lookalike with the surface pdfjs uses: `writable.getWriter()`
 * and an async-iterable `readable` that yields the inflated bytes once the writer is
 * closed. Corrupt input makes the iteration throw, and pdfjs then inflates the stream
 * itself, as it does without the global.
 */
export class NativeDecompressionStream {
  /**
   * Largest output one stream is inflated to at once (outside the thread's heap limit);
   * past it the iteration throws and pdfjs inflates the stream itself, lazily, as far as
   * the page's lexing reads.
   * @default 64 MiB
   */
  static maxOutputBytes = 64 * 1024 * 1024;

  readonly readable: AsyncIterable<Uint8Array>;
  readonly writable: { getWriter(): InflateWriter };

  constructor(format: string) {
    if (!Object.hasOwn(INFLATERS, format)) throw new TypeError(`Unsupported compression format: '${format}'`);
    const inflate = INFLATERS[format as Format];
    const chunks: Uint8Array[] = [];
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const writer: InflateWriter = {
      ready: Promise.resolve(),
      write: (chunk) => {
        chunks.push(chunk);
        return Promise.resolve();
      },
      close: () => {
        close();
        return Promise.resolve();
      },
    };
    this.writable = { getWriter: () => writer };
    this.readable = {
      async *[Symbol.asyncIterator]() {
        await closed;
        const out = inflate(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), NativeDecompressionStream.maxOutputBytes);
        yield new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      },
    };
  }
}

/**
 * Raw deflate data (a Flate stream past its two header bytes) inflated whole, up to
 * {@link NativeDecompressionStream.maxOutputBytes}; what the patched pdfjs (pdfjs-patch.ts,
 * `native-sync-inflate`) calls for the streams it reads synchronously. Undefined when
 * the data is not one whole deflate stream (corrupt, cut short) or too large: pdfjs then
 * inflates it itself, with its own outcome. Bytes after the stream's end (its checksum)
 * are ignored, as pdfjs ignores them.
 */
export function inflateRawWhole(input: Uint8Array): Uint8Array | undefined {
  try {
    const out = inflateRawSync(input, { maxOutputLength: NativeDecompressionStream.maxOutputBytes });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } catch {
    return undefined;
  }
}

/**
 * Makes {@link NativeDecompressionStream} this thread's `DecompressionStream`, and
 * {@link inflateRawWhole} the inflate of the streams the patched pdfjs reads synchronously.
 */
export function installNativeInflate(): void {
  (globalThis as { DecompressionStream?: unknown }).DecompressionStream = NativeDecompressionStream;
  (globalThis as Record<symbol, unknown>)[Symbol.for("docparse-rag.pdfjs.inflateRaw")] = inflateRawWhole;
}
