import { DocParseError, LocalErrorCode } from "../errors.js";
import type { ParsedDocument, Parser, ParseInput, ParseOptions } from "../parser.js";

/**
 * Async jobs of a remote parser, reduced to what resuming needs. `DocParseClient`
 * provides it (see {@link asyncJobsOf}); a parser without it is always parsed in one call.
 */
export interface AsyncJobs {
  /** Submits a job and returns its id (the service has no idempotency key). */
  submit(input: ParseInput, options: ParseOptions): Promise<string>;
  /** Waits for the job to finish and returns its result; rejects if it failed. */
  result(jobId: string, signal?: AbortSignal): Promise<ParsedDocument>;
}

type JobClient = {
  createJob(input: ParseInput, options?: ParseOptions): Promise<unknown>;
  waitForJob(jobId: string, options?: { signal?: AbortSignal }): Promise<unknown>;
  fetchResult(job: unknown, options?: { signal?: AbortSignal }): Promise<ParsedDocument>;
};

/** The async-job side of a parser, when it has one (duck-typed: createJob/waitForJob/fetchResult). */
export function asyncJobsOf(parser: Parser): AsyncJobs | undefined {
  const p = parser as Partial<JobClient>;
  if (typeof p.createJob !== "function" || typeof p.waitForJob !== "function" || typeof p.fetchResult !== "function") return undefined;
  const client = parser as unknown as JobClient;
  return {
    async submit(input, options) {
      const created = await client.createJob(input, options);
      const id = typeof created === "string" ? created : (created as { jobId?: string; job_id?: string }).jobId ?? (created as { job_id?: string }).job_id;
      if (!id) throw new DocParseError(LocalErrorCode.InvalidResponse, "createJob returned no job id");
      return id;
    },
    async result(jobId, signal) {
      const status = await client.waitForJob(jobId, signal ? { signal } : {});
      return client.fetchResult(status, signal ? { signal } : {});
    },
  };
}

/** What the parse stage needs to know about a previous attempt and how to record a new job. */
export interface ParseJobHooks {
  /** The job id persisted by an interrupted earlier run for the same content and options. */
  resumeJobId: string | undefined;
  /** Persists a newly created job id before waiting on it (crash → resume, not resubmit). */
  onJobCreated(jobId: string): Promise<void>;
}

/**
 * Parses one document: in one call, or — with async jobs — by resuming the persisted
 * job, else submitting one, persisting its id, then waiting for it.
 */
export async function parseDocument(
  parser: Parser,
  jobs: AsyncJobs | undefined,
  input: ParseInput,
  options: ParseOptions,
  hooks: ParseJobHooks,
): Promise<{ result: ParsedDocument; jobId?: string }> {
  if (!jobs) return { result: await parser.parse(input, options) };
  if (hooks.resumeJobId) {
    try {
      return { result: await jobs.result(hooks.resumeJobId, options.signal), jobId: hooks.resumeJobId };
    } catch (error) {
      // A job that ran and failed is a real failure. Anything else permanent (the job
      // expired or is unknown to the service) means the old job is gone: submit anew.
      const e = error as Partial<DocParseError>;
      if (!DocParseError.isInstance(error) || e.isRetryable || e.code === LocalErrorCode.JobFailed || e.code === LocalErrorCode.Aborted) {
        throw error;
      }
    }
  }
  const jobId = await jobs.submit(input, options);
  await hooks.onJobCreated(jobId);
  return { result: await jobs.result(jobId, options.signal), jobId };
}
