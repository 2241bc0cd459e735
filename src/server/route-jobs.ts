import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceContext } from "./context.js";
import { sendEnvelope } from "./respond.js";
import type { JobStatus } from "../wire/index.js";

/** `GET /api/v1/{product}/parse/async/{job_id}`: the job's status; `result_url` once completed. */
export async function handleStatus(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, product: string, jobId: string): Promise<void> {
  if (!(await ctx.authorize(req, res))) return;
  if (!(await ctx.injectFaults("status", product, req, res))) return;
  const job = ctx.jobs.get(jobId);
  // Jobs are per product, as they are per account on the hosted service.
  if (!job || job.product !== product) return sendEnvelope(res, 40004, undefined, { message: "Unknown or expired job_id" });
  const data: JobStatus = { job_id: job.id, status: job.status };
  if (job.fileId) data.file_id = job.fileId;
  if (job.status === "completed") data.result_url = ctx.resultUrl(product, job.id);
  if (job.status === "failed") {
    data.message = job.message ?? "failed";
    // docparse-rag extension: the service code the job failed with.
    (data as Record<string, unknown>).error_code = job.errorCode;
  }
  sendEnvelope(res, 200, data);
}

/**
 * `GET /api/v1/{product}/parse/async/{job_id}/result`: the result in the envelope. Works
 * with the credentials or with the `token` in the `result_url` (so a webhook receiver
 * on another host can fetch it without them).
 */
export async function handleResult(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, product: string, jobId: string, url: URL): Promise<void> {
  const tokenOk = ctx.checkResultToken(product, jobId, url.searchParams.get("token"));
  if (!tokenOk && !(await ctx.authorize(req, res))) return;
  if (!(await ctx.injectFaults("result", product, req, res))) return;
  const job = ctx.jobs.get(jobId);
  if (!job || job.product !== product) return sendEnvelope(res, 40004, undefined, { message: "Unknown or expired job_id" });
  if (job.status === "failed") {
    return sendEnvelope(res, job.errorCode ?? 500, undefined, { message: job.message ?? "failed", ...(job.errorName !== undefined ? { errorName: job.errorName } : {}) });
  }
  if (job.status !== "completed" || !job.result) return sendEnvelope(res, 40004, undefined, { message: `The job is ${job.status}, not completed` });
  const { partial, ...data } = job.result;
  sendEnvelope(res, partial ? 50207 : 200, data);
}
