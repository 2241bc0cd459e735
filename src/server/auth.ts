import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { AUTH_HEADERS } from "../wire/index.js";

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? "";
}

/**
 * Checks the credential headers: 200 when they match (or the service runs open), 40101
 * when one is empty or missing, 40102 when they do not match. Both values are compared
 * as SHA-256 digests with `timingSafeEqual`, so neither their content nor their length
 * leaks through timing, and both comparisons always run.
 */
export function checkCredentials(headers: IncomingHttpHeaders, expected: { appId?: string; secretCode?: string }): 200 | 40101 | 40102 {
  if (expected.appId === undefined || expected.secretCode === undefined) return 200;
  const appId = header(headers, AUTH_HEADERS.appId);
  const secret = header(headers, AUTH_HEADERS.secretCode);
  if (!appId || !secret) return 40101;
  const okId = timingSafeEqual(digest(appId), digest(expected.appId));
  const okSecret = timingSafeEqual(digest(secret), digest(expected.secretCode));
  return okId && okSecret ? 200 : 40102;
}
