import type { MiddlewareHandler } from "hono";
import type { Env } from "../env.ts";
import { Forbidden } from "./errors.ts";

/**
 * Refuses another site's state-changing calls (docs/decisions/017-second-review.md). The cookies are
 * SameSite, but the multipart calls are ones a plain HTML form on any site can send, so SameSite is
 * not left as the only defence. A POST, PUT, PATCH or DELETE is refused with 403 `cross_origin` when
 * the browser says it came from elsewhere: `Sec-Fetch-Site` other than `same-origin` (or `none`, a
 * person's own action), or an `Origin` that is not PUBLIC_BASE_URL's. A request with neither header
 * is not from a browser page (curl, a test, a server), and a cookie is all it could steal.
 *
 * `Origin: null` is what a browser sends on a same-origin POST from a page whose Referrer-Policy is
 * `no-referrer` (ours is, docs/decisions/013), and also what a sandboxed frame elsewhere sends; only
 * `Sec-Fetch-Site: same-origin` tells them apart, so a null Origin passes with it and never without.
 */
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Server-to-server calls that carry no cookies and prove themselves by signature, and the one-click
 * unsubscribe, which a mail client POSTs from wherever it runs (RFC 8058) and whose signed link is
 * its whole proof: it reads no cookie and can only ever say "no more email".
 */
export const CROSS_ORIGIN_EXEMPT = ["/api/stripe/webhook", "/api/twilio/inbound", "/api/unsubscribe"];

const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

export function sameOriginWrites(env: Pick<Env, "PUBLIC_BASE_URL" | "NODE_ENV">): MiddlewareHandler {
  // Read per request: the env object is the one place PUBLIC_BASE_URL lives (a test server learns
  // its port only after listening), and URL parsing is cheap next to a write.
  const ownOrigin = () => new URL(env.PUBLIC_BASE_URL).origin;
  // `npm run dev` serves the PWA from Vite on :5173 and proxies /api unchanged (scripts/dev.ts sets
  // PUBLIC_BASE_URL to Vite's origin); a developer may open it as localhost or 127.0.0.1, so in
  // development any loopback origin is the site's own.
  const isOwn = (origin: string) => origin === ownOrigin() || (env.NODE_ENV === "development" && LOOPBACK.test(origin));
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method) || CROSS_ORIGIN_EXEMPT.includes(c.req.path)) return next();
    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    const siteSaysOther = site !== undefined && site !== "same-origin" && site !== "none";
    const originSaysOther = origin !== undefined && (origin === "null" ? site !== "same-origin" : !isOwn(origin));
    if (siteSaysOther || originSaysOther) {
      throw Forbidden("this request came from another site", "cross_origin");
    }
    return next();
  };
}
