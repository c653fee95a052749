import { and, eq, isNotNull, ne } from "drizzle-orm";
import { doorsOpenAtOf } from "../../common/doors-open.ts";
import type { DbOrTx } from "../../db/client.ts";
import {
  type Booking,
  bookings,
  type Event,
  events,
  type PersonGender,
  users,
  type WantsToMeet,
} from "../../db/schema.ts";
import { type TransferOffer, transferOffers } from "../../db/transfer-schema.ts";
import type { AppDeps } from "../deps.ts";
import { isValidLinkToken, linkToken } from "../lib/capability.ts";
import { Conflict, Forbidden } from "../lib/errors.ts";
import { guestKeyOf } from "../lib/guest-key.ts";
import { deliverPending, enqueueSms } from "../messaging/outbox.ts";
import { transferOfferText } from "../messaging/templates/transfer.ts";
import { recordActivity } from "../organiser/activity.ts";
import { sendWalletUpdatesSoon, walletPassesChanged } from "../wallet/pass-changes.ts";
import { queueBookingEmail } from "./booking-email.ts";
import { moneyOfSeat } from "./booking-money.ts";
import { bookingStatusAfter } from "./booking-status.ts";
import { GUEST_ACTOR } from "./cancel-booking.ts";
import { loadBookingContextById } from "./checkout.ts";
import type { StoredImage } from "./images.ts";
import { assertAgeAllowed } from "./prices.ts";
import { isBalanced, paidBookingOf } from "./seats.ts";
import { issueTicket, sendQueuedConfirmation } from "./ticket.ts";

/**
 * A ticket given to a friend (issue 52, docs/decisions/058-ticket-transfer.md). The guest offers their
 * paid seat to a friend's mobile (`offerTransfer`); the friend's link (`/transfer?t=`) is a signed
 * capability naming the offer. The friend verifies the number and sends the details form with
 * `transferToken` (`acceptTransfer`): in one transaction the buyer's booking becomes `transferred`
 * (NOT VALID at the door, on the phone and in the wallet), and the friend gets a paid booking of
 * their own that carries the sale's money (price, payment, paid time), so every sum counts the sale
 * once, while the invoice stays the buyer's. The seat is the same seat: the count does not change.
 */

/**
 * The friend's link token: the offer's id, its event's id (the page loads the night's form by it)
 * and their signature, so the link names nothing else and neither id can be changed.
 */
export const transferToken = (env: AppDeps["env"], offerId: number, eventId: number) =>
  `${offerId}.${eventId}.${linkToken(env, "transfer", offerId, eventId)}`;

export const transferLink = (env: AppDeps["env"], offerId: number, eventId: number) =>
  `${env.PUBLIC_BASE_URL}/transfer?t=${transferToken(env, offerId, eventId)}`;

const INVALID_LINK = "this transfer link is not valid";

/** The offer a token names, checked before the database is read; 403 `invalid_link` otherwise. */
export function offerIdOf(env: AppDeps["env"], token: string): number {
  const [offer, event, signature] = token.split(".");
  const ids = [Number(offer), Number(event)];
  if (!ids.every((id) => Number.isSafeInteger(id) && id > 0) || !isValidLinkToken(env, "transfer", ids, signature))
    throw Forbidden(INVALID_LINK, "invalid_link");
  return ids[0]!;
}

const doorsOpen = () =>
  Conflict("The doors have opened, so this ticket can no longer be given to someone else.", "transfer_doors_open");

/** The refusals a ticket's state gives, the same for the offer and its acceptance. */
function assertTransferable(booking: Booking, event: Event, now: number, accepting: boolean) {
  if (booking.status === "transferred")
    throw accepting
      ? Conflict("This ticket has already been given to someone else.", "transfer_ended")
      : Conflict("This ticket has already been given to a friend.", "not_transferable");
  if (booking.status !== "paid")
    throw accepting
      ? Conflict("This ticket was refunded or cancelled, so it can no longer be given.", "transfer_ended")
      : Conflict("This booking is not paid, so there is no ticket to give.", "not_paid");
  if (booking.transferredFrom !== null)
    throw Conflict(
      "This ticket was given to you by a friend, so it cannot be given again: one move per ticket.",
      "not_transferable",
    );
  if (event.status !== "upcoming" || now >= doorsOpenAtOf(event)) throw doorsOpen();
}

function assertNoTicketThere(tx: DbOrTx, eventId: number, phone: string) {
  if (paidBookingOf(tx, eventId, phone))
    throw Conflict("That number already has a ticket for this night.", "transfer_has_ticket");
}

/** Open offers of nights whose doors opened: expired, and the friend's number forgotten. */
export function expireTransferOffers(db: DbOrTx, now: number): number {
  const open = db
    .select({ id: transferOffers.id, event: events })
    .from(transferOffers)
    .innerJoin(events, eq(events.id, transferOffers.eventId))
    .where(eq(transferOffers.status, "open"))
    .all()
    .filter((row) => row.event.status !== "upcoming" || now >= doorsOpenAtOf(row.event));
  for (const row of open)
    db.update(transferOffers)
      .set({ status: "expired", toPhone: "", decidedAt: now })
      .where(eq(transferOffers.id, row.id))
      .run();
  return open.length;
}

/** The event a transfer offer is of, for the form's questions (the night's format); undefined when unknown. */
export function transferEventOf(db: DbOrTx, offerId: number): number | undefined {
  return db.select({ eventId: transferOffers.eventId }).from(transferOffers).where(eq(transferOffers.id, offerId)).get()
    ?.eventId;
}

export const transferTextKey = (offerId: number) => `transfer:${offerId}`;

/**
 * POST /api/transfer-ticket: the signed-in guest offers their paid seat to `toPhone`. A second offer
 * of the same ticket replaces the one still open (its link stops working), so at most one friend
 * can take it. The friend's text goes through the outbox, transactional.
 */
export async function offerTransfer(
  deps: AppDeps,
  phone: string,
  input: { eventId: number; userId: number; toPhone: string },
): Promise<{ status: "offered" }> {
  const now = deps.now();
  const offerId = deps.db.transaction(
    (tx) => {
      const booking = tx
        .select()
        .from(bookings)
        .where(and(eq(bookings.eventId, input.eventId), eq(bookings.userId, input.userId)))
        .get();
      // No booking and another number's booking answer alike, as cancel-booking does.
      if (!booking || booking.phone !== phone) throw Forbidden("this is not a booking of your number");
      const event = tx.select().from(events).where(eq(events.id, booking.eventId)).get();
      if (!event) throw Forbidden("this is not a booking of your number");
      assertTransferable(booking, event, now, false);
      if (input.toPhone === booking.phone)
        throw Conflict("That is your own number: enter your friend's mobile.", "transfer_own_number");
      assertNoTicketThere(tx, event.id, input.toPhone);
      tx.update(transferOffers)
        .set({ status: "replaced", toPhone: "", decidedAt: now })
        .where(and(eq(transferOffers.bookingId, booking.id), eq(transferOffers.status, "open")))
        .run();
      const offer = tx
        .insert(transferOffers)
        .values({ bookingId: booking.id, eventId: event.id, toPhone: input.toPhone, createdAt: now })
        .returning({ id: transferOffers.id })
        .get();
      enqueueSms(tx, {
        dedupeKey: transferTextKey(offer.id),
        to: input.toPhone,
        body: transferOfferText({ event, transferUrl: transferLink(deps.env, offer.id, event.id) }),
      });
      return offer.id;
    },
    { behavior: "immediate" },
  );
  await deliverPending(deps, { dedupePrefix: transferTextKey(offerId) }).catch((error: unknown) =>
    deps.log("warn", "transfer text not sent yet; the outbox retries", { error: String(error).slice(0, 200) }),
  );
  return { status: "offered" };
}

export type Friend = {
  phone: string;
  name: string;
  email: string;
  gender: PersonGender;
  wantsToMeet?: WantsToMeet | null;
  dateOfBirth: string;
};

type Found = { offer: TransferOffer; booking: Booking; event: Event; buyerGender: PersonGender };

/**
 * The offer and the ticket it gives, for this verified phone, or the refusal saying why. Called once
 * before the photo is stored (a refused form stores nothing) and again inside the transaction.
 */
function findOffer(tx: DbOrTx, offerId: number, friend: Friend, now: number): Found {
  const offer = tx.select().from(transferOffers).where(eq(transferOffers.id, offerId)).get();
  if (!offer) throw Forbidden(INVALID_LINK, "invalid_link");
  if (offer.status === "expired") throw doorsOpen();
  if (offer.status !== "open")
    throw Conflict("This link has already been used, or a newer one replaced it.", "transfer_ended");
  if (offer.toPhone !== friend.phone)
    throw Forbidden("This link was sent to another number: verify the number it was texted to.", "forbidden");
  const ctx = loadBookingContextById(tx, offer.bookingId);
  if (!ctx) throw Forbidden(INVALID_LINK, "invalid_link");
  const { booking, event, user } = ctx;
  assertTransferable(booking, event, now, true);
  assertNoTicketThere(tx, event.id, friend.phone);
  // The seat stays on its side at Women meet men (and at any night with seats per side).
  if ((event.format === "women_men" || isBalanced(event)) && friend.gender !== user.gender)
    throw Conflict(
      `This ticket is for a ${user.gender === "female" ? "woman" : "man"}: at this night the seat stays on its side.`,
      "transfer_wrong_side",
      { gender: user.gender },
    );
  assertAgeAllowed(event, friend.gender, friend.dateOfBirth);
  return { offer, booking, event, buyerGender: user.gender };
}

/** The refusals of a form with `transferToken` before its photo is stored; the offer's id. */
export function checkTransfer(deps: Pick<AppDeps, "db" | "env">, token: string, friend: Friend, now: number): number {
  const offerId = offerIdOf(deps.env, token);
  findOffer(deps.db, offerId, friend, now);
  return offerId;
}

/**
 * The friend's acceptance, in one transaction: the buyer's booking `transferred` (its passes NOT
 * VALID), the friend's own paid booking (new user row, ticket code, QR, texted and emailed as a paid
 * booking's ticket is), the offer used, Activity. Two acceptances of one link at once: one wins, the
 * other is refused with `transfer_ended`. `photo` is the friend's stored photo; a refusal here
 * leaves it for the caller to delete.
 */
export async function acceptTransfer(
  deps: AppDeps,
  input: { offerId: number; friend: Friend & { photo: StoredImage } },
): Promise<{ success: true; userID: number; transferred: true }> {
  const now = deps.now();
  const { friend } = input;
  const done = deps.db.transaction(
    (tx) => {
      const { offer, booking, event } = findOffer(tx, input.offerId, friend, now);
      const user = tx
        .insert(users)
        .values({
          name: friend.name,
          email: friend.email,
          phone: friend.phone,
          gender: friend.gender,
          wantsToMeet: friend.wantsToMeet ?? null,
          dateOfBirth: friend.dateOfBirth,
          ...friend.photo,
        })
        .returning()
        .get();
      // The sale's money moves with the seat, so the reports and the desk count it once (the buyer's
      // booking, now `transferred`, counts in none of them); its invoice stays the buyer's (documents
      // name the buyer's booking), and a later refund goes back to the card that paid.
      tx.update(bookings)
        .set({ status: bookingStatusAfter(booking.status, "transferred"), paymentIntentId: null, seatReleased: true })
        .where(eq(bookings.id, booking.id))
        .run();
      const created = tx
        .insert(bookings)
        .values({
          userId: user.id,
          eventId: event.id,
          phone: friend.phone,
          status: "paid",
          holdExpiresAt: now,
          heldSince: now,
          // The credit part too: a refund of the friend's seat gives the card only what it paid.
          ...moneyOfSeat(booking, now),
          guestKey: guestKeyOf(deps.env, friend.phone),
          transferredFrom: booking.id,
        })
        .returning()
        .get();
      tx.update(transferOffers)
        .set({ status: "accepted", toPhone: "", acceptedBookingId: created.id, decidedAt: now })
        .where(eq(transferOffers.id, offer.id))
        .run();
      // A hold the friend had started for this night themselves is given up: the seat came with the link.
      tx.update(bookings)
        .set({ status: "released" })
        .where(
          and(
            eq(bookings.eventId, event.id),
            eq(bookings.phone, friend.phone),
            eq(bookings.status, "held"),
            ne(bookings.id, created.id),
          ),
        )
        .run();
      const ctx = { booking: created, user, event };
      const uniqueCode = issueTicket(tx, deps.env, ctx, now);
      queueBookingEmail(tx, deps.env, ctx, { uniqueCode, document: undefined }, now);
      walletPassesChanged(tx, deps, [booking.id], now);
      recordActivity(
        tx,
        {
          actor: GUEST_ACTOR,
          actorKind: "guest",
          action: "ticket given to a friend",
          eventId: event.id,
          userId: booking.userId,
          otherUserId: user.id,
        },
        now,
      );
      return { bookingId: created.id, userId: user.id };
    },
    { behavior: "immediate" },
  );
  await sendQueuedConfirmation(deps, done.bookingId);
  sendWalletUpdatesSoon(deps);
  return { success: true, userID: done.userId, transferred: true };
}

/**
 * What Download my data shows of transfers: the offers this number made (the friend's number only
 * while the offer is open, as the buyer typed it; nothing of the friend once taken), and the tickets it
 * was given (nothing of the buyer).
 */
export function transfersOf(db: DbOrTx, phone: string) {
  const given = db
    .select({
      eventName: events.name,
      status: transferOffers.status,
      toPhone: transferOffers.toPhone,
      at: transferOffers.createdAt,
    })
    .from(transferOffers)
    .innerJoin(bookings, eq(bookings.id, transferOffers.bookingId))
    .innerJoin(events, eq(events.id, transferOffers.eventId))
    .where(eq(bookings.phone, phone))
    .orderBy(transferOffers.id)
    .all()
    .map((o) => ({
      eventName: o.eventName,
      status: o.status,
      toPhone: o.status === "open" ? o.toPhone : null,
      at: new Date(o.at).toISOString(),
    }));
  const received = db
    .select({ eventName: events.name })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(and(eq(bookings.phone, phone), isNotNull(bookings.transferredFrom)))
    .orderBy(bookings.id)
    .all();
  return { given, received };
}
