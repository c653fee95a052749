import type { MiddlewareHandler } from "hono";
import { compress } from "hono/compress";

/**
 * Hono's compress, for answers worth compressing. compress leaves an answer under 1 KB alone only
 * when it knows its length, and an answer made by `c.json` carries none: every JSON answer, a
 * 60-byte error among them, went through a gzip stream for any browser that accepts one. Giving a
 * JSON answer its length first (it is one string in memory already) lets compress skip the small
 * ones, which are most answers and every refusal of an on-sale rush (issue 38: with a browser's
 * Accept-Encoding, 2,000 buyers' refusals took half as long again).
 */
export function compressLarge(): MiddlewareHandler {
  const gzip = compress();
  return (c, next) =>
    gzip(c, async () => {
      await next();
      const res = c.res;
      // The length first: reading `body` makes @hono/node-server build a web Response and a stream
      // for an answer it would otherwise write straight from the string (every refusal of a rush).
      if (res.headers.has("content-length") || !res.body) return;
      if (!(res.headers.get("content-type") ?? "").startsWith("application/json")) return;
      const bytes = await res.arrayBuffer();
      const headers = new Headers(res.headers);
      headers.set("content-length", String(bytes.byteLength));
      // Cleared first, so Hono takes the new answer as it is instead of copying the old one's headers onto it.
      c.res = undefined;
      c.res = new Response(bytes, { status: res.status, statusText: res.statusText, headers });
    });
}
