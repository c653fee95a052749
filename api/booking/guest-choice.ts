import { and, asc, eq, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { type GuestChoice, type GuestChoiceValue, guestChoices } from "../../db/guest-choice-schema.ts";
import { bookings, events } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { isValidLinkToken, linkToken } from "../lib/capability.ts";
import { BadRequest, Conflict, DomainError } from "../lib/errors.ts";
import { deliverPending, enqueueSms } from "../messaging/outbox.ts";
import { cancelledForCreditText } from "../messaging/templates/credit.ts";
import { recordActivity } from "../organiser/activity.ts";
import { refundPayment } from "../organiser/refunds.ts";
import { sendWalletUpdatesSoon, walletPassesChanged } from "../wallet/pass-changes.ts";
import { queueBookingEmail } from "./booking-email.ts";
import { moneyOfSeat } from "./booking-money.ts";
import { bookingStatusAfter } from "./booking-status.ts";
import { GUEST_ACTOR } from "./cancel-booking.ts";
import { loadBookingContextById } from "./checkout.ts";
import { addCredit, cancelCreditKey, creditBalance, creditKeyOf } from "./credit.ts";
import { issueTicket, sendQueuedConfirmation } from "./ticket.ts";

// A guest's choice when the organiser cancels or moves a night short of numbers (issue 52 part 3,
// docs/decisions/059-short-of-numbers.md). The link `/choose?t={id}.{signature}` names one
// guest_choices row; the choice is written once, in an IMMEDIATE transaction, so two taps at once
// settle once, and then settled: a refund through the one refund path, credit through the ledger
// (the cancel's key), a move as the transfer moves a sale (the held seat becomes paid and carries the
// old booking's money; the old ticket NOT VALID). At the deadline the job `guest-choices` chooses the
// refund for whoever did not choose.

type ChoiceDeps = Pick<AppDeps, "db" | "env" | "sms" | "payments" | "log" | "now"> &
  Partial<Pick<AppDeps, "mail" | "wallet" | "walletPush">>;

export const choiceToken = (env: AppDeps["env"], choiceId: number) =>
  `${choiceId}.${linkToken(env, "guest-choice", choiceId)}`;

export const choiceLink = (env: AppDeps["env"], choiceId: number) =>
  `${env.PUBLIC_BASE_URL}/choose?t=${choiceToken(env, choiceId)}`;

/** The choice a token names: 400 when it is not a link's shape, 401 when its signature is wrong. */
export function choiceIdOf(env: AppDeps["env"], token: string): number {
  const [idPart, signature, ...rest] = token.split(".");
  const id = Number(idPart);
  if (rest.length > 0 || !signature || !Number.isSafeInteger(id) || id <= 0)
    throw BadRequest("This link is not complete: open it again from the text you were sent.");
  if (!isValidLinkToken(env, "guest-choice", [id], signature))
    throw new DomainError(
      401,
      "This link is not valid: open it again from the text you were sent.",
      "choice_link_invalid",
    );
  return id;
}

const STATUS = { refund: "refunded", credit: "credited", move: "moved" } as const;
export type ChoiceStatus = (typeof STATUS)[GuestChoiceValue];

const rowOf = (db: DbOrTx, id: number) => db.select().from(guestChoices).where(eq(guestChoices.id, id)).get();

function rowOrInvalid(db: DbOrTx, id: number): GuestChoice {
  const row = rowOf(db, id);
  if (!row) throw new DomainError(401, "This link is not valid any more.", "choice_link_invalid");
  return row;
}

/** GET /api/guest-choice: the night, what happened, the amounts and the choice made. Nothing of anyone else. */
export function viewGuestChoice(deps: Pick<AppDeps, "db" | "env">, token: string) {
  const row = rowOrInvalid(deps.db, choiceIdOf(deps.env, token));
  const event = deps.db.select().from(events).where(eq(events.id, row.eventId)).get()!;
  const to = row.toEventId ? deps.db.select().from(events).where(eq(events.id, row.toEventId)).get() : undefined;
  return {
    kind: row.kind,
    eventName: event.name,
    startsAt: new Date(event.startsAt).toISOString(),
    timeZone: event.timeZone,
    toEvent: to
      ? { name: to.name, startsAt: new Date(to.startsAt).toISOString(), timeZone: to.timeZone, address: to.address }
      : null,
    refundCents: row.refundCents,
    creditCents: row.creditCents,
    deadline: new Date(row.deadline).toISOString(),
    choice: row.choice,
  };
}

const alreadyChosen = (choice: GuestChoiceValue, byDeadline: boolean) =>
  Conflict(
    byDeadline
      ? "The time to choose has passed, so your booking is being refunded."
      : `You have already chosen ${choice === "move" ? "to keep your seat on the new night" : `the ${choice}`}.`,
    "already_chosen",
    { choice },
  );

/**
 * POST /api/guest-choice: writes the choice once and settles it. The same choice again answers the
 * same; another is 409 `already_chosen` naming the one made (after the deadline: the refund).
 */
export async function chooseForGuest(deps: ChoiceDeps, token: string, choice: GuestChoiceValue) {
  const id = choiceIdOf(deps.env, token);
  const now = deps.now();
  const outcome = deps.db.transaction(
    (tx) => {
      const row = rowOrInvalid(tx, id);
      if (row.choice === null && now >= row.deadline) {
        decide(tx, row, "refund", now, "system");
        return { error: alreadyChosen("refund", true) };
      }
      if (row.choice !== null) {
        if (row.choice !== choice) return { error: alreadyChosen(row.choice, row.chosenAt === row.deadline) };
        return { row };
      }
      if (choice === "move" && row.kind !== "move")
        throw BadRequest("Keeping a seat is offered only when the night moved: choose the refund or credit.");
      decide(tx, row, choice, now, "guest");
      return { row: { ...row, choice, chosenAt: now } };
    },
    { behavior: "immediate" },
  );
  if ("error" in outcome) {
    // The deadline's refund, made now rather than at the job's next tick.
    await settleChoice(deps, id).catch(() => undefined);
    throw outcome.error;
  }
  await settleChoice(deps, id);
  return { choice, status: STATUS[choice] };
}

function decide(tx: DbOrTx, row: GuestChoice, choice: GuestChoiceValue, now: number, by: "guest" | "system") {
  tx.update(guestChoices)
    .set({ choice, chosenAt: by === "system" ? row.deadline : now })
    .where(and(eq(guestChoices.id, row.id), isNull(guestChoices.choice)))
    .run();
  const booking = tx.select().from(bookings).where(eq(bookings.id, row.bookingId)).get();
  recordActivity(
    tx,
    {
      actor: by === "guest" ? GUEST_ACTOR : "system",
      actorKind: by,
      action: "guest chose",
      eventId: row.eventId,
      userId: booking?.userId ?? null,
      detail: by === "guest" ? choice : "refund (no choice by the deadline)",
    },
    now,
  );
}

/** The held seat on the new night given back (a refund or credit instead of the move). */
function releaseHeld(tx: DbOrTx, row: GuestChoice) {
  if (row.heldBookingId === null) return;
  tx.update(bookings)
    .set({ status: "released" })
    .where(and(eq(bookings.id, row.heldBookingId), eq(bookings.status, "held")))
    .run();
}

/** Carries out a written choice, once; safe to run again (a crash, a failed refund, the job's retry). */
export async function settleChoice(deps: ChoiceDeps, id: number): Promise<void> {
  const row = rowOf(deps.db, id);
  if (!row || row.choice === null || row.settledAt !== null) return;
  if (row.choice === "refund") return settleRefund(deps, row);
  const settled = deps.db.transaction(
    (tx) => {
      const again = rowOf(tx, id);
      if (!again || again.settledAt !== null) return null;
      const booking = tx.select().from(bookings).where(eq(bookings.id, row.bookingId)).get();
      const paid = booking?.status === "paid";
      const moved = row.choice === "move" && paid ? moveSale(tx, deps, row, booking) : null;
      if (row.choice === "move" && !paid) releaseHeld(tx, row);
      if (row.choice === "credit") {
        releaseHeld(tx, row);
        if (paid) creditInstead(tx, deps, row, booking);
      }
      tx.update(guestChoices).set({ settledAt: deps.now() }).where(eq(guestChoices.id, id)).run();
      return { moved };
    },
    { behavior: "immediate" },
  );
  if (settled?.moved) await sendQueuedConfirmation(deps, settled.moved);
  sendWalletUpdatesSoon(deps);
  await deliverPending(deps, { dedupePrefix: `choice:${id}` }).catch((error: unknown) =>
    deps.log("warn", "choice text not sent yet; the outbox retries", { error: String(error).slice(0, 200) }),
  );
}

type Booking = typeof bookings.$inferSelect;

function creditInstead(tx: DbOrTx, deps: ChoiceDeps, row: GuestChoice, booking: Booking) {
  const now = deps.now();
  const event = tx.select().from(events).where(eq(events.id, row.eventId)).get()!;
  const guestKey = creditKeyOf(deps.env, booking.phone);
  addCredit(
    tx,
    {
      guestKey,
      amountCents: row.creditCents,
      kind: "cancel",
      reason: `${event.name} was ${row.kind === "move" ? "moved" : "cancelled"}: taken as credit`,
      uniqueKey: cancelCreditKey(booking.id),
      bookingId: booking.id,
      eventId: event.id,
    },
    now,
  );
  tx.update(bookings)
    .set({ status: bookingStatusAfter(booking.status, "cancelled"), seatReleased: true })
    .where(eq(bookings.id, booking.id))
    .run();
  walletPassesChanged(tx, deps, [booking.id], now);
  enqueueSms(tx, {
    dedupeKey: `choice:${row.id}:credit`,
    to: booking.phone,
    body: cancelledForCreditText({
      eventName: event.name,
      amountCents: row.creditCents,
      balanceCents: creditBalance(tx, guestKey),
    }),
  });
}

/** The held seat becomes the paid one, carrying the sale's money; the old ticket NOT VALID. */
function moveSale(tx: DbOrTx, deps: ChoiceDeps, row: GuestChoice, booking: Booking): number | null {
  const now = deps.now();
  if (row.heldBookingId === null) return null;
  tx.update(bookings)
    .set({ status: bookingStatusAfter(booking.status, "transferred"), paymentIntentId: null, seatReleased: true })
    .where(eq(bookings.id, booking.id))
    .run();
  tx.update(bookings)
    .set({
      status: "paid",
      holdExpiresAt: now,
      ...moneyOfSeat(booking, now),
    })
    .where(eq(bookings.id, row.heldBookingId))
    .run();
  const ctx = loadBookingContextById(tx, row.heldBookingId);
  if (!ctx) return null;
  const uniqueCode = issueTicket(tx, deps.env, ctx, now);
  queueBookingEmail(tx, deps.env, ctx, { uniqueCode, document: undefined }, now);
  walletPassesChanged(tx, deps, [booking.id], now);
  return row.heldBookingId;
}

async function settleRefund(deps: ChoiceDeps, row: GuestChoice) {
  const booking = deps.db.transaction(
    (tx) => {
      releaseHeld(tx, row);
      return tx.select().from(bookings).where(eq(bookings.id, row.bookingId)).get();
    },
    { behavior: "immediate" },
  );
  if (booking?.status === "paid" && booking.paymentIntentId) {
    // The one refund path: the card's part back, any credit's part back as credit (decision 057).
    await refundPayment(deps, booking.paymentIntentId);
  } else if (booking?.status === "paid") {
    // Paid wholly by credit: nothing to send to a card, so the credit goes back as credit.
    deps.db.transaction((tx) => creditInstead(tx, deps, row, booking), { behavior: "immediate" });
  }
  deps.db.update(guestChoices).set({ settledAt: deps.now() }).where(eq(guestChoices.id, row.id)).run();
}

/**
 * The job `guest-choices`: whoever has not chosen by the deadline gets the refund, and a choice
 * written but not settled (a crash, a provider that failed) is settled again. One failing refund
 * stops nobody else; it is tried on the next tick.
 */
export async function decideOverdueChoices(deps: ChoiceDeps, now: number): Promise<number> {
  const rows = deps.db
    .select()
    .from(guestChoices)
    .where(and(isNull(guestChoices.settledAt), or(isNotNull(guestChoices.choice), lte(guestChoices.deadline, now))))
    .orderBy(asc(guestChoices.id))
    .all();
  let settled = 0;
  for (const row of rows) {
    try {
      if (row.choice === null)
        deps.db.transaction(
          (tx) => {
            const again = rowOf(tx, row.id);
            if (again?.choice === null) decide(tx, again, "refund", now, "system");
          },
          { behavior: "immediate" },
        );
      await settleChoice(deps, row.id);
      settled++;
    } catch (error) {
      deps.log("warn", "guest choice not settled yet", { choiceId: row.id, error: String(error).slice(0, 200) });
    }
  }
  return settled;
}
