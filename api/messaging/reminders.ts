import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { preparedPerDb } from "../../db/prepared.ts";
import { bookings, events, users } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { savedTicketLink } from "../lib/capability.ts";
import { enqueueEmail, enqueueSms } from "./outbox.ts";
import { senderOf } from "./templates/email-frame.ts";
import { reminderEmail, reminderText } from "./templates/reminder.ts";

const HOUR = 3_600_000;

export const reminderDedupeKey = (hours: number, bookingId: number) => `reminder-${hours}h:${bookingId}`;

/**
 * Which reminder a paid booking is due now, if any. Only the latest moment passed counts (after a
 * long outage an attendee gets the 2-hour reminder, not both), and a moment that passed before the
 * booking was paid is skipped, except the first reminder: someone who pays under 24 hours ahead gets
 * it once, right away, while the next reminder is still to come.
 */
export function dueReminder(
  booking: { paidAt: number | null },
  startsAt: number,
  hours: number[],
  now: number,
): number | null {
  if (now >= startsAt || hours.length === 0) return null;
  // `hours` is sorted from the earliest reminder (most hours before) to the last.
  const due = hours.filter((h) => now >= startsAt - h * HOUR);
  const latest = due.at(-1);
  if (latest === undefined) return null;
  const paidAt = booking.paidAt ?? 0;
  if (paidAt <= startsAt - latest * HOUR) return latest;
  const isFirst = latest === hours[0];
  return isFirst && hours.length > 1 ? latest : null;
}

/** Paid bookings of events still to begin (upcoming or started) that start after `now`, up to `horizon`. */
const paidStartingBetween = preparedPerDb((db) =>
  db
    .select({ booking: bookings, event: events, user: users })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        eq(bookings.status, "paid"),
        inArray(events.status, ["upcoming", "started"]),
        gt(events.startsAt, sql.placeholder("now")),
        lte(events.startsAt, sql.placeholder("horizon")),
      ),
    )
    .prepare(),
);

/**
 * Queues the reminders due at `now` for every paid, unrefunded attendee of an event that has not
 * begun. The outbox's unique key per (reminder, booking) makes each go once, however often this runs
 * and on however many servers.
 */
export function queueDueReminders(db: Db, env: Env, now: number): number {
  const hours = env.REMINDER_HOURS;
  if (hours.length === 0) return 0;
  const horizon = now + Math.max(...hours) * HOUR;
  const rows = paidStartingBetween(db).all({ now, horizon });
  let queued = 0;
  for (const { booking, event, user } of rows) {
    const h = dueReminder(booking, event.startsAt, hours, now);
    if (h === null) continue;
    enqueueSms(db, {
      dedupeKey: reminderDedupeKey(h, booking.id),
      to: booking.phone,
      body: reminderText({ event, now, ticketsUrl: `${env.PUBLIC_BASE_URL}/tickets` }),
    });
    // The same reminder by email, with the night's .ics again (docs/decisions/033-emails.md).
    if (user.email && booking.uniqueCode) {
      const content = reminderEmail({
        sender: senderOf(env),
        origin: env.PUBLIC_BASE_URL,
        event,
        name: user.name,
        userID: user.id,
        uniqueCode: booking.uniqueCode,
        ticketUrl: savedTicketLink(env, booking.id),
        now,
      });
      const dedupeKey = `${reminderDedupeKey(h, booking.id)}:email`;
      enqueueEmail(db, { dedupeKey, to: user.email, bookingId: booking.id, ...content }, env);
    }
    queued++;
  }
  return queued;
}
