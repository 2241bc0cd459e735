import { describe, expect, it } from "vitest";
import { ipLiteral, isPrivateAddress } from "../../src/net/address-guard.js";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254", // cloud metadata
    "169.254.0.1",
    "100.64.0.1", // CGNAT
    "100.127.255.254",
    "0.0.0.0",
    "0.1.2.3",
    "224.0.0.1",
    "255.255.255.255",
    "192.0.2.1",
    "198.18.0.1",
    "::",
    "::1",
    "[::1]",
    "fc00::1",
    "fd12:3456::1", // ULA
    "fe80::1", // link-local
    "fe80::1%eth0",
    "ff02::1",
    "::ffff:127.0.0.1", // IPv4-mapped
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:10.0.0.1",
    "::127.0.0.1", // IPv4-compatible
    "64:ff9b::a00:1", // NAT64 of 10.0.0.1
    "2002:7f00:1::1", // 6to4 of 127.0.0.1
    "2001:db8::1",
    "not-an-ip",
    "",
  ])("refuses %s", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"])(
    "allows public %s",
    (ip) => {
      expect(isPrivateAddress(ip)).toBe(false);
    },
  );
});

describe("ipLiteral", () => {
  it("strips brackets and rejects names", () => {
    expect(ipLiteral("[::1]")).toBe("::1");
    expect(ipLiteral("127.0.0.1")).toBe("127.0.0.1");
    expect(ipLiteral("localhost")).toBeUndefined();
  });
});
