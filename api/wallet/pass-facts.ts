import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { doorsOpenAtOf } from "../../common/doors-open.ts";
import { plannedEnd } from "../../common/ticket-status.ts";
import { formatVenueTime } from "../../common/time-zone.ts";
import type { DbOrTx } from "../../db/client.ts";
import { walletPasses } from "../../db/wallet-schema.ts";
import { loadBookingContextById } from "../booking/checkout.ts";
import { doorQrLink } from "../booking/ticket.ts";
import type { Env } from "../env.ts";
import { hmac } from "../lib/crypto.ts";

/**
 * What a wallet pass shows, the same for Apple's and Google's (docs/decisions/053-wallet-passes.md):
 * the event, the venue's time with its zone, the venue, the guest's name, the ticket's QR (the door
 * link the ticket page's QR encodes, so the door needs no change) and the organiser. Never the phone
 * number, the email address, the photo, or anything about another guest.
 */
export type PassFacts = {
  bookingId: number;
  serialNumber: string;
  /** Grows with every change the pass shows (Apple's "passes changed since" tag). */
  updateTag: number;
  /** Epoch ms of the last change (Apple's Last-Modified). */
  updatedAt: number;
  eventId: number;
  eventName: string;
  /** Epoch ms. */
  startsAt: number;
  endsAt: number;
  doorsOpenAt: number;
  timeZone: string;
  /** `2026-11-29 07:00 PM AEDT`: the venue's clock with its zone, as the ticket page shows it. */
  startsAtText: string;
  doorsOpenText: string;
  /** The event's address, and its first part as the venue's name (`The Grand Hall, 1 George St` → `The Grand Hall`). */
  address: string;
  venueName: string;
  venueNotes: string | null;
  guestName: string;
  /** The door code printed under the QR. */
  ticketCode: string;
  /** What the QR encodes: the door link (api/booking/ticket.ts). */
  qrPayload: string;
  /** False once the ticket no longer gets anyone in; `notValidReason` says why. */
  valid: boolean;
  notValidReason: string | null;
  businessName: string;
  supportEmail: string;
};

/** Why a ticket no longer gets anyone in, in the words the pass shows under `NOT VALID`. */
export const NOT_VALID_REASONS = {
  refunded: "Refunded",
  booking_cancelled: "Booking cancelled",
  cancelled: "Event cancelled",
  transferred: "Given to a friend",
} as const;

/** The pass's authentication token (Apple's `authenticationToken`): an HMAC of its serial, so none is stored. */
export const passAuthToken = (env: Pick<Env, "SESSION_SECRET">, serialNumber: string) =>
  hmac(env.SESSION_SECRET, "passkit-auth", serialNumber);

/**
 * The booking's wallet row, made the first time a pass is given (a random serial). `via` notes which
 * wallet asked, so a change later pushes to Apple's devices and updates Google's object only where
 * a pass was given.
 */
export function ensureWalletPass(db: DbOrTx, bookingId: number, via: "apple" | "google", now: number) {
  db.insert(walletPasses)
    .values({ bookingId, serialNumber: randomUUID(), updatedAt: now })
    .onConflictDoNothing({ target: walletPasses.bookingId })
    .run();
  db.update(walletPasses)
    .set(via === "apple" ? { appleIssuedAt: now } : { googleSavedAt: now })
    .where(eq(walletPasses.bookingId, bookingId))
    .run();
  return db.select().from(walletPasses).where(eq(walletPasses.bookingId, bookingId)).get()!;
}

/**
 * The facts of a booking's pass now, or null when the booking has no ticket (never paid, unknown) or
 * no wallet row yet. A refunded or cancelled ticket still has facts: its pass says `NOT VALID`.
 */
export function passFacts(
  db: DbOrTx,
  env: Pick<Env, "PUBLIC_BASE_URL" | "BUSINESS_NAME" | "SUPPORT_EMAIL">,
  bookingId: number,
): PassFacts | null {
  const ctx = loadBookingContextById(db, bookingId);
  const pass = db.select().from(walletPasses).where(eq(walletPasses.bookingId, bookingId)).get();
  if (!ctx || !pass) return null;
  const { booking, event, user } = ctx;
  const ticketCode = booking.uniqueCode;
  if (!ticketCode) return null;
  if (!["paid", "refunded", "cancelled", "transferred"].includes(booking.status)) return null;
  // The same order of reasons as the saved ticket's status (api/booking/ticket.ts, ticketStatus). An
  // ended night is not one of them: the pass's expiry (its end) greys it out on the phone by itself.
  const reason =
    booking.status === "transferred"
      ? NOT_VALID_REASONS.transferred
      : booking.status === "cancelled"
        ? NOT_VALID_REASONS.booking_cancelled
        : event.status === "cancelled"
          ? NOT_VALID_REASONS.cancelled
          : booking.status === "refunded"
            ? NOT_VALID_REASONS.refunded
            : null;
  const doorsOpenAt = doorsOpenAtOf(event);
  return {
    bookingId,
    serialNumber: pass.serialNumber,
    updateTag: pass.updateTag,
    updatedAt: pass.updatedAt,
    eventId: event.id,
    eventName: event.name,
    startsAt: event.startsAt,
    endsAt: plannedEnd(event.startsAt, event.durationHours),
    doorsOpenAt,
    timeZone: event.timeZone,
    startsAtText: formatVenueTime(event.startsAt, event.timeZone),
    doorsOpenText: formatVenueTime(doorsOpenAt, event.timeZone),
    address: event.address,
    venueName: event.address.split(",")[0]!.trim() || event.address,
    venueNotes: event.venueNotes,
    guestName: user.name,
    ticketCode,
    qrPayload: doorQrLink(env, event.id, user.id),
    valid: reason === null,
    notValidReason: reason,
    businessName: env.BUSINESS_NAME,
    supportEmail: env.SUPPORT_EMAIL,
  };
}
