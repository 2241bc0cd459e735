/**
 * The SSRF guard: everything needed to fetch or call a URL that someone else supplied
 * (a `file_url`, a `webhook`, a redirect) without reaching into private networks.
 *
 * - {@link isPrivateAddress}: loopback, RFC1918, link-local/metadata, CGNAT, ULA, ...
 * - {@link assertAllowedUrl}: checks scheme and resolved addresses before connecting.
 * - {@link guardedDispatcher}: an undici dispatcher that checks again at connect time,
 *   so a DNS answer that changes after the check (rebinding) is refused too.
 * - {@link fetchBounded}: a GET with redirects re-checked per hop, a size cap and a timeout.
 */
export { isPrivateAddress, ipLiteral } from "./ip-address.js";
export { assertAllowedUrl, guardedDispatcher, guardedLookup, isHostAllowed, type AddressPolicy } from "./url-guard.js";
export { fetchBounded, dispositionFilename, type FetchBoundedOptions, type FetchedFile } from "./fetch-bounded.js";
