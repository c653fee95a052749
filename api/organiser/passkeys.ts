import { createHash, randomBytes } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { passkeys, webauthnChallenges } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { BadRequest, Unauthorized } from "../lib/errors.ts";
import { onFirstUse } from "../lib/on-first-use.ts";
import { liveMember, recordSignIn } from "./team.ts";

// Passkeys (issue 49, docs/decisions/051-passkeys.md): WebAuthn credentials for the owner and the
// team, through @simplewebauthn/server. Every ceremony is two calls: options (a fresh challenge, kept
// in webauthn_challenges for 5 minutes, bound to its purpose and its person) and the browser's answer,
// which takes its challenge at most once. Sign-in asks no email: the passkeys are discoverable, so the
// browser offers the ones it holds for this site and the credential's id names whose it is.

/** The library, loaded at the first passkey call (api/lib/on-first-use.ts). */
const webauthn = onFirstUse(() => import("@simplewebauthn/server"));

/** How long a challenge may be answered. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** How long the browser's prompt waits (WebAuthn's `timeout`): inside the challenge's life. */
const PROMPT_TIMEOUT_MS = 4 * 60 * 1000;

/** Who a registration is for: a member (their id), or the owner (null). */
export type PasskeyPerson = { memberId: number | null; userName: string; displayName: string };

/** The relying party: this site, as PUBLIC_BASE_URL names it. */
function relyingParty(env: AppDeps["env"]) {
  return { rpID: new URL(env.PUBLIC_BASE_URL).hostname, rpName: env.BUSINESS_NAME, origin: env.PUBLIC_BASE_URL };
}

/** A challenge's row id: its hash, so the id a row is found by is not itself the challenge. */
const challengeId = (challenge: string) => createHash("sha256").update(challenge).digest("base64url");

type Purpose = (typeof webauthnChallenges.$inferSelect)["purpose"];

/** Keeps a new challenge for 5 minutes, sweeping the ones past their time (used or not). */
function keepChallenge(db: DbOrTx, challenge: string, purpose: Purpose, memberId: number | null, now: number) {
  db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)).run();
  db.insert(webauthnChallenges)
    .values({ id: challengeId(challenge), challenge, purpose, memberId, expiresAt: now + CHALLENGE_TTL_MS })
    .run();
}

/** The challenge the browser signed, as its clientDataJSON says; null when that is not readable. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8"));
    if (data && typeof data === "object" && "challenge" in data && typeof data.challenge === "string") {
      return data.challenge;
    }
  } catch {
    // Not base64url JSON: the caller refuses it.
  }
  return null;
}

/**
 * Takes the challenge an answer signed, once: it must be live, unused and kept for `purpose` (and, for
 * a registration, for `memberId`). Marked used before the answer is checked, so a failed check uses it
 * up too. Null when there is no such challenge.
 */
function takeChallenge(db: DbOrTx, clientDataJSON: string, purpose: Purpose, memberId: number | null, now: number) {
  const challenge = signedChallenge(clientDataJSON);
  if (challenge === null || challenge.length > 512) return null;
  const whose = memberId === null ? isNull(webauthnChallenges.memberId) : eq(webauthnChallenges.memberId, memberId);
  const taken = db
    .update(webauthnChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(webauthnChallenges.id, challengeId(challenge)),
        eq(webauthnChallenges.purpose, purpose),
        purpose === "register" ? whose : undefined,
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge })
    .get();
  return taken?.challenge ?? null;
}

const whoseKeys = (memberId: number | null) =>
  memberId === null ? isNull(passkeys.memberId) : eq(passkeys.memberId, memberId);

const transportsOf = (row: { transports: string | null }): string[] | undefined => {
  if (row.transports === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The options for adding a passkey to `person`: a discoverable credential (residentKey required), user
 * verification preferred, and the person's passkeys excluded so one authenticator is not added twice.
 */
export async function registrationOptions(
  deps: AppDeps,
  person: PasskeyPerson,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  const { rpID, rpName } = relyingParty(deps.env);
  const theirs = deps.db.select().from(passkeys).where(whoseKeys(person.memberId)).all();
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: person.userName,
    userDisplayName: person.displayName,
    // The user handle: who the passkey is for, without an email or a name in it.
    userID: new TextEncoder().encode(person.memberId === null ? "owner" : `member-${person.memberId}`),
    challenge: new Uint8Array(randomBytes(32)),
    timeout: PROMPT_TIMEOUT_MS,
    attestationType: "none",
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    excludeCredentials: theirs.map((row) => ({ id: row.id, transports: transportsOf(row) })),
  });
  keepChallenge(deps.db, options.challenge, "register", person.memberId, deps.now());
  return options;
}

/** A passkey checked and ready to be saved (savePasskey). */
export type NewPasskey = typeof passkeys.$inferInsert;

/**
 * Checks a registration answer against the challenge kept for `memberId`, and answers the passkey to
 * save; nothing is saved yet, so a caller can re-check who it is for after the wait. 400 when the
 * challenge is unknown, used or expired, or the answer does not verify.
 */
export async function verifyRegistration(
  deps: AppDeps,
  memberId: number | null,
  response: RegistrationResponseJSON,
): Promise<NewPasskey> {
  const { verifyRegistrationResponse } = await webauthn();
  const { rpID, origin } = relyingParty(deps.env);
  const expectedChallenge = takeChallenge(deps.db, response.response.clientDataJSON, "register", memberId, deps.now());
  if (expectedChallenge === null) {
    deps.log("warn", "passkey registration refused", { reason: "no live challenge" });
    throw BadRequest("This passkey request has expired or was already used. Start again with Add a passkey.");
  }
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    // The library's words can quote the challenge: never passed on or logged.
    verified = { verified: false };
  }
  if (!verified.verified) {
    deps.log("warn", "passkey registration refused", { reason: "did not verify" });
    throw BadRequest("The passkey could not be checked. Try again, or use another passkey.");
  }
  const { credential } = verified.registrationInfo;
  return {
    id: credential.id,
    memberId,
    publicKey: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    transports: credential.transports ? JSON.stringify(credential.transports) : null,
  };
}

/** Saves a checked passkey; 400 when that credential is already saved (for anyone). */
export function savePasskey(db: DbOrTx, passkey: NewPasskey) {
  const taken = db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.id, passkey.id)).get();
  if (taken) throw BadRequest("This passkey is already saved. Use another passkey.");
  db.insert(passkeys).values(passkey).run();
}

/** The options for signing in with a passkey: no credentials listed, so the browser offers its own. */
export async function authenticationOptions(deps: AppDeps): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  const { rpID } = relyingParty(deps.env);
  const options = await generateAuthenticationOptions({
    rpID,
    challenge: new Uint8Array(randomBytes(32)),
    timeout: PROMPT_TIMEOUT_MS,
    userVerification: "preferred",
  });
  keepChallenge(deps.db, options.challenge, "sign-in", null, deps.now());
  return options;
}

const refused = () =>
  Unauthorized("That passkey is not accepted here. Use another passkey or sign in another way.", "invalid_credentials");

/**
 * Checks a sign-in answer: a live sign-in challenge, a passkey we hold, a valid signature, and (for a
 * member's passkey) a member who is active and not removed. Updates the passkey's counter and last use
 * and answers whose it is: a member's id, or null for the owner. 401 `invalid_credentials` otherwise.
 */
export async function finishAuthentication(
  deps: AppDeps,
  response: AuthenticationResponseJSON,
): Promise<{ memberId: number | null }> {
  const { verifyAuthenticationResponse } = await webauthn();
  const { rpID, origin } = relyingParty(deps.env);
  const now = deps.now();
  const expectedChallenge = takeChallenge(deps.db, response.response.clientDataJSON, "sign-in", null, now);
  if (expectedChallenge === null) {
    deps.log("warn", "passkey sign-in refused", { reason: "no live challenge" });
    throw Unauthorized("This passkey sign-in has expired or was already used. Try again.", "invalid_credentials");
  }
  const key = deps.db.select().from(passkeys).where(eq(passkeys.id, response.id)).get();
  if (!key) {
    deps.log("warn", "passkey sign-in refused", { reason: "unknown passkey" });
    throw refused();
  }
  let verified = false;
  let newCounter = key.counter;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: key.id,
        publicKey: new Uint8Array(Buffer.from(key.publicKey, "base64url")),
        counter: key.counter,
        transports: transportsOf(key),
      },
      requireUserVerification: false,
    });
    verified = result.verified;
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    // A bad signature, a counter that went back (a cloned key), another site's answer: all refused.
    verified = false;
  }
  if (!verified) {
    deps.log("warn", "passkey sign-in refused", { reason: "did not verify" });
    throw refused();
  }
  if (key.memberId !== null && !liveMember(deps.db, key.memberId)) {
    deps.log("warn", "passkey sign-in refused", { reason: "member not active", memberId: key.memberId });
    throw refused();
  }
  deps.db.update(passkeys).set({ counter: newCounter, lastUsedAt: now }).where(eq(passkeys.id, key.id)).run();
  if (key.memberId !== null) recordSignIn(deps.db, key.memberId, now);
  return { memberId: key.memberId };
}
