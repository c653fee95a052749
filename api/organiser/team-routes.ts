import { createRoute } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { deleteCookie } from "hono/cookie";
import { teamMembers, teamRoles } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute, COOKIE } from "../lib/admin-session.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { callerOf } from "../lib/staff.ts";
import { noStoreFirst, secondFactorCode } from "./admin-auth-routes.ts";
import { ownerSecurityReply, teamRow } from "./admin-schemas.ts";
import { confirmOwnerTotp, ownerSecurityState, setOwnerSecondFactor, startOwnerTotp } from "./second-factor.ts";
import { endSessionsOf } from "./sign-out.ts";
import {
  addMember,
  confirmMemberTotp,
  listTeam,
  MAX_PASSWORD_LENGTH,
  removeMember,
  resendSetup,
  setMemberPassword,
} from "./team.ts";

// The team calls (issue 49, docs/decisions/050-the-team.md): the owner's
// Team tab, a member's set-up link, Sign out everywhere, and the owner's own second factor.

const id = z.number().int().positive();

const OWNER_ONLY = "- **Who:** the owner's session (a member's is 403 `forbidden`).";

const teamListRoute = createRoute({
  method: "get",
  path: "/team",
  summary: "The Team tab: every member not removed",
  description: [
    OWNER_ONLY,
    "- **200:** `[{id, name, email, role, status, signIn, lastSignInAt}]`, oldest first: `status`",
    "  `invited` until the set-up link is used, then `active`; `signIn` lists `passkey` when the member",
    "  has one and `totp` when an authenticator app is set up. No secret is ever in it.",
  ].join("\n"),
  responses: { 200: json(z.array(teamRow)), ...errors("get", ADMIN_ERRORS) },
});

const addMemberRoute = createRoute({
  method: "post",
  path: "/team",
  summary: "Adds a team member and emails them a one-time set-up link (72 hours)",
  description: [
    OWNER_ONLY,
    "- **Body (JSON):** `name`: text 1–100; `email`: an address (kept lower-cased); `role`:",
    "  `manager`, `finance` or `door`.",
    "- **201:** `{id}`; the email (transactional, through the outbox) carries",
    "  `{PUBLIC_BASE_URL}/admin/setup?t={token}`: single use, 72 hours, bound to this member.",
  ].join("\n"),
  request: jsonBody(
    z.object({
      name: z.string().trim().min(1).max(100),
      email: z.email().max(254),
      role: z.enum(teamRoles),
    }),
  ),
  responses: {
    201: json(z.strictObject({ id: z.number().int() })),
    ...errors("post", [...ADMIN_ERRORS, "email_taken"]),
  },
});

const removeMemberRoute = createRoute({
  method: "post",
  path: "/team-remove",
  summary: "Removes a team member: their sessions, streams and every way in end at once",
  description: [
    OWNER_ONLY,
    "- **Body (JSON):** `id`: the member's.",
    "- **200:** `{success: true}`; their sessions and open streams end now; their set-up link,",
    "  password, authenticator, recovery codes and passkeys stop working. The row is kept (Activity",
    "  names them) and leaves the list.",
  ].join("\n"),
  request: jsonBody(z.object({ id })),
  responses: { 200: json(done), ...errors("post", [...ADMIN_ERRORS, "not_found"]) },
});

const resendRoute = createRoute({
  method: "post",
  path: "/team-resend",
  summary: "Emails an invited member a new set-up link; the old one stops working",
  description: [
    OWNER_ONLY,
    "- **Body (JSON):** `id`: the member's.",
    "- **200:** `{success: true}`; a new link (72 hours) is emailed. 409 `wrong_state` once the member",
    "  has set up their sign-in.",
  ].join("\n"),
  request: jsonBody(z.object({ id })),
  responses: { 200: json(done), ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]) },
});

const setupToken = z.string().min(1).max(200);

const setupRoute = createRoute({
  method: "post",
  path: "/team-setup",
  summary: "A member's set-up, step one: their password; answers the authenticator app's link",
  description: [
    "- **Who:** public; the set-up link's `token` is the proof.",
    `- **Body (JSON):** \`token\`; \`password\`: 12–${MAX_PASSWORD_LENGTH} characters (400 \`invalid_request\` says so).`,
    "- **200:** `{otpauthUri}`: the `otpauth://totp/…` link (issuer `BUSINESS_NAME`) to show as a QR",
    "  code. The link still works until `team-setup-totp` confirms a code.",
    "- **410** `setup_link_invalid`: unknown, used, past 72 hours, or the member was removed.",
  ].join("\n"),
  request: jsonBody(z.object({ token: setupToken, password: z.string().max(1000) })),
  responses: {
    200: json(z.strictObject({ otpauthUri: z.string() })),
    ...errors("post", ["setup_link_invalid"]),
  },
});

const recoveryCodesReply = z.strictObject({ recoveryCodes: z.array(z.string()).length(10) });

const setupTotpRoute = createRoute({
  method: "post",
  path: "/team-setup-totp",
  summary: "A member's set-up, step two: the app's first code; activates the member",
  description: [
    "- **Who:** public; the set-up link's `token` is the proof.",
    "- **Body (JSON):** `token`; `code`: the 6 digits the app shows.",
    "- **200:** `{recoveryCodes}`: ten one-time codes, shown this once and kept only as hashes. The",
    "  member is active and the link is used up.",
    "- **400** `wrong_code`: the code does not match (the link still works); **410**",
    "  `setup_link_invalid`.",
  ].join("\n"),
  request: jsonBody(z.object({ token: setupToken, code: secondFactorCode })),
  responses: { 200: json(recoveryCodesReply), ...errors("post", ["wrong_code", "setup_link_invalid"]) },
});

const signOutEverywhereRoute = createRoute({
  method: "post",
  path: "/sign-out-everywhere",
  summary: "Ends every session (and its streams) of one person: yourself, or a member the owner names",
  description: [
    "- **Who:** any organiser session (the owner or a member); naming `id` is the owner's alone.",
    "- **Body (JSON):** `id?`: a member's id (owner only). Without it, every session of the caller,",
    "  this one included, ends.",
    "- **200:** `{success: true}`; the sessions and their open streams end at once.",
  ].join("\n"),
  request: jsonBody(z.object({ id: id.optional() })),
  responses: { 200: json(done), ...errors("post", [...ADMIN_ERRORS, "not_found"]) },
});

const ownerSecurityRoute = createRoute({
  method: "get",
  path: "/owner-security",
  summary: "The owner's own sign-in settings",
  description: [
    OWNER_ONLY,
    "- **200:** `{requireSecondFactor, passkeys, totp}`: whether the password alone is refused, how",
    "  many passkeys the owner has, whether an authenticator app is set up.",
  ].join("\n"),
  responses: { 200: json(ownerSecurityReply), ...errors("get", ADMIN_ERRORS) },
});

const ownerTotpRoute = createRoute({
  method: "post",
  path: "/owner-totp",
  summary: "Starts the owner's authenticator app set-up: answers the app's link",
  description: [
    OWNER_ONLY,
    "- **200:** `{otpauthUri}` to show as a QR code; `owner-totp-confirm` finishes it. 409",
    "  `wrong_state` once an app is set up.",
  ].join("\n"),
  responses: {
    200: json(z.strictObject({ otpauthUri: z.string() })),
    ...errors("post", [...ADMIN_ERRORS, "wrong_state"]),
  },
});

const ownerTotpConfirmRoute = createRoute({
  method: "post",
  path: "/owner-totp-confirm",
  summary: "Finishes the owner's authenticator set-up with its first code: answers ten recovery codes",
  description: [
    OWNER_ONLY,
    "- **Body (JSON):** `code`: the 6 digits the app shows.",
    "- **200:** `{recoveryCodes}`: ten one-time codes, shown this once (older ones stop working).",
    "- **400** `wrong_code`; **409** `wrong_state` without `owner-totp` first.",
  ].join("\n"),
  request: jsonBody(z.object({ code: secondFactorCode })),
  responses: {
    200: json(recoveryCodesReply),
    ...errors("post", [...ADMIN_ERRORS, "wrong_code", "wrong_state"]),
  },
});

const ownerSecondFactorRoute = createRoute({
  method: "post",
  path: "/owner-second-factor",
  summary: "Turns Require a second factor for the owner password on or off",
  description: [
    OWNER_ONLY,
    "- **Body (JSON):** `required`: boolean.",
    "- **200:** the owner's settings (`owner-security`). On, `admin-login` with the password alone",
    "  answers 401 `second_factor_required`. 409 `no_second_factor` to turn it on without a passkey or",
    "  an authenticator app.",
  ].join("\n"),
  request: jsonBody(z.object({ required: z.boolean() })),
  responses: {
    200: json(ownerSecurityReply),
    ...errors("post", [...ADMIN_ERRORS, "no_second_factor"]),
  },
});

export const teamRoutes = (deps: AppDeps) => {
  return apiRouter()
    .openapi(adminRoute(deps, teamListRoute, "owner"), (c) => c.json(listTeam(deps.db), 200))
    .openapi(adminRoute(deps, addMemberRoute, "owner"), (c) => c.json(addMember(deps, c.req.valid("json")), 201))
    .openapi(adminRoute(deps, removeMemberRoute, "owner"), (c) => {
      const { id } = c.req.valid("json");
      removeMember(deps, id);
      endSessionsOf(deps, id);
      return c.json({ success: true as const }, 200);
    })
    .openapi(adminRoute(deps, resendRoute, "owner"), (c) => {
      resendSetup(deps, c.req.valid("json").id);
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...setupRoute, middleware: noStoreFirst }, async (c) => {
      const { token, password } = c.req.valid("json");
      return c.json(await setMemberPassword(deps, token, password), 200);
    })
    .openapi({ ...setupTotpRoute, middleware: noStoreFirst }, (c) => {
      const { token, code } = c.req.valid("json");
      return c.json({ recoveryCodes: confirmMemberTotp(deps, token, code) }, 200);
    })
    .openapi(adminRoute(deps, signOutEverywhereRoute, "signedIn"), (c) => {
      const caller = callerOf(c);
      if (caller.role !== "organiser") throw Forbidden();
      const { id } = c.req.valid("json");
      const self = caller.person.kind === "owner" ? null : caller.person.id;
      if (id !== undefined && id !== self) {
        if (caller.person.kind !== "owner") throw Forbidden("only the owner signs another person out");
        if (!memberExists(deps, id)) throw NotFound("no such team member");
        endSessionsOf(deps, id);
        return c.json({ success: true as const }, 200);
      }
      endSessionsOf(deps, self);
      deleteCookie(c, COOKIE, { path: "/" });
      return c.json({ success: true as const }, 200);
    })
    .openapi(adminRoute(deps, ownerSecurityRoute, "owner"), (c) => c.json(ownerSecurityState(deps.db), 200))
    .openapi(adminRoute(deps, ownerTotpRoute, "owner"), (c) => c.json(startOwnerTotp(deps), 200))
    .openapi(adminRoute(deps, ownerTotpConfirmRoute, "owner"), (c) =>
      c.json({ recoveryCodes: confirmOwnerTotp(deps, c.req.valid("json").code) }, 200),
    )
    .openapi(adminRoute(deps, ownerSecondFactorRoute, "owner"), (c) =>
      c.json(setOwnerSecondFactor(deps.db, c.req.valid("json").required), 200),
    );
};

/** A member not removed (invited or active): the ones whose sessions the owner may end. */
const memberExists = (deps: AppDeps, id: number) =>
  deps.db
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .where(and(eq(teamMembers.id, id), isNull(teamMembers.removedAt)))
    .get() !== undefined;
