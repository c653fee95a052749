import { and, eq, inArray, sum } from "drizzle-orm";
import { type CancellationPolicy, creditUntilOf, policyOf } from "../../common/cancellation.ts";
import { resultsAtOf } from "../../common/results-time.ts";
import { isOverByClock } from "../../common/ticket-status.ts";
import { bookings, documents, events, refunds, users } from "../../db/schema.ts";
import { feedbackToken } from "../lib/capability.ts";
import { DomainError } from "../lib/errors.ts";
import type { BookingContext } from "./checkout.ts";
import { type TicketDeps, type TicketReply, ticketFor } from "./ticket.ts";

// My nights (`GET /api/me`, docs/decisions/027-guest-identity.md): every booking of one verified
// mobile, as /me shows it. Only rows whose phone is the session's are read, and each night carries
// only what its own guest may see: the ticket of an upcoming paid seat, the link to their own results,
// what came back of a refund. Never another guest's phone, photo or choices.

/** How /me groups a night: the QR to show, a night to look back on, or one that will not happen. */
export type NightStanding = "upcoming" | "past" | "cancelled" | "refunded";

type NightBase = {
  bookingId: number;
  eventID: number;
  userID: number;
  eventName: string;
  eventDate: string;
  eventLocation: string;
  timeZone: string;
  durationHours: number;
  /** What the seat cost, in cents. */
  amountCents: number;
  /** The booking's receipt or tax invoice and its refund's adjustment note (decision 032), when written. */
  invoiceNumber: string | null;
  adjustmentNumber: string | null;
};

export type MyNight =
  | (NightBase & {
      standing: "upcoming";
      ticket: Omit<TicketReply, "success">;
      /** What **Cancel my booking** gives back, by the clock (common/cancellation.ts). */
      cancellationPolicy: CancellationPolicy;
      /** Until when the cancel may be taken as credit (ISO; issue 52). */
      creditUntil: string;
    })
  | (NightBase & {
      standing: "past";
      /** When the matches come out; `reportPath` is the guest's own report once they have. */
      results: { released: boolean; resultsAt: string; reportPath: string | null };
    })
  | (NightBase & {
      /** `transferred`: given to a friend (decision 058); the money and the invoice stay here. */
      standing: "cancelled" | "refunded" | "transferred";
      refundedCents: number | null;
      /** The guest's own **Cancel my booking** ended it (decision 028), not the organiser. */
      byYou: boolean;
    });

export type MyNights = { phone: string; nights: MyNight[] };

/**
 * The nights of `phone`: paid and refunded bookings (a hold is minutes long and has no ticket yet; a
 * lapsed hold was never a booking). Upcoming soonest first, then past ones latest first, then the
 * cancelled and refunded latest first. A night whose event was cancelled counts as cancelled however
 * far its refund has got; a refund after the start still shows as refunded.
 */
export async function myNights(deps: TicketDeps, phone: string): Promise<MyNights> {
  const now = deps.now();
  const rows = deps.db
    .select({ booking: bookings, user: users, event: events })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(and(eq(bookings.phone, phone), inArray(bookings.status, ["paid", "refunded", "cancelled", "transferred"])))
    .all();
  const refunded = refundedCents(
    deps,
    rows.map((r) => r.booking.id),
  );
  const cancelledByGuest = guestCancels(
    deps,
    rows.map((r) => r.booking.id),
  );
  const papers = documentNumbers(
    deps,
    rows.map((r) => r.booking.id),
  );
  const nights: MyNight[] = [];
  for (const ctx of rows) {
    const { booking, event } = ctx;
    const base: NightBase = {
      bookingId: booking.id,
      eventID: event.id,
      userID: booking.userId,
      eventName: event.name,
      eventDate: new Date(event.startsAt).toISOString(),
      eventLocation: event.address,
      timeZone: event.timeZone,
      durationHours: event.durationHours,
      amountCents: booking.amountCents,
      invoiceNumber: papers.get(booking.id)?.invoice ?? null,
      adjustmentNumber: papers.get(booking.id)?.adjustment ?? null,
    };
    if (booking.status === "transferred") {
      // Given to a friend (decision 058): the money and the invoice stay here; the ticket is theirs.
      nights.push({ ...base, standing: "transferred", refundedCents: null, byYou: true });
    } else if (booking.status === "cancelled") {
      // The guest cancelled after the policy's cut-off, so nothing came back (decision 028).
      nights.push({ ...base, standing: "cancelled", refundedCents: 0, byYou: true });
    } else if (event.status === "cancelled" || booking.status === "refunded") {
      nights.push({
        ...base,
        standing: event.status === "cancelled" ? "cancelled" : "refunded",
        refundedCents: refunded.get(booking.id) ?? null,
        byYou: cancelledByGuest.has(booking.id),
      });
    } else if (event.status === "ended" || isOverByClock(event.startsAt, event.durationHours, now)) {
      const released = event.resultsReleasedAt !== null;
      nights.push({
        ...base,
        standing: "past",
        results: {
          released,
          resultsAt: new Date(event.resultsReleasedAt ?? resultsAtOf(event)).toISOString(),
          reportPath: released
            ? `/EventFeedback?par1=${event.id}&par2=${booking.userId}&t=${feedbackToken(deps.env, "report", booking.userId, event.id)}`
            : null,
        },
      });
    } else {
      // The same ticket as the confirmation and the texted link give (its code issued once, its QR).
      const ticket = await upcomingTicket(deps, ctx);
      nights.push(
        ticket
          ? {
              ...base,
              standing: "upcoming",
              ticket,
              cancellationPolicy: policyOf(event),
              creditUntil: new Date(creditUntilOf(event)).toISOString(),
            }
          : { ...base, standing: "refunded", refundedCents: refunded.get(booking.id) ?? null, byYou: false },
      );
    }
  }
  return { phone, nights: nights.sort(byShownOrder) };
}

/**
 * The ticket of a seat read as paid, or null when a refund got there between the read and the
 * ticket's own transaction (which re-checks the status): the seat is then listed as refunded.
 */
async function upcomingTicket(deps: TicketDeps, ctx: BookingContext) {
  try {
    const { success: _, ...ticket } = await ticketFor(deps, ctx);
    return ticket;
  } catch (error) {
    if (error instanceof DomainError && error.code === "payment_not_completed") return null;
    throw error;
  }
}

const GROUP = { upcoming: 0, past: 1, cancelled: 2, refunded: 2, transferred: 2 } as const;

function byShownOrder(a: MyNight, b: MyNight): number {
  const group = GROUP[a.standing] - GROUP[b.standing];
  if (group !== 0) return group;
  const when = a.eventDate.localeCompare(b.eventDate);
  const soonestFirst = a.standing === "upcoming";
  return (soonestFirst ? when : -when) || b.bookingId - a.bookingId;
}

function refundedCents(deps: Pick<TicketDeps, "db">, bookingIds: number[]): Map<number, number> {
  if (bookingIds.length === 0) return new Map();
  const rows = deps.db
    .select({ bookingId: refunds.bookingId, cents: sum(refunds.amountCents).mapWith(Number) })
    .from(refunds)
    .where(inArray(refunds.bookingId, bookingIds))
    .groupBy(refunds.bookingId)
    .all();
  return new Map(rows.map((r) => [r.bookingId, r.cents]));
}

/** The document numbers of each of `bookingIds`: its receipt or invoice, and its adjustment note. */
function documentNumbers(deps: Pick<TicketDeps, "db">, bookingIds: number[]) {
  const found = new Map<number, { invoice?: string; adjustment?: string }>();
  if (bookingIds.length === 0) return found;
  const rows = deps.db
    .select({ bookingId: documents.bookingId, kind: documents.kind, number: documents.number })
    .from(documents)
    .where(inArray(documents.bookingId, bookingIds))
    .all();
  for (const row of rows) {
    const entry = found.get(row.bookingId) ?? {};
    if (row.kind === "adjustment") entry.adjustment = row.number;
    else entry.invoice = row.number;
    found.set(row.bookingId, entry);
  }
  return found;
}

/** The bookings among `bookingIds` that their guest's own cancel refunded. */
function guestCancels(deps: Pick<TicketDeps, "db">, bookingIds: number[]): Set<number> {
  if (bookingIds.length === 0) return new Set();
  const rows = deps.db
    .select({ bookingId: refunds.bookingId })
    .from(refunds)
    .where(and(inArray(refunds.bookingId, bookingIds), eq(refunds.reason, "guest_cancel")))
    .all();
  return new Set(rows.map((r) => r.bookingId));
}
