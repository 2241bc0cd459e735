/** The remote parse client: typed, retrying, rate-limited; plus a webhook receiver. */
export { DocParseClient, type CreateJobOptions, type ParseAsyncOptions, type CallOptions } from "./client.js";
export { CLIENT_DEFAULTS, resolveClientOptions, type DocParseClientOptions, type ResolvedClientOptions, type ClientLogger } from "./options.js";
export { createWebhookHandler, type WebhookHandler, type WebhookHandlerOptions } from "./webhook-handler.js";
export { type WaitForJobOptions } from "./jobs.js";
export { backoffDelay, type RetryPolicy } from "../retry.js";
export { parseRetryAfter, RETRYABLE_HTTP } from "./response.js";
