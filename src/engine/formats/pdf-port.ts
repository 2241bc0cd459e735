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
    const data = byReference(message)
      ? message
      : chunk
      ? { ...(message as object), chunk: { ...chunk, fnArray: chunk.fnArray.slice(), argsArray: chunk.argsArray.slice() } }
      : structuredClone(message, transfer ? { transfer } : undefined);
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
