import type { IncomingMessage } from "node:http";

/**
 * Reads and discards the rest of a request body, up to `maxBytes`. Answering a request
 * whose upload is still arriving makes many clients see a reset instead of the answer,
 * so small bodies are drained first. Resolves true when the body ended, false when it
 * was longer than `maxBytes` (the caller then answers with `connection: close`).
 */
export function drainRequest(req: IncomingMessage, maxBytes: number): Promise<boolean> {
  if (req.readableEnded || req.complete) return Promise.resolve(true);
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const done = (ended: boolean) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onEnd);
      req.off("aborted", onEnd);
      if (!ended) req.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onEnd);
    req.on("aborted", onEnd);
    req.resume();
  });
}
