import { randomInt } from "node:crypto";
import { and, count, eq, isNull, lt, or } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db, DbOrTx } from "../../db/client.ts";
import { ownerSecurity, passkeys, recoveryCodes } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { decryptSecret, encryptSecret, hmac, safeEqual } from "../lib/crypto.ts";
import { BadRequest, Conflict } from "../lib/errors.ts";
import { acceptedTotpStep, newTotpSecret, otpauthUri } from "../lib/totp.ts";
import type { OwnerSecurity } from "./admin-schemas.ts";

// Second factors (issue 49, docs/decisions/050-the-team.md): recovery codes, for members and the
// owner alike, and the owner's own authenticator app and **Require a second factor for the owner
// password**. A member's app is set up through their set-up link (team.ts).

// ---------------------------------------------------------------------------------------------------
/** Ten, shown once. */
export const RECOVERY_CODE_COUNT = 10;

// Recovery codes: ten, one use each, `xxxxx-xxxxx` from an alphabet without look-alikes.

const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = one();
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** How a code is typed back: case, spaces and the dash do not matter. */
const normalCode = (code: string) => code.toLowerCase().replace(/[\s-]+/g, "");

const recoveryHash = (deps: Pick<AppDeps, "env">, code: string) =>
  hmac(deps.env.SESSION_SECRET, "recovery-code", normalCode(code));

export function storeRecoveryCodes(deps: Pick<AppDeps, "env">, tx: DbOrTx, memberId: number | null, codes: string[]) {
  tx.delete(recoveryCodes)
    .where(memberId === null ? isNull(recoveryCodes.memberId) : eq(recoveryCodes.memberId, memberId))
    .run();
  tx.insert(recoveryCodes)
    .values(codes.map((code) => ({ memberId, codeHash: recoveryHash(deps, code) })))
    .run();
}

/** Uses one unused recovery code of the person (a member's id, or null: the owner); false when none matches. */
export function spendRecoveryCode(
  deps: Pick<AppDeps, "db" | "env" | "now">,
  memberId: number | null,
  code: string,
): boolean {
  const normal = normalCode(code);
  if (!/^[a-z0-9]{10}$/.test(normal)) return false;
  const hash = recoveryHash(deps, normal);
  const whose = memberId === null ? isNull(recoveryCodes.memberId) : eq(recoveryCodes.memberId, memberId);
  const candidates = deps.db
    .select()
    .from(recoveryCodes)
    .where(and(whose, isNull(recoveryCodes.usedAt)))
    .all();
  const match = candidates.find((row) => safeEqual(row.codeHash, hash));
  if (!match) return false;
  // Claimed in one statement, so two sign-ins with the same code cannot both use it.
  const used = deps.db
    .update(recoveryCodes)
    .set({ usedAt: deps.now() })
    .where(and(eq(recoveryCodes.id, match.id), isNull(recoveryCodes.usedAt)))
    .run();
  return used.changes === 1;
}

/** The stored last step is older than `step` (or none): claiming the step in the same statement. */
export const stepStillFree = (column: AnySQLiteColumn, step: number) => or(isNull(column), lt(column, step));

// ---------------------------------------------------------------------------------------------------
// The owner's own second factor (owner_security, one row with id 1).

const OWNER = 1;

const ownerRow = (db: DbOrTx) => db.select().from(ownerSecurity).where(eq(ownerSecurity.id, OWNER)).get();

/** The owner's settings: whether the password alone is refused, how many passkeys, whether an app is set up. */
export function ownerSecurityState(db: DbOrTx): OwnerSecurity {
  const row = ownerRow(db);
  const keys = db.select({ n: count() }).from(passkeys).where(isNull(passkeys.memberId)).get()?.n ?? 0;
  return {
    requireSecondFactor: row?.requireSecondFactor ?? false,
    passkeys: keys,
    // Confirmed once a first code was accepted (its step stored); a secret alone is a set-up under way.
    totp: Boolean(row?.totpSecret) && row?.totpLastStep !== null && row?.totpLastStep !== undefined,
  };
}

/** Whether the owner's password alone is refused (401 `second_factor_required`). */
export const ownerNeedsSecondFactor = (db: DbOrTx) => ownerSecurityState(db).requireSecondFactor;

/**
 * Starts the owner's authenticator set-up: a new secret, kept encrypted, answered as its otpauth://
 * link. 409 `wrong_state` once an app is set up (there is one at a time).
 */
export function startOwnerTotp(deps: AppDeps): { otpauthUri: string } {
  if (ownerSecurityState(deps.db).totp) throw Conflict("an authenticator app is already set up", "wrong_state");
  const secret = newTotpSecret();
  const sealed = encryptSecret(deps.env.SESSION_SECRET, secret);
  deps.db
    .insert(ownerSecurity)
    .values({ id: OWNER, totpSecret: sealed, totpLastStep: null })
    .onConflictDoUpdate({ target: ownerSecurity.id, set: { totpSecret: sealed, totpLastStep: null } })
    .run();
  return { otpauthUri: otpauthUri(secret, "Owner", deps.env.BUSINESS_NAME) };
}

/** Confirms the owner's app with its first code: answers ten new recovery codes (the old ones stop working). */
export function confirmOwnerTotp(deps: AppDeps, code: string): string[] {
  const row = ownerRow(deps.db);
  const secret = decryptSecret(deps.env.SESSION_SECRET, row?.totpSecret ?? null);
  if (!row || !secret || row.totpLastStep !== null) {
    throw Conflict("start the authenticator set-up first (owner-totp)", "wrong_state");
  }
  const step = acceptedTotpStep(secret, code, deps.now(), null);
  if (step === null) throw BadRequest("That code doesn't match. Type the code your app shows now.", "wrong_code");
  const codes = newRecoveryCodes();
  deps.db.transaction((tx) => {
    tx.update(ownerSecurity).set({ totpLastStep: step }).where(eq(ownerSecurity.id, OWNER)).run();
    storeRecoveryCodes(deps, tx, null, codes);
  });
  return codes;
}

/** Turns **Require a second factor for the owner password** on or off; on only with a passkey or an app (409 `no_second_factor`). */
export function setOwnerSecondFactor(db: Db, required: boolean): OwnerSecurity {
  const state = ownerSecurityState(db);
  if (required && state.passkeys === 0 && !state.totp) {
    throw Conflict("add a passkey or an authenticator app first", "no_second_factor");
  }
  // Off is the default: with no row yet there is nothing to write.
  if (!required && !ownerRow(db)) return state;
  db.insert(ownerSecurity)
    .values({ id: OWNER, requireSecondFactor: required })
    .onConflictDoUpdate({ target: ownerSecurity.id, set: { requireSecondFactor: required } })
    .run();
  return { ...state, requireSecondFactor: required };
}

/** Whether `code` is a good second factor for the owner (the app's code or a recovery code); used up when it is. */
export function ownerSecondFactor(deps: Pick<AppDeps, "db" | "env" | "now">, code: string): boolean {
  const row = ownerRow(deps.db);
  const secret = row && row.totpLastStep !== null ? decryptSecret(deps.env.SESSION_SECRET, row.totpSecret) : null;
  if (secret) {
    const step = acceptedTotpStep(secret, code, deps.now(), row?.totpLastStep ?? null);
    if (step !== null) {
      const claimed = deps.db
        .update(ownerSecurity)
        .set({ totpLastStep: step })
        .where(and(eq(ownerSecurity.id, OWNER), stepStillFree(ownerSecurity.totpLastStep, step)))
        .run();
      return claimed.changes === 1;
    }
  }
  return spendRecoveryCode(deps, null, code);
}
