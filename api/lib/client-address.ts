import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { Env } from "../env.ts";
import { type ForwardedRequest, type ProxyTrust, proxyTrust } from "./trust-proxy.ts";

// The one place that decides who the client is. Every rate limit keys on clientAddress(c); the
// proxies it believes are TRUST_PROXY's (docs/decisions/006-operations.md).

declare module "hono" {
  interface ContextVariableMap {
    proxyTrust: ProxyTrust;
  }
}

// Without the middleware (a sub-app tested on its own) nobody is trusted: the socket peer decides.
const NOBODY = proxyTrust({ mode: "off" });

/** Hands every request the TRUST_PROXY decision; mounted once in createApp, before the routes. */
export function trustProxy(env: Pick<Env, "TRUST_PROXY">): MiddlewareHandler {
  const trust = proxyTrust(env.TRUST_PROXY);
  // Nothing is computed here: most requests (the event list, images) never ask who the client is.
  return (c, next) => {
    c.set("proxyTrust", trust);
    return next();
  };
}

function forwarded(c: Context): ForwardedRequest {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // app.request() in tests has no socket.
  }
  return { peer, forwardedFor: c.req.header("x-forwarded-for"), forwardedProto: c.req.header("x-forwarded-proto") };
}

/**
 * The client's address for rate limits: the socket peer, or, when that peer is a trusted proxy, the
 * address the proxies report in X-Forwarded-For. Headers from anybody else are ignored: a client
 * could write anything there.
 */
export function clientAddress(c: Context): string {
  return (c.get("proxyTrust") ?? NOBODY).clientAddress(forwarded(c));
}

/** The scheme the client used: X-Forwarded-Proto from a trusted proxy, otherwise the request's own. */
export function clientScheme(c: Context): "http" | "https" {
  const fromProxy = (c.get("proxyTrust") ?? NOBODY).forwardedScheme(forwarded(c));
  return fromProxy ?? (new URL(c.req.url).protocol === "https:" ? "https" : "http");
}
