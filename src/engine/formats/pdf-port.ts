/**
 * The message port between pdfjs' API and its "worker" when both run in this thread.
 *
 * pdfjs' own fake-worker port structured-clones every message, as a real Worker would.
 * For operator lists that is most of the traffic: every glyph of every page (unicode,
 * width, font char, flags) copied object by object, a tenth of the parse. Here operator
 * list chunks travel by reference instead, and so does a page's whole operator list (the
 * `GetOperatorListWhole` answer of pdfjs-patch-oplist.ts); everything else is cloned as
 * before.
 */

import { BY_REFERENCE } from "./pdfjs-patch-oplist.js";

type Listener = (event: { data: unknown }) => void;

/** pdfjs' `StreamKind.ENQUEUE`: a chunk of a streamed answer. */
const STREAM_ENQUEUE = 4;

interface OperatorChunk {
  fnArray: unknown[];
  argsArray: unknown[];
}

/**
 * A reply whose data the worker built for this one answer and never touches again (a
 * page's whole operator list, pdfjs-patch-oplist.ts): it crosses as it is. Only code in
 * this realm can set the symbol, never a PDF.
 */
function byReference(message: unknown): boolean {
  const data = (message as { data?: unknown } | null)?.data as Record<symbol, unknown> | null | undefined;
  return typeof data === "object" && data !== null && data[BY_REFERENCE] === true;
}

/** pdfjs' `CallbackKind` and the `StreamKind` of a stream's failure. */
const CALLBACK_DATA = 1;
const CALLBACK_ERROR = 2;
const STREAM_ERROR = 5;

/**
 * The error message standing in for an answer `structuredClone` refused: too deeply
 * nested (a hostile outline nested 20,000 levels deep overflows the clone's stack), or
 * holding what cannot be cloned. Undefined for a message that answers nothing.
 */
function failedAnswer(message: unknown, error: unknown): object | undefined {
  const m = message as { sourceName?: unknown; targetName?: unknown; callback?: unknown; callbackId?: unknown; stream?: unknown; streamId?: unknown } | null;
  if (!m || typeof m !== "object") return undefined;
  const reason = { name: "UnknownErrorException", message: `pdfjs' answer could not be passed on: ${(error as Error)?.message ?? String(error)}`, details: String(error) };
  const head = { sourceName: m.sourceName, targetName: m.targetName };
  if (m.callback === CALLBACK_DATA && m.callbackId !== undefined) return { ...head, callback: CALLBACK_ERROR, callbackId: m.callbackId, reason };
  if (m.stream === STREAM_ENQUEUE && m.streamId !== undefined) return { ...head, stream: STREAM_ERROR, streamId: m.streamId, reason };
  return undefined;
}

function operatorChunk(message: unknown): OperatorChunk | undefined {
  const m = message as { stream?: unknown; chunk?: Partial<OperatorChunk> } | null;
  if (m?.stream !== STREAM_ENQUEUE || !m.chunk) return undefined;
  const { fnArray, argsArray } = m.chunk;
  return Array.isArray(fnArray) && Array.isArray(argsArray) ? (m.chunk as OperatorChunk) : undefined;
}

/**
 * A same-thread port (the `LoopbackPort` contract: postMessage, add/removeEventListener
 * with an abort signal, terminate), delivering each message in a microtask.
 */
export class DirectPort {
  readonly #listeners = new Map<Listener, (() => void) | undefined>();

  postMessage(message: unknown, transfer?: Transferable[]): void {
    const chunk = operatorChunk(message);
    // The worker empties its fnArray/argsArray right after sending (`OperatorList.flush`),
    // so the two arrays are copied; the ops' arguments are never touched again by it.
    // Buffers listed for transfer stay shared: the worker drops its references to them.
    let data: unknown;
    try {
      data = byReference(message)
        ? message
        : chunk
        ? { ...(message as object), chunk: { ...chunk, fnArray: chunk.fnArray.slice(), argsArray: chunk.argsArray.slice() } }
        : structuredClone(message, transfer ? { transfer } : undefined);
    } catch (error) {
      // pdfjs posts its answers from a promise callback: a throw here was an unhandled
      // rejection (the end of a parser thread, or of the process on the main thread), and
      // the request never settled. An answer that cannot be cloned fails its request.
      data = failedAnswer(message, error);
      if (data === undefined) throw error;
    }
    const event = { data };
    void Promise.resolve().then(() => {
      for (const [listener] of this.#listeners) listener.call(this, event);
    });
  }

  addEventListener(_name: string, listener: Listener, options?: { signal?: AbortSignal } | null): void {
    const signal = options?.signal;
    if (signal?.aborted) return;
    let unhook: (() => void) | undefined;
    if (signal) {
      const onAbort = (): void => this.removeEventListener(_name, listener);
      signal.addEventListener("abort", onAbort);
      unhook = () => signal.removeEventListener("abort", onAbort);
    }
    this.#listeners.set(listener, unhook);
  }

  removeEventListener(_name: string, listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const unhook of this.#listeners.values()) unhook?.();
    this.#listeners.clear();
  }
}
