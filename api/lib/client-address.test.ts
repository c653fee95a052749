import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { clientAddress, clientScheme, limitKey, trustProxy } from "./client-address.ts";
import { parseTrustProxy } from "./trust-proxy.ts";

// The node adapter hands Hono the socket as c.env.incoming; these requests carry one without a port.
const fromPeer = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress, remotePort: 50_000 } } });

function app(setting: string | undefined, withMiddleware = true) {
  const routes = new Hono();
  if (withMiddleware) routes.use(trustProxy({ TRUST_PROXY: parseTrustProxy(setting) }));
  return routes.get("/who", (c) => c.json({ address: clientAddress(c), scheme: clientScheme(c) }));
}

const ask = async (routes: Hono, peer: string, headers: Record<string, string> = {}) =>
  (await routes.request("http://app.internal/who", { headers }, fromPeer(peer))).json();

describe("clientAddress and clientScheme", () => {
  const forwarded = { "x-forwarded-for": "198.51.100.4", "x-forwarded-proto": "https" };

  it("answer the proxy's word for it when the peer is trusted", async () => {
    expect(await ask(app("loopback"), "127.0.0.1", forwarded)).toEqual({ address: "198.51.100.4", scheme: "https" });
  });

  it("answer the socket's own facts for anybody else", async () => {
    expect(await ask(app("loopback"), "203.0.113.50", forwarded)).toEqual({ address: "203.0.113.50", scheme: "http" });
    expect(await ask(app(undefined), "127.0.0.1", forwarded)).toEqual({ address: "127.0.0.1", scheme: "http" });
  });

  it("trust nobody when the middleware is not mounted", async () => {
    expect(await ask(app("loopback", false), "::ffff:127.0.0.1", forwarded)).toEqual({
      address: "127.0.0.1",
      scheme: "http",
    });
  });
});

describe("the address a rate limit counts", () => {
  it("is an IPv6 client's /64, however the address is written", () => {
    for (const address of ["2001:db8:1:2::1", "2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:DB8:1:2:a:b:c:d"]) {
      expect(limitKey(address)).toBe("2001:db8:1:2::/64");
    }
    expect(limitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(limitKey("2001:db8::1")).toBe("2001:db8::/64");
    expect(limitKey("2001:0:0:5::1")).toBe("2001:0:0:5::/64");
    expect(limitKey("fe80::1%eth0")).toBe("fe80::/64");
    expect(limitKey("64:ff9b::203.0.113.7")).toBe("64:ff9b::/64");
  });

  it("is an IPv4 client's own address, also when it arrives IPv4-mapped", () => {
    expect(limitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(limitKey("::ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("keeps ::1 to itself and leaves what is not an address alone", () => {
    expect(limitKey("::1")).toBe("::1");
    expect(limitKey("0:0:0:0:0:0:0:1")).toBe("::1");
    expect(limitKey("unknown")).toBe("unknown");
  });

  it("is what clientAddress answers, for the socket peer and for a trusted proxy's word", async () => {
    expect(await ask(app(undefined), "2001:db8:1:2:aaaa::9")).toMatchObject({ address: "2001:db8:1:2::/64" });
    expect(await ask(app("loopback"), "::1", { "x-forwarded-for": "2001:db8:7:8::5" })).toMatchObject({
      address: "2001:db8:7:8::/64",
    });
    expect(await ask(app("loopback"), "::1")).toMatchObject({ address: "::1" });
  });
});
