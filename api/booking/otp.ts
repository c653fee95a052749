import { randomInt } from "node:crypto";
import { and, desc, eq, gt, isNull, like, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { phoneVerifications, rateLimitHits } from "../../db/schema.ts";
import { hmac, safeEqual } from "../lib/crypto.ts";
import { BadRequest, ProviderFailed, TooManyRequests } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { assertUnderLimit, hitsInWindow, type Limit, recordHit, releaseHit } from "../lib/rate-limit.ts";
import type { SmsProvider } from "../providers/sms/types.ts";

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const MAX_WRONG_TRIES = 5;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * Per phone, whatever the provider (docs/decisions/011): at most 10 wrong codes an hour across all
 * its codes, so "5 tries per code" times "3 codes per 10 minutes" cannot be chained into hundreds of
 * guesses; and at most 10 codes a day, so a phone cannot be bombed with texts 3 at a time.
 */
const WRONG_CODES: Limit = { bucket: "otp-wrong", max: 10, windowMs: HOUR };
const CODES_PER_DAY: Limit = { bucket: "otp-phone-day", max: 10, windowMs: DAY };

// ---- The console provider's codes (Twilio Verify keeps its own) ----

/**
 * Issues a fresh 6-digit code for `phone` and returns it (for the SMS body only). Only a keyed hash is
 * stored, so a copy of the database does not reveal live codes. Earlier codes for the phone are voided:
 * the latest text is the one the person will type.
 */
export function issueCode(db: Db, secret: string, phone: string, now: number): string {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  db.transaction(
    (tx) => {
      tx.update(phoneVerifications)
        .set({ consumedAt: now })
        .where(and(eq(phoneVerifications.phone, phone), isNull(phoneVerifications.consumedAt)))
        .run();
      tx.insert(phoneVerifications)
        .values({ phone, codeHash: hashCode(secret, phone, code), expiresAt: now + CODE_LIFETIME_MS, createdAt: now })
        .run();
    },
    { behavior: "immediate" },
  );
  // Old rows are never read again; trimming here keeps the table small without a scheduler.
  db.delete(phoneVerifications)
    .where(lt(phoneVerifications.expiresAt, now - DAY))
    .run();
  return code;
}

/**
 * `approved` consumes the code (single use); a wrong guess counts, and the fifth voids the code, so
 * guessing a 6-digit code is hopeless. `expired` when no live code exists.
 */
export function checkCode(
  db: Db,
  secret: string,
  phone: string,
  code: string,
  now: number,
): "approved" | "wrong" | "expired" {
  return db.transaction(
    (tx) => {
      const live = tx
        .select()
        .from(phoneVerifications)
        .where(
          and(
            eq(phoneVerifications.phone, phone),
            isNull(phoneVerifications.consumedAt),
            gt(phoneVerifications.expiresAt, now),
            lt(phoneVerifications.attempts, MAX_WRONG_TRIES),
          ),
        )
        .orderBy(desc(phoneVerifications.id))
        .get();
      if (!live) return "expired";
      if (safeEqual(live.codeHash, hashCode(secret, phone, code))) {
        tx.update(phoneVerifications).set({ consumedAt: now }).where(eq(phoneVerifications.id, live.id)).run();
        return "approved";
      }
      const attempts = live.attempts + 1;
      tx.update(phoneVerifications)
        .set({ attempts, consumedAt: attempts >= MAX_WRONG_TRIES ? now : null })
        .where(eq(phoneVerifications.id, live.id))
        .run();
      return "wrong";
    },
    { behavior: "immediate" },
  );
}

const hashCode = (secret: string, phone: string, code: string) => hmac(secret, "otp", `${phone}:${code}`);

// ---- The calls ----

export type OtpLimits = { perPhone: number; perAddress: number };

const phoneLimit = (max: number): Limit => ({ bucket: "otp-phone", max, windowMs: 10 * 60 * 1000 });
const addressLimit = (max: number): Limit => ({ bucket: "otp-address", max, windowMs: HOUR });
/**
 * Which address asked for each phone's codes (key `phone address`, at the same instant as the
 * address's hit), so a verified phone can give its address the count back.
 */
const SENT_FROM: Limit = { bucket: "otp-sent-from", max: Number.MAX_SAFE_INTEGER, windowMs: HOUR };
const sentFromKey = (phone: string, address: string) => `${phone} ${address}`;

/**
 * The per-address limit counts codes for numbers that never verify (docs/decisions/003): a phone
 * that typed its code gives back every hit its codes put on the addresses that asked for them in
 * the hour. Many real phones share one carrier or venue address; SMS pumping is codes to numbers
 * nobody holds, which never verify and so keep counting.
 */
function forgiveVerifiedPhone(db: Db, phone: string, now: number): void {
  const sent = db
    .select()
    .from(rateLimitHits)
    .where(
      and(
        eq(rateLimitHits.bucket, SENT_FROM.bucket),
        like(rateLimitHits.key, `${phone} %`),
        gt(rateLimitHits.at, now - HOUR),
      ),
    )
    .all();
  for (const hit of sent) {
    // Only the bucket names the hit to take back; the address's own maximum plays no part.
    releaseHit(db, addressLimit(0), hit.key.slice(phone.length + 1), hit.at);
    db.delete(rateLimitHits).where(eq(rateLimitHits.id, hit.id)).run();
  }
}

/**
 * Sends a code unless this browser already verified the phone. All limits are checked before any is
 * counted, so a refusal for one does not eat into the others. Every attempt that reaches the
 * provider counts, even a failed one: a failing number must not become a way to spam.
 */
export async function sendOtp(
  deps: { db: Db; sms: SmsProvider; log: Logger },
  input: { phone: string; address: string; alreadyVerified: boolean; limits: OtpLimits; now: number },
): Promise<{ PhoneVerification: boolean }> {
  if (input.alreadyVerified) return { PhoneVerification: true };
  const { db } = deps;
  const byPhone = phoneLimit(input.limits.perPhone);
  const byAddress = addressLimit(input.limits.perAddress);
  assertUnderLimit(db, byPhone, input.phone, input.now);
  if (hitsInWindow(db, CODES_PER_DAY, input.phone, input.now) >= CODES_PER_DAY.max) {
    throw TooManyRequests("too many codes for this phone today, try again tomorrow");
  }
  assertUnderLimit(db, byAddress, input.address, input.now);
  recordHit(db, byPhone, input.phone, input.now);
  recordHit(db, CODES_PER_DAY, input.phone, input.now);
  recordHit(db, byAddress, input.address, input.now);
  recordHit(db, SENT_FROM, sentFromKey(input.phone, input.address), input.now);
  try {
    await deps.sms.startVerification(input.phone);
  } catch (error) {
    deps.log("warn", "verification code not sent", { provider: deps.sms.name, error: String(error).slice(0, 200) });
    throw ProviderFailed("could not send the code");
  }
  return { PhoneVerification: false };
}

/**
 * Counts a guess as wrong before the provider sees it, in one synchronous step, so guesses sent in
 * parallel cannot all pass the check before any is counted.
 */
function reserveGuess(db: Db, phone: string, now: number): void {
  if (hitsInWindow(db, WRONG_CODES, phone, now) >= WRONG_CODES.max) {
    throw TooManyRequests("too many wrong codes for this phone, try again in an hour");
  }
  recordHit(db, WRONG_CODES, phone, now);
}

/**
 * Resolves when the code is right; a wrong, used, voided or expired code is a 400. Past the phone's
 * wrong codes for the hour every try is a 429, even the right code, and the provider is not asked.
 */
export async function verifyOtp(
  deps: { db: Db; sms: SmsProvider; log: Logger; now: () => number },
  phone: string,
  code: string,
): Promise<void> {
  const at = deps.now();
  reserveGuess(deps.db, phone, at);
  let result: Awaited<ReturnType<SmsProvider["checkVerification"]>>;
  try {
    result = await deps.sms.checkVerification(phone, code);
  } catch (error) {
    releaseHit(deps.db, WRONG_CODES, phone, at);
    deps.log("warn", "verification check failed", { provider: deps.sms.name, error: String(error).slice(0, 200) });
    throw ProviderFailed("could not check the code");
  }
  if (result !== "wrong") releaseHit(deps.db, WRONG_CODES, phone, at);
  if (result === "wrong") throw BadRequest("incorrect code", "wrong_code");
  if (result === "expired") throw BadRequest("code expired or already used; request a new one", "code_expired");
  forgiveVerifiedPhone(deps.db, phone, deps.now());
}
