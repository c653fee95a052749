import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { bookings, type Event } from "../../db/schema.ts";
import { addCredit, creditBalance, creditKeyOf } from "../booking/credit.ts";
import type { Env } from "../env.ts";
import { enqueueSms } from "../messaging/outbox.ts";
import { noMatchCreditReason, noMatchCreditText } from "../messaging/templates/credit.ts";
import { metInStartedRounds } from "./rounds.ts";

// The no-match promise (issue 52 part 4, docs/decisions/060-no-match-promise.md): at the results
// release of a night that promised `No match? Your next night is on us.`, every guest who came, rated
// everyone they met and has no match gets the price they paid as credit, and one text. Both are
// written in the release's own IMMEDIATE transaction, each under a key naming the booking, so a crash
// leaves both or neither and a second release (or a retry) writes nothing more.

/** A guest at the release, as api/night/results.ts reads them. */
export type PromiseCandidate = {
  userId: number;
  /** Came (whoCame), met someone and rated everyone they met. */
  done: boolean;
  /** Mutual matches: Date both ways, and Date or Friend both ways. */
  matches: number;
  friends: number;
};

export const noMatchCreditKey = (bookingId: number) => `nomatch:${bookingId}`;
/** Under the release's prefix (`results:{eventId}:`), so the release delivers it with the results. */
export const noMatchTextKey = (eventId: number, bookingId: number) => `results:${eventId}:nomatch:${bookingId}`;

/**
 * Whether the guest's coming is on record: the door checked them in, or they sat with a partner in a
 * round that started. whoCame's fallback for a night with no record (everyone paid counts as came) is
 * kind for a thank-you text but not proof for money, so it gives no credit.
 */
function cameOnRecord(
  tx: DbOrTx,
  eventId: number,
  booking: { userId: number; checkedInAt: number | null },
  now: number,
) {
  if (booking.checkedInAt !== null) return true;
  return (metInStartedRounds(tx, eventId, booking.userId, now)?.length ?? 0) > 0;
}

/**
 * Keeps the promise for one night inside the release's transaction: credit of the price paid (card
 * and credit parts, `bookings.amountCents`) on the number of each guest who qualifies, and one text.
 * Returns how many guests were given credit now (0 on a second run).
 */
export function keepNoMatchPromise(
  tx: DbOrTx,
  env: Pick<Env, "SESSION_SECRET">,
  event: Pick<Event, "id" | "name" | "noMatchPromise">,
  guests: readonly PromiseCandidate[],
  now: number,
): number {
  if (!event.noMatchPromise) return 0;
  const qualifying = new Set(guests.filter((g) => g.done && g.matches === 0 && g.friends === 0).map((g) => g.userId));
  if (qualifying.size === 0) return 0;
  const paid = tx
    .select({
      id: bookings.id,
      userId: bookings.userId,
      phone: bookings.phone,
      amountCents: bookings.amountCents,
      checkedInAt: bookings.checkedInAt,
    })
    .from(bookings)
    .where(and(eq(bookings.eventId, event.id), eq(bookings.status, "paid")))
    .all();
  let given = 0;
  for (const booking of paid) {
    if (!qualifying.has(booking.userId) || booking.amountCents <= 0) continue;
    if (!cameOnRecord(tx, event.id, booking, now)) continue;
    const guestKey = creditKeyOf(env, booking.phone);
    const wrote = addCredit(
      tx,
      {
        guestKey,
        amountCents: booking.amountCents,
        kind: "given",
        reason: noMatchCreditReason({ eventName: event.name }),
        uniqueKey: noMatchCreditKey(booking.id),
        bookingId: booking.id,
        eventId: event.id,
      },
      now,
    );
    if (!wrote) continue;
    enqueueSms(tx, {
      dedupeKey: noMatchTextKey(event.id, booking.id),
      to: booking.phone,
      body: noMatchCreditText({
        eventName: event.name,
        amountCents: booking.amountCents,
        balanceCents: creditBalance(tx, guestKey),
      }),
    });
    given++;
  }
  return given;
}
