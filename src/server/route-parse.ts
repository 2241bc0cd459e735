import type { IncomingMessage, ServerResponse } from "node:http";
import type { ParsedDocument } from "../parser.js";
import type { WebhookBody } from "../wire/index.js";
import { EARLY_DRAIN_BYTES, type ServiceContext } from "./context.js";
import { drainRequest } from "./drain.js";
import { executeParse, toServiceFailure } from "./execute.js";
import { FormError, discardForm, readForm, type ParsedForm } from "./form.js";
import type { JobRecord } from "./job-store.js";
import { buildParseRequest, type ParseRequest } from "./parse-request.js";
import { sendEnvelope } from "./respond.js";
import { deliverWebhook } from "./webhook-sender.js";

/** Answers a failure; 500 never carries the cause, which goes to the log instead. */
export function sendFailure(ctx: ServiceContext, res: ServerResponse, error: unknown, requestId: string): void {
  const f = toServiceFailure(error);
  if (f.internal) ctx.options.logger.error?.("request failed", { requestId, error: error instanceof Error ? error.stack : String(error) });
  sendEnvelope(res, f.code, f.data, {
    message: f.message,
    httpStatus: f.code === 500 ? 500 : 200,
    close: error instanceof FormError && error.close,
    ...(f.errorName !== undefined ? { errorName: f.errorName } : {}),
  });
}

async function refuseBusy(res: ServerResponse, req: IncomingMessage): Promise<void> {
  const drained = await drainRequest(req, EARLY_DRAIN_BYTES);
  sendEnvelope(res, 40306, undefined, { message: "The parse queue is full; retry later", retryAfterSeconds: 1, close: !drained });
}

/** Strips our transport flag and answers 200, or 50207 for a partial result. */
function sendResult(res: ServerResponse, result: ParsedDocument): void {
  const { partial, ...data } = result;
  sendEnvelope(res, partial ? 50207 : 200, data, partial ? { message: "Some pages failed; the result is partial" } : {});
}

/** Room for text fields and multipart framing on top of the file itself. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/** Refuses at once an upload whose declared length is over the limit (nothing to drain usefully). */
function declaredTooLarge(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): boolean {
  const declared = Number(req.headers["content-length"]);
  if (!Number.isFinite(declared) || declared <= ctx.options.maxUploadBytes + FORM_OVERHEAD_BYTES + EARLY_DRAIN_BYTES) return false;
  sendEnvelope(res, 40302, undefined, { message: `The file is larger than the limit of ${ctx.options.maxUploadBytes} bytes`, close: true });
  return true;
}

async function readRequest(ctx: ServiceContext, req: IncomingMessage, mode: "sync" | "async"): Promise<{ form: ParsedForm; parseRequest: ParseRequest }> {
  const form = await readForm(req, { maxFileBytes: ctx.options.maxUploadBytes, tempDir: ctx.options.tempDir });
  try {
    return { form, parseRequest: await buildParseRequest(form, mode, ctx.policy) };
  } catch (error) {
    await discardForm(form);
    throw error;
  }
}

/** `POST /api/v1/{product}/parse/sync`. */
export async function handleSync(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, product: string, requestId: string): Promise<void> {
  if (!(await ctx.authorize(req, res))) return;
  if (!(await ctx.injectFaults("sync", product, req, res))) return;
  if (!ctx.queue.hasRoom) return refuseBusy(res, req);
  if (declaredTooLarge(ctx, req, res)) return;
  let form: ParsedForm | undefined;
  // A client that goes away stops its parse.
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  try {
    const read = await readRequest(ctx, req, "sync");
    form = read.form;
    const signal = AbortSignal.any([gone.signal, ctx.closing.signal]);
    const parser = await ctx.parser();
    const task = ctx.queue.tryAdd(() =>
      executeParse(parser, read.parseRequest, { policy: ctx.policy, maxUploadBytes: ctx.options.maxUploadBytes, fetchTimeoutMs: ctx.options.fetchTimeoutMs, signal }),
    );
    if (!task) return sendEnvelope(res, 40306, undefined, { message: "The parse queue is full; retry later", retryAfterSeconds: 1 });
    const result = await task;
    result.job_id ??= requestId;
    sendResult(res, result);
  } catch (error) {
    if (!gone.signal.aborted) sendFailure(ctx, res, error, requestId);
  } finally {
    await discardForm(form);
  }
}

/** `POST /api/v1/{product}/parse/async`: answers `{job_id}` and parses on the queue. */
export async function handleAsync(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, product: string, requestId: string): Promise<void> {
  if (!(await ctx.authorize(req, res))) return;
  if (!(await ctx.injectFaults("async", product, req, res))) return;
  if (!ctx.queue.hasRoom) return refuseBusy(res, req);
  if (declaredTooLarge(ctx, req, res)) return;
  let read: Awaited<ReturnType<typeof readRequest>>;
  try {
    read = await readRequest(ctx, req, "async");
  } catch (error) {
    return sendFailure(ctx, res, error, requestId);
  }
  const { form, parseRequest } = read;
  const job = ctx.jobs.create(product, parseRequest.webhook);
  const task = ctx.queue.tryAdd(() => runJob(ctx, job, parseRequest));
  if (!task) {
    ctx.jobs.fail(job, 40306, "The parse queue is full");
    await discardForm(form);
    return sendEnvelope(res, 40306, undefined, { message: "The parse queue is full; retry later", retryAfterSeconds: 1 });
  }
  // The job's outcome is in its record. The upload is deleted however the task ends,
  // including when shutdown drops it before it starts.
  task.catch(() => {}).finally(() => discardForm(form));
  sendEnvelope(res, 200, { job_id: job.id });
}

async function runJob(ctx: ServiceContext, job: JobRecord, parseRequest: ParseRequest): Promise<void> {
  ctx.jobs.start(job);
  try {
    const parser = await ctx.parser();
    const result = await executeParse(parser, parseRequest, {
      policy: ctx.policy,
      maxUploadBytes: ctx.options.maxUploadBytes,
      fetchTimeoutMs: ctx.options.fetchTimeoutMs,
      signal: ctx.closing.signal,
    });
    result.job_id = job.id;
    ctx.jobs.complete(job, result);
  } catch (error) {
    const f = toServiceFailure(error);
    if (f.internal) ctx.options.logger.error?.("job failed", { jobId: job.id, error: error instanceof Error ? error.stack : String(error) });
    ctx.jobs.fail(job, f.code, f.message, f.errorName);
  }
  notify(ctx, job);
}

/** POSTs the job's outcome to its webhook, in the background, tracked for shutdown. */
function notify(ctx: ServiceContext, job: JobRecord): void {
  if (!job.webhook || ctx.closing.signal.aborted) return;
  const body: WebhookBody =
    job.status === "completed"
      ? { job_id: job.id, status: "completed", result_url: ctx.resultUrl(job.product, job.id) }
      : { job_id: job.id, status: "failed", message: job.message ?? "failed" };
  const o = ctx.options;
  const p = deliverWebhook({
    url: job.webhook,
    body,
    ...(o.webhookSecret ? { secret: o.webhookSecret } : {}),
    attempts: o.webhookAttempts,
    backoffMs: o.webhookBackoffMs,
    timeoutMs: o.webhookTimeoutMs,
    policy: ctx.policy,
    logger: o.logger,
    signal: ctx.closing.signal,
  }).finally(() => ctx.deliveries.delete(p));
  ctx.deliveries.add(p);
}
