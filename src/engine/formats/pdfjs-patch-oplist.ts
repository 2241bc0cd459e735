import type { PdfjsPatch } from "./pdfjs-patch.js";

/**
 * A page's whole operator list in one answer (round 14 of docs/performance.md).
 *
 * pdfjs streams an operator list from its worker to its API: a ReadableStream per page,
 * pull and enqueue messages per chunk, the chunk's transferable buffers collected, the
 * API side appending each chunk op by op. With API and worker in one thread (a parser
 * thread) that plumbing was a tenth of the thread's time. `GetOperatorListWhole` runs the
 * same `Page.getOperatorList` (same intent, same chunking and optimiser) into a sink that
 * appends each chunk to one list, and answers with that list once the page is done;
 * `pdf-port.ts` hands the answer over by reference (the worker keeps no hold on it).
 */

/** The marker of an answer that may cross the in-thread port uncloned (see {@link DirectPort}). */
export const BY_REFERENCE = Symbol.for("docparse-rag.pdfjs.byReference");

export const OPLIST_PATCHES: readonly PdfjsPatch[] = [
  {
    name: "whole-operator-list-flag",
    why: "Not speed by itself: tells the API side (pdf-extract.ts) that this worker module answers `GetOperatorListWhole`; a thread that fell back to pdfjs as shipped lacks it and streams as before",
    find: `class WorkerMessageHandler {
  static {`,
    replace: `class WorkerMessageHandler {
  static wholeOperatorList = true;
  static {`,
  },
  {
    name: "whole-operator-list",
    why: "A page's operator list streamed in chunks (a ReadableStream, pull/enqueue/close port messages, op-by-op appends on the API side: a tenth of a parser thread) comes as one answer: the same Page.getOperatorList into a sink that joins the chunks",
    find: `          sink.error(reason);
        });
      });
    });
    handler.on("GetTextContent", function (data, sink) {`,
    replace: `          sink.error(reason);
        });
      });
    });
    handler.on("GetOperatorListWhole", function (data) {
      const {
        pageId,
        pageIndex
      } = data;
      return pdfManager.getPage(pageId).then(function (page) {
        const task = new WorkerTask(\`GetOperatorList: page \${pageIndex}\`);
        startWorkerTask(task);
        const whole = {
          fnArray: [],
          argsArray: [],
          length: 0,
          lastChunk: false,
          separateAnnots: null,
          [Symbol.for("docparse-rag.pdfjs.byReference")]: true
        };
        const sink = {
          wholeOperatorList: true,
          ready: Promise.resolve(),
          desiredSize: 1,
          enqueue(chunk) {
            const { fnArray, argsArray } = chunk;
            for (let i = 0, ii = chunk.length; i < ii; i++) {
              whole.fnArray.push(fnArray[i]);
              whole.argsArray.push(argsArray[i]);
            }
            whole.length = whole.fnArray.length;
            whole.lastChunk = chunk.lastChunk;
            whole.separateAnnots = chunk.separateAnnots;
          },
          close() {},
          error() {}
        };
        return page.getOperatorList({
          handler,
          sink,
          task,
          intent: data.intent,
          cacheKey: data.cacheKey,
          annotationStorage: data.annotationStorage,
          modifiedIds: data.modifiedIds,
          pageIndex
        }).then(function () {
          finishWorkerTask(task);
          return whole;
        }, function (reason) {
          finishWorkerTask(task);
          throw reason;
        });
      });
    });
    handler.on("GetTextContent", function (data, sink) {`,
  },
  {
    name: "whole-operator-list-no-transfers",
    why: "Each chunk's flush walked its ops for buffers to transfer; the joining sink passes the ops by reference, so it has none to collect",
    find: `    }, 1, this._transfers);
    this.dependencies.clear();`,
    replace: `    }, 1, this._streamSink.wholeOperatorList ? null : this._transfers);
    this.dependencies.clear();`,
  },
];
