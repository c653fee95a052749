import { and, eq, gt, inArray, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { announcements } from "../../db/marketing-schema.ts";
import {
  type BookingStatus,
  bookings,
  checkoutSessions,
  type Event,
  type PersonGender,
  users,
  type WaitlistOffer,
  type WantsToMeet,
  waitlistOffers,
} from "../../db/schema.ts";
import { askForEmailConsent, type ConsentMailEnv, recordConsent } from "../messaging/consent.ts";
import { bookingStatusAfter, bookingStatusesFor } from "./booking-status.ts";
import { assertBookable, findEvent } from "./event-lookup.ts";
import { holdStatementsOf } from "./hold-statements.ts";
import { NO_PHOTO } from "./images.ts";
import { assertAgeAllowed, heldPrice } from "./prices.ts";
import { assertNoPaidBooking, assertSeatFor, assertSeatLeft, isBalanced, type SeatUse, seatUseNow } from "./seats.ts";
import { liveOfferFor, offerBooked } from "./waitlist-offers.ts";

// Holds: one seat kept for a phone for HOLD_MINUTES, taken, retried, released and given back, each
// in one transaction. Saving the details form around a hold (the photo, the limits) is
// save-details.ts; whether an event takes bookings at all is event-lookup.ts.

export type Attendee = {
  name: string;
  email: string;
  phone: string;
  gender: PersonGender;
  /** Mixed nights only (issue 37): seen by the planner alone. */
  wantsToMeet?: WantsToMeet | null;
  imageName: string;
  thumbName: string;
  dateOfBirth?: string;
};

/**
 * 409 when `phone` already paid for the event, or when no seat of `gender` is free for it (its
 * gender's own at a balanced event, decision 015). The phone's own live hold does not count: a retry
 * replaces it, so it is the seat the retry would take. Nor does its own live waitlist offer for that
 * gender: the offer kept that very seat for it. Returns that offer, which the hold then uses up.
 */
function assertSeatFree(
  q: DbOrTx,
  event: Event,
  phone: string,
  gender: PersonGender,
  now: number,
  /**
   * What the caller already knows (the phone has no paid seat here; its holds here were released),
   * and the statements it compiled once (holdSeat, which a rush runs for every buyer).
   */
  options: { knownUnpaid?: boolean; holdsReleased?: boolean; compiled?: CompiledLookups } = {},
): WaitlistOffer | undefined {
  const { compiled } = options;
  if (!options.knownUnpaid) assertNoPaidBooking(q, event.id, phone);
  const found = compiled ? compiled.liveOffer(event.id, phone, now) : liveOfferFor(q, event.id, phone, now);
  // At an event with one pool of seats the line has no gender, so the offer is the phone's whatever it picks.
  const offer = found && (!isBalanced(event) || found.gender === gender) ? found : undefined;
  // With the phone's holds released and no offer of its own, every seat in use counts: the compiled count.
  if (compiled && options.holdsReleased && !offer) assertSeatLeft(event, compiled.seatUse(event, now), gender);
  else
    assertSeatFor(q, event, gender, now, {
      exceptPhone: offer ? phone : undefined,
      exceptHoldOf: options.holdsReleased ? undefined : phone,
    });
  return offer;
}

/** assertSeatFree's two reads from statements compiled once: the phone's live offer, and every seat in use. */
type CompiledLookups = {
  liveOffer(eventId: number, phone: string, now: number): WaitlistOffer | undefined;
  seatUse(event: Event, now: number): SeatUse;
};

/**
 * The checks of a hold that need no photo: 404 for an unknown event, 409 when it is closed, already
 * paid for by this phone, or full for this gender. Read outside any transaction, so a sold-out event
 * costs no image work (docs/decisions/007-scale.md); holdSeat checks again inside its own.
 */
export function assertCanHold(
  db: Db,
  input: ({ eventId: number } | { event: Event | undefined }) & { phone: string; gender: PersonGender },
  now: number,
) {
  const event = "event" in input ? input.event : findEvent(db, input.eventId);
  assertBookable(event, now);
  assertSeatFree(db, event, input.phone, input.gender, now);
}

/** The details form's marketing boxes (issue 36): what the person ticked, each unticked by default. */
export type MarketingBoxes = { sms: boolean; email: boolean };

/**
 * The booking's extras beside the seat: the boxes ticked, and the announcement whose link brought the
 * person here (`?a=`), counted on it when it is one of this event's.
 */
export type HoldExtras = {
  marketing?: MarketingBoxes;
  announcementId?: number;
  /** What a ticked email box needs to send its confirmation email (docs/decisions/039). */
  consentMail?: ConsentMailEnv;
};

export type HeldSeat = {
  userId: number;
  bookingId: number;
  /** When the hold runs out (epoch ms): a retry keeps the first hold's expiry. */
  holdExpiresAt: number;
  /** Stored photos no row names any more once the hold committed: the caller deletes the files. */
  unreferencedPhotos: string[];
};

/**
 * Releases the live holds `where` selects, and closes their open checkouts: a payment page left open
 * must not buy the seat afterwards. Runs inside the caller's transaction.
 */
export function releaseHolds(tx: DbOrTx, where: SQL): void {
  const released = tx
    .update(bookings)
    .set({ status: bookingStatusAfter("held", "hold_lapsed") })
    .where(and(where, inArray(bookings.status, bookingStatusesFor("hold_lapsed"))))
    .returning({ id: bookings.id })
    .all();
  if (released.length === 0) return;
  tx.update(checkoutSessions)
    .set({ status: "cancelled" })
    .where(
      and(
        inArray(
          checkoutSessions.bookingId,
          released.map((r) => r.id),
        ),
        eq(checkoutSessions.status, "open"),
      ),
    )
    .run();
}

/**
 * Holds one seat for `holdMinutes`, in one immediate transaction so that two buyers can never both
 * take the last seat: the write lock is taken before the seats are counted.
 */
export function holdSeat(
  db: Db,
  input: { eventId: number; attendee: Attendee; holdMinutes: number; now: number } & HoldExtras,
): HeldSeat {
  const { eventId, attendee, now } = input;
  const q = holdStatementsOf(db);
  return db.transaction(
    (tx) => {
      const event = q.event.get({ eventId });
      assertBookable(event, now);
      // Checked again here: the organiser may have changed the ages since the route's check (decision 023).
      if (attendee.dateOfBirth) assertAgeAllowed(event, attendee.gender, attendee.dateOfBirth);
      // A retry (back button, a second tab) replaces this phone's earlier hold instead of taking a
      // second seat, and keeps its expiry: saving again every few minutes must not pin the seat past
      // it while others wait for it (docs/decisions/017-second-review.md).
      // This phone's earlier bookings for the event, read once: a first save, which is what a rush is
      // made of, has none and skips a retry's work, each query of it run under the write lock
      // (docs/decisions/007-scale.md).
      const earlier = q.earlier.all({ phone: attendee.phone, eventId });
      const has = (status: BookingStatus) => earlier.some((b) => b.status === status);
      // The phone's live hold, as liveHoldOf reads it: its first expiry and start carry over.
      const kept = earlier.find((b) => b.status === "held" && b.holdExpiresAt > now);
      if (has("held")) releaseHolds(tx, and(eq(bookings.phone, attendee.phone), eq(bookings.eventId, eventId)) as SQL);
      const offer = assertSeatFree(tx, event, attendee.phone, attendee.gender, now, {
        knownUnpaid: !has("paid"),
        holdsReleased: true,
        compiled: {
          liveOffer: (eventId, phone, now) => q.liveOffer.get({ eventId, phone, now }),
          seatUse: (event, now) => seatUseNow(db, event, now),
        },
      });
      const unreferencedPhotos = has("held") || has("released") ? repointReleasedPhotos(tx, { eventId, attendee }) : [];
      const user = q.insertUser.get({
        name: attendee.name,
        email: attendee.email,
        phone: attendee.phone,
        gender: attendee.gender,
        wantsToMeet: attendee.wantsToMeet ?? null,
        imageName: attendee.imageName,
        thumbName: attendee.thumbName,
        dateOfBirth: attendee.dateOfBirth ?? null,
      });
      if (!user) throw new Error("the users row was not inserted");
      const announcementId = announcementOf(tx, eventId, input.announcementId);
      const holdExpiresAt = kept?.holdExpiresAt ?? now + input.holdMinutes * 60_000;
      const heldSince = kept?.heldSince ?? now;
      const booking = q.insertHold.get({
        userId: user.id,
        eventId,
        phone: attendee.phone,
        holdExpiresAt,
        heldSince,
        // The price is fixed when the seat is first held: a retry keeps an early bird it was held in.
        ...heldPrice(event, attendee.gender, heldSince),
        announcementId,
      });
      if (!booking) throw new Error("the booking was not inserted");
      if (offer) offerBooked(tx, offer, booking.id);
      recordBookingConsent(tx, attendee, input, now);
      return { userId: user.id, bookingId: booking.id, holdExpiresAt, unreferencedPhotos };
    },
    { behavior: "immediate" },
  );
}

/**
 * An announcement's link counts only for its own event: another event's id, or one that does not
 * exist (a mistyped or stale link), is dropped without a word, never refusing the seat.
 */
export function announcementOf(tx: DbOrTx, eventId: number, announcementId: number | undefined): number | null {
  if (announcementId === undefined) return null;
  return (
    tx
      .select({ id: announcements.id })
      .from(announcements)
      .where(and(eq(announcements.id, announcementId), eq(announcements.eventId, eventId)))
      .get()?.id ?? null
  );
}

/**
 * The boxes ticked on the details form, on the record with the seat they came with (issue 36): the
 * text box is a yes for the verified phone; the email box asks the address typed, which says yes
 * itself through the confirmation email (docs/decisions/039: until then it is `pending`, and an
 * address that unsubscribed stays so). An unticked box records nothing: it is the form's default,
 * not a withdrawal, so it never undoes a yes given on /me or at an earlier booking (withdrawing is
 * STOP, the Unsubscribe link, or /me).
 */
export function recordBookingConsent(
  tx: DbOrTx,
  attendee: Attendee,
  extras: Pick<HoldExtras, "marketing" | "consentMail">,
  at: number,
) {
  const boxes = extras.marketing;
  if (boxes?.sms)
    recordConsent(tx, {
      channel: "sms",
      address: attendee.phone,
      given: true,
      source: "booking",
      phone: attendee.phone,
      at,
    });
  if (boxes?.email) {
    if (!extras.consentMail) throw new Error("an email box was ticked with no way to ask the address");
    askForEmailConsent(tx, extras.consentMail, {
      address: attendee.email,
      source: "booking",
      phone: attendee.phone,
      at,
    });
  }
}

/**
 * Points the users rows of this phone's released bookings for the event at the new photo, and
 * returns the stored names nothing names any more. A released booking can still be paid (a payment
 * page left open, a webhook that arrives late) and then shows the person's newest photo, so the
 * replaced photo can go at once: one phone's repeated saves keep one photo pair on disk, not one
 * per save. A save's names are random and only ever shared by rows of its phone and event (through
 * this update), so looking at this phone's rows is enough to know a name is free.
 */
function repointReleasedPhotos(tx: DbOrTx, input: { eventId: number; attendee: Attendee }): string[] {
  const released = tx
    .select({ id: users.id, imageName: users.imageName, thumbName: users.thumbName })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        eq(bookings.phone, input.attendee.phone),
        eq(bookings.eventId, input.eventId),
        eq(bookings.status, "released"),
      ),
    )
    .all();
  if (released.length === 0) return [];
  tx.update(users)
    .set({ imageName: input.attendee.imageName, thumbName: input.attendee.thumbName })
    .where(
      inArray(
        users.id,
        released.map((r) => r.id),
      ),
    )
    .run();
  const stillNamed = new Set(
    tx
      .select({ imageName: users.imageName, thumbName: users.thumbName })
      .from(users)
      .where(eq(users.phone, input.attendee.phone))
      .all()
      .flatMap((r) => [r.imageName, r.thumbName]),
  );
  const old = new Set(released.flatMap((r) => [r.imageName, r.thumbName]));
  return [...old].filter((name) => name !== NO_PHOTO && !stillNamed.has(name));
}

/**
 * True when `phone` has no booking at all for the event and no live waitlist offer for it: the
 * first save that an on-sale rush is made of. Read outside any transaction; it only chooses the
 * order, and holdSeat's transaction decides the seat either way.
 */
export function isFirstSave(db: Db, eventId: number, phone: string, now: number): boolean {
  const q = holdStatementsOf(db);
  return !q.earlier.get({ phone, eventId }) && !q.liveOffer.get({ eventId, phone, now });
}

/**
 * Gives back a seat held before its photo, when the photo failed: the booking and its users row are
 * deleted, so the seat is free for the next buyer at once and the refusal leaves nothing behind, as
 * it did when the photo came first. A hold a concurrent save of the phone already released holds no
 * seat; one a waitlist offer was spent on in the meantime is released instead (the offer names it).
 */
export function giveBackSeat(db: Db, held: Pick<HeldSeat, "bookingId" | "userId">): void {
  db.transaction(
    (tx) => {
      const booking = tx
        .select({ status: bookings.status })
        .from(bookings)
        .where(eq(bookings.id, held.bookingId))
        .get();
      if (booking?.status !== "held") return;
      const offer = tx
        .select({ id: waitlistOffers.id })
        .from(waitlistOffers)
        .where(eq(waitlistOffers.bookingId, held.bookingId))
        .get();
      if (offer) return releaseHolds(tx, eq(bookings.id, held.bookingId));
      tx.delete(bookings).where(eq(bookings.id, held.bookingId)).run();
      tx.delete(users).where(eq(users.id, held.userId)).run();
    },
    { behavior: "immediate" },
  );
}

/**
 * Gives back every live seat still waiting for its photo. Such a seat belongs to a save or a photo
 * this process is still working on (photoJobsOf): none at startup (a crash cut them off), and at
 * shutdown only those whose upload the grace period cut or whose photo it did not finish. Called by
 * api/server.ts at both, so no photoless hold outlives the process that made it. Returns how many.
 */
export function giveBackSeatsWithoutPhoto(db: Db, now: number): number {
  const waiting = db
    .select({ bookingId: bookings.id, userId: users.id })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now), eq(users.imageName, NO_PHOTO)))
    .all();
  for (const held of waiting) giveBackSeat(db, held);
  return waiting.length;
}

/**
 * The seat of a first save, held from the details form's fields as soon as they arrive, before its
 * photo is received (booking-routes.ts reads the fields sent before the file): in an on-sale rush the
 * seats go to the first to ask and everyone after is refused at once, however many photos are still
 * on their way (docs/decisions/007-scale.md). Undefined for a retry or a phone with a live waitlist
 * offer, which keep the photo-first order (saveUserDetails). The caller then stores the photo through
 * saveUserDetails's `heldBeforePhoto`, and gives the seat back (giveBackSeat) if the request fails.
 */
export function holdBeforePhoto(
  deps: { db: Db; holdMinutes: number; now: () => number },
  input: Omit<Attendee, "imageName" | "thumbName"> & { eventId: number },
): HeldSeat | undefined {
  const { eventId, ...details } = input;
  if (!isFirstSave(deps.db, eventId, details.phone, deps.now())) return undefined;
  return holdSeat(deps.db, {
    eventId,
    attendee: { ...details, imageName: NO_PHOTO, thumbName: NO_PHOTO },
    holdMinutes: deps.holdMinutes,
    now: deps.now(),
  });
}
