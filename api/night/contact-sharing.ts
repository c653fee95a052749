import { and, desc, eq, lt, ne } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { contactShares, type ShareChoice, shareDefaults } from "../../db/rounds-schema.ts";
import { bookings, type Event, users } from "../../db/schema.ts";
import { BadRequest, NotFound } from "../lib/errors.ts";
import { type Ctx, choicesAround, openReport, participantOf, reportGroup } from "./feedback.ts";

// Contact sharing: what each match may see of a guest (Mobile, Email, Instagram or Nothing), the
// night's default set when the results are released, and the guest's choice per match.

/** Contact details as their owner chose to share them with one guest, or that they shared nothing. */
export type SharedContact = { phone?: string; email?: string; instagram?: string; sharedNothing?: true };

export type ShareSetting = { share: ShareChoice; instagram: string | null };

/**
 * The guest's last choice made at another night before `before` (by their number), or Mobile: what a
 * night's default is set to when its results are released.
 */
function lastChoiceBefore(db: DbOrTx, phone: string, eventId: number, before: number): ShareSetting {
  const newest = db
    .select({ share: contactShares.share, instagram: contactShares.instagram })
    .from(contactShares)
    .where(and(eq(contactShares.phone, phone), ne(contactShares.eventId, eventId), lt(contactShares.updatedAt, before)))
    .orderBy(desc(contactShares.updatedAt), desc(contactShares.id))
    .limit(1)
    .get();
  return newest ?? { share: "mobile", instagram: null };
}

/**
 * Sets, once, each paid guest's default for the night's matches: called in the transaction that
 * releases the results (docs/decisions/040-sharing-defaults-and-stream-rights.md). A default already
 * set is kept.
 */
export function setShareDefaults(tx: DbOrTx, eventId: number, releasedAt: number): void {
  const guests = tx
    .select({ userId: users.id, phone: users.phone })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .all();
  for (const guest of guests) {
    const setting = lastChoiceBefore(tx, guest.phone, eventId, releasedAt);
    tx.insert(shareDefaults)
      .values({ eventId, userId: guest.userId, ...setting })
      .onConflictDoNothing()
      .run();
  }
}

/**
 * The default for every match of a night the guest has not chosen for: the one set when the results
 * were released; for a night released without one (before defaults were stored), the same rule read
 * now. A choice for one match never changes what another match sees.
 */
export function defaultShareOf(
  db: DbOrTx,
  guest: { userId: number; phone: string },
  night: Pick<Event, "id" | "resultsReleasedAt">,
): ShareSetting {
  const fixed = db
    .select({ share: shareDefaults.share, instagram: shareDefaults.instagram })
    .from(shareDefaults)
    .where(and(eq(shareDefaults.eventId, night.id), eq(shareDefaults.userId, guest.userId)))
    .get();
  if (fixed) return fixed;
  if (night.resultsReleasedAt === null) return { share: "mobile", instagram: null };
  return lastChoiceBefore(db, guest.phone, night.id, night.resultsReleasedAt);
}

/** What `fromUserId` lets `toUserId` see at this night: their choice for that match, else the night's default. */
export function shareToward(
  db: DbOrTx,
  night: Pick<Event, "id" | "resultsReleasedAt">,
  fromUserId: number,
  toUserId: number,
  phone: string,
): ShareSetting {
  const chosen = db
    .select({ share: contactShares.share, instagram: contactShares.instagram })
    .from(contactShares)
    .where(
      and(
        eq(contactShares.eventId, night.id),
        eq(contactShares.fromUserId, fromUserId),
        eq(contactShares.toUserId, toUserId),
      ),
    )
    .get();
  return chosen ?? defaultShareOf(db, { userId: fromUserId, phone }, night);
}

/** The other's details as they chose to share them, when this guest may see any at all. */
export function contactOf(setting: ShareSetting, person: { phone: string; email: string }): SharedContact {
  switch (setting.share) {
    case "mobile":
      return { phone: person.phone };
    case "email":
      return { email: person.email };
    case "instagram":
      return setting.instagram ? { instagram: setting.instagram } : { sharedNothing: true };
    case "nothing":
      return { sharedNothing: true };
  }
}

const INSTAGRAM_HANDLE = /^@?([A-Za-z0-9._]{1,30})$/;

/**
 * A guest's choice of what one match may see: **Mobile**, **Email**, **Instagram** (with the handle)
 * or **Nothing**. Only for a match (mutual or friend), through the report link, once the results are
 * out; it takes effect at once (the other's report reads it on every load).
 */
export function shareContact(
  ctx: Ctx,
  input: { userId: number; eventId: number; token: unknown; partnerId: number; share: ShareChoice; instagram?: string },
  now: number,
): ShareSetting {
  openReport(ctx, input);
  participantOf(ctx.db, input.userId, input.eventId);
  let instagram: string | null = null;
  if (input.share === "instagram") {
    const handle = INSTAGRAM_HANDLE.exec((input.instagram ?? "").trim());
    if (!handle)
      throw BadRequest("Type your Instagram handle, like @yourname (letters, numbers, dots and underscores).");
    instagram = handle[1]!;
  }
  return ctx.db.transaction(
    (tx) => {
      const { mine, theirs } = choicesAround(tx, input.eventId, input.userId);
      const group = reportGroup(mine.get(input.partnerId), theirs.get(input.partnerId));
      if (group !== "mutual" && group !== "friends") throw NotFound("no such match at this event");
      const me = tx.select({ phone: users.phone }).from(users).where(eq(users.id, input.userId)).get()!;
      tx.insert(contactShares)
        .values({
          eventId: input.eventId,
          fromUserId: input.userId,
          toUserId: input.partnerId,
          phone: me.phone,
          share: input.share,
          instagram,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [contactShares.eventId, contactShares.fromUserId, contactShares.toUserId],
          set: { share: input.share, instagram, updatedAt: now },
        })
        .run();
      return { share: input.share, instagram };
    },
    { behavior: "immediate" },
  );
}
