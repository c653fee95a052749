import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { clientAddress, clientScheme, trustProxy } from "./client-address.ts";
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
