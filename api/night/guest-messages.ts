import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { z } from "zod";
import { GUEST_MESSAGE, guestMessageBody } from "../../common/guest-message.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { type GuestAudience, guestMessages } from "../../db/rounds-schema.ts";
import { bookings, type Event, events } from "../../db/schema.ts";
import { Conflict, NotFound, TooManyRequests } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { deliverBatch, enqueueSms } from "../messaging/outbox.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { whoCame } from "./attendance.ts";
import type { guestMessagePreview } from "./night-schemas.ts";

/**
 * **Message guests** (docs/decisions/019-running-the-night.md): one text from the organiser or a host
 * to the night's paid guests, all of them or by whether they came. "Came" is `whoCame`
 * (attendance.ts), the definition every other count uses.
 */

type Deps = { db: Db; sms: SmsProvider; log: Logger; now: () => number };

const HOUR = 60 * 60_000;

export type AudienceCounts = Record<GuestAudience, number>;

/** What the dialog shows before sending: how many each audience reaches, and what is left of the hour's limit. */
export type GuestMessagePreview = z.output<typeof guestMessagePreview>;

function findEvent(db: DbOrTx, eventId: number): Event {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  return event;
}

const isOpen = (event: Event) => event.status === "upcoming" || event.status === "started";

/** The paid guests of each audience, in booking order. */
function audiences(db: DbOrTx, eventId: number, now: number) {
  const paid = db
    .select({ userId: bookings.userId, phone: bookings.phone })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .orderBy(asc(bookings.id))
    .all();
  const came = whoCame(db, eventId, now);
  return {
    all: paid,
    arrived: paid.filter((p) => came.has(p.userId)),
    not_arrived: paid.filter((p) => !came.has(p.userId)),
  } satisfies Record<GuestAudience, unknown[]>;
}

const sentSince = (db: DbOrTx, eventId: number, since: number) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(guestMessages)
    .where(and(eq(guestMessages.eventId, eventId), gt(guestMessages.createdAt, since)))
    .get()?.n ?? 0;

export function previewGuestMessage(db: Db, eventId: number, now: number): GuestMessagePreview {
  const event = findEvent(db, eventId);
  const lists = audiences(db, eventId, now);
  return {
    eventName: event.name,
    counts: { all: lists.all.length, arrived: lists.arrived.length, not_arrived: lists.not_arrived.length },
    sentLastHour: sentSince(db, eventId, now - HOUR),
    perHour: GUEST_MESSAGE.perHour,
    open: isOpen(event),
  };
}

/**
 * Queues the message to every guest of the audience and sends it. The message's row and its texts
 * commit together; each text is keyed by the message's id and the guest, so the outbox sends it once,
 * however often delivery is retried or the server restarts. A send repeated with the same `clientKey`
 * is the same message: nothing new is queued or counted, and what is still pending is sent again.
 * Refused once the event has ended (409), and past GUEST_MESSAGE.perHour messages in an hour (429).
 */
export async function messageGuests(
  deps: Deps,
  input: { eventId: number; to: GuestAudience; text: string; clientKey?: string; actor: string },
): Promise<{ sent: number; failed: number; messageId: number; created: boolean }> {
  const now = deps.now();
  const { messageId, created } = deps.db.transaction(
    (tx) => {
      const event = findEvent(tx, input.eventId);
      if (input.clientKey !== undefined) {
        const before = tx
          .select({ id: guestMessages.id })
          .from(guestMessages)
          .where(and(eq(guestMessages.eventId, input.eventId), eq(guestMessages.clientKey, input.clientKey)))
          .get();
        if (before) return { messageId: before.id, created: false };
      }
      if (!isOpen(event)) {
        throw Conflict(
          `The event has ${event.status === "cancelled" ? "been cancelled" : "ended"}: messages to its guests have closed.`,
          "wrong_state",
        );
      }
      if (sentSince(tx, input.eventId, now - HOUR) >= GUEST_MESSAGE.perHour) {
        throw TooManyRequests(
          `At most ${GUEST_MESSAGE.perHour} messages an hour go to one event's guests. Try again later.`,
        );
      }
      const guests = audiences(tx, input.eventId, now)[input.to];
      const row = tx
        .insert(guestMessages)
        .values({
          eventId: input.eventId,
          clientKey: input.clientKey ?? null,
          audience: input.to,
          text: input.text,
          actor: input.actor,
          recipients: guests.length,
          createdAt: now,
        })
        .returning({ id: guestMessages.id })
        .get();
      const body = guestMessageBody(event.name, input.text);
      for (const guest of guests) {
        enqueueSms(tx, { dedupeKey: `${prefixOf(input.eventId, row.id)}${guest.userId}`, to: guest.phone, body });
      }
      return { messageId: row.id, created: true };
    },
    { behavior: "immediate" },
  );
  const result = await deliverBatch(deps, prefixOf(input.eventId, messageId));
  return { ...result, messageId, created };
}

// The trailing colon keeps message 1's texts apart from message 12's.
const prefixOf = (eventId: number, messageId: number) => `message:${eventId}:${messageId}:`;
