import { describe, expect, it } from "vitest";
import { parseTrustProxy, plainAddress, proxyTrust, TrustProxyError } from "./trust-proxy.ts";

const resolve = (setting: string | undefined, peer: string, forwardedFor?: string, forwardedProto?: string) => {
  const trust = proxyTrust(parseTrustProxy(setting));
  const request = { peer, forwardedFor, forwardedProto };
  return { address: trust.clientAddress(request), scheme: trust.forwardedScheme(request) };
};

describe("TRUST_PROXY", () => {
  it("trusts nobody when unset, whatever the headers say", () => {
    expect(parseTrustProxy(undefined)).toEqual({ mode: "off" });
    expect(parseTrustProxy("  ")).toEqual({ mode: "off" });
    expect(resolve(undefined, "127.0.0.1", "203.0.113.9", "https")).toEqual({
      address: "127.0.0.1",
      scheme: undefined,
    });
  });

  it("takes the rightmost address that is not itself a trusted proxy", () => {
    // A client wrote 198.51.100.66 itself; Caddy appended the real peer; the app sees Caddy on loopback.
    expect(resolve("loopback", "127.0.0.1", "198.51.100.66, 203.0.113.9").address).toBe("203.0.113.9");
    // Two proxies in the trusted ranges: the walk passes both.
    expect(resolve("loopback,10.0.0.0/8", "127.0.0.1", "198.51.100.66, 203.0.113.9, 10.1.2.3").address).toBe(
      "203.0.113.9",
    );
  });

  it("ignores the headers of a peer outside the trusted ranges", () => {
    expect(resolve("127.0.0.1", "127.0.0.2", "203.0.113.9", "https")).toEqual({
      address: "127.0.0.2",
      scheme: undefined,
    });
    expect(resolve("10.0.0.0/8", "192.0.2.1", "203.0.113.9").address).toBe("192.0.2.1");
  });

  it("counts hops from the right with a hop count", () => {
    expect(resolve("1", "192.0.2.1", "198.51.100.66, 203.0.113.9").address).toBe("203.0.113.9");
    expect(resolve("2", "192.0.2.1", "198.51.100.66, 203.0.113.9").address).toBe("198.51.100.66");
    // Fewer addresses than hops: the furthest one there is.
    expect(resolve("3", "192.0.2.1", "203.0.113.9").address).toBe("203.0.113.9");
    expect(resolve("1", "192.0.2.1").address).toBe("192.0.2.1");
  });

  it("understands IPv6 ranges, IPv4-mapped peers, ports and brackets", () => {
    expect(resolve("2001:db8::/32", "2001:db8::7", "2a00:1450::5, 2001:DB8:FFFF::1").address).toBe("2a00:1450::5");
    expect(resolve("::1", "::1", "[2a00:1450::5]:443").address).toBe("2a00:1450::5");
    expect(resolve("loopback", "::ffff:127.0.0.1", "203.0.113.9:51234").address).toBe("203.0.113.9");
    expect(resolve(undefined, "::ffff:203.0.113.9").address).toBe("203.0.113.9");
  });

  it("stops at garbage in X-Forwarded-For instead of keying a limit on it", () => {
    expect(resolve("loopback", "127.0.0.1", "not-an-address").address).toBe("127.0.0.1");
    expect(resolve("loopback", "127.0.0.1", "whatever, 127.0.0.5").address).toBe("127.0.0.5");
  });

  it("takes the scheme from X-Forwarded-Proto of a trusted peer only", () => {
    expect(resolve("loopback", "127.0.0.1", "203.0.113.9", "https").scheme).toBe("https");
    expect(resolve("loopback", "127.0.0.1", "203.0.113.9", "https, http").scheme).toBe("https");
    expect(resolve("loopback", "127.0.0.1", "203.0.113.9", "gopher").scheme).toBeUndefined();
  });

  it("names the peers it trusts, which the per-address connection cap leaves alone (listen.ts)", () => {
    const trusts = (setting: string | undefined, peer: string) => proxyTrust(parseTrustProxy(setting)).trustsPeer(peer);
    expect(trusts(undefined, "127.0.0.1")).toBe(false);
    expect(trusts("loopback", "127.0.0.1")).toBe(true);
    expect(trusts("loopback", "::ffff:127.0.0.1")).toBe(true);
    expect(trusts("loopback", "203.0.113.7")).toBe(false);
    expect(trusts("10.0.0.0/8", "10.1.2.3")).toBe(true);
    expect(trusts("1", "203.0.113.7")).toBe(true);
    expect(trusts("loopback", "not an address")).toBe(false);
  });

  it("refuses settings it cannot read, naming the bad entry", () => {
    expect(() => parseTrustProxy("10.0.0.0/33")).toThrow(TrustProxyError);
    expect(() => parseTrustProxy("lookback")).toThrow(/"lookback" is not an address/);
    expect(() => parseTrustProxy("10.0.0.1/8/2")).toThrow(TrustProxyError);
    expect(() => parseTrustProxy("99")).toThrow(/hop count/);
    expect(() => parseTrustProxy(" , ")).toThrow(TrustProxyError);
  });

  it("reduces addresses to plain IPs", () => {
    expect(plainAddress("::FFFF:10.0.0.1")).toBe("10.0.0.1");
    expect(plainAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(plainAddress("unknown")).toBeUndefined();
  });
});
