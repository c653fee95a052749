import { type BookingContext, loadBookingContextById } from "../booking/checkout.ts";
import type { AppDeps } from "../deps.ts";
import { isValidLinkToken } from "../lib/capability.ts";
import { Conflict, Forbidden, Gone, NotFound } from "../lib/errors.ts";
import type { Guest } from "../lib/guest-session.ts";

const NOT_YOURS = "this ticket link is not valid";

/**
 * Who may take a ticket into a wallet: the holder of its ticket link (`t`, checked before the
 * database is read, as openTicketLink does) or, with no `t`, the guest whose /me session is the
 * booking's number (the route reads the session: api/lib/guest-session.ts). A wrong token, no proof, and another number's booking are the same 403
 * `invalid_link`, so the answer says nothing about which bookings exist. Then, as the ticket link:
 * unknown 404, erased 410, never paid 409. A refunded or cancelled ticket is still answered: its
 * pass says `NOT VALID`.
 */
export function provenTicket(
  deps: Pick<AppDeps, "db" | "env">,
  bookingId: number,
  proof: { token: string | undefined; guest: Guest | null },
): BookingContext {
  const { token } = proof;
  const guest = token === undefined ? proof.guest : null;
  if (token !== undefined ? !isValidLinkToken(deps.env, "ticket", [bookingId], token) : !guest)
    throw Forbidden(NOT_YOURS, "invalid_link");
  const ctx = loadBookingContextById(deps.db, bookingId);
  if (guest && ctx?.booking.phone !== guest.phone) throw Forbidden(NOT_YOURS, "invalid_link");
  if (!ctx) throw NotFound("no such ticket");
  if (ctx.event.personalDataErasedAt !== null) throw Gone("this ticket has expired");
  const { status, uniqueCode } = ctx.booking;
  if ((status !== "paid" && status !== "refunded" && status !== "cancelled") || !uniqueCode)
    throw Conflict("this booking is not paid, so it has no ticket", "not_paid");
  return ctx;
}
