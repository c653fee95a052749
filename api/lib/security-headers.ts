import type { MiddlewareHandler } from "hono";
import type { Env } from "../env.ts";

/**
 * The one script of another site the app loads, as a CSP source: that exact file, not its whole
 * origin, so a CDN that serves other files (or other people's) cannot run anything else here. The
 * query and fragment are dropped (CSP matches paths only), and `;` and `,` are percent-encoded as
 * CSP asks, so a strange URL can never end the directive and start another.
 */
export function scriptSource(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
    return parsed.origin + parsed.pathname.replace(/;/g, "%3B").replace(/,/g, "%2C");
  } catch {
    // env.ts validated it; nothing to add if it somehow is not a URL.
    return undefined;
  }
}

/**
 * Headers on every response. The CSP allows what the app really loads: its own scripts, the
 * landing page's third-party script (exactly NAVBAR_SCRIPT_URL, which the page also pins with
 * Subresource Integrity), data: images (the QR ticket) and same-origin calls. Payment happens on the
 * provider's own page after a redirect, so nothing of Stripe's is embedded here. `no-referrer`
 * everywhere keeps the feedback links' tokens (they sit in the page URL) from leaking to any other
 * site. HSTS is sent whenever the public origin is https, even when the request reached us as plain
 * http from a TLS-terminating proxy: the browser only honours it over https anyway.
 */
export function securityHeaders(env: Pick<Env, "NAVBAR_SCRIPT_URL" | "PUBLIC_BASE_URL">): MiddlewareHandler {
  const navbarScript = scriptSource(env.NAVBAR_SCRIPT_URL);
  const csp = [
    "default-src 'self'",
    `script-src 'self'${navbarScript ? ` ${navbarScript}` : ""}`,
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
    // A page that declares its own (the API reference, with its script's hash) keeps it.
    if (!h.has("Content-Security-Policy")) h.set("Content-Security-Policy", csp);
    h.set("X-Content-Type-Options", "nosniff");
    h.set("X-Frame-Options", "DENY");
    h.set("Referrer-Policy", "no-referrer");
    h.set("Cross-Origin-Opener-Policy", "same-origin");
    // The camera for this origin only: the door view scans tickets (pwa/features/door).
    h.set("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=()");
    // Read per request: the test harness learns its own origin only after start-up.
    if (env.PUBLIC_BASE_URL.startsWith("https://")) {
      h.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
  };
}

/**
 * Every API answer is private unless its route says otherwise: phones, door codes, payment ids,
 * checkout links and admin data must never sit in a browser's or a proxy's cache. The few public
 * reads (the event list, images, the public config) set their own Cache-Control and keep it; a new
 * route that forgets is safe by default. Set after the handler, so refusals carry it too.
 */
export function privateUnlessDeclared(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
  };
}
