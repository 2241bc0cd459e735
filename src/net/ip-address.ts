import { isIP } from "node:net";

/**
 * Classifies IP addresses for the SSRF guard. Written by hand rather than with
 * `net.BlockList` because addresses that embed an IPv4 address (IPv4-mapped,
 * IPv4-compatible, NAT64, 6to4) must be judged by the address they embed.
 */

type Range4 = readonly [base: number, prefix: number];

const ip4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

// Everything that is not a public unicast address: "this network", RFC1918, CGNAT,
// loopback, link-local (with the cloud metadata address 169.254.169.254), IETF protocol
// assignments, documentation nets, benchmarking, 6to4 relay anycast, multicast, reserved.
const BLOCKED_V4: readonly Range4[] = [
  [ip4(0, 0, 0, 0), 8],
  [ip4(10, 0, 0, 0), 8],
  [ip4(100, 64, 0, 0), 10],
  [ip4(127, 0, 0, 0), 8],
  [ip4(169, 254, 0, 0), 16],
  [ip4(172, 16, 0, 0), 12],
  [ip4(192, 0, 0, 0), 24],
  [ip4(192, 0, 2, 0), 24],
  [ip4(192, 88, 99, 0), 24],
  [ip4(192, 168, 0, 0), 16],
  [ip4(198, 18, 0, 0), 15],
  [ip4(198, 51, 100, 0), 24],
  [ip4(203, 0, 113, 0), 24],
  [ip4(224, 0, 0, 0), 4],
  [ip4(240, 0, 0, 0), 4],
];

function parseV4(ip: string): number | undefined {
  const parts = ip.split(".");
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const v = Number(p);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

function inRange4(n: number, [base, prefix]: Range4): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (n & mask) >>> 0 === (base & mask) >>> 0;
}

function privateV4(n: number): boolean {
  return BLOCKED_V4.some((r) => inRange4(n, r));
}

/** Eight 16-bit groups, or undefined when `ip` is not an IPv6 address. */
function parseV6(ip: string): number[] | undefined {
  let s = ip;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (isIP(s) !== 6) return undefined;
  // A trailing dotted IPv4 (::ffff:1.2.3.4) becomes two groups.
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseV4(tail);
    if (v4 === undefined) return undefined;
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = "", rest] = s.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = rest === undefined || rest === "" ? [] : rest.split(":");
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(fill).fill("0"), ...right].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function privateV6(g: number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h6 = 0, h7 = 0] = g;
  const embedded = ((h6 << 16) | h7) >>> 0;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return true; // :: unspecified
  if (zeroTo(7) && h7 === 1) return true; // ::1 loopback
  if (zeroTo(5) && f === 0xffff) return privateV4(embedded); // ::ffff:a.b.c.d mapped
  if (zeroTo(4) && e === 0xffff && f === 0) return privateV4(embedded); // ::ffff:0:a.b.c.d translated
  if (zeroTo(6)) return privateV4(embedded); // ::a.b.c.d compatible (deprecated)
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return privateV4(embedded); // NAT64
  if (a === 0x64 && b === 0xff9b && c === 1) return true; // local-use NAT64
  if (a === 0x2002) return privateV4(((b << 16) | c) >>> 0); // 6to4 embeds the v4 in bits 16..48
  if ((a & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((a & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x2001 && b < 0x0200) return true; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, ...)
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return true; // discard-only
  if (a === 0x3fff && b < 0x1000) return true; // 3fff::/20 documentation
  return false;
}

/**
 * Whether an address must not be reached from a URL a user supplied: loopback, RFC1918,
 * link-local (the 169.254.169.254 metadata service included), CGNAT, unique-local IPv6,
 * multicast, reserved and documentation ranges, and IPv6 forms that embed such an IPv4
 * address (`::ffff:127.0.0.1`). A string that is not an IP address counts as private:
 * the guard fails closed.
 */
export function isPrivateAddress(ip: string): boolean {
  const trimmed = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const v4 = parseV4(trimmed);
  if (v4 !== undefined) return privateV4(v4);
  const v6 = parseV6(trimmed);
  if (v6 !== undefined) return privateV6(v6);
  return true;
}

/** The IP literal inside a URL hostname (`[::1]` → `::1`), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
  const h = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(h) ? h : undefined;
}
