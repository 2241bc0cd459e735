import type { ServerResponse } from "node:http";
import { ERROR_HEADER, REQUEST_ID_HEADER, describeCode } from "../wire/index.js";

/** Writes the contract's envelope. Business errors use HTTP 200, as the hosted service does. */
export function sendEnvelope(
  res: ServerResponse,
  code: number,
  data?: unknown,
  {
    message,
    httpStatus = 200,
    close = false,
    retryAfterSeconds,
    errorName,
  }: { message?: string; httpStatus?: number; close?: boolean; retryAfterSeconds?: number; errorName?: string } = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify({ code, message: message ?? (code === 200 ? "success" : describeCode(code).meaning), ...(data === undefined ? {} : { data }) });
  const headers: Record<string, string | number> = {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  };
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  if (errorName !== undefined) headers[ERROR_HEADER] = errorName;
  // When we answer before reading an upload, the rest of it cannot be reused: close.
  if (close) headers.connection = "close";
  res.writeHead(httpStatus, headers);
  res.end(body);
}

/** A bare HTTP error without an envelope (used to imitate proxies in fault injection). */
export function sendBare(res: ServerResponse, httpStatus: number, retryAfterSeconds?: number): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { "content-type": "text/plain", connection: "close" };
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  res.writeHead(httpStatus, headers);
  res.end(`HTTP ${httpStatus}`);
}

export function setRequestId(res: ServerResponse, id: string): void {
  res.setHeader(REQUEST_ID_HEADER, id);
}
