import { DocParseError, LocalErrorCode } from "../errors.js";
import type { ParsedDocument } from "../parser.js";
import { ParseResultSchema, type JobStatus } from "../wire/index.js";
import { interpretEnvelope, validateData, type Redactor, type ResponseContext } from "./response.js";
import { sleep } from "../retry.js";

/** Options of {@link DocParseClient.waitForJob}. */
export interface WaitForJobOptions {
  /** Interval between status polls, in ms. @default the client's `pollMs` (2000) */
  pollMs?: number;
  /** How long to wait before giving up with DOCPARSE_TIMEOUT, in ms. @default the client's `waitTimeoutMs` (30 min) */
  timeoutMs?: number;
  /** Stops waiting (the job itself keeps running on the service). */
  signal?: AbortSignal;
  /** Called with every status seen, e.g. to persist progress. */
  onStatus?: (status: JobStatus) => void;
}

/** The error for a job that ended with status `failed`. */
export function jobFailedError(status: JobStatus): DocParseError {
  return new DocParseError(LocalErrorCode.JobFailed, `Job ${status.job_id} failed${status.message ? `: ${status.message}` : ""}`, {
    location: status,
    isRetryable: false,
  });
}

/**
 * Polls `getJob` until the job is completed (resolves) or failed (rejects with
 * DOCPARSE_JOB_FAILED). Polls are spaced by `pollMs` with ±10% jitter so many waiters do
 * not poll in lockstep.
 */
export async function pollJob(
  getJob: (signal?: AbortSignal) => Promise<JobStatus>,
  jobId: string,
  { pollMs, timeoutMs, signal, onStatus }: Required<Pick<WaitForJobOptions, "pollMs" | "timeoutMs">> & WaitForJobOptions,
): Promise<JobStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await getJob(signal);
    onStatus?.(status);
    if (status.status === "completed") return status;
    if (status.status === "failed") throw jobFailedError(status);
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new DocParseError(LocalErrorCode.Timeout, `Job ${jobId} was still ${status.status} after ${timeoutMs} ms; wait again with the same job id`, {
        location: status,
      });
    }
    await sleep(Math.min(left, pollMs * (0.9 + Math.random() * 0.2)), signal);
  }
}

/**
 * Reads a `result_url` body, which is either the bare `data` object or the whole
 * `{code, message, data}` envelope, into a validated result.
 */
export function interpretResultBody(text: string, ctx: ResponseContext, redact: Redactor): ParsedDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.InvalidResponse, "The job result is not JSON", { ...ctx, cause });
  }
  const looksLikeEnvelope =
    typeof json === "object" && json !== null && typeof (json as { code?: unknown }).code === "number" && !("elements" in json);
  if (looksLikeEnvelope) {
    const env = interpretEnvelope(text, ctx, redact, { partialOk: true });
    const data = validateData(ParseResultSchema, env.data, ctx, "job result");
    return env.code === 50207 ? { ...data, partial: true } : data;
  }
  return validateData(ParseResultSchema, json, ctx, "job result");
}
