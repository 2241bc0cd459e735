import { request } from "undici";
import { assertAllowedUrl, guardedDispatcher, type AddressPolicy } from "../net/address-guard.js";
import { signWebhookBody } from "../net/webhook-signature.js";
import { backoffDelay, sleep } from "../retry.js";
import { WEBHOOK_SIGNATURE_HEADER, type WebhookBody } from "../wire/index.js";
import type { ServerLogger } from "./options.js";

export interface WebhookDelivery {
  url: string;
  body: WebhookBody;
  secret?: string;
  attempts: number;
  backoffMs: number;
  timeoutMs: number;
  policy: AddressPolicy;
  logger: ServerLogger;
  /** Stops retrying (server shutdown). */
  signal: AbortSignal;
}

/**
 * POSTs a job callback, retrying non-2xx answers and network failures with exponential
 * backoff and jitter. Every attempt re-checks the SSRF policy, at connect time too.
 * Resolves true when a 2xx was received. Never throws.
 */
export async function deliverWebhook(d: WebhookDelivery): Promise<boolean> {
  const payload = JSON.stringify(d.body);
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "docparse-rag-webhook" };
  if (d.secret) headers[WEBHOOK_SIGNATURE_HEADER] = signWebhookBody(d.secret, payload);
  const dispatcher = guardedDispatcher(d.policy);
  for (let attempt = 1; attempt <= d.attempts && !d.signal.aborted; attempt++) {
    let reason: string;
    try {
      const url = await assertAllowedUrl(d.url, d.policy);
      const res = await request(url, {
        method: "POST",
        headers,
        body: payload,
        dispatcher,
        signal: AbortSignal.any([d.signal, AbortSignal.timeout(d.timeoutMs)]),
        headersTimeout: d.timeoutMs,
        bodyTimeout: d.timeoutMs,
      });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) return true;
      reason = `HTTP ${res.statusCode}`;
    } catch (error) {
      reason = (error as { code?: string })?.code ?? "network error";
      if (reason === "DOCPARSE_FORBIDDEN_ADDRESS" || reason === "DOCPARSE_INVALID_OPTION") {
        d.logger.warn?.("webhook refused by the address policy", { jobId: d.body.job_id });
        return false;
      }
    }
    d.logger.warn?.(`webhook delivery ${attempt}/${d.attempts} failed (${reason})`, { jobId: d.body.job_id });
    // An abort (server shutdown) ends the wait early; the loop condition then stops.
    const step = backoffDelay(attempt - 1, { maxRetries: d.attempts, baseMs: d.backoffMs, maxMs: 60_000 });
    if (attempt < d.attempts) await sleep(d.backoffMs / 2 + step, d.signal).catch(() => undefined);
  }
  return false;
}
