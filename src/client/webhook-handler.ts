import type { IncomingMessage, ServerResponse } from "node:http";
import { DocParseError, LocalErrorCode } from "../errors.js";
import { verifyWebhookSignature } from "../net/webhook-signature.js";
import type { ParsedDocument } from "../parser.js";
import { WEBHOOK_SIGNATURE_HEADER, WebhookBodySchema, type JobStatus } from "../wire/index.js";
import type { DocParseClient } from "./client.js";
import { jobFailedError } from "./jobs.js";

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The client used to confirm the job (`getJob`) and fetch its result. */
  client: Pick<DocParseClient, "getJob" | "fetchResult">;
  /** Called once per completed job, with its result, after the status endpoint confirmed it. */
  onCompleted?: (result: ParsedDocument, job: JobStatus) => void | Promise<void>;
  /** Called once per failed job (error code DOCPARSE_JOB_FAILED, the status in `location`). */
  onFailed?: (error: DocParseError, job: JobStatus) => void | Promise<void>;
  /** Called when confirming or handling a callback threw; the job id is then forgotten so a redelivery is handled again. */
  onError?: (error: unknown, jobId: string) => void;
  /**
   * Shared secret of docparse-rag's `x-docparse-signature` header. When set, callbacks
   * without a valid signature are refused with 401. The hosted service does not sign;
   * leave unset for it (the status endpoint is the confirmation).
   * @default undefined (no signature check)
   */
  secret?: string;
  /** Largest callback body accepted, in bytes. @default 65536 */
  maxBodyBytes?: number;
  /** Fetch the result before `onCompleted` (false passes an empty placeholder: fetch it yourself). @default true */
  fetchResult?: boolean;
  /** Job ids remembered to ignore duplicate deliveries. @default 10000 */
  rememberJobs?: number;
  /** Time to read the callback body, in ms. @default 10000 */
  bodyTimeoutMs?: number;
}

/**
 * A Node `(req, res)` handler, usable with `http.createServer` or Express. Under Express,
 * mount it before any JSON body parser, or after `express.raw({ type: "application/json" })`
 * (the signature is over the raw bytes).
 */
export interface WebhookHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Resolves when every accepted callback has been handled (for tests and shutdown). */
  idle(): Promise<void>;
}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Buffer | "too_large" | "timeout"> {
  // Behind a framework whose raw-body middleware already read the stream
  // (e.g. `express.raw({ type: "application/json" })`), take its Buffer.
  const consumed = (req as IncomingMessage & { body?: unknown }).body;
  if (req.readableEnded && (Buffer.isBuffer(consumed) || typeof consumed === "string")) {
    const raw = Buffer.isBuffer(consumed) ? consumed : Buffer.from(consumed);
    return Promise.resolve(raw.length > maxBytes ? "too_large" : raw);
  }
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) return resolve("too_large");
    const chunks: Buffer[] = [];
    let total = 0;
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    const finish = (value: Buffer | "too_large" | "timeout" | Error) => {
      clearTimeout(timer);
      req.removeAllListeners("data");
      if (value instanceof Error) reject(value);
      else resolve(value);
    };
    req.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        req.pause();
        return finish("too_large");
      }
      chunks.push(chunk);
    });
    req.on("end", () => finish(Buffer.concat(chunks, total)));
    req.on("error", (e) => finish(e));
  });
}

/**
 * A request handler for the service's job callbacks. It answers at once (200 after the
 * body is read and checked) and does the work afterwards: the callback body is only a
 * hint — the hosted service does not sign it — so the job is confirmed through `getJob`
 * before `onCompleted`/`onFailed` run. Duplicate deliveries of a job are ignored.
 *
 * @example
 * ```ts
 * http.createServer(createWebhookHandler({ client, onCompleted: (r) => save(r) })).listen(8081);
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const { client, onCompleted, onFailed, onError, secret, maxBodyBytes = 65_536, fetchResult = true, rememberJobs = 10_000, bodyTimeoutMs = 10_000 } = options;
  // Insertion-ordered set as a small LRU of handled (or in-flight) job ids.
  const seen = new Set<string>();
  const inFlight = new Set<Promise<void>>();

  const remember = (jobId: string) => {
    seen.add(jobId);
    if (seen.size > rememberJobs) seen.delete(seen.values().next().value!);
  };

  const confirm = async (jobId: string): Promise<void> => {
    try {
      const job = await client.getJob(jobId);
      if (job.status === "completed") {
        const result = fetchResult ? await client.fetchResult(job) : ({} as ParsedDocument);
        await onCompleted?.(result, job);
      } else if (job.status === "failed") {
        await onFailed?.(jobFailedError(job), job);
      } else {
        // Not finished according to the service: a forged or early callback. Forget it so
        // a genuine later delivery is still handled.
        seen.delete(jobId);
      }
    } catch (error) {
      seen.delete(jobId);
      onError?.(error, jobId);
    }
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return reply(res, 405, { error: "method not allowed" });
    }
    readBody(req, maxBodyBytes, bodyTimeoutMs).then(
      (body) => {
        if (body === "too_large") {
          reply(res, 413, { error: "body too large" });
          req.destroy();
          return;
        }
        if (body === "timeout") {
          reply(res, 408, { error: "body not received in time" });
          req.destroy();
          return;
        }
        if (secret !== undefined) {
          const sig = req.headers[WEBHOOK_SIGNATURE_HEADER];
          if (!verifyWebhookSignature(secret, body, Array.isArray(sig) ? sig[0] : sig)) return reply(res, 401, { error: "bad signature" });
        }
        let json: unknown;
        try {
          json = JSON.parse(body.toString("utf8"));
        } catch {
          return reply(res, 400, { error: "body is not JSON" });
        }
        const parsed = WebhookBodySchema.safeParse(json);
        if (!parsed.success) return reply(res, 400, { error: "body is not a job callback" });
        const jobId = parsed.data.job_id;
        if (seen.has(jobId)) return reply(res, 200, { ok: true, duplicate: true });
        remember(jobId);
        reply(res, 200, { ok: true });
        const p = confirm(jobId).finally(() => inFlight.delete(p));
        inFlight.add(p);
      },
      (error: unknown) => {
        reply(res, 400, { error: "could not read body" });
        onError?.(new DocParseError(LocalErrorCode.Network, "Reading a webhook callback failed", { cause: error }), "");
      },
    );
  }) as WebhookHandler;

  handler.idle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  return handler;
}
