import type { Readable } from "node:stream";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode, ErrorReply } from "../common/error-codes.ts";
import { bookingRoutes } from "./booking/booking-routes.ts";
import { documentsRoutes } from "./booking/documents-routes.ts";
import { firstListedPicture } from "./booking/events.ts";
import { eventsRoutes } from "./booking/events-routes.ts";
import { guestChoiceRoutes } from "./booking/guest-choice-routes.ts";
import { MAX_IMAGE_BYTES } from "./booking/images.ts";
import { imagesRoutes } from "./booking/images-routes.ts";
import { meRoutes } from "./booking/me-routes.ts";
import { paymentsRoutes } from "./booking/payments-routes.ts";
import { promoCodeRoutes } from "./booking/promo-codes-routes.ts";
import { transferRoutes } from "./booking/transfer-routes.ts";
import { waitlistRoutes } from "./booking/waitlist-routes.ts";
import type { AppDeps } from "./deps.ts";
import { trustProxy } from "./lib/client-address.ts";
import { compressLarge } from "./lib/compress-large.ts";
import { DomainError } from "./lib/errors.ts";
import { checkReplies, declaredRoutes } from "./lib/openapi.ts";
import { sameOriginWrites } from "./lib/same-origin.ts";
import { privateUnlessDeclared, securityHeaders } from "./lib/security-headers.ts";
import { staticFiles } from "./lib/static-files.ts";
import { inboundRoutes } from "./messaging/inbound-routes.ts";
import { mailboxRoutes } from "./messaging/mailbox-routes.ts";
import { unsubscribeRoutes } from "./messaging/unsubscribe-routes.ts";
import { doorRoutes } from "./night/door-routes.ts";
import { feedbackRoutes } from "./night/feedback-routes.ts";
import { resultsRoutes } from "./night/results-routes.ts";
import { roomEventsRoutes } from "./night/room-events-routes.ts";
import { roundsRoutes } from "./night/rounds-routes.ts";
import { apiDocsRoutes } from "./ops/api-docs-routes.ts";
import { configRoutes } from "./ops/config-routes.ts";
import { healthRoutes } from "./ops/health-routes.ts";
import { describeOperations, inRoom } from "./ops/openapi-operations.ts";
import { adminRoutes } from "./organiser/admin-routes.ts";
import { announcementRoutes } from "./organiser/announcements-routes.ts";
import { creditRoutes } from "./organiser/credit-routes.ts";
import { hostAccessRoutes } from "./organiser/host-access-routes.ts";
import { passkeyRoutes } from "./organiser/passkey-routes.ts";
import { reportsRoutes } from "./organiser/reports-routes.ts";
import { shortOfNumbersRoutes } from "./organiser/short-of-numbers-routes.ts";
import { teamRoutes } from "./organiser/team-routes.ts";
import { appleWalletRoutes } from "./wallet/apple-routes.ts";
import { googleWalletRoutes } from "./wallet/google-routes.ts";
import { passkitRoutes } from "./wallet/passkit-routes.ts";
import { walletStatusRoutes } from "./wallet/status-routes.ts";

export type { AppDeps } from "./deps.ts";

// Room for the form's text fields and multipart framing around a 5 MB photo.
const MULTIPART_LIMIT = MAX_IMAGE_BYTES + 64 * 1024;
/** The largest upload over MULTIPART_LIMIT still read to its end before it is refused (above). */
const DISCARD_LIMIT = 16 * 1024 * 1024;

/** Reads and drops what is left of a request's body; resolves at its end, or when the connection goes. */
const readToEnd = (incoming: Readable) =>
  new Promise<void>((resolve) => {
    if (incoming.readableEnded || incoming.destroyed) return resolve();
    incoming.once("end", resolve).once("close", resolve).once("error", resolve).resume();
  });
const JSON_LIMIT = 64 * 1024;

/**
 * Every call under /api, as one chain: its type is AppType, which the PWA's client (hono/client's
 * `hc`) is built from, so a renamed route or reply field fails the PWA's typecheck.
 */
export function apiRoutes(deps: AppDeps) {
  // Counted while the body streams in, so an oversized upload is refused before it is buffered.
  const tooLarge = (c: Context) => c.json(errorBody("request body too large", "too_large"), 413);
  const multipartLimit = bodyLimit({ maxSize: MULTIPART_LIMIT, onError: tooLarge });
  const jsonLimit = bodyLimit({ maxSize: JSON_LIMIT, onError: tooLarge });

  const api = new OpenAPIHono()
    // The public reads come first: they take no body and encode their own answers, so the body
    // limits and the compressor below never run for the calls every phone makes.
    .route("/", inRoom("booking", eventsRoutes(deps)))
    .route("/", inRoom("booking", imagesRoutes(deps)))
    .use(async (c, next) => {
      if (!(c.req.header("content-type") ?? "").startsWith("multipart/form-data")) return jsonLimit(c, next);
      // A declared length is judged from the header, as bodyLimit does, but without building the web
      // Request bodyLimit reads it from: the multipart calls read such a body from Node's stream
      // (api/lib/multipart.ts).
      const length = c.req.header("content-length");
      if (length === undefined || c.req.header("transfer-encoding") !== undefined) return multipartLimit(c, next);
      const declared = Number.parseInt(length, 10);
      if (!(declared > MULTIPART_LIMIT)) return next();
      // Read to its end, then refused: answered while the upload still streams in, the connection
      // would be closed under a client still sending (@hono/node-server drains for half a second
      // only), and such a client reads a reset instead of the 413. Past DISCARD_LIMIT it is refused at once.
      const incoming = (c.env as { incoming?: Readable } | undefined)?.incoming;
      if (incoming && declared <= DISCARD_LIMIT) await readToEnd(incoming);
      return tooLarge(c);
    })
    .use(compressLarge())
    .route("/", inRoom("ops", configRoutes(deps)))
    .route("/", inRoom("booking", bookingRoutes(deps)))
    .route("/", inRoom("booking", meRoutes(deps)))
    .route("/", inRoom("booking", transferRoutes(deps)))
    .route("/", inRoom("booking", guestChoiceRoutes(deps)))
    .route("/", inRoom("booking", documentsRoutes(deps)))
    .route("/", inRoom("booking", waitlistRoutes(deps)))
    .route("/", inRoom("booking", paymentsRoutes(deps)))
    .route("/", inRoom("organiser", adminRoutes(deps)))
    .route("/", inRoom("organiser", creditRoutes(deps)))
    .route("/", inRoom("organiser", shortOfNumbersRoutes(deps)))
    .route("/", inRoom("organiser", passkeyRoutes(deps)))
    .route("/", inRoom("night", feedbackRoutes(deps)))
    .route("/", inRoom("night", doorRoutes(deps)))
    .route("/", inRoom("night", roundsRoutes(deps)))
    .route("/", inRoom("night", roomEventsRoutes(deps)))
    .route("/", inRoom("night", resultsRoutes(deps)))
    .route("/", inRoom("organiser", hostAccessRoutes(deps)))
    .route("/", inRoom("organiser", teamRoutes(deps)))
    .route("/", inRoom("booking", promoCodeRoutes(deps)))
    .route("/", inRoom("organiser", announcementRoutes(deps)))
    .route("/", inRoom("organiser", reportsRoutes(deps)))
    .route("/", inRoom("messaging", mailboxRoutes(deps)))
    .route("/", inRoom("messaging", inboundRoutes(deps)))
    .route("/", inRoom("messaging", unsubscribeRoutes(deps)))
    .route("/", inRoom("wallet", appleWalletRoutes(deps)))
    .route("/", inRoom("wallet", googleWalletRoutes(deps)))
    .route("/", inRoom("wallet", passkitRoutes(deps)))
    .route("/", inRoom("wallet", walletStatusRoutes(deps)));
  return new OpenAPIHono().route("/api", api);
}

export type AppType = ReturnType<typeof apiRoutes>;

const errorBody = (error: string, code: ErrorCode): ErrorReply => ({ success: false, error, code });

export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono();
  // Every reply of a declared route is checked against its declaration outside production; one that
  // differs is logged with its route, and the test harness fails on it (docs/decisions/026).
  if (deps.checkReplies ?? deps.env.NODE_ENV !== "production") {
    app.use(
      "*",
      checkReplies(
        () => declaredRoutes(app),
        (message, fields) => deps.log("warn", message, fields),
      ),
    );
  }
  // An error answer with its length, so the compressor leaves it as it is (compress-large.ts) and
  // the server writes it straight out: an on-sale rush is thousands of these (issue 38).
  const errorReply = (c: Context, body: object, status: ContentfulStatusCode) => {
    const text = JSON.stringify(body);
    return c.body(text, status, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
    });
  };
  app.onError((err, c) => {
    if (err instanceof DomainError) {
      // A provider's own words stay in the log: they can name accounts, ids or keys (decision 013).
      if (err.status >= 500 && err.cause !== undefined) {
        deps.log("warn", err.message, { path: c.req.path, error: String(err.cause).slice(0, 300) });
      }
      return errorReply(c, { ...errorBody(err.message, err.code), ...err.extra }, err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's own parsers: malformed JSON, broken multipart and the like.
      // A body of another media type than the call takes (zod-openapi's 415) is a 400 like any
      // body the call cannot read.
      const status = err.status >= 500 || err.status === 415 ? 400 : err.status;
      const code: ErrorCode =
        status === 413 ? "too_large" : status === 401 ? "admin_session_required" : "invalid_request";
      const message = err.status === 415 ? "The request body is not in a form this call takes." : err.message;
      return errorReply(c, errorBody(message || "invalid request", code), status);
    }
    deps.log("error", "unhandled error", { path: c.req.path, error: String(err), stack: (err as Error)?.stack });
    return errorReply(c, errorBody("internal error", "internal_error"), 500);
  });
  app.use("*", securityHeaders(deps.env));
  // Who the client is (TRUST_PROXY), decided before any route keys a rate limit on it.
  app.use("*", trustProxy(deps.env));
  // Another site's POST is refused before any route reads a cookie or a body (decision 017).
  app.use("/api/*", sameOriginWrites(deps.env));
  // Cache-Control: no-store on every API answer whose route does not declare its own (decision 013).
  app.use("/api/*", privateUnlessDeclared());
  // Outside /api and before the static files: no limits, no body, nothing cached.
  app.route("/", inRoom("ops", healthRoutes(deps)));
  app.route("/", apiRoutes(deps));
  // The OpenAPI document and the reference page (open outside production).
  app.route(
    "/",
    inRoom(
      "ops",
      apiDocsRoutes(deps, () => app),
    ),
  );
  // Every operation's id and the security it takes, now that every room is mounted (decision 041).
  describeOperations(app);
  if (deps.staticDir) {
    app.use("*", staticFiles(deps.staticDir, { homePicture: () => firstListedPicture(deps.db, deps.now()) }));
  }
  // A sub-app's notFound is not consulted once mounted, so the one answer for unknown paths is here.
  app.notFound((c) =>
    c.json(errorBody(c.req.path.startsWith("/api/") ? "no such endpoint" : "not found", "not_found"), 404),
  );
  return app;
}
