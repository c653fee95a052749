import type { MiddlewareHandler } from "hono";
import type { Env } from "../env.ts";

/**
 * Headers on every response. The CSP allows what the app really loads: its own scripts, the
 * landing page's third-party script (NAVBAR_SCRIPT_URL's origin), data: images (the QR ticket) and
 * same-origin calls. Payment happens on the provider's own page after a redirect, so nothing of
 * Stripe's is embedded here. `no-referrer` everywhere keeps the feedback links' tokens (they sit in
 * the page URL) from leaking to any other site.
 */
export function securityHeaders(env: Pick<Env, "NAVBAR_SCRIPT_URL">): MiddlewareHandler {
  const scriptOrigins = ["'self'"];
  try {
    scriptOrigins.push(new URL(env.NAVBAR_SCRIPT_URL).origin);
  } catch {
    // env.ts validated it; nothing to add if it somehow is not a URL.
  }
  const csp = [
    "default-src 'self'",
    `script-src ${[...new Set(scriptOrigins)].join(" ")}`,
    // The local checkout page and React's style attributes use inline styles; no inline scripts.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set("Content-Security-Policy", csp);
    h.set("X-Content-Type-Options", "nosniff");
    h.set("X-Frame-Options", "DENY");
    h.set("Referrer-Policy", "no-referrer");
    h.set("Cross-Origin-Opener-Policy", "same-origin");
    // The camera for this origin only: the door view scans tickets (pwa/features/door).
    h.set("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=()");
  };
}
