import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceContext } from "./context.js";
import { sendEnvelope, setRequestId } from "./respond.js";
import { handleAsset } from "./route-assets.js";
import { handleResult, handleStatus } from "./route-jobs.js";
import { handleAsync, handleSync, sendFailure } from "./route-parse.js";

const PARSE = /^\/api\/v1\/([A-Za-z0-9_-]+)\/parse\/(sync|async)\/?$/;
const JOB = /^\/api\/v1\/([A-Za-z0-9_-]+)\/parse\/async\/([^/]+)\/?$/;
const RESULT = /^\/api\/v1\/([A-Za-z0-9_-]+)\/parse\/async\/([^/]+)\/result\/?$/;
const ASSET = /^\/api\/v1\/([A-Za-z0-9_-]+)\/assets\/([^/]+)\/([^/]+)$/;

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The node:http request listener of the local parse service. */
export function createRouter(ctx: ServiceContext): (req: IncomingMessage, res: ServerResponse) => void {
  const products = new Set(ctx.options.products);

  const route = async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://local");
    const path = url.pathname;
    const method = req.method ?? "GET";
    const wrongMethod = (allowed: string) => {
      res.setHeader("allow", allowed);
      req.resume();
      sendEnvelope(res, 40004, undefined, { message: `Method ${method} not allowed here`, httpStatus: 405 });
    };
    const unknownProduct = () => {
      req.resume();
      sendEnvelope(res, 40007, undefined, { message: "No such service", httpStatus: 404 });
    };

    if (path === "/healthz") {
      req.resume();
      return sendEnvelope(res, 200, { status: "ok", running: ctx.queue.running, waiting: ctx.queue.waiting, jobs: ctx.jobs.size });
    }
    let m = PARSE.exec(path);
    if (m) {
      const [, product, mode] = m as unknown as [string, string, "sync" | "async"];
      if (!products.has(product)) return unknownProduct();
      if (method !== "POST") return wrongMethod("POST");
      return mode === "sync" ? handleSync(ctx, req, res, product, requestId) : handleAsync(ctx, req, res, product, requestId);
    }
    const result = RESULT.exec(path);
    m = result ?? JOB.exec(path);
    if (m) {
      const [, product, rawId] = m as unknown as [string, string, string];
      const jobId = decode(rawId);
      if (!products.has(product) || jobId === undefined) return unknownProduct();
      if (method !== "GET") return wrongMethod("GET");
      req.resume();
      return result ? handleResult(ctx, req, res, product, jobId, url) : handleStatus(ctx, req, res, product, jobId);
    }
    m = ASSET.exec(path);
    if (m) {
      const [, product, fileId, name] = m as unknown as [string, string, string, string];
      const f = decode(fileId);
      const n = decode(name);
      if (!products.has(product) || f === undefined || n === undefined) return unknownProduct();
      if (method !== "GET" && method !== "HEAD") return wrongMethod("GET, HEAD");
      req.resume();
      return handleAsset(ctx, req, res, f, n);
    }
    req.resume();
    sendEnvelope(res, 40007, undefined, { message: "No such route", httpStatus: 404 });
  };

  return (req, res) => {
    const requestId = randomUUID();
    setRequestId(res, requestId);
    const handled = route(req, res, requestId)
      .catch((error: unknown) => sendFailure(ctx, res, error, requestId))
      .finally(() => ctx.handlers.delete(handled));
    ctx.handlers.add(handled);
  };
}
