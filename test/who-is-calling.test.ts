import { beforeAll, describe, expect, it } from "vitest";
import { type BrowserClient, browserClient, suiteTestServer } from "./api-harness.ts";
import { appRoutes, callRoute, hostAccessHelpers, json, PASSWORD, staffCallBody } from "./suites/host-access.ts";

// Who is calling (docs/decisions/024-who-is-calling.md): every call is either open to anyone or
// behind requireAdmin / requireStaff. The walk reads the routes from the app itself: a call added
// behind a guard is covered without touching this file, and a call added without one fails here
// until it is listed as open to anyone below.

/**
 * The calls that answer without the organiser's or a host's session: the public pages, the booking
 * steps (each proves itself with a phone's cookie, a ticket or a link's token), the sign-ins, and
 * the development checkout and outbox.
 */
const OPEN_TO_ANYONE = new Set([
  "GET /api/admin-session",
  "GET /api/checkout-session",
  "GET /api/dev/checkout/:id",
  "GET /api/dev/outbox",
  // The local mail provider's mailbox: development only, 404 with SMTP or in production
  // (api/messaging/email-outbox.test.ts).
  "GET /api/dev/mailbox",
  // The OpenAPI document and the reference page: open outside production, the organiser's only in
  // production (test/api-schemas.test.ts proves that).
  "GET /api/docs",
  "GET /api/docs/scalar.js",
  "GET /api/openapi.json",
  "GET /api/get-event-details",
  "GET /api/get-event/:id",
  "GET /api/get-events",
  "GET /api/host-session",
  "GET /api/images/:name",
  // My nights: behind the guest's own session (sdt_me, api/lib/guest-session.ts), which names one
  // verified number and answers only that number's nights; 401 guest_session_required without it
  // (api/booking/me.test.ts).
  "GET /api/me",
  // Download my data: behind the same guest session, answering only its own number's data (decision
  // 029, api/booking/kept-details.test.ts); 401 guest_session_required without it.
  "GET /api/me-data",
  // Messages about future events on /me: behind the same guest session, reading and writing only its
  // own number's choices; 401 guest_session_required without it (api/messaging/consent.test.ts).
  "GET /api/me-consent",
  "POST /api/me-consent",
  // One-click unsubscribe: the link's token, signed for one contact and this purpose, is the proof;
  // 403 invalid_link for any other (api/messaging/unsubscribe.test.ts).
  "GET /api/unsubscribe",
  "POST /api/unsubscribe",
  // The confirmation email's link: the same kind of token, signed for confirming email consent only;
  // 403 invalid_link for any other (api/messaging/email-consent.test.ts).
  "GET /api/confirm-email-consent",
  "POST /api/confirm-email-consent",
  // A guest's choice of a cancelled or moved night: the texted link's token, signed for that one choice,
  // is the proof; 401 choice_link_invalid for any other (api/booking/guest-choice.test.ts).
  "GET /api/guest-choice",
  "POST /api/guest-choice",
  // A text sent to our number: Twilio's signature is the proof, 403 without it; the console
  // provider's stand-in is development only (api/messaging/inbound-sms.test.ts).
  "POST /api/twilio/inbound",
  "POST /api/dev/inbound-sms",
  // The details form's prefill: only for the number this browser verified (sdt_phone) or its /me
  // session names; 403 phone_not_verified for any other number (api/booking/kept-details.test.ts).
  "GET /api/kept-details",
  // The kept photo beside Use my saved photo: the same proof as the prefill (api/booking/kept-details.test.ts).
  "GET /api/kept-photo",
  // A saved ticket's receipt or invoice: its link token is the proof, 403 invalid_link for any other
  // booking; a /me night's: the guest's own session, 401 without it, 403 for another number's
  // booking (decision 032, api/booking/invoices.test.ts).
  "GET /api/invoice",
  "GET /api/me-invoice/:bookingId",
  // The Apple Wallet pass: the ticket link's token or the guest's own session of the booking's number;
  // 403 invalid_link for any other, 404 without the Apple settings (api/wallet/apple-pass.test.ts).
  "GET /api/wallet/apple/:bookingId",
  // The Google Wallet save link: the same proofs, 404 without Google's settings (api/wallet/google-pass.test.ts).
  "GET /api/wallet/google/:bookingId",
  "GET /api/public-config",
  "GET /api/uploads/images/:name",
  "POST /api/admin-login",
  "POST /api/admin-logout",
  // A team member's sign-in, and their set-up link's two steps: the link's token (stored hashed,
  // 72 hours, single use) is the proof; 410 setup_link_invalid for any other (api/organiser/team.test.ts).
  "POST /api/team-login",
  "POST /api/team-setup",
  "POST /api/team-setup-totp",
  // Passkeys (decision 051): signing in with one is a sign-in; adding one takes a set-up link's token
  // (410 setup_link_invalid for a dead one) or, without it, answers 401 to nobody and 403 to a host
  // or a guest, after reading the body (api/organiser/passkeys.test.ts).
  "POST /api/passkey-login-options",
  "POST /api/passkey-login",
  "POST /api/passkey-register-options",
  "POST /api/passkey-register",
  "POST /api/apply-promo",
  // Cancel my booking: behind the guest's own session (sdt_me), and only for a booking of that
  // session's number; another number's is 403 and changes nothing (api/booking/cancel-booking.test.ts).
  "POST /api/cancel-booking",
  // Give my ticket to a friend: the same guest session and the same rule as cancel-booking
  // (api/booking/transfer.test.ts).
  "POST /api/transfer-ticket",
  "POST /api/claim-offer",
  "POST /api/confirm-booking",
  "POST /api/create-checkout-session",
  "POST /api/dev/checkout/:id/cancel",
  "POST /api/dev/checkout/:id/pay",
  "POST /api/get-feedback",
  "POST /api/get-participants",
  "POST /api/host-login",
  "POST /api/join-waitlist",
  "POST /api/leave-waitlist",
  // Sign out on /me: needs nothing, it ends whatever guest session the cookie names.
  "POST /api/me-logout",
  // Delete my details: behind the guest's own session, erasing only its number's rows (decision 029).
  "POST /api/me-delete-details",
  "POST /api/my-rounds",
  "POST /api/save-feedback",
  "POST /api/save-user-details",
  "POST /api/send-confirmation",
  "POST /api/send-otp",
  // What a match may see: the report link's capability, like get-feedback (issue 37).
  "POST /api/share-contact",
  "POST /api/stripe/webhook",
  "POST /api/ticket",
  "POST /api/ticket-status",
  "POST /api/verify-otp",
  // Apple's PassKit web service (decision 055): a pass's own token (`Authorization: ApplePass …`) is
  // the proof, 401 pass_not_authorized without it; the changed-since list and the device log are open,
  // as Apple calls them (api/wallet/passkit-routes.test.ts).
  "POST /api/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber",
  "DELETE /api/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber",
  "GET /api/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier",
  "GET /api/passkit/v1/passes/:passTypeIdentifier/:serialNumber",
  "POST /api/passkit/v1/log",
]);

const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const { night, newLink, hostPhone } = hostAccessHelpers(server, () => admin);

describe("who is calling", () => {
  it("answers 401 to no session and 403 to a host of another event on every call not open to anyone", async () => {
    const ours = await night(2, "Our Night");
    const theirs = await night(2, "Their Night");
    // A host of our night, inside its doors-open time: the guard lets it in, but for its own night only.
    const { phone } = await hostPhone(await newLink(ours.event.id));
    const anon = browserClient(server.url);
    const body = staffCallBody(
      theirs.event.id,
      [theirs.attendees[0]!.userId, theirs.attendees[1]!.userId],
      server.deps.now(),
    );

    const routes = appRoutes(server.deps);
    // Every listed open call is still there (a stale list would hide nothing, but would mislead).
    expect(routes).toEqual(expect.arrayContaining([...OPEN_TO_ANYONE]));
    const guarded = routes.filter((route) => !OPEN_TO_ANYONE.has(route));
    // The walk saw the organiser's calls and the night's staff calls (these stand for the rest).
    expect(guarded).toEqual(
      expect.arrayContaining([
        "GET /api/admin-events",
        "POST /api/save-event",
        "POST /api/refund",
        "POST /api/release-results",
        "POST /api/host-links",
        "GET /api/admin-event/:id/roster",
        "POST /api/check-in",
        "POST /api/undo-check-in",
        "POST /api/open-doors",
        "POST /api/plan-rounds",
        "POST /api/run-rounds",
        "POST /api/mark-left",
        "GET /api/round-events",
        "GET /api/admin-event/:id/keep-apart",
        "POST /api/keep-apart",
        "GET /api/admin-event/:id/ratings",
        "POST /api/admin-save-feedback",
        "GET /api/admin-event/:id/message-guests",
        "POST /api/message-guests",
      ]),
    );

    // What no session, then a host of our night, gets from each call about their night.
    const answers: Record<string, string> = {};
    for (const route of guarded) {
      const refused = await callRoute(anon, route, theirs.event.id, body);
      const forbidden = await callRoute(phone, route, theirs.event.id, body);
      answers[route] =
        `${refused.status} ${(await json(refused)).code}, ${forbidden.status} ${(await json(forbidden)).code}`;
    }
    expect(answers).toEqual(
      Object.fromEntries(guarded.map((route) => [route, "401 admin_session_required, 403 forbidden"])),
    );
  });
});
