import { z } from "zod";

/**
 * Every response is `{ code, message, data }`, whatever the HTTP status. `code` 200 is
 * success; anything else is an error whose `data` may carry error-location details.
 */
export const EnvelopeSchema = z.looseObject({
  code: z.number().int(),
  message: z.string().optional().default(""),
  data: z.unknown().optional(),
});
export type Envelope<T = unknown> = { code: number; message: string; data?: T; [key: string]: unknown };

/** `data` of a successful async create. */
export const AsyncCreateDataSchema = z.looseObject({ job_id: z.string().min(1) });
export type AsyncCreateData = z.infer<typeof AsyncCreateDataSchema>;

export const JOB_STATUSES = ["pending", "in_progress", "completed", "failed"] as const;
export const JobStatusValueSchema = z.enum(JOB_STATUSES);
export type JobStatusValue = z.infer<typeof JobStatusValueSchema>;

/** `data` of `GET /api/v1/{product}/parse/async/{job_id}`. */
export const JobStatusSchema = z.looseObject({
  job_id: z.string(),
  file_id: z.string().optional(),
  status: JobStatusValueSchema,
  /** Where the result is, when completed. May be on another host. */
  result_url: z.string().optional(),
  message: z.string().optional(),
});
export type JobStatus = z.infer<typeof JobStatusSchema>;

/**
 * The callback body POSTed to the `webhook` URL. Unsigned by the hosted service, so a
 * receiver confirms through the status endpoint before trusting it.
 */
export const WebhookBodySchema = z.looseObject({
  job_id: z.string().min(1),
  status: z.string(),
  result_url: z.string().optional(),
  message: z.string().optional(),
});
export type WebhookBody = z.infer<typeof WebhookBodySchema>;

/** Headers carrying the credentials. */
export const AUTH_HEADERS = { appId: "x-ti-app-id", secretCode: "x-ti-secret-code" } as const;
/** The request-id header kept on errors. */
export const REQUEST_ID_HEADER = "x-request-id";
/**
 * docparse-rag's own extension, on an error answer of its local service: the engine's
 * `DOCPARSE_*` code behind the contract's code, when the contract has none of its own
 * (today only `DOCPARSE_TIMEOUT` behind 500). A header, not a field of the envelope's
 * `data`: clients of the contract read an error's `data` as its location, and the
 * envelope stays exactly the contract's. The hosted service never sends it.
 */
export const ERROR_HEADER = "x-docparse-error";
/** docparse-rag's own extension: HMAC-SHA256 of the webhook body, `sha256=<hex>`. */
export const WEBHOOK_SIGNATURE_HEADER = "x-docparse-signature";

/** Path of an operation for a product segment (`docparse`, `xparse`). */
export const paths = {
  sync: (product: string) => `/api/v1/${product}/parse/sync`,
  async: (product: string) => `/api/v1/${product}/parse/async`,
  job: (product: string, jobId: string) => `/api/v1/${product}/parse/async/${encodeURIComponent(jobId)}`,
} as const;
