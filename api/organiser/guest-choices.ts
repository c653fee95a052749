import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { type GuestChoice, guestChoices } from "../../db/guest-choice-schema.ts";
import { bookings, type Event, events, type User, users } from "../../db/schema.ts";
import { choiceLink } from "../booking/guest-choice.ts";
import { releaseHolds } from "../booking/holds.ts";
import { isBalanced, seatsLeft, seatUse } from "../booking/seats.ts";
import { endWaitlist } from "../booking/waitlist.ts";
import type { AppDeps } from "../deps.ts";
import { Conflict, NotFound } from "../lib/errors.ts";
import { guestKeyOf } from "../lib/guest-key.ts";
import { deliverBatch, enqueueSms } from "../messaging/outbox.ts";
import { cancelChoiceText, moveChoiceText } from "../messaging/templates/short-of-numbers.ts";
import { sendWalletUpdatesSoon, walletPassesOfEventChanged } from "../wallet/pass-changes.ts";

// A night short of numbers, cancelled or moved by the organiser (issue 52 part 3,
// docs/decisions/059-short-of-numbers.md): nobody's money moves now. Every paid guest gets a
// guest_choices row and one text with their signed link `/choose?t=`; they choose a refund, credit or
// (a move) the seat held for them on the new night, within 72 hours, and the refund is theirs if they
// don't (api/booking/guest-choice.ts settles each choice).

export const CHOICE_WINDOW_MS = 72 * 3_600_000;

export type ChoiceAskDeps = Pick<AppDeps, "db" | "env" | "sms" | "log" | "now"> &
  Partial<Pick<AppDeps, "mail" | "wallet" | "walletPush">>;

type Paid = { booking: typeof bookings.$inferSelect; user: User };

const paidOf = (tx: DbOrTx, eventId: number): Paid[] =>
  tx
    .select({ booking: bookings, user: users })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .orderBy(asc(bookings.id))
    .all();

/** The event cancelled as cancel-event cancels it: holds released, the waitlist closed, passes NOT VALID. */
function cancelNight(tx: DbOrTx, deps: ChoiceAskDeps, event: Event, movedToEventId?: number) {
  tx.update(events)
    .set({ status: "cancelled", ...(movedToEventId ? { movedToEventId } : {}) })
    .where(and(eq(events.id, event.id), eq(events.status, "upcoming")))
    .run();
  releaseHolds(tx, eq(bookings.eventId, event.id));
  endWaitlist(tx, { ...event, status: "cancelled" });
  walletPassesOfEventChanged(tx, deps, event.id, deps.now());
}

const textKey = (eventId: number, choiceId: number) => `choose:${eventId}:${choiceId}`;

function insertChoice(tx: DbOrTx, values: Omit<GuestChoice, "id" | "createdAt" | "choice" | "chosenAt" | "settledAt">) {
  return tx.insert(guestChoices).values(values).returning().get();
}

/** A choice of a refund (what the card paid) or credit (the full price) of `booking`, and its text. */
function askRefundOrCredit(tx: DbOrTx, deps: ChoiceAskDeps, event: Event, booking: Paid["booking"], deadline: number) {
  const choice = insertChoice(tx, {
    bookingId: booking.id,
    eventId: event.id,
    kind: "cancel",
    toEventId: null,
    heldBookingId: null,
    refundCents: booking.amountCents - booking.creditCents,
    creditCents: booking.amountCents,
    deadline,
  });
  enqueueSms(tx, {
    dedupeKey: textKey(event.id, choice.id),
    to: booking.phone,
    body: cancelChoiceText({
      event,
      refundCents: choice.refundCents,
      creditCents: choice.creditCents,
      deadline,
      chooseUrl: choiceLink(deps.env, choice.id),
    }),
  });
}

/**
 * **Cancel the night** (`cancel-event` with `guestsChoose: true`): the event cancelled, and for each
 * paid booking a choice of kind `cancel` (refund: what the card paid; credit: the full price) and its
 * text. No refund is made now; the refunds job skips these bookings until their choice is settled.
 */
export async function cancelForGuestsToChoose(deps: ChoiceAskDeps, eventId: number) {
  const now = deps.now();
  const asked = deps.db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (!event) throw NotFound("no such event");
      if (event.status !== "upcoming")
        throw Conflict(
          `The night is ${event.status}: only an upcoming night can be cancelled this way.`,
          "wrong_state",
        );
      cancelNight(tx, deps, event);
      const deadline = now + CHOICE_WINDOW_MS;
      const paid = paidOf(tx, event.id);
      for (const { booking } of paid) askRefundOrCredit(tx, deps, event, booking, deadline);
      return paid.length;
    },
    { behavior: "immediate" },
  );
  sendWalletUpdatesSoon(deps);
  const texts = await deliverBatch(deps, `choose:${eventId}:`);
  return { refunded: 0, failed: 0, sent: texts.sent, smsFailed: texts.failed, asked };
}

/** Whether `to` has a free seat for every guest of `paid` (per side where its seats are per side). */
function assertSeatsFor(tx: DbOrTx, to: Event, paid: Paid[], now: number) {
  const left = seatsLeft(to, seatUse(tx, to.id, now));
  const need = { total: paid.length, female: 0, male: 0 };
  for (const { user } of paid) if (user.gender === "female" || user.gender === "male") need[user.gender]++;
  const perSide = to.format === "women_men" || isBalanced(to);
  const short =
    left.total < need.total
      ? `${need.total} guests to move and ${left.total} free seats`
      : perSide && left.female !== null && left.female < need.female
        ? `${need.female} women to move and ${left.female} free seats for women`
        : perSide && left.male !== null && left.male < need.male
          ? `${need.male} men to move and ${left.male} free seats for men`
          : null;
  if (short) throw Conflict(`The other night has too few seats: ${short}.`, "not_enough_seats");
}

/**
 * **Move to another night** (`move-event-guests`): the from-night cancelled with `movedToEventId`; for
 * each paid guest a seat HELD on the to-night until the deadline (a copy of their details, counting
 * against its seats as any hold does), a choice of kind `move`, and its text.
 */
export async function moveEventGuests(deps: ChoiceAskDeps, input: { fromEventId: number; toEventId: number }) {
  const now = deps.now();
  const asked = deps.db.transaction(
    (tx) => {
      const from = tx.select().from(events).where(eq(events.id, input.fromEventId)).get();
      const to = tx.select().from(events).where(eq(events.id, input.toEventId)).get();
      if (!from || !to) throw NotFound("no such event");
      if (from.status !== "upcoming") throw Conflict(`The night is ${from.status}, not upcoming.`, "wrong_state");
      if (to.id === from.id) throw Conflict("Choose another night to move the guests to.", "wrong_state");
      if (to.status !== "upcoming" || to.startsAt <= now)
        throw Conflict("The night to move to must be upcoming and not started.", "wrong_state");
      if (to.format !== from.format) throw Conflict("The night to move to must have the same format.", "wrong_state");
      // A guest with a ticket for the new night already is not given a second seat there: they
      // choose a refund or credit of this one, as at a cancelled night (one paid seat per number).
      const booked = new Set(
        tx
          .select({ phone: bookings.phone })
          .from(bookings)
          .where(and(eq(bookings.eventId, to.id), eq(bookings.status, "paid")))
          .all()
          .map((b) => b.phone),
      );
      const all = paidOf(tx, from.id);
      const paid = all.filter((p) => !booked.has(p.booking.phone));
      assertSeatsFor(tx, to, paid, now);
      cancelNight(tx, deps, from, to.id);
      const deadline = now + CHOICE_WINDOW_MS;
      for (const { booking } of all.filter((p) => booked.has(p.booking.phone))) {
        askRefundOrCredit(tx, deps, from, booking, deadline);
      }
      for (const { booking, user } of paid) {
        const { id: _id, ...details } = user;
        const copy = tx.insert(users).values(details).returning().get();
        const held = tx
          .insert(bookings)
          .values({
            userId: copy.id,
            eventId: to.id,
            phone: booking.phone,
            status: "held",
            holdExpiresAt: deadline,
            heldSince: now,
            amountCents: booking.amountCents,
            guestKey: guestKeyOf(deps.env, booking.phone),
          })
          .returning()
          .get();
        const choice = insertChoice(tx, {
          bookingId: booking.id,
          eventId: from.id,
          kind: "move",
          toEventId: to.id,
          heldBookingId: held.id,
          refundCents: booking.amountCents - booking.creditCents,
          creditCents: booking.amountCents,
          deadline,
        });
        enqueueSms(tx, {
          dedupeKey: textKey(from.id, choice.id),
          to: booking.phone,
          body: moveChoiceText({ event: from, toEvent: to, deadline, chooseUrl: choiceLink(deps.env, choice.id) }),
        });
      }
      return all.length;
    },
    { behavior: "immediate" },
  );
  sendWalletUpdatesSoon(deps);
  await deliverBatch(deps, `choose:${input.fromEventId}:`);
  return { success: true as const, asked };
}
