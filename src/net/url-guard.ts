import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { lookup as dnsLookupAsync } from "node:dns/promises";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { DocParseError, LocalErrorCode } from "../errors.js";
import { ipLiteral, isPrivateAddress } from "./ip-address.js";

/**
 * Which hosts a URL supplied by someone else (a `file_url`, a `webhook`, a redirect)
 * may reach. By default only public addresses.
 */
export interface AddressPolicy {
  /**
   * Hosts reachable even when they resolve to a private address: a hostname or IP
   * literal (`127.0.0.1`, `::1`, `files.internal`), optionally with a port
   * (`127.0.0.1:8080`), or a `*.` suffix pattern (`*.corp.example`).
   * @default []
   */
  allowedHosts?: string[];
  /**
   * Allow every private address (loopback, RFC1918, link-local, ...). Only for a service
   * that runs entirely inside a trusted network.
   * @default false
   */
  allowPrivate?: boolean;
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Whether `hostname` (and optionally `port`) is on the policy's allow-list. */
export function isHostAllowed(policy: AddressPolicy | undefined, hostname: string, port?: string): boolean {
  const list = policy?.allowedHosts;
  if (!list || list.length === 0) return false;
  const host = stripBrackets(hostname).toLowerCase();
  for (const raw of list) {
    const entry = raw.trim().toLowerCase();
    if (entry.startsWith("*.")) {
      if (host.endsWith(entry.slice(1))) return true;
      continue;
    }
    if (stripBrackets(entry) === host) return true;
    // host:port or [v6]:port
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (m && stripBrackets(m[1]!) === host && port !== undefined && m[2] === port) return true;
  }
  return false;
}

function forbidden(host: string, address?: string): DocParseError {
  // The message names the host (the caller gave it) but never credentials or paths.
  const detail = address && address !== host ? ` (resolves to ${address})` : "";
  return new DocParseError(
    LocalErrorCode.ForbiddenAddress,
    `Refusing to connect to ${host}${detail}: private or reserved address. Add the host to allowedHosts to allow it.`,
    { isRetryable: false },
  );
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/**
 * Checks a URL before anything connects to it: `http:`/`https:` only, no credentials in
 * the URL, and every address its host resolves to must be public unless the host is
 * allow-listed or `allowPrivate` is set. Resolves to the parsed URL.
 *
 * A DNS answer can change between this check and the connection (DNS rebinding), so
 * requests must also go through {@link guardedDispatcher}, which checks again at connect.
 *
 * @throws DocParseError `DOCPARSE_INVALID_OPTION` for a malformed or non-HTTP URL,
 *   `DOCPARSE_FORBIDDEN_ADDRESS` for a refused address, `DOCPARSE_NETWORK` when the
 *   name does not resolve.
 */
export async function assertAllowedUrl(url: string | URL, policy: AddressPolicy = {}): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.InvalidOption, "Expected an absolute http(s) URL", { cause });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new DocParseError(LocalErrorCode.InvalidOption, `Expected an http(s) URL, got protocol ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password) {
    throw new DocParseError(LocalErrorCode.InvalidOption, "URLs with embedded credentials are not accepted");
  }
  const host = stripBrackets(parsed.hostname);
  if (policy.allowPrivate || isHostAllowed(policy, host, defaultPort(parsed))) return parsed;
  const literal = ipLiteral(host);
  if (literal !== undefined) {
    if (isPrivateAddress(literal)) throw forbidden(host);
    return parsed;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dnsLookupAsync(host, { all: true, verbatim: true });
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.Network, `Could not resolve host ${host}`, { cause });
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad || addresses.length === 0) throw forbidden(host, bad?.address);
  return parsed;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` replacement for `net.connect` that refuses private answers for hosts
 * that are not allow-listed. Used at connect time, so a rebinding answer is caught.
 */
export function guardedLookup(policy: AddressPolicy = {}) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as LookupAddress[];
      if (!policy.allowPrivate && !isHostAllowed(policy, hostname)) {
        const bad = list.find((a) => isPrivateAddress(a.address));
        if (bad || list.length === 0) return callback(forbidden(hostname, bad?.address) as unknown as NodeJS.ErrnoException, "", 0);
      }
      if (options.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

const agents = new WeakMap<AddressPolicy, Agent>();

/**
 * An undici dispatcher whose every connection is checked: IP-literal hosts against the
 * private ranges, names through {@link guardedLookup}. Cached per policy object.
 */
export function guardedDispatcher(policy: AddressPolicy = {}): Dispatcher {
  const cached = agents.get(policy);
  if (cached) return cached;
  const guarded = buildConnector({ lookup: guardedLookup(policy) } as buildConnector.BuildOptions);
  const open = buildConnector({});
  const agent = new Agent({
    connect(opts, callback) {
      const host = stripBrackets(opts.hostname);
      const port = opts.port || (opts.protocol === "https:" ? "443" : "80");
      if (policy.allowPrivate || isHostAllowed(policy, host, port)) return open(opts, callback);
      const literal = ipLiteral(host);
      if (literal !== undefined) {
        if (isPrivateAddress(literal)) return callback(forbidden(host), null);
        return open(opts, callback);
      }
      guarded(opts, callback);
    },
  });
  agents.set(policy, agent);
  return agent;
}
