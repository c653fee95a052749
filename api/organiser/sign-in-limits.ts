import type { AppDeps } from "../deps.ts";
import { DomainError } from "../lib/errors.ts";
import { assertUnderLimit, clearHits, isOverLimit, type Limit, recordHit, releaseHit } from "../lib/rate-limit.ts";
import { enqueueEmail } from "../messaging/outbox.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { accountLockedEmail, ownerLockedEmail } from "../messaging/templates/team.ts";
import { recordFailedLogin } from "./activity.ts";

// Locks that lock the right person (issue 49, docs/decisions/050-the-team.md): wrong passwords and
// codes count per account, so five wrong tries lock that account alone, and the person is told; the
// per-address limit stays, for someone guessing many accounts, set high enough that a whole team
// behind one venue's Wi-Fi never reaches it; past a site-wide ceiling every attempt is slowed.

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords or codes for one account, per 15 minutes, before it is locked. */
export const ACCOUNT_MAX_FAILURES = 5;
/** Failed sign-ins from every address together, per 15 minutes, before each attempt is slowed. */
export const ADMIN_LOGIN_SITE_CEILING = 100;
/** How long an attempt waits past the ceiling before it is judged. */
export const ADMIN_LOGIN_SLOWDOWN_MS = 2000;

const accountLimit: Limit = { bucket: "sign-in-account", max: ACCOUNT_MAX_FAILURES, windowMs: SIGN_IN_WINDOW_MS };
const siteWide: Limit = {
  bucket: "admin-login-failure-site",
  max: ADMIN_LOGIN_SITE_CEILING,
  windowMs: SIGN_IN_WINDOW_MS,
};
const SITE = "*";

/** Whose account a sign-in tries: the owner's password, or a member's email (known or not, alike). */
export type Account =
  | { kind: "owner" }
  | { kind: "member"; email: string; member?: { id: number; name: string; email: string } };

const keyOf = (account: Account) =>
  account.kind === "owner" ? "owner" : `email:${account.email.trim().toLowerCase()}`;

export const accountLocked = () =>
  new DomainError(
    429,
    "Too many wrong passwords or codes for this account. Try again in 15 minutes.",
    "account_locked",
  );

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One sign-in attempt, counted as a failure from the moment it is let through (`before`). */
export type Attempt = { address: string; account: Account; at: number };

/** The checks every password sign-in (admin-login, team-login) makes, in one place. */
export function signInLimits(deps: AppDeps) {
  const perAddress: Limit = {
    bucket: "admin-login-failure",
    max: deps.env.ADMIN_LOGIN_MAX_FAILURES,
    windowMs: SIGN_IN_WINDOW_MS,
  };
  const sleep = deps.sleep ?? realSleep;
  const check = (address: string, account: Account) => {
    assertUnderLimit(deps.db, perAddress, address, deps.now());
    if (isOverLimit(deps.db, accountLimit, keyOf(account), deps.now())) throw accountLocked();
  };
  return {
    /**
     * Before the password is read: 429 `rate_limited` for an address past its limit, 429
     * `account_locked` for a locked account, so a locked account says nothing about a right
     * password. Past the site-wide ceiling every attempt waits first, right or wrong. The attempt
     * is then counted as a failure at once, in the same step as the check, so attempts sent side by
     * side (or waiting on a password hash) cannot all pass it; `succeeded` takes it back.
     */
    async before(address: string, account: Account): Promise<Attempt> {
      check(address, account);
      if (isOverLimit(deps.db, siteWide, SITE, deps.now())) {
        // Slowed, never refused: refusing everybody would lock the owner out too.
        await sleep(ADMIN_LOGIN_SLOWDOWN_MS);
        // Again after the wait: attempts sent side by side all passed the first check together.
        check(address, account);
      }
      const at = deps.now();
      recordHit(deps.db, perAddress, address, at);
      recordHit(deps.db, siteWide, SITE, at);
      recordHit(deps.db, accountLimit, keyOf(account), at);
      return { address, account, at };
    },
    /** A wrong password or code (already counted): noted in Activity and the log; the fifth locks the account and tells its person. */
    failed(attempt: Attempt) {
      const now = deps.now();
      recordFailedLogin(deps.db, now);
      deps.log("warn", "sign-in failed", { address: attempt.address, account: attempt.account.kind });
      if (isOverLimit(deps.db, accountLimit, keyOf(attempt.account), now)) locked(deps, attempt.account, now);
    },
    /** A sign-in that got in: its attempt is taken back, and the account's count starts again. */
    succeeded(attempt: Attempt) {
      releaseHit(deps.db, perAddress, attempt.address, attempt.at);
      releaseHit(deps.db, siteWide, SITE, attempt.at);
      clearHits(deps.db, accountLimit, keyOf(attempt.account));
    },
    /** An attempt that was neither right nor wrong (the right password, a second factor still to come): taken back. */
    undecided(attempt: Attempt) {
      releaseHit(deps.db, perAddress, attempt.address, attempt.at);
      releaseHit(deps.db, siteWide, SITE, attempt.at);
      releaseHit(deps.db, accountLimit, keyOf(attempt.account), attempt.at);
    },
  };
}

/**
 * An account just locked: its person gets an email (once per 15-minute window), a member at their
 * address, the owner at ORGANISER_EMAIL when it is set; the owner's lock is logged too
 * (docs/decisions/050-the-team.md).
 */
function locked(deps: AppDeps, account: Account, now: number) {
  const window = now - (now % SIGN_IN_WINDOW_MS);
  if (account.kind === "owner") {
    deps.log("warn", "owner account locked", { minutes: SIGN_IN_WINDOW_MS / 60_000 });
    const to = deps.env.ORGANISER_EMAIL;
    if (to) {
      enqueueEmail(
        deps.db,
        { dedupeKey: `owner-locked:${window}`, to, ...ownerLockedEmail({ sender: senderOf(deps.env) }) },
        deps.env,
      );
    }
    return;
  }
  const member = account.member;
  // An address that is not a member's gets nothing: the lock itself is the same for it.
  if (!member) return;
  enqueueEmail(
    deps.db,
    {
      dedupeKey: `team-locked:${member.id}:${window}`,
      to: member.email,
      ...accountLockedEmail({ sender: senderOf(deps.env), name: member.name }),
    },
    deps.env,
  );
}
