import { and, eq, gt, inArray, min } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookings, type Event, isWomanOrMan, type PersonGender, waitlistOffers } from "../../db/schema.ts";
import { changeStamp } from "../../db/sqlite.ts";
import type { DomainError } from "../lib/errors.ts";
import { liveOffer } from "./seats.ts";

/**
 * What this process already knows is full, so an on-sale rush's thousands of refusals cost almost
 * nothing (issue 38, docs/decisions/007-scale.md): once a first save has been refused `sold_out` (or
 * `gender_sold_out`) the usual way, the next first saves for that event (or gender) are refused from
 * here, without the save counted against the rate limit, the waitlist looked at or the seats counted.
 *
 * It is the event list cache's rule (event-list-cache.ts): what is remembered holds until
 * - anything is written to the database (`total_changes()` by this connection, `PRAGMA data_version`
 *   by another: a hold, a payment, a refund, a release, an organiser's edit, a waitlist offer);
 * - the soonest live hold or waitlist offer at the event runs out (a seat comes back with no write),
 *   or the event starts (then the answer is "booking has closed").
 * Only a phone with no booking at the event and no live offer for it is refused from here: its own
 * hold (a retry), its offer's seat and its paid seat (`already_booked`) are the usual path's to judge.
 */
export type SoldOutMemo = {
  /**
   * The refusal a first save by `phone` would get at `eventId` now, for `gender` as the event's
   * format settled it, when it is known without the usual reads; undefined otherwise.
   */
  refusal(eventId: number, phone: string, gender: PersonGender, now: number): DomainError | undefined;
  /** The event, as read when its refusal was remembered (while that still holds), or undefined. */
  event(eventId: number, now: number): Event | undefined;
  /** Remembers the usual path's `sold_out` or `gender_sold_out` for `event`; anything else is ignored. */
  remember(event: Event, refused: DomainError, now: number): void;
};

type Known = {
  stamp: string;
  until: number;
  event: Event;
  /** The refusal when the event is full ("all"), or each gender whose seats are gone. */
  full: Map<"all" | "male" | "female", DomainError>;
  /** Phones with any booking at the event or an offer still open or claimed: the usual path's. */
  ownPhones: Set<string>;
};

const memos = new WeakMap<Db, SoldOutMemo>();

/** The one memo per database connection. */
export function soldOutMemo(db: Db): SoldOutMemo {
  let memo = memos.get(db);
  if (!memo) {
    memo = createSoldOutMemo(db);
    memos.set(db, memo);
  }
  return memo;
}

function createSoldOutMemo(db: Db): SoldOutMemo {
  const stampNow = changeStamp(db);
  const known = new Map<number, Known>();

  const current = (eventId: number, now: number): Known | undefined => {
    const entry = known.get(eventId);
    if (!entry) return undefined;
    if (entry.stamp !== stampNow() || now >= entry.until) {
      known.delete(eventId);
      return undefined;
    }
    return entry;
  };

  return {
    refusal(eventId, phone, gender, now) {
      const entry = current(eventId, now);
      if (!entry) return undefined;
      const refused = entry.full.get("all") ?? (isWomanOrMan(gender) ? entry.full.get(gender) : undefined);
      if (!refused || entry.ownPhones.has(phone)) return undefined;
      return refused;
    },
    event(eventId, now) {
      return current(eventId, now)?.event;
    },
    remember(event, refused, now) {
      const gender = refused.extra.gender;
      const what =
        refused.code === "sold_out"
          ? "all"
          : refused.code === "gender_sold_out" && (gender === "male" || gender === "female")
            ? gender
            : undefined;
      if (!what) return;
      const stamp = stampNow();
      const entry = known.get(event.id);
      if (entry && entry.stamp === stamp && now < entry.until) {
        entry.full.set(what, refused);
        return;
      }
      const nextHoldExpiry = db
        .select({ at: min(bookings.holdExpiresAt) })
        .from(bookings)
        .where(and(eq(bookings.eventId, event.id), eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)))
        .get()?.at;
      const nextOfferExpiry = db
        .select({ at: min(waitlistOffers.expiresAt) })
        .from(waitlistOffers)
        .where(and(eq(waitlistOffers.eventId, event.id), liveOffer(now)))
        .get()?.at;
      // Read once here and exact while nothing is written: a refusal from memory then costs no query.
      const booked = db.select({ phone: bookings.phone }).from(bookings).where(eq(bookings.eventId, event.id)).all();
      const offered = db
        .select({ phone: waitlistOffers.phone })
        .from(waitlistOffers)
        .where(and(eq(waitlistOffers.eventId, event.id), inArray(waitlistOffers.status, ["open", "claimed"])))
        .all();
      known.set(event.id, {
        stamp,
        until: Math.min(
          event.startsAt,
          nextHoldExpiry ?? Number.POSITIVE_INFINITY,
          nextOfferExpiry ?? Number.POSITIVE_INFINITY,
        ),
        event,
        full: new Map([[what, refused]]),
        ownPhones: new Set([...booked, ...offered].map((row) => row.phone)),
      });
    },
  };
}
