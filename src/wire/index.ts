/**
 * The parse API contract as zod schemas. Types come from `z.infer`; the client parses
 * responses through these schemas and the local server validates requests with them.
 */
export * from "./codes.js";
export * from "./config.js";
export * from "./envelope.js";
export * from "./result.js";
export * from "./format-issues.js";
