import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * docparse-rag's webhook signature (an extension: the hosted service sends unsigned
 * callbacks). The header `x-docparse-signature` holds `sha256=<hex>`, the HMAC-SHA256 of
 * the exact body bytes under a shared secret.
 */
export function signWebhookBody(secret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** Whether `header` is the right signature of `body`; compared in constant time. */
export function verifyWebhookSignature(secret: string, body: string | Uint8Array, header: string | undefined): boolean {
  if (typeof header !== "string") return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
