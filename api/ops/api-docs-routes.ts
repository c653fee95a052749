import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { Context, Env, MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, requireAdmin } from "../lib/admin-session.ts";
import { apiRouter, errors, file, json, z } from "../lib/openapi.ts";
import { ROOM_TAGS } from "./openapi-operations.ts";

/**
 * The API reference Scalar draws, from Scalar's own standalone bundle (vendor/scalar/, README.md
 * there): the page loads nothing from another site (no CDN, no fonts), and the CSP stays
 * `script-src 'self'` plus the hash of the page's one inline script (the versions that run on Node 20
 * cannot put a nonce on it). From the sources, the bundle is in the repository's vendor/; from
 * `npm run build`'s server bundle, in build/vendor/, where the build copies it.
 */
function scalarBundle(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const found = [join(here, "vendor"), join(here, "..", "..", "vendor")]
    .map((vendor) => join(vendor, "scalar", "standalone.js"))
    .find((path) => existsSync(path));
  if (!found) throw new Error("vendor/scalar/standalone.js is missing (vendor/scalar/README.md)");
  return found;
}
const SCALAR_BUNDLE = scalarBundle();
const BUNDLE_PATH = "/api/docs/scalar.js";

const openApiDocument = z.looseObject({ openapi: z.literal("3.1.0"), paths: z.record(z.string(), z.unknown()) });

const documentRoute = createRoute({
  method: "get",
  path: "/api/openapi.json",
  summary: "The OpenAPI 3.1 document of every call, generated from the routes' schemas",
  description: [
    "The OpenAPI 3.1 document of every call, generated from the routes' own zod schemas",
    "(`api/<domain>/*-routes.ts`, helpers in `api/lib/openapi.ts`): each call's request, its replies by",
    "status, and its error replies, each error `code` with its own schema (`components.schemas.Error_<code>`),",
    "and each operation's `operationId`, room tag and `security` (docs/api.md, Reading the reference):",
    "its summary, who may call it, its rules and its refusals. docs/api.md is the overview around it;",
    "`test/api-docs.test.ts` holds the two together. Outside production every reply is also checked",
    "against its declaration and a mismatch is logged as a warning naming the route; the API tests fail",
    "on any.",
    "",
    "- **Who:** public outside production; with `NODE_ENV=production`, the organiser session only",
    "  (a host session gets 403 `forbidden`).",
    '- **200:** the document (JSON, `openapi: "3.1.0"`).',
  ].join("\n"),
  responses: {
    200: json(openApiDocument, "The document"),
    ...errors("get", ADMIN_ERRORS, {
      401: "`admin_session_required` (production only).",
      403: "`forbidden` (production only).",
    }),
  },
});
const pageRoute = createRoute({
  method: "get",
  path: "/api/docs",
  summary: "The API reference page (Scalar), drawn from /api/openapi.json",
  description: [
    "The API reference page (Scalar) drawn from `/api/openapi.json`, from the app's own files: its script",
    "is `GET /api/docs/scalar.js`, nothing is loaded from another site, and the page's one inline script",
    "runs by its hash in the CSP (`script-src 'self' 'sha256-…'`).",
    "",
    "- **Who:** as `GET /api/openapi.json`.",
    "- **200:** HTML page.",
  ].join("\n"),
  responses: {
    200: file("text/html", "The page"),
    ...errors("get", ADMIN_ERRORS, {
      401: "`admin_session_required` (production only).",
      403: "`forbidden` (production only).",
    }),
  },
});
const bundleRoute = createRoute({
  method: "get",
  path: BUNDLE_PATH,
  summary: "The reference page's script, Scalar's standalone bundle served from the app's own files",
  description: [
    "- **Who:** as `GET /api/openapi.json`.",
    "- **200:** the reference page's script (`@scalar/api-reference`'s standalone bundle, kept in",
    "  `vendor/scalar/`; JavaScript, compressed when the browser accepts it).",
  ].join("\n"),
  responses: {
    200: file("text/javascript", "The script"),
    ...errors("get", ADMIN_ERRORS, {
      401: "`admin_session_required` (production only).",
      403: "`forbidden` (production only).",
    }),
  },
});

/** Scalar's page for this app (the same every time), and the CSP hash of each inline script in it. */
async function drawPage(c: Context) {
  const draw = Scalar({
    url: "/api/openapi.json",
    pageTitle: "Speed dating tickets API",
    cdn: BUNDLE_PATH,
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    // Scalar's AI agent asks scalar.com's servers for API listings: nothing may leave this site.
    agent: { disabled: true },
  });
  const drawn = await draw(c, async () => {});
  if (!drawn) throw new Error("the reference page was not drawn");
  const html = await drawn.text();
  const scriptHashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash("sha256")
        .update(m[1] ?? "")
        .digest("base64")}'`,
  );
  return { html, scriptHashes };
}

/**
 * GET /api/openapi.json and the reference page at /api/docs. Open in development and tests; in
 * production only with the organiser's session (a host or a guest gets 403 or 401 like any other
 * organiser-only call), since the document is a map of every call.
 */
export function apiDocsRoutes(deps: AppDeps, whole: () => OpenAPIHono<Env>) {
  const organiserInProduction: MiddlewareHandler = (c, next) =>
    deps.env.NODE_ENV === "production" ? requireAdmin(deps, "signedIn")(c, next) : next();
  let document: Record<string, unknown> | undefined;
  let bundle: Buffer | undefined;
  let page: { html: string; scriptHashes: string[] } | undefined;
  return apiRouter()
    .openapi({ ...documentRoute, middleware: organiserInProduction }, (c) => {
      document ??= whole().getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "Speed dating tickets API",
          version: "1",
          description:
            "Every call the server answers, generated from the routes' own declarations, so it is what the server checks: each operation says what it does, who may call it (**Who:**) and why it refuses. docs/api.md is the overview: sign-in and sessions, errors, signed links, the flows, limits, time and zones.",
        },
        // Paths start with /api, so the server is the site itself.
        servers: [{ url: deps.env.PUBLIC_BASE_URL, description: "This server" }],
        tags: ROOM_TAGS,
      }) as unknown as Record<string, unknown>;
      return c.json(openApiDocument.parse(document), 200);
    })
    .openapi({ ...pageRoute, middleware: organiserInProduction }, async (c) => {
      page ??= await drawPage(c);
      // The page's one inline script runs by its hash: script-src stays 'self' plus exactly that.
      c.header(
        "content-security-policy",
        `default-src 'self'; script-src 'self' ${page.scriptHashes.join(" ")}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
      );
      return c.html(page.html, 200);
    })
    .openapi({ ...bundleRoute, middleware: [organiserInProduction, compress()] }, (c) => {
      bundle ??= readFileSync(SCALAR_BUNDLE);
      return c.body(new Uint8Array(bundle), 200, {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "public, max-age=3600",
      });
    });
}
