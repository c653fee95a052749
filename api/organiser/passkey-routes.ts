import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { BlankEnv } from "hono/types";
import { teamMembers } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { adminSessionOf, noStore, startAdminSession } from "../lib/admin-session.ts";
import { Forbidden, Unauthorized } from "../lib/errors.ts";
import { guestSessionOf } from "../lib/guest-session.ts";
import { hostSessionOf } from "../lib/host-session.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import {
  authenticationOptions,
  finishAuthentication,
  type PasskeyPerson,
  registrationOptions,
  savePasskey,
  verifyRegistration,
} from "./passkeys.ts";
import { activateMember, memberForSetup } from "./team.ts";

// The passkey calls (issue 49, docs/decisions/051-passkeys.md): adding a passkey (during a member's
// set-up, with the link's token, or signed in) and signing in with one. The WebAuthn work is in
// ./passkeys.ts; here are the calls, who may make them and what they answer.

// Set before the handler runs, so every answer (the 400s and 401s too) carries it: these answers are
// one person's and one moment's, never kept by a browser, a proxy or the service worker.
const noStoreFirst: MiddlewareHandler<BlankEnv> = (c, next) => {
  noStore(c);
  return next();
};

const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url");

/** A passkey named to the browser (WebAuthn's PublicKeyCredentialDescriptorJSON): its id and transports. */
const descriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });
const requirement = z.enum(["discouraged", "preferred", "required"]);
const hints = z.array(z.enum(["hybrid", "security-key", "client-device"]));

/** What the browser's navigator.credentials.create() needs (WebAuthn's PublicKeyCredentialCreationOptionsJSON). */
const creationOptions = z
  .object({
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    challenge: z.string(),
    pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal("public-key") })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(descriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
        residentKey: requirement.optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: requirement.optional(),
      })
      .optional(),
    hints: hints.optional(),
    attestation: z.enum(["none", "indirect", "direct", "enterprise"]).optional(),
    extensions: z.object({ credProps: z.boolean().optional() }).optional(),
  })
  .openapi("PasskeyCreationOptions");

/** What the browser's navigator.credentials.get() needs (WebAuthn's PublicKeyCredentialRequestOptionsJSON). */
const requestOptions = z
  .object({
    challenge: z.string(),
    timeout: z.number().int().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(descriptor).optional(),
    userVerification: requirement.optional(),
    hints: hints.optional(),
  })
  .openapi("PasskeyRequestOptions");

const extensionResults = z.object({
  appid: z.boolean().optional(),
  credProps: z.object({ rk: z.boolean().optional() }).optional(),
  hmacCreateSecret: z.boolean().optional(),
});

/** navigator.credentials.create()'s answer as JSON (WebAuthn's RegistrationResponseJSON). */
const registrationResponse = z
  .object({
    id: base64url(1024),
    rawId: base64url(1024),
    type: z.literal("public-key"),
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(32_768),
      authenticatorData: base64url(32_768).optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(4096).optional(),
    }),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
    clientExtensionResults: extensionResults,
  })
  .openapi("PasskeyRegistrationResponse");

/** navigator.credentials.get()'s answer as JSON (WebAuthn's AuthenticationResponseJSON). */
const authenticationResponse = z
  .object({
    id: base64url(1024),
    rawId: base64url(1024),
    type: z.literal("public-key"),
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(32_768),
      signature: base64url(4096),
      userHandle: base64url(1024).optional(),
    }),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
    clientExtensionResults: extensionResults,
  })
  .openapi("PasskeyAuthenticationResponse");

/** The set-up link's token, or null: the signed-in person's own passkey. Required, so `{}` is not a call. */
const setupToken = z.string().min(1).max(200).nullable();

const WHO_REGISTERS = [
  "- **Who:** with a `token`, the member a live set-up link names (`/admin/setup?t={token}`); with",
  "  `token: null`, the signed-in owner or member (a host link or a guest's session is 403, nobody 401).",
];

const registerOptionsRoute = createRoute({
  method: "post",
  path: "/passkey-register-options",
  summary: "Starts adding a passkey: the options for the browser's WebAuthn prompt",
  description: [
    ...WHO_REGISTERS,
    "- **Body (JSON):** `token`: the set-up link's token, or null for the signed-in person.",
    "- **200:** the WebAuthn creation options (`PublicKeyCredentialCreationOptionsJSON`): a discoverable",
    "  credential (`residentKey` required), user verification preferred, the person's own passkeys",
    "  excluded. Its challenge may be answered once, within 5 minutes, by `passkey-register`.",
  ].join("\n"),
  request: jsonBody(z.object({ token: setupToken })),
  responses: {
    200: json(creationOptions),
    ...errors("post", ["admin_session_required", "forbidden", "setup_link_invalid"], {
      410: "the set-up link is unknown, used, expired or its member was removed.",
    }),
  },
});

const registerRoute = createRoute({
  method: "post",
  path: "/passkey-register",
  summary: "Saves a passkey; with a set-up link's token, finishes the member's set-up",
  description: [
    ...WHO_REGISTERS,
    "- **Body (JSON):** `token` (as for `passkey-register-options`); `response`: the",
    "  browser's answer (`RegistrationResponseJSON`) to a challenge `passkey-register-options` gave the",
    "  same person, at most 5 minutes ago and never answered before.",
    "- **200:** with a `token`, `{recoveryCodes}`: the member's ten one-time recovery codes, shown once",
    "  (the link is used up and the member active); with `token: null`, `{success: true}`.",
  ].join("\n"),
  request: jsonBody(z.object({ token: setupToken, response: registrationResponse })),
  responses: {
    200: json(z.union([z.strictObject({ recoveryCodes: z.array(z.string()) }), done])),
    ...errors("post", ["admin_session_required", "forbidden", "setup_link_invalid"], {
      400: "the challenge is unknown, used or past its 5 minutes, or the answer does not verify.",
      410: "the set-up link is unknown, used, expired or its member was removed.",
    }),
  },
});

const loginOptionsRoute = createRoute({
  method: "post",
  path: "/passkey-login-options",
  summary: "Starts signing in with a passkey: the options for the browser's WebAuthn prompt",
  description: [
    "- **Who:** public.",
    "- **200:** the WebAuthn request options (`PublicKeyCredentialRequestOptionsJSON`) with no",
    "  credentials listed: the browser offers the passkeys it holds for this site, so no email is asked.",
    "  Its challenge may be answered once, within 5 minutes, by `passkey-login`.",
  ].join("\n"),
  responses: { 200: json(requestOptions), ...errors("post", []) },
});

const loginRoute = createRoute({
  method: "post",
  path: "/passkey-login",
  summary: "Signs the owner or a member in with a passkey: the sdt_admin session cookie (12 hours)",
  description: [
    "- **Who:** public.",
    "- **Body (JSON):** `response`: the browser's answer (`AuthenticationResponseJSON`) to a challenge",
    "  `passkey-login-options` gave, at most 5 minutes ago and never answered before.",
    "- **200:** `{success: true}` and the `sdt_admin` session cookie (12 hours), for the passkey's",
    "  person: the owner's passkey is a full sign-in (also when the owner requires a second factor).",
  ].join("\n"),
  request: jsonBody(z.object({ response: authenticationResponse })),
  responses: {
    200: json(done),
    ...errors("post", ["invalid_credentials"], {
      401: "the challenge is unknown, used or past its 5 minutes, the passkey is not one we hold, its signature does not verify, or its member was removed or has not finished set-up.",
    }),
  },
});

/**
 * Who a registration without a set-up token is for: the signed-in owner or member. 403 for a host
 * link's or a guest's session, 401 for nobody.
 */
function signedInPerson(c: Context, deps: AppDeps): PasskeyPerson {
  const session = adminSessionOf(c, deps);
  if (!session) {
    const host = hostSessionOf(c, deps);
    if ((host !== null && host !== "ended") || guestSessionOf(c, deps) !== null) {
      throw Forbidden("Only the owner or a team member may add a passkey.");
    }
    throw Unauthorized();
  }
  if (session.person.kind === "owner") return { memberId: null, userName: "Owner", displayName: "Owner" };
  const row = deps.db
    .select({ email: teamMembers.email, name: teamMembers.name })
    .from(teamMembers)
    .where(eq(teamMembers.id, session.person.id))
    .get();
  if (!row) throw Unauthorized();
  return { memberId: session.person.id, userName: row.email, displayName: row.name };
}

/** Who a registration with a set-up link's token is for: the member it names (410 when it is dead). */
function setupPerson(deps: AppDeps, token: string): PasskeyPerson {
  const member = memberForSetup(deps, token);
  return { memberId: member.id, userName: member.email, displayName: member.name };
}

/** passkey-register-options, passkey-register, passkey-login-options and passkey-login. */
export const passkeyRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi({ ...registerOptionsRoute, middleware: noStoreFirst }, async (c) => {
      const { token } = c.req.valid("json");
      const person = token === null ? signedInPerson(c, deps) : setupPerson(deps, token);
      return c.json(await registrationOptions(deps, person), 200);
    })
    .openapi({ ...registerRoute, middleware: noStoreFirst }, async (c) => {
      const { token, response } = c.req.valid("json");
      const person = token === null ? signedInPerson(c, deps) : setupPerson(deps, token);
      const passkey = await verifyRegistration(deps, person.memberId, response);
      if (token === null) {
        savePasskey(deps.db, passkey);
        return c.json({ success: true as const }, 200);
      }
      // The check awaited: the link may have been used or its member removed meanwhile, so it is read
      // again, and the passkey saved and the member activated with nothing awaited in between.
      const member = memberForSetup(deps, token);
      if (member.id !== person.memberId) throw Forbidden("This passkey was started for someone else.");
      savePasskey(deps.db, passkey);
      const recoveryCodes = activateMember(deps, member.id);
      return c.json({ recoveryCodes }, 200);
    })
    .openapi({ ...loginOptionsRoute, middleware: noStoreFirst }, async (c) =>
      c.json(await authenticationOptions(deps), 200),
    )
    .openapi({ ...loginRoute, middleware: noStoreFirst }, async (c) => {
      const { memberId } = await finishAuthentication(deps, c.req.valid("json").response);
      startAdminSession(c, deps, memberId);
      return c.json({ success: true as const }, 200);
    });
