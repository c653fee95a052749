import { isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { Env } from "../env.ts";
import { type ForwardedRequest, type ProxyTrust, proxyTrust } from "./trust-proxy.ts";

// The one place that decides who the client is. Every rate limit keys on clientAddress(c); the
// proxies it believes are TRUST_PROXY's (docs/decisions/006-operations.md), and an IPv6 client is
// its /64 (docs/decisions/009-admin-login-and-sessions.md).

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
 * The client's address as rate limits count it: the socket peer, or, when that peer is a trusted
 * proxy, the address the proxies report in X-Forwarded-For (headers from anybody else are ignored: a
 * client could write anything there), reduced by limitKey so an IPv6 client is its /64.
 */
export function clientAddress(c: Context): string {
  return limitKey((c.get("proxyTrust") ?? NOBODY).clientAddress(forwarded(c)));
}

/**
 * One key per client that could be somebody else: IPv4 as written, IPv4-mapped IPv6 as its IPv4, and
 * any other IPv6 address as its /64 ("2001:db8:1:2::/64"). A home or a phone is handed a whole /64
 * and picks addresses from it at will, so counting single IPv6 addresses counts nothing. ::1 is a
 * machine of its own. Anything that is not an IP is returned unchanged.
 */
export function limitKey(address: string): string {
  const plain = address.replace(/%.*$/, "");
  if (isIP(plain) !== 6) return address;
  const groups = ipv6Groups(plain);
  if (groups.every((g, i) => g === (i === 7 ? 1 : 0))) return "::1";
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
  }
  const network = groups.slice(0, 4);
  // RFC 5952's short form: the zero groups at the end of the prefix join the "::".
  while (network.at(-1) === 0) network.pop();
  return `${network.map((g) => g.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, "::" and a trailing dotted IPv4 expanded. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The scheme the client used: X-Forwarded-Proto from a trusted proxy, otherwise the request's own. */
export function clientScheme(c: Context): "http" | "https" {
  const fromProxy = (c.get("proxyTrust") ?? NOBODY).forwardedScheme(forwarded(c));
  return fromProxy ?? (new URL(c.req.url).protocol === "https:" ? "https" : "http");
}
