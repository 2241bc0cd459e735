/** Network safety helpers: the SSRF guard and a bounded fetch. */
export * from "./address-guard.js";
export * from "./webhook-signature.js";
