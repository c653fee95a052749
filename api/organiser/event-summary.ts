import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { bookings, type Event, events, feedback, promoCodes, refunds, users } from "../../db/schema.ts";
import { isBalanced } from "../booking/seats.ts";
import { waitlistLength } from "../booking/waitlist.ts";
import { NotFound } from "../lib/errors.ts";
import { whoCame } from "../night/attendance.ts";
import { ratingProgress } from "../night/results.ts";
import type { adminEventSummary } from "./admin-schemas.ts";

/** One row of the organiser's Overview (`GET /api/admin-event-summary/{id}`): its schema's type (admin-schemas.ts). */
export type AdminEventSummary = Omit<z.output<typeof adminEventSummary>, "creditOutstandingCents" | "shortOfNumbers">;

/** The seats kept for each gender, or null when the event has one pool of seats (decision 015). */
function genderSeats(event: Event): { male: number; female: number } | null {
  return isBalanced(event) ? { male: event.seatsMale, female: event.seatsFemale } : null;
}

export function eventSummary(db: Db, eventId: number, now: number): AdminEventSummary {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");

  const count = (condition: SQL) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;
  const isPaid = sql`${bookings.status} = 'paid'`;
  const counts = db
    .select({
      paid: count(isPaid),
      paidMale: count(sql`${isPaid} and ${users.gender} = 'male'`),
      paidFemale: count(sql`${isPaid} and ${users.gender} = 'female'`),
      held: count(sql`${bookings.status} = 'held' and ${bookings.holdExpiresAt} > ${now}`),
      refunded: count(sql`${bookings.status} = 'refunded'`),
      checkedIn: count(sql`${bookings.status} in ('paid', 'refunded') and ${bookings.checkedInAt} is not null`),
      discountCents: sql<number>`coalesce(sum(case when ${isPaid} then ${bookings.discountCents} else 0 end), 0)`,
      receivedCents: sql<number>`coalesce(sum(case when ${bookings.status} in ('paid', 'refunded') and ${bookings.paymentIntentId} is not null then ${bookings.amountCents} else 0 end), 0)`,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(eq(bookings.eventId, eventId))
    .get();
  const refundedCents =
    db
      .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)` })
      .from(refunds)
      .innerJoin(bookings, eq(bookings.id, refunds.bookingId))
      .where(eq(bookings.eventId, eventId))
      .get()?.cents ?? 0;

  const codes = db
    .select({
      code: promoCodes.code,
      uses: sql<number>`count(*)`,
      cents: sql<number>`sum(${bookings.discountCents} - ${bookings.earlyBirdCents})`,
    })
    .from(bookings)
    .innerJoin(promoCodes, eq(promoCodes.id, bookings.promoCodeId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .groupBy(promoCodes.code)
    .orderBy(promoCodes.code)
    .all();

  const seats = genderSeats(event);
  const ended = event.status === "ended";
  const ratings = ratingsDone(db, event, now);
  const underWay = event.status === "started" || event.status === "ended";
  const came = underWay ? whoCame(db, eventId, now).size : 0;
  return {
    eventId: event.id,
    status: event.status,
    seats: { total: event.totalSeats, male: seats?.male ?? null, female: seats?.female ?? null },
    paid: {
      total: counts?.paid ?? 0,
      male: seats ? (counts?.paidMale ?? 0) : null,
      female: seats ? (counts?.paidFemale ?? 0) : null,
    },
    held: counts?.held ?? 0,
    waitlist: waitlistLength(db, eventId).total,
    refunded: counts?.refunded ?? 0,
    checkedIn: counts?.checkedIn ?? 0,
    revenue: ((counts?.receivedCents ?? 0) - refundedCents) / 100,
    matches: event.resultsReleasedAt !== null ? mutualMatches(db, eventId) : null,
    ratings,
    discount: (counts?.discountCents ?? 0) / 100,
    codes: codes.map((c) => ({ code: c.code, uses: c.uses, discount: c.cents / 100 })),
    feedbackGiven: ended ? ratings.done : null,
    came,
    noShows: underWay ? (counts?.paid ?? 0) - came : 0,
  };
}

function ratingsDone(db: Db, event: Event, now: number): { done: number; total: number } {
  if (event.status === "upcoming" || event.status === "cancelled") return { done: 0, total: 0 };
  const { done, notDone } = ratingProgress(db, event.id, now);
  return { done: done.length, total: done.length + notDone.length };
}

/** Pairs who liked each other, each pair once. */
function mutualMatches(db: Db, eventId: number): number {
  const back = alias(feedback, "back");
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(feedback)
      .innerJoin(
        back,
        and(
          eq(back.eventId, feedback.eventId),
          eq(back.fromUserId, feedback.toUserId),
          eq(back.toUserId, feedback.fromUserId),
        ),
      )
      .where(
        and(
          eq(feedback.eventId, eventId),
          eq(feedback.value, "like"),
          eq(back.value, "like"),
          sql`${feedback.fromUserId} < ${feedback.toUserId}`,
        ),
      )
      .get()?.n ?? 0
  );
}
