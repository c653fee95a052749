import { createRoute } from "@hono/zod-openapi";
import { consentChannels, consentSources } from "../../db/marketing-schema.ts";
import { bookingStatuses, feedbackValues, outboxStatuses, personGenders } from "../../db/schema.ts";
import { transferOfferStatuses } from "../../db/transfer-schema.ts";
import type { AppDeps } from "../deps.ts";
import { noStore } from "../lib/admin-session.ts";
import { guestKeyOf } from "../lib/guest-key.ts";
import { endGuestSession, requireGuest } from "../lib/guest-session.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { jsonId } from "../lib/validate.ts";
import { endStreamsFor } from "../night/room-events.ts";
import { cancelBooking } from "./cancel-booking.ts";
import { creditKeyOf, creditOf } from "./credit.ts";
import { cancellationPolicy } from "./events-schemas.ts";
import { myNights } from "./me.ts";
import { myConsent, saveMyConsent } from "./me-consent.ts";
import { cancelBookingReply, consentState, myConsentReply } from "./me-schemas.ts";
import { deleteMyDetails, myData, phoneTag } from "./my-data.ts";
import { ticketReply } from "./payments-schemas.ts";

// Why one file: every call behind the guest session, each declaration beside its handler.
// My nights (docs/decisions/027-guest-identity.md). Signing in is verify-otp with `signIn`
// (booking-routes.ts); these are what the signed-in guest reads, and Sign out.

const isoTime = z.iso.datetime({ offset: true });
const id = jsonId(z);

const nightBase = {
  bookingId: z.number().int(),
  eventID: z.number().int(),
  userID: z.number().int(),
  eventName: z.string(),
  eventDate: isoTime,
  eventLocation: z.string(),
  timeZone: z.string(),
  durationHours: z.number(),
  amountCents: z.number().int(),
  invoiceNumber: z.string().nullable(),
  adjustmentNumber: z.string().nullable(),
};

const myNight = z.discriminatedUnion("standing", [
  z.strictObject({
    ...nightBase,
    standing: z.literal("upcoming"),
    ticket: ticketReply.omit({ success: true }),
    cancellationPolicy,
    // Until when **Cancel my booking** offers credit of the full price (issue 52): so the phone offers it only then.
    creditUntil: isoTime,
  }),
  z.strictObject({
    ...nightBase,
    standing: z.literal("past"),
    results: z.strictObject({ released: z.boolean(), resultsAt: isoTime, reportPath: z.string().nullable() }),
  }),
  z.strictObject({
    ...nightBase,
    standing: z.enum(["cancelled", "refunded", "transferred"]),
    refundedCents: z.number().int().nullable(),
    byYou: z.boolean(),
  }),
]);

/** The number's credit (issue 52, docs/decisions/057-credit.md): its balance and every movement, oldest first. */
export const creditReply = z.strictObject({
  balanceCents: z.number().int(),
  history: z.array(z.strictObject({ at: isoTime, amountCents: z.number().int(), reason: z.string() })),
});

const meRoute = createRoute({
  method: "get",
  path: "/me",
  summary:
    "Every night of the signed-in guest's mobile: upcoming with its ticket, past with its results, cancelled and refunded",
  description: [
    "- **Who:** guest session.",
    "- **200:** `{phone, nights}`: `phone` is the session's number (E.164); `nights` every paid or",
    "  refunded booking of it (a hold, or a hold that lapsed, is not listed), upcoming soonest first, then",
    "  past latest first, then cancelled and refunded latest first. Each night has `standing`,",
    "  `bookingId`, `eventID`, `userID`, `eventName`, `eventDate` (ISO 8601 UTC, the start),",
    "  `eventLocation`, `timeZone`, `durationHours`, `amountCents` (what the seat cost), and",
    "  `invoiceNumber` and `adjustmentNumber` (its receipt or tax invoice and its refund's adjustment",
    "  note, `INV-000123`, or `null` when not written; the PDFs from",
    "  `me-invoice`), and by its `standing`:",
    "  - `upcoming` (paid, the night not over): `ticket`, the `TicketReply` of",
    "    `POST /api/ticket` without `success`: the door code (issued now, with its",
    "    confirmation text, if the payment's own step has not yet), the QR, and `bookingId` and",
    "    `ticketToken` for `ticket-status`, so the PWA saves it on the phone.",
    "    `cancellationPolicy` `{fullRefundHours, laterPercent}`: what",
    "    **Cancel my booking** gives back; `creditUntil` (ISO UTC), until when it offers credit instead.",
    "  - `past` (paid; the organiser ended it, or 3 hours passed since its planned end): `results`:",
    "    `{released, resultsAt, reportPath}`: `resultsAt` when the matches come out (or came out);",
    "    `reportPath` the guest's own report (`/EventFeedback?par1=…&par2=…&t=…`) once released, else `null`.",
    "  - `cancelled` (the event was cancelled, however far its refund has got, or the guest cancelled",
    "    with nothing due) or `refunded`: `refundedCents`, what the refunds so far gave back, or `null`",
    "    while none has; `byYou`, true when the guest's own cancel ended it.",
    "  - `transferred` (the guest gave the ticket to a friend, `transfer-ticket`): as `cancelled`, with",
    "    `refundedCents` `null` and `byYou` true; the invoice stays here, nothing of the friend is shown.",
    "  A night whose personal data was erased (`RETENTION_DAYS` after it) no longer names the number, so",
    "  it is not listed. `credit`: `{balanceCents, history: [{at, amountCents, reason}]}`, the number's",
    "  credit (issue 52): `amountCents` + issued (a cancel taken as credit, **Give credit**, credit given",
    "  back) or − spent at a checkout; `at` ISO 8601 UTC; oldest first. `Cache-Control: no-store`.",
  ].join("\n"),
  responses: {
    200: json(z.strictObject({ phone: z.string(), nights: z.array(myNight), credit: creditReply })),
    ...errors("get", ["guest_session_required"]),
  },
});

const cancelBookingRoute = createRoute({
  method: "post",
  path: "/cancel-booking",
  summary:
    "The signed-in guest cancels one of their bookings under the event's policy: refunds what it gives back, frees the seat; a repeat answers the same",
  description: [
    "**Cancel my booking** on `/me` and on the ticket (docs/decisions/028-cancellation-money-path.md).",
    "",
    "- **Who:** guest session; the booking's phone must be the session's number.",
    "- **Body:** `{eventID, userID, as?}`: `as` `refund` (left out: the same) or `credit` (issue 52:",
    "  the full price paid as credit on the number, while now ≤ the event's `creditUntil`, even past the",
    "  refund's cut-off; no card refund; docs/decisions/057-credit.md).",
    "- **200:** `{refundCents, creditCents, status}`: `creditCents` the credit this cancel gave (0 unless",
    "  `as: credit`, or the credit part of a booking paid partly by credit). `refundCents`: what comes back under the event's `cancellationPolicy` at this",
    "  moment (all of it until `fullRefundHours` before the start, then `laterPercent` of it), refunded",
    "  to the card through the same refund claim as the organiser's **Refund**, so a payment is refunded",
    "  once whoever presses first. `status` is `refunded`, or `cancelled` when nothing came back (after",
    "  the cut-off at 0%): the booking is ended either way, the seat goes to the first person on the",
    "  waitlist, the guest is texted, and the Activity tab logs it as the guest's (`booking cancelled`).",
    "  A repeat answers the same and refunds nothing more; a booking the organiser refunded answers",
    "  with that refund. `Cache-Control: no-store`.",
  ].join("\n"),
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.strictObject({ eventID: id, userID: id, as: z.enum(["refund", "credit"]).optional() }),
        },
      },
    },
  },
  responses: {
    200: json(cancelBookingReply),
    ...errors(
      "post",
      [
        "guest_session_required",
        "forbidden",
        "not_paid",
        "event_cancelled",
        "too_late_to_cancel",
        "credit_closed",
        "provider_failed",
      ],
      {
        403: "`forbidden` (no such booking, or another number's: the two answer alike, and nothing changes).",
        409: "`not_paid`, `event_cancelled` (its refunds are the organiser's), `too_late_to_cancel` (the event has started), `credit_closed` (`as: \"credit\"` after the event's `creditUntil`).",
        502: "`provider_failed` (the payment provider did not make the refund; it is claimed, and the background job finishes it).",
      },
    ),
  },
});

const meLogoutRoute = createRoute({
  method: "post",
  path: "/me-logout",
  summary: "Sign out: ends this browser's guest session on the server and drops the cookie",
  description: [
    "**Sign out** on `/me`.",
    "",
    "- **Who:** anyone; ends the caller's guest session if it has one.",
    "- **200:** `{success: true}`; the session is revoked on the server (a copy of the cookie stops",
    "  working too) and `sdt_me` deleted. The `sdt_phone` cookie (the booking's proof) is left as it is.",
  ].join("\n"),
  responses: { 200: json(done), ...errors("post", []) },
});

const meConsentRoute = createRoute({
  method: "get",
  path: "/me-consent",
  summary:
    "Messages about future events: the signed-in guest's current choices (texts to their mobile, email to the newest address they booked with)",
  description: [
    "**Messages about future events** on `/me`: the boxes as they stand (issue 36).",
    "",
    "- **Who:** guest session.",
    "- **200:** `{sms, email, emailState, emailAddress}`: `sms` whether the number's newest choice about",
    "  texts is a yes; `emailAddress` the newest email address the number booked with (null when none, or",
    "  after **Delete my details**); `emailState` where that address stands: `yes` (confirmed from the",
    "  address), `pending` (a box was ticked and the confirmation email waits for its click) or `no`;",
    '  `email` is `emailState == "yes"`. `Cache-Control: no-store`.',
  ].join("\n"),
  responses: {
    200: json(myConsentReply),
    ...errors("get", ["guest_session_required"]),
  },
});

const saveMeConsentRoute = createRoute({
  method: "post",
  path: "/me-consent",
  summary:
    "Saves the signed-in guest's boxes on /me: records a choice only for a box that changed, and answers the choices now",
  description: [
    "- **Who:** guest session.",
    "- **200:** `{sms, email, emailState, emailAddress}` as `GET` answers it, after the save. A choice is",
    "  recorded (source `me`, the wording's version, the time, this number) only for a box whose state",
    "  changes; saving the same state again records nothing. `email: true` never makes a yes: it asks the",
    "  address (a `pending` request and the confirmation email, at most one a day per address, see",
    "  `POST /api/confirm-email-consent`), so an address that",
    "  unsubscribed stays so until its owner confirms. `email: false` withdraws a yes or a pending",
    "  request. Only the session's own number and its email address are read or written.",
  ].join("\n"),
  request: jsonBody(
    z.strictObject({
      sms: z.boolean("must be true or false").optional(),
      email: z.boolean("must be true or false").optional(),
    }),
  ),
  responses: {
    200: json(myConsentReply),
    ...errors("post", ["guest_session_required"], {
      400: "`invalid_request` (also `email` without an email address on file).",
    }),
  },
});

const nullableIso = isoTime.nullable();
const myDataReply = z.strictObject({
  phone: z.string(),
  downloadedAt: isoTime,
  keptDetails: z
    .strictObject({
      name: z.string(),
      email: z.string(),
      dateOfBirth: z.string(),
      gender: z.enum(personGenders),
      hasPhoto: z.boolean(),
    })
    .nullable(),
  bookings: z.array(
    z.strictObject({
      eventName: z.string(),
      eventDate: nullableIso,
      eventLocation: z.string(),
      status: z.enum(bookingStatuses),
      amountCents: z.number().int(),
      paidAt: nullableIso,
      checkedInAt: nullableIso,
      ticketCode: z.string().nullable(),
      refunds: z.array(z.strictObject({ amountCents: z.number().int(), at: nullableIso })),
      details: z.strictObject({
        name: z.string(),
        email: z.string(),
        dateOfBirth: z.string().nullable(),
        gender: z.enum(personGenders),
        photo: z.boolean(),
      }),
      bookedAt: nullableIso,
    }),
  ),
  waitlist: z.array(z.strictObject({ eventName: z.string(), name: z.string(), status: z.string() })),
  ratingsGiven: z.array(
    z.strictObject({
      eventName: z.string(),
      about: z.string(),
      choice: z.enum(feedbackValues),
      ratedBy: z.enum(["guest", "staff"]),
      at: nullableIso,
    }),
  ),
  matches: z.array(z.strictObject({ eventName: z.string(), name: z.string(), phone: z.string() })),
  transfers: z.strictObject({
    given: z.array(
      z.strictObject({
        eventName: z.string(),
        status: z.enum(transferOfferStatuses),
        toPhone: z.string().nullable(),
        at: isoTime,
      }),
    ),
    received: z.array(z.strictObject({ eventName: z.string() })),
  }),
  textsSent: z.array(
    z.strictObject({
      body: z.string(),
      status: z.enum(outboxStatuses),
      createdAt: nullableIso,
      sentAt: nullableIso,
    }),
  ),
  messagesSent: z.array(
    z.strictObject({
      channel: z.enum(["sms", "email"]),
      subject: z.string().nullable(),
      status: z.enum(outboxStatuses),
      createdAt: nullableIso,
      sentAt: nullableIso,
    }),
  ),
  marketingConsents: z.array(
    z.strictObject({
      channel: z.enum(consentChannels),
      given: z.boolean(),
      state: consentState,
      source: z.enum(consentSources),
      wording: z.string(),
      at: isoTime,
    }),
  ),
  credit: creditReply,
});

const meDataRoute = createRoute({
  method: "get",
  path: "/me-data",
  summary:
    "Download my data: everything held about the signed-in guest's number, as a JSON file (kept details, bookings, ratings given, matches, texts sent, choices about messages on future events)",
  description: [
    "**Download my data** on `/me` (docs/decisions/029-kept-details.md).",
    "",
    "- **Who:** guest session.",
    '- **200:** a JSON file (`Content-Disposition: attachment; filename="my-data.json"`,',
    "  `Cache-Control: no-store`): `{phone, downloadedAt, keptDetails, bookings, waitlist, ratingsGiven,",
    "  matches, textsSent, marketingConsents, transfers, credit}`. `transfers`: `{given: [{eventName, status,",
    "  toPhone, at}], received: [{eventName}]}`, tickets this number gave (`toPhone` the number typed,",
    "  only while the offer is `open`) and was given (nothing of the giver). `credit` is as `/me` answers it. `keptDetails` is as `kept-details` answers it; `bookings` every booking row",
    "  of the number, holds and lapsed holds too (`eventName`, `eventDate`, `eventLocation`, `status`,",
    "  `amountCents`, `paidAt`, `checkedInAt`, `ticketCode` of a paid seat, `refunds`, `bookedAt`, and",
    "  `details`: `{name, email, dateOfBirth, gender, photo}` as entered, `photo` a boolean);",
    "  `waitlist` `{eventName, name, status}`; `ratingsGiven` `{eventName, about, choice, ratedBy, at}`",
    "  (`about` the rated person's name, as the night showed it); `matches` `{eventName, name, phone}`",
    "  (mutual likes on nights whose results are out, as the guest's report shows them); `textsSent`",
    "  `{body, status, createdAt, sentAt}` (bodies as kept: their first words after seven days);",
    "  `messagesSent` `{channel, subject, status, createdAt, sentAt}`: every message sent to the number",
    "  and to its email addresses, texts and emails (`subject` null for a text; no email body: an",
    "  address another number also typed may hold someone else's link; docs/decisions/039);",
    "  `marketingConsents` `{channel, given, state, source, wording, at}` (`state`: `yes`, `pending` for",
    "  an email address's yes from a form, which waits for the address's confirmation, or `no`), oldest first: every choice about",
    "  messages on future events for the number's texts and the email addresses it booked with, and",
    "  every choice made from its own forms. Nothing",
    "  else of another person: no photo names, emails, choices, or numbers outside a match. Logged",
    "  (`guest downloaded their data`, with a tag of the number, never the number).",
  ].join("\n"),
  responses: {
    200: json(myDataReply),
    ...errors("get", ["guest_session_required"]),
  },
});

const meDeleteDetailsRoute = createRoute({
  method: "post",
  path: "/me-delete-details",
  summary:
    "Delete my details: erases the signed-in number's names, emails, dates of birth, photos and kept details now, withdraws its yes to messages about future events, keeps the bookings' money records, and ends its guest sessions",
  description: [
    "**Delete my details** on `/me` (docs/decisions/029-kept-details.md).",
    "",
    "- **Who:** guest session.",
    "- **200:** `{success: true, erasedBookings}`: every booking row of the number loses its name, email,",
    "  date of birth and photo now (as `RETENTION_DAYS` would later), its waitlist entries their name,",
    "  and its kept details go with their photo. Its messages are emptied (docs/decisions/039): texts to",
    "  the number, its bookings' emails and the emails with no booking to its addresses keep only",
    "  channel, subject, status and times, and any still pending is `cancelled`. Its choices about",
    "  messages on future events are forgotten (the contacts of the number and its addresses go with",
    "  their records: no record is a no). Its codes, guest sessions and rate-limit hits go. Nights that",
    "  are over lose the number and ticket code too; an upcoming night keeps both (the ticket's key at",
    "  the door) until its own erasure. Amounts, payments, refunds, check-ins and ratings stay. Every",
    "  guest session of the number ends, on every browser, and `sdt_me` is deleted. Logged (`guest",
    "  deleted their details`, with a tag of the number).",
  ].join("\n"),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), erasedBookings: z.number().int() })),
    ...errors("post", ["guest_session_required"]),
  },
});

export const meRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi({ ...meRoute, middleware: requireGuest(deps) }, async (c) => {
      const phone = c.var.guest.phone;
      const credit = creditOf(deps.db, creditKeyOf(deps.env, phone));
      return c.json({ ...(await myNights(deps, phone)), credit }, 200);
    })
    .openapi({ ...meDataRoute, middleware: requireGuest(deps) }, (c) => {
      const data = myData(deps, c.var.guest.phone);
      // Logged without the number: a tag that is the same for the same number (decision 029).
      deps.log("info", "guest downloaded their data", { guest: phoneTag(deps.env.SESSION_SECRET, data.phone) });
      c.header("Content-Disposition", 'attachment; filename="my-data.json"');
      return c.json(data, 200);
    })
    .openapi({ ...meDeleteDetailsRoute, middleware: requireGuest(deps) }, async (c) => {
      const phone = c.var.guest.phone;
      const { erasedBookings } = await deleteMyDetails(
        { db: deps.db, now: deps.now, uploadsDir: deps.env.UPLOADS_DIR, guestKey: guestKeyOf(deps.env, phone) },
        phone,
      );
      deps.log("info", "guest deleted their details", {
        guest: phoneTag(deps.env.SESSION_SECRET, phone),
        erasedBookings,
      });
      endStreamsFor(deps.db, { phone });
      // The session just ended on the server; this browser's cookie goes too.
      endGuestSession(c, deps);
      return c.json({ success: true as const, erasedBookings }, 200);
    })
    .openapi({ ...meConsentRoute, middleware: requireGuest(deps) }, (c) => {
      return c.json(myConsent(deps.db, c.var.guest.phone), 200);
    })
    .openapi({ ...saveMeConsentRoute, middleware: requireGuest(deps) }, (c) => {
      const choice = c.req.valid("json");
      return c.json(saveMyConsent(deps.db, deps.env, c.var.guest.phone, choice, deps.now()), 200);
    })
    .openapi({ ...cancelBookingRoute, middleware: requireGuest(deps) }, async (c) => {
      const { eventID, userID, as } = c.req.valid("json");
      const result = await cancelBooking(deps, c.var.guest.phone, { eventId: eventID, userId: userID, as });
      return c.json(result, 200);
    })
    .openapi(meLogoutRoute, (c) => {
      noStore(c);
      endGuestSession(c, deps);
      return c.json({ success: true as const }, 200);
    });
