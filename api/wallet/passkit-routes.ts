import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import { NotFound, Unauthorized } from "../lib/errors.ts";
import { apiRouter, errors, file, json, jsonBody, z } from "../lib/openapi.ts";
import { applePassBuffer } from "./apple-pass.ts";
import { passFacts } from "./pass-facts.ts";
import {
  changedPasses,
  isPassAuthorized,
  isUnchangedSince,
  logLines,
  MAX_LOG_LINES,
  passOfSerial,
  registerDevice,
  unregisterDevice,
} from "./passkit.ts";

// Apple's PassKit web service ("Wallet Passes Web Service Reference"; docs/decisions/055-wallet-updates.md)
// at the pass's webServiceURL, `{PUBLIC_BASE_URL}/api/passkit`. Apple's devices call it as Apple
// wrote it: the paths, the `ApplePass` header and the bare statuses are Apple's, not the house's.

// Ids as Apple's devices send them; anything else is a 400 before a query is made.
const deviceLibraryIdentifier = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, "must be a device library identifier");
const passTypeIdentifier = z.string().regex(/^[A-Za-z0-9.-]{1,255}$/, "must be a pass type identifier");
const serialNumber = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "must be a serial number");
const pushToken = z.string().regex(/^[A-Za-z0-9]{8,256}$/, "must be a push token");

const registrationParams = z.object({ deviceLibraryIdentifier, passTypeIdentifier, serialNumber });
const passParams = z.object({ passTypeIdentifier, serialNumber });

const WHO_PASS = [
  "- **Who:** the pass's device: `Authorization: ApplePass {authenticationToken}`, the pass's own",
  "  token (an HMAC of its serial number). Any other header is 401 `pass_not_authorized`, checked before",
  "  anything else is read.",
];
const UNAUTHORIZED = {
  401: "`pass_not_authorized` (checked before the body, the path's ids or the database are read).",
};
const NOT_OURS = {
  404: "`not_found` (Apple Wallet is not configured, or the pass type identifier is not this organiser's).",
};

const registerRoute = createRoute({
  method: "post",
  path: "/passkit/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}",
  summary: "PassKit: a device registers for a pass's updates, with the push token APNs reaches it by",
  description: [
    ...WHO_PASS,
    "- **Body:** `{pushToken}`.",
    "- **201:** registered; **200:** it already was (its push token is updated). No body.",
    "From then on each change of the pass (a refund, a cancel, the event moved or cancelled) is pushed",
    "to the device through APNs, once per change, through the outbox.",
  ].join("\n"),
  request: { params: registrationParams, ...jsonBody(z.object({ pushToken })) },
  responses: {
    200: { description: "Already registered: the push token is updated." },
    201: { description: "Registered." },
    ...errors("post", ["pass_not_authorized", "not_found"], { ...UNAUTHORIZED, ...NOT_OURS }),
  },
});

const unregisterRoute = createRoute({
  method: "delete",
  path: "/passkit/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}",
  summary: "PassKit: a device no longer wants a pass's updates (the pass was removed)",
  description: [...WHO_PASS, "- **200:** unregistered (also when it was not registered). No body."].join("\n"),
  request: { params: registrationParams },
  responses: {
    200: { description: "Unregistered." },
    ...errors("get", ["invalid_request", "pass_not_authorized", "not_found"], { ...UNAUTHORIZED, ...NOT_OURS }),
  },
});

const changedRoute = createRoute({
  method: "get",
  path: "/passkit/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}",
  summary: "PassKit: the serial numbers of the device's passes changed since a tag",
  description: [
    "- **Who:** anyone (Apple sends no header here); the device library identifier is the secret,",
    "  and the answer names only passes that device registered with their own tokens.",
    "- **Query:** `passesUpdatedSince` (optional): the `lastUpdated` of the previous answer.",
    "- **200:** `{serialNumbers, lastUpdated}`: the passes changed after that tag (all of the device's",
    "  without it), and the newest tag among them. **204:** none. Tags are one sequence over all passes.",
  ].join("\n"),
  request: {
    params: z.object({ deviceLibraryIdentifier, passTypeIdentifier }),
    query: z.object({
      passesUpdatedSince: z
        .string()
        .regex(/^\d{1,15}$/, "must be a tag")
        .optional(),
    }),
  },
  responses: {
    200: json(z.strictObject({ serialNumbers: z.array(z.string()), lastUpdated: z.string() })),
    204: { description: "No pass of this device changed since the tag." },
    ...errors("get", ["invalid_request", "not_found"], NOT_OURS),
  },
});

const passRoute = createRoute({
  method: "get",
  path: "/passkit/v1/passes/{passTypeIdentifier}/{serialNumber}",
  summary: "PassKit: the latest version of a pass, as a signed .pkpass",
  description: [
    ...WHO_PASS,
    "- **200:** the pass as it is now (`NOT VALID` and why for a refunded or cancelled ticket, the new",
    "  time for a moved night), `Last-Modified` its last change. **304:** `If-Modified-Since` is not",
    "  older than that change. `Cache-Control: no-store`.",
  ].join("\n"),
  request: { params: passParams },
  responses: {
    200: file("application/vnd.apple.pkpass", "The signed pass (`Last-Modified`: its last change)."),
    ...errors("get", ["invalid_request", "pass_not_authorized", "not_found"], {
      ...UNAUTHORIZED,
      404: "`not_found` (Apple Wallet is not configured, the pass type identifier is not this organiser's, or the pass's ticket is gone).",
    }),
  },
});

const logRoute = createRoute({
  method: "post",
  path: "/passkit/v1/log",
  summary: "PassKit: a device reports problems with the web service",
  description: [
    "- **Who:** anyone (Apple sends no header here).",
    `- **Body:** \`{logs}\`: Apple's messages; the first ${MAX_LOG_LINES} are logged at level warn, each`,
    "  one trimmed line.",
    "- **200:** logged. No body.",
  ].join("\n"),
  request: jsonBody(z.object({ logs: z.array(z.string().max(10_000)).max(1000) })),
  responses: {
    200: { description: "Logged." },
    ...errors("post", ["not_found"], { 404: "`not_found` (Apple Wallet is not configured)." }),
  },
});

export const passkitRoutes = (deps: AppDeps) => {
  /** 401 before the body, the path's ids or the database are looked at, unless the header is the pass's own. */
  const passAuth: MiddlewareHandler = async (c, next) => {
    const serial = c.req.param("serialNumber") ?? "";
    if (!isPassAuthorized(deps.env, serial, c.req.header("authorization")))
      throw Unauthorized("This is not the pass's token.", "pass_not_authorized");
    return next();
  };
  /** The organiser's pass type, or 404: with Apple Wallet not configured nothing answers for it. */
  const ours = (passTypeId?: string) => {
    const apple = deps.wallet.apple;
    if (!apple || (passTypeId !== undefined && passTypeId !== apple.passTypeId)) throw NotFound("no such pass type");
  };
  /** The pass of a serial its token proved; gone from the database (never made) is not found. */
  const passOf = (serial: string) => {
    const pass = passOfSerial(deps.db, serial);
    if (!pass) throw NotFound("no such pass");
    return pass;
  };
  const router = apiRouter();
  // Before the routes' own validation, so a request without the pass's token reads nothing.
  router.use("/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber", passAuth);
  router.use("/passkit/v1/passes/:passTypeIdentifier/:serialNumber", passAuth);
  return router
    .openapi(registerRoute, (c) => {
      const { deviceLibraryIdentifier: deviceLibraryId, passTypeIdentifier: type, serialNumber } = c.req.valid("param");
      ours(type);
      passOf(serialNumber);
      const { pushToken } = c.req.valid("json");
      const outcome = registerDevice(deps.db, { deviceLibraryId, serialNumber, pushToken });
      return outcome === "created" ? c.body(null, 201) : c.body(null, 200);
    })
    .openapi(unregisterRoute, (c) => {
      const { deviceLibraryIdentifier, passTypeIdentifier, serialNumber } = c.req.valid("param");
      ours(passTypeIdentifier);
      unregisterDevice(deps.db, deviceLibraryIdentifier, serialNumber);
      return c.body(null, 200);
    })
    .openapi(changedRoute, (c) => {
      const { deviceLibraryIdentifier, passTypeIdentifier } = c.req.valid("param");
      ours(passTypeIdentifier);
      const since = c.req.valid("query").passesUpdatedSince;
      const changed = changedPasses(deps.db, deviceLibraryIdentifier, since === undefined ? undefined : Number(since));
      c.header("Cache-Control", "no-store");
      return changed ? c.json(changed, 200) : c.body(null, 204);
    })
    .openapi(passRoute, async (c) => {
      const { passTypeIdentifier, serialNumber } = c.req.valid("param");
      ours(passTypeIdentifier);
      const facts = passFacts(deps.db, deps.env, passOf(serialNumber).bookingId);
      if (!facts) throw NotFound("the pass's ticket is gone");
      c.header("Cache-Control", "no-store");
      c.header("Last-Modified", new Date(facts.updatedAt).toUTCString());
      if (isUnchangedSince(facts.updatedAt, c.req.header("if-modified-since"))) return c.body(null, 304);
      const pass = await applePassBuffer(deps, facts);
      return c.body(new Uint8Array(pass), 200, { "Content-Type": "application/vnd.apple.pkpass" });
    })
    .openapi(logRoute, (c) => {
      ours();
      for (const line of logLines(c.req.valid("json").logs)) deps.log("warn", "Apple Wallet device log", { line });
      return c.body(null, 200);
    });
};
