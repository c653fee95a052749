import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { passkeys, recoveryCodes, type TeamMember, type TeamRole, teamMembers } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { decryptSecret, encryptSecret, hashPassword, randomToken, tokenHash } from "../lib/crypto.ts";
import { BadRequest, Conflict, DomainError, NotFound } from "../lib/errors.ts";
import { ROLE_LABELS } from "../lib/roles.ts";
import { acceptedTotpStep, newTotpSecret, otpauthUri } from "../lib/totp.ts";
import { enqueueEmail } from "../messaging/outbox.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { teamSetupEmail } from "../messaging/templates/team.ts";
import type { TeamRow } from "./admin-schemas.ts";
import { newRecoveryCodes, spendRecoveryCode, stepStillFree, storeRecoveryCodes } from "./second-factor.ts";

// The organiser's team (issue 49, docs/decisions/050-the-team.md): members added by the owner, their
// one-time set-up link, their password and authenticator app, their sign-in's second factor.
// Recovery codes and the owner's own second factor are in second-factor.ts; passkeys are
// api/organiser/passkey*.ts's, and this file only counts and removes them.

const HOUR = 3_600_000;
/** How long a set-up link works: 72 hours, once. */
export const SETUP_LINK_MS = 72 * HOUR;
/** The PWA page a set-up link opens. */
export const SETUP_PAGE = "/admin/setup";
/** A member's password: at least this long (a passphrase; there are no other rules to learn). */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** The one answer for a set-up link that does not open anything, whatever the reason. */
export const setupLinkInvalid = () =>
  new DomainError(
    410,
    "This set-up link has expired or was already used. Ask the owner to send a new one.",
    "setup_link_invalid",
  );

/** A member who may sign in: set up (active) and not removed; undefined otherwise. */
export function liveMember(db: DbOrTx, memberId: number): TeamMember | undefined {
  return db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.id, memberId), isNull(teamMembers.removedAt), isNotNull(teamMembers.activatedAt)))
    .get();
}

/** The live (not removed) member with this email, set up or not. */
export function memberByEmail(db: DbOrTx, email: string): TeamMember | undefined {
  return db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.email, email.trim().toLowerCase()), isNull(teamMembers.removedAt)))
    .get();
}

/** The Team tab's list: every member not removed, oldest first. No secret is read into it. */
export function listTeam(db: DbOrTx): TeamRow[] {
  const rows = db
    .select({
      id: teamMembers.id,
      name: teamMembers.name,
      email: teamMembers.email,
      role: teamMembers.role,
      activatedAt: teamMembers.activatedAt,
      lastSignInAt: teamMembers.lastSignInAt,
      hasTotp: isNotNull(teamMembers.totpSecret),
    })
    .from(teamMembers)
    .where(isNull(teamMembers.removedAt))
    .orderBy(teamMembers.id)
    .all();
  const withPasskey = new Set(
    db
      .select({ memberId: passkeys.memberId })
      .from(passkeys)
      .where(isNotNull(passkeys.memberId))
      .all()
      .map((p) => p.memberId),
  );
  return rows.map((m) => {
    const active = m.activatedAt !== null;
    const signIn: TeamRow["signIn"] = [];
    if (withPasskey.has(m.id)) signIn.push("passkey");
    // A secret stored before the set-up finished is not a way in yet.
    if (active && m.hasTotp) signIn.push("totp");
    return {
      id: m.id,
      name: m.name,
      email: m.email,
      role: m.role,
      status: active ? "active" : "invited",
      signIn,
      lastSignInAt: m.lastSignInAt === null ? null : new Date(m.lastSignInAt).toISOString(),
    };
  });
}

/** Makes a new set-up token for the member (the old one dies) and queues its email. */
function sendSetupLink(deps: AppDeps, tx: DbOrTx, member: Pick<TeamMember, "id" | "name" | "email" | "role">) {
  const now = deps.now();
  const token = randomToken();
  tx.update(teamMembers)
    .set({ setupTokenHash: tokenHash(token), setupExpiresAt: now + SETUP_LINK_MS })
    .where(eq(teamMembers.id, member.id))
    .run();
  const email = teamSetupEmail({
    sender: senderOf(deps.env),
    name: member.name,
    roleLabel: ROLE_LABELS[member.role],
    setupUrl: `${deps.env.PUBLIC_BASE_URL}${SETUP_PAGE}?t=${token}`,
  });
  // Keyed by the token's hash, so a resend is a new email and a repeat of one send is not.
  enqueueEmail(tx, { dedupeKey: `team-setup:${member.id}:${tokenHash(token)}`, to: member.email, ...email }, deps.env);
}

/** Adds a member and emails their set-up link; 409 `email_taken` when a live member has the address. */
export function addMember(deps: AppDeps, input: { name: string; email: string; role: TeamRole }): { id: number } {
  const email = input.email.trim().toLowerCase();
  return deps.db.transaction((tx) => {
    if (memberByEmail(tx, email)) throw Conflict("a team member with this email is already on the team", "email_taken");
    const member = tx
      .insert(teamMembers)
      .values({ name: input.name.trim(), email, role: input.role, createdAt: deps.now() })
      .returning()
      .get();
    sendSetupLink(deps, tx, member);
    return { id: member.id };
  });
}

/** A live member by id, or 404 (a removed member is gone from the team). */
function teamMember(db: DbOrTx, id: number): TeamMember {
  const member = db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.id, id), isNull(teamMembers.removedAt)))
    .get();
  if (!member) throw NotFound("no such team member");
  return member;
}

/** A new set-up link for a member who has not finished setting up; the old link stops working. */
export function resendSetup(deps: AppDeps, id: number): void {
  deps.db.transaction((tx) => {
    const member = teamMember(tx, id);
    if (member.activatedAt !== null) throw Conflict("this member has already set up their sign-in", "wrong_state");
    sendSetupLink(deps, tx, member);
  });
}

/**
 * Removes a member: the row stays (Activity names them), every way in is dropped (the set-up link,
 * the password, the authenticator, the recovery codes, the passkeys). The caller ends the sessions
 * and streams (endSessionsOf).
 */
export function removeMember(deps: AppDeps, id: number): void {
  deps.db.transaction((tx) => {
    teamMember(tx, id);
    tx.update(teamMembers)
      .set({
        removedAt: deps.now(),
        setupTokenHash: null,
        setupExpiresAt: null,
        passwordHash: null,
        totpSecret: null,
      })
      .where(eq(teamMembers.id, id))
      .run();
    tx.delete(recoveryCodes).where(eq(recoveryCodes.memberId, id)).run();
    tx.delete(passkeys).where(eq(passkeys.memberId, id)).run();
  });
}

/**
 * The member a live set-up link names; 410 `setup_link_invalid` for a token that is unknown, used,
 * past its 72 hours, or whose member was removed (all alike: the link says nothing more).
 */
export function memberForSetup(deps: Pick<AppDeps, "db" | "now">, token: string): TeamMember {
  if (typeof token !== "string" || token.length < 20 || token.length > 200) throw setupLinkInvalid();
  const member = deps.db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.setupTokenHash, tokenHash(token)), isNull(teamMembers.removedAt)))
    .get();
  if (!member || member.setupExpiresAt === null || member.setupExpiresAt <= deps.now()) throw setupLinkInvalid();
  return member;
}

/** Checks a new password's length, with the reason in words (400 `invalid_request`). */
export function assertPasswordShape(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw BadRequest(`The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw BadRequest(`The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`);
  }
}

/**
 * Step one of a password set-up: stores the password's scrypt hash and a new authenticator secret
 * (encrypted), and answers the otpauth:// link the app scans. The link still works until the code
 * is confirmed (team-setup-totp), so a member can start again.
 */
export async function setMemberPassword(
  deps: AppDeps,
  token: string,
  password: string,
): Promise<{ otpauthUri: string }> {
  assertPasswordShape(password);
  const member = memberForSetup(deps, token);
  const passwordHash = await hashPassword(password);
  const secret = newTotpSecret();
  // Read again after the hash's wait: the link may have been used or the member removed meanwhile.
  const still = memberForSetup(deps, token);
  if (still.id !== member.id) throw setupLinkInvalid();
  deps.db
    .update(teamMembers)
    .set({ passwordHash, totpSecret: encryptSecret(deps.env.SESSION_SECRET, secret), totpLastStep: null })
    .where(eq(teamMembers.id, member.id))
    .run();
  return { otpauthUri: otpauthUri(secret, member.email, deps.env.BUSINESS_NAME) };
}

/**
 * Step two: the first code from the app proves it was set up; the member becomes active and gets
 * their recovery codes. 400 `wrong_code` for a code that does not match (the link still works).
 */
export function confirmMemberTotp(deps: AppDeps, token: string, code: string): string[] {
  const member = memberForSetup(deps, token);
  const secret = decryptSecret(deps.env.SESSION_SECRET, member.totpSecret);
  if (!member.passwordHash || !secret) throw BadRequest("set a password first (team-setup)", "wrong_code");
  const step = acceptedTotpStep(secret, code, deps.now(), member.totpLastStep);
  if (step === null) throw BadRequest("That code doesn't match. Type the code your app shows now.", "wrong_code");
  deps.db.update(teamMembers).set({ totpLastStep: step }).where(eq(teamMembers.id, member.id)).run();
  return activateMember(deps, member.id);
}

/**
 * Marks the member active and consumes their set-up link, and makes their ten recovery codes (any
 * older ones stop working): the codes are answered this once and kept only as hashes. For the
 * password-and-app set-up here and the passkey set-up (api/organiser/passkey*.ts) alike.
 */
export function activateMember(deps: Pick<AppDeps, "db" | "env" | "now">, memberId: number): string[] {
  const codes = newRecoveryCodes();
  deps.db.transaction((tx) => {
    tx.update(teamMembers)
      .set({ activatedAt: deps.now(), setupTokenHash: null, setupExpiresAt: null })
      .where(and(eq(teamMembers.id, memberId), isNull(teamMembers.removedAt)))
      .run();
    storeRecoveryCodes(deps, tx, memberId, codes);
  });
  return codes;
}

/**
 * Whether `code` is a good second factor for a member (their authenticator app's code, not used
 * before, or one unused recovery code): used up when it is.
 */
export function memberSecondFactor(
  deps: Pick<AppDeps, "db" | "env" | "now">,
  member: TeamMember,
  code: string,
): boolean {
  const secret = decryptSecret(deps.env.SESSION_SECRET, member.totpSecret);
  if (secret) {
    const step = acceptedTotpStep(secret, code, deps.now(), member.totpLastStep);
    if (step !== null) {
      const claimed = deps.db
        .update(teamMembers)
        .set({ totpLastStep: step })
        .where(and(eq(teamMembers.id, member.id), stepStillFree(teamMembers.totpLastStep, step)))
        .run();
      return claimed.changes === 1;
    }
  }
  return spendRecoveryCode(deps, member.id, code);
}

/** Records a sign-in's time on the member's row (the Team tab's **Last sign-in**). */
export function recordSignIn(db: Db, memberId: number, now: number): void {
  db.update(teamMembers).set({ lastSignInAt: now }).where(eq(teamMembers.id, memberId)).run();
}
