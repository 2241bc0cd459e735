import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { MessagePort, Worker } from "node:worker_threads";

/**
 * pdfjs' parser in a `worker_threads` Worker, for text extraction.
 *
 * Two gains over the in-thread worker: parsing runs on another core (this thread lays out
 * page N while the worker parses page N+1), and the worker inflates content streams with
 * pdfjs' own JavaScript inflate. pdfjs prefers the web `DecompressionStream` when the
 * global exists; on Node its per-stream setup costs more than the inflate itself. Hiding
 * the global is only safe in a realm of our own, which the Worker is: the user's process
 * keeps its globals.
 */

/** Runs as a CommonJS script in the Worker (`eval: true`), so no file has to be found. */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
// pdfjs falls back to its own inflate when DecompressionStream is missing.
delete globalThis.DecompressionStream;
// pdfjs' bundled core-js replaces these with slower JavaScript versions; keep the natives.
const keep = [[Array.prototype, "push"], [JSON, "parse"], [JSON, "stringify"]].map(([o, k]) => [o, k, Object.getOwnPropertyDescriptor(o, k)]);
import(workerData.url).then((module) => {
  for (const [o, k, d] of keep) if (d) Object.defineProperty(o, k, d);
  module.WorkerMessageHandler.initializeFromPort(workerData.port);
});
`;

interface Thread {
  worker: Worker;
  port: MessagePort;
  open: number;
}

let thread: Thread | undefined;

async function start(): Promise<Thread> {
  const { Worker, MessageChannel } = await import("node:worker_threads");
  const url = pathToFileURL(createRequire(import.meta.url).resolve("pdfjs-dist/legacy/build/pdf.worker.mjs")).href;
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { url, port: port2 }, transferList: [port2] });
  const started: Thread = { worker, port: port1, open: 0 };
  // A dead worker is replaced on the next open; documents waiting on it hit their timeout.
  const forget = (): void => {
    if (thread === started) thread = undefined;
    port1.close();
  };
  worker.on("error", forget);
  worker.on("exit", forget);
  // Idle, the thread must not keep the process alive; `hold` refs it while documents are open.
  worker.unref();
  port1.unref();
  return started;
}

let starting: Promise<Thread> | undefined;

/**
 * The shared parser thread's port (pdfjs' `PDFWorker` port contract), held until the
 * returned `release` is called: while any document is open the thread keeps the process
 * alive, since answers still have to come back.
 */
export async function holdPdfThread(): Promise<{ port: MessagePort; release: () => void }> {
  if (!thread) {
    starting ??= start().finally(() => (starting = undefined));
    thread = await starting;
  }
  const held = thread;
  if (held.open++ === 0) {
    held.worker.ref();
    held.port.ref();
  }
  let released = false;
  return {
    port: held.port,
    release: () => {
      if (released) return;
      released = true;
      if (--held.open === 0) {
        held.worker.unref();
        held.port.unref();
      }
    },
  };
}
