import { existsSync } from "node:fs";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../api/app.ts";
import { openAdminSession } from "../api/lib/admin-session.ts";
import { isErrorCode } from "../common/error-codes.ts";
import { bookings, events } from "../db/schema.ts";
import { teamMembers } from "../db/team-schema.ts";
import { suiteFake, suiteTestServer, verifiedPhoneCookie } from "./api-harness.ts";
import { yearLike } from "./clock.ts";
import { ADULT_DATE_OF_BIRTH } from "./date-of-birth.ts";
import { startFakeStripe } from "./fakes/stripe.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings, makeImage } from "./fixtures.ts";
import { type Case, casesFor, type Endpoint } from "./suites/bad-input-cases.ts";
import { createCheckout, newMobile, pay, verifiedBrowser } from "./suites/booking-flow.ts";
import { dbState, folderState } from "./suites/db-state.ts";
import { pool, type Reply, send, sendChunked } from "./suites/http.ts";
import { insertMember } from "./suites/team.ts";

// docs/api.md: bad input never causes a 5xx, error bodies are `{success:false, error, code}`, and a
// refused request changes nothing. Every endpoint under /api gets the same barrage, generated from
// the table below, with and without the admin session.

const NONE = 987_654;
const ADMIN_PASSWORD = "correct horse battery staple";
// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);
// Failed admin logins and wrong door codes are counted on purpose: that table is the protection.
// Logging in and out writes admin_sessions on purpose too: logout ends the session on the server.
const COUNTED_ON_PURPOSE = ["rate_limit_hits", "admin_sessions"];

// The sign-ins' site-wide slowdown is admin-login.test.ts's: here it would only make the barrage wait.
const server = suiteTestServer({
  env: { OTP_MAX_PER_ADDRESS: "100000", OTP_MAX_PER_PHONE: "1000", ADMIN_LOGIN_MAX_FAILURES: "100000" },
  deps: () => ({ sleep: async () => {} }),
});
/** The email of a member already on the team, so adding it again is a 409 that writes nothing. */
const TEAM_EMAIL = "already.here@example.com";
let jpeg: Uint8Array;
let adminCookie: string;
let eventId: number;

/** Every endpoint under /api. Bases are well-formed but point at nothing, unless `baseSucceeds`. */
function endpointTable(): Endpoint[] {
  const id = (base: unknown = NONE) => ({ kind: "id" as const, base });
  const text = (base: string, max: number, optional = false) => ({ kind: "text" as const, base, max, optional });
  const any = { kind: "any" as const, base: "x", optional: true };
  const eventFields = {
    eventName: text("Harbour Mixer", 120),
    eventDate: { kind: "date" as const, base: `${Y}-03-04` },
    eventTime: { kind: "time" as const, base: "19:30" },
    eventAddress: text("1 George St, Sydney NSW 2000", 300),
    totalSeats: { kind: "seats" as const, base: "20" },
    bookingAmount: { kind: "amount" as const, base: "45" },
    eventImage: { kind: "file" as const, base: null },
    eventduration: { kind: "hours" as const, base: "2" },
    fromage: { kind: "age" as const, base: "25" },
    toage: { kind: "age" as const, base: "35" },
    timeZone: { kind: "timeZone" as const, base: "Australia/Perth", optional: true },
    seatsMale: { kind: "genderSeats" as const, base: "10", optional: true },
    seatsFemale: { kind: "genderSeats" as const, base: "10", optional: true },
  };
  return [
    { method: "GET", path: "/api/public-config", baseSucceeds: "always" },
    { method: "GET", path: "/api/get-events", baseSucceeds: "always" },
    { method: "GET", path: "/api/get-event/:id", params: { id: id() } },
    {
      method: "GET",
      path: "/api/uploads/images/:name",
      params: { name: { kind: "imageName", base: `${"f".repeat(32)}.jpg` } },
    },
    {
      method: "GET",
      path: "/api/images/:name",
      params: { name: { kind: "imageName", base: `${"f".repeat(32)}.jpg` } },
    },
    {
      method: "POST",
      path: "/api/send-otp",
      baseSucceeds: "always",
      body: {
        type: "json",
        fields: {
          phone: { kind: "phone", base: "0412 345 678" },
          countryCode: { kind: "countryCode", base: "+61" },
          eventID: { ...id(eventId), optional: true },
          signIn: { kind: "boolean", base: true, optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/verify-otp",
      body: {
        type: "json",
        fields: {
          phone: { kind: "phone", base: "0499 999 999" },
          otp: { kind: "otp", base: "123456" },
          signIn: { kind: "boolean", base: true, optional: true },
        },
      },
    },
    // My nights: 401 without the guest's session (sdt_me), which only a code typed with signIn opens.
    { method: "GET", path: "/api/me" },
    { method: "POST", path: "/api/me-logout", baseSucceeds: "always" },
    // What is kept about me (decision 029): 401 without the guest's session, so nothing is read or erased.
    { method: "GET", path: "/api/me-data" },
    { method: "POST", path: "/api/me-delete-details" },
    // Messages about future events on /me: 401 without the guest's session, so nothing is read or recorded.
    { method: "GET", path: "/api/me-consent" },
    {
      method: "POST",
      path: "/api/me-consent",
      body: {
        type: "json",
        fields: {
          sms: { kind: "boolean", base: true, optional: true },
          email: { kind: "boolean", base: true, optional: true },
        },
      },
    },
    // The prefill: 403 for a number this browser did not verify, whatever else is asked.
    { method: "GET", path: "/api/kept-details", query: { phone: { kind: "phone", base: "0498 765 434" } } },
    // The kept photo: the same proof as the prefill.
    { method: "GET", path: "/api/kept-photo", query: { phone: { kind: "phone", base: "0498 765 434" } } },
    {
      // Cancel my booking: 401 without the guest's session, before the body is read.
      method: "POST",
      path: "/api/cancel-booking",
      body: {
        type: "json",
        fields: { eventID: id(eventId), userID: id(), as: { kind: "cancelAs", base: "credit", optional: true } },
      },
    },
    {
      // Give my ticket to a friend: 401 without the guest's session, before the body is read.
      method: "POST",
      path: "/api/transfer-ticket",
      body: {
        type: "json",
        fields: { eventID: id(eventId), userID: id(), toPhone: { kind: "phone", base: "0498 765 435" } },
      },
    },
    {
      // No browser here verified the phone: 403, even though the event is real and has seats.
      method: "POST",
      path: "/api/save-user-details",
      body: {
        type: "multipart",
        fields: {
          name: text("Asha Patel", 100),
          email: { kind: "email", base: "asha@example.com" },
          phone: { kind: "phone", base: "0498 765 432" },
          gender: { kind: "gender", base: "female" },
          dateOfBirth: { kind: "date", base: ADULT_DATE_OF_BIRTH },
          eventID: id(eventId),
          eventName: text("Test Mixer", 500, true),
          image: { kind: "file", base: null },
          keepDetails: { kind: "formBoolean", base: "true", optional: true },
          useSavedPhoto: { kind: "formBoolean", base: "true", optional: true },
          marketingSms: { kind: "formTick", base: "1", optional: true },
          marketingEmail: { kind: "formTick", base: "1", optional: true },
          announcementId: { ...id(), optional: true },
          // A friend's link's `t` (decision 058): text, up to 200 characters.
          transferToken: text("1.abc", 200, true),
        },
      },
    },
    {
      // No browser here verified the phone: 403, even though the event is real.
      method: "POST",
      path: "/api/join-waitlist",
      body: {
        type: "json",
        fields: {
          eventID: id(eventId),
          phone: { kind: "phone", base: "0498 765 433" },
          gender: { kind: "gender", base: "male" },
          name: text("Sam Lee", 100),
          marketingSms: { kind: "boolean", base: true, optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/leave-waitlist",
      body: { type: "json", fields: { eventID: id(eventId), phone: { kind: "phone", base: "0498 765 433" } } },
    },
    {
      // A forged token for no offer: 403 before anything is looked up.
      method: "POST",
      path: "/api/claim-offer",
      body: { type: "json", fields: { o: id(), t: { ...text("forged-token", 200), untrimmed: true } } },
    },
    { method: "GET", path: "/api/dev/outbox", baseSucceeds: "always" },
    { method: "GET", path: "/api/dev/mailbox", baseSucceeds: "always" },
    // A text to our number from the console provider: a text that is no keyword records nothing.
    {
      method: "POST",
      path: "/api/dev/inbound-sms",
      body: { type: "json", fields: { from: { kind: "phone", base: "0498 765 435" }, body: text("hello", 1600) } },
      baseSucceeds: "always",
    },
    // Twilio's webhook: no TWILIO_AUTH_TOKEN here, so every request is a 403 that changes nothing.
    {
      method: "POST",
      path: "/api/twilio/inbound",
      body: { type: "json", fields: { From: text("+61498765435", 32), Body: text("STOP", 1600) } },
    },
    // One-click unsubscribe: a forged token is 403 before anything is looked up.
    { method: "GET", path: "/api/unsubscribe", query: { c: id(), t: text("forged-token", 200) } },
    { method: "POST", path: "/api/unsubscribe", query: { c: id(), t: text("forged-token", 200) } },
    // A guest's choice of a cancelled or moved night (decision 059): a forged link is 401, a cut one 400.
    { method: "GET", path: "/api/guest-choice", query: { t: text("1.forged-token", 300) } },
    {
      method: "POST",
      path: "/api/guest-choice",
      body: {
        type: "json",
        fields: { t: text("1.forged-token", 300), choice: { kind: "guestChoice", base: "credit" } },
      },
    },
    { method: "GET", path: "/api/confirm-email-consent", query: { c: id(), t: text("forged-token", 200) } },
    { method: "POST", path: "/api/confirm-email-consent", query: { c: id(), t: text("forged-token", 200) } },
    // Apple's PassKit web service (decision 055): no Wallet is configured here, so a pass's call is a
    // 401 (no pass's token) and the open ones a 404 once their ids and body are well-formed.
    {
      method: "POST",
      path: "/api/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber",
      params: {
        deviceLibraryIdentifier: text("a1b2c3d4e5", 128),
        passTypeIdentifier: text("pass.au.example.speeddating", 255),
        serialNumber: text("0d4c7f0e-1b2a-4c3d-9e8f-a1b2c3d4e5f6", 64),
      },
      body: { type: "json", fields: { pushToken: text("ab12cd34ef56ab12cd34", 256) } },
    },
    {
      method: "GET",
      path: "/api/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier",
      params: {
        deviceLibraryIdentifier: text("a1b2c3d4e5", 128),
        passTypeIdentifier: text("pass.au.example.speeddating", 255),
      },
      query: { passesUpdatedSince: { kind: "text" as const, base: "12", max: 15, optional: true } },
    },
    {
      method: "GET",
      path: "/api/passkit/v1/passes/:passTypeIdentifier/:serialNumber",
      params: {
        passTypeIdentifier: text("pass.au.example.speeddating", 255),
        serialNumber: text("0d4c7f0e-1b2a-4c3d-9e8f-a1b2c3d4e5f6", 64),
      },
    },
    { method: "POST", path: "/api/passkit/v1/log", body: { type: "json", fields: { logs: any } } },
    // The API's document and reference page take no input (open outside production).
    { method: "GET", path: "/api/openapi.json", baseSucceeds: "always" },
    { method: "GET", path: "/api/docs", baseSucceeds: "always", nonJson: true },
    { method: "GET", path: "/api/docs/scalar.js", baseSucceeds: "always", nonJson: true },
    {
      method: "POST",
      path: "/api/create-checkout-session",
      body: {
        type: "json",
        fields: {
          userID: id(),
          eventID: id(),
          amount: any,
          userEmail: text("a@example.com", 500, true),
          eventName: text("Mixer", 500, true),
          useCredit: { kind: "boolean", base: true, optional: true },
        },
      },
    },
    {
      method: "GET",
      path: "/api/checkout-session",
      query: { session_id: { kind: "sessionId", base: `cs_local_${"f".repeat(24)}` } },
    },
    {
      method: "POST",
      path: "/api/send-confirmation",
      body: {
        type: "json",
        fields: {
          userID: id(),
          eventID: id(),
          paymentIntentId: text("pi_local_nothing", 255),
          userEmail: text("a@example.com", 500, true),
          eventName: text("Mixer", 500, true),
          userPhone: text("0412345678", 500, true),
        },
      },
    },
    // Local payments: there is no webhook, so every delivery is a 404 (the Stripe one is below).
    {
      method: "POST",
      path: "/api/stripe/webhook",
      body: { type: "json", fields: { id: text("evt_1", 255), type: text("checkout.session.completed", 255) } },
    },
    { method: "GET", path: "/api/get-event-details", query: { eventID: id(), userID: id() } },
    { method: "POST", path: "/api/ticket", body: { type: "json", fields: { bookingId: id(), t: any } } },
    { method: "POST", path: "/api/ticket-status", body: { type: "json", fields: { bookingId: id(), t: any } } },
    // A saved ticket's document: the link token is checked before anything is read (403).
    {
      method: "GET",
      path: "/api/invoice",
      query: { bookingId: id(), t: any, kind: { kind: "documentKind", base: "invoice", optional: true } },
    },
    // A /me night's document: 401 without the guest's session.
    {
      method: "GET",
      path: "/api/me-invoice/:bookingId",
      params: { bookingId: id() },
      query: { kind: { kind: "documentKind", base: "adjustment", optional: true } },
    },
    // The Apple Wallet pass: 404 here (no Apple settings), and bad ids 400 before that.
    { method: "GET", path: "/api/wallet/apple/:bookingId", params: { bookingId: id() }, query: { t: any } },
    // The Google Wallet save link: the same, without Google's settings.
    { method: "GET", path: "/api/wallet/google/:bookingId", params: { bookingId: id() }, query: { t: any } },
    { method: "GET", path: "/api/wallet-status", admin: true, baseSucceeds: "admin" },
    {
      method: "POST",
      path: "/api/confirm-booking",
      body: {
        type: "json",
        fields: { eventID: id(), userID: id(), uniqueCode: { ...text("ABCDEFGHJK", 64), untrimmed: true } },
      },
      // A wrong code for nobody's booking is an ordinary "Invalid code", not an error.
      goodAnswer: (status, body) => status === 200 && JSON.stringify(body) === '{"confirmed":false}',
    },
    {
      method: "GET",
      path: "/api/dev/checkout/:id",
      params: { id: { kind: "checkoutId", base: `cs_local_${"f".repeat(24)}` } },
    },
    {
      method: "POST",
      path: "/api/dev/checkout/:id/pay",
      params: { id: { kind: "checkoutId", base: `cs_local_${"f".repeat(24)}` } },
    },
    {
      method: "POST",
      path: "/api/dev/checkout/:id/cancel",
      params: { id: { kind: "checkoutId", base: `cs_local_${"f".repeat(24)}` } },
    },
    {
      method: "POST",
      path: "/api/admin-login",
      body: { type: "json", fields: { password: text("not the password", 1000) } },
    },
    { method: "POST", path: "/api/admin-logout", baseSucceeds: "always" },
    { method: "GET", path: "/api/admin-session", baseSucceeds: "always" },
    // Passkeys (decision 051): `token` null is the signed-in person's own passkey, a set-up link's token
    // a member's; the answers are WebAuthn's JSON, any value of which the server checks itself.
    {
      method: "POST",
      path: "/api/passkey-register-options",
      baseSucceeds: "admin",
      body: { type: "json", fields: { token: { ...any, base: null, optional: false } } },
    },
    {
      method: "POST",
      path: "/api/passkey-register",
      body: { type: "json", fields: { token: { ...any, base: null, optional: false }, response: any } },
    },
    { method: "POST", path: "/api/passkey-login-options", baseSucceeds: "always" },
    {
      method: "POST",
      path: "/api/passkey-login",
      body: { type: "json", fields: { response: { ...any, optional: false } } },
    },
    { method: "GET", path: "/api/admin-events", admin: true, baseSucceeds: "admin" },
    { method: "GET", path: "/api/admin-event/:id", admin: true, params: { id: id() } },
    {
      method: "POST",
      path: "/api/save-event",
      admin: true,
      baseSucceeds: "admin",
      body: { type: "multipart", fields: eventFields },
    },
    {
      method: "POST",
      path: "/api/update-event",
      admin: true,
      body: {
        type: "json",
        fields: {
          eventid: id(),
          eventName: text("Harbour Mixer", 120),
          eventDate: { kind: "date", base: `${Y}-03-04` },
          totalSeats: { kind: "seats", base: 20 },
          eventTime: { kind: "time", base: "19:30", optional: true },
          eventduration: { kind: "hours", base: 2, optional: true },
          fromage: { kind: "age", base: 25, optional: true },
          toage: { kind: "age", base: 35, optional: true },
          timeZone: { kind: "timeZone", base: "Australia/Adelaide", optional: true },
          eventAddress: text("1 George St, Sydney NSW 2000", 300, true),
          bookingAmount: { kind: "amount", base: 45, optional: true },
          seatsMale: { kind: "genderSeats", base: 10, optional: true },
          seatsFemale: { kind: "genderSeats", base: 10, optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/update-event-image",
      admin: true,
      body: { type: "multipart", fields: { eventid: id(), eventImage: { kind: "file", base: null } } },
    },
    {
      method: "POST",
      path: "/api/cancel-event",
      admin: true,
      body: { type: "json", fields: { eventId: id(), guestsChoose: { kind: "boolean", base: true, optional: true } } },
    },
    {
      method: "POST",
      path: "/api/move-event-guests",
      admin: true,
      body: { type: "json", fields: { fromEventId: id(), toEventId: id() } },
    },
    { method: "GET", path: "/api/admin-event-summary/:id", admin: true, params: { id: id() } },
    // The reports (issue 51): two months and a format.
    ...["money", "gst", "seats", "nights", "matches", "returning", "prices", "invitations"].map((name) => ({
      method: "GET" as const,
      path: `/api/reports/${name}`,
      admin: true,
      baseSucceeds: "admin" as const,
      query: {
        from: { kind: "month" as const, base: "2025-07" },
        to: { kind: "month" as const, base: "2025-09" },
        format: { kind: "reportFormat" as const, base: "json", optional: true },
      },
    })),
    { method: "GET", path: "/api/admin-event/:id/participants.csv", admin: true, params: { id: id() } },
    { method: "GET", path: "/api/admin-event/:id/waitlist", admin: true, params: { id: id() } },
    { method: "POST", path: "/api/start-event", admin: true, body: { type: "json", fields: { eventId: id() } } },
    { method: "POST", path: "/api/end-event", admin: true, body: { type: "json", fields: { eventId: id() } } },
    { method: "GET", path: "/api/get-event-user/:id", admin: true, params: { id: id() } },
    {
      method: "GET",
      path: "/api/admin-invoice/:number",
      admin: true,
      params: { number: { kind: "documentNumber", base: "INV-987654" } },
    },
    {
      method: "POST",
      path: "/api/refund",
      admin: true,
      body: { type: "json", fields: { paymentIntentId: text("pi_local_nothing", 255) } },
    },
    {
      method: "POST",
      path: "/api/give-credit",
      admin: true,
      body: { type: "json", fields: { userID: id(), amountCents: id(100), reason: text("Late start", 200) } },
    },
    {
      method: "POST",
      path: "/api/get-participants",
      body: { type: "json", fields: { userID: id(), eventID: id(), token: any } },
    },
    {
      method: "POST",
      path: "/api/save-feedback",
      body: {
        type: "json",
        fields: {
          fromUserID: id(),
          toUserID: id(NONE + 1),
          eventID: id(),
          feedback: { kind: "feedback", base: "like" },
          token: any,
          clientTs: { kind: "clientTs", base: Date.now(), optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/get-feedback",
      body: { type: "json", fields: { eventID: id(), userID: id(), token: any } },
    },
    {
      method: "POST",
      path: "/api/share-contact",
      body: {
        type: "json",
        fields: {
          eventID: id(),
          userID: id(),
          token: any,
          partnerID: id(NONE + 1),
          share: { kind: "share", base: "mobile" },
          instagram: { kind: "any", base: "priya", optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/promo-codes",
      admin: true,
      body: {
        type: "json",
        fields: {
          eventID: id(),
          code: text("FRIENDS", 32),
          percentOff: { kind: "any", base: 10, optional: true },
          maxUses: { kind: "any", base: 3, optional: true },
          validUntil: { kind: "any", base: `${Y}-03-04T18:00`, optional: true },
          gender: { kind: "gender", base: "female", optional: true },
        },
      },
    },
    { method: "GET", path: "/api/admin-event/:id/promo-codes", admin: true, params: { id: id() } },
    { method: "POST", path: "/api/disable-promo-code", admin: true, body: { type: "json", fields: { id: id() } } },
    {
      method: "POST",
      path: "/api/apply-promo",
      body: { type: "json", fields: { userID: id(), eventID: id(), code: text("FRIENDS", 64) } },
    },
    ...(["/api/announcements", "/api/announcements/preview"] as const).map((path) => ({
      method: "POST" as const,
      path,
      admin: true,
      body: {
        type: "json" as const,
        fields: {
          eventID: id(),
          audience: { kind: "any" as const, base: { gender: "female" }, optional: true },
          channels: { kind: "any" as const, base: ["sms"] },
          text: text("3 seats left for men on Saturday: {link}", 2000),
        },
      },
    })),
    { method: "GET", path: "/api/admin-event/:id/announcements", admin: true, params: { id: id() } },
    { method: "GET", path: "/api/admin-event/:id/roster", admin: true, params: { id: id() } },
    {
      method: "POST",
      path: "/api/check-in",
      admin: true,
      body: {
        type: "json",
        fields: { eventID: id(), userID: id(), clientTs: { kind: "clientTs", base: Date.now() } },
      },
    },
    {
      method: "POST",
      path: "/api/undo-check-in",
      admin: true,
      body: { type: "json", fields: { eventID: id(), userID: id() } },
    },
    { method: "POST", path: "/api/open-doors", admin: true, body: { type: "json", fields: { eventId: id() } } },
    { method: "GET", path: "/api/admin-event/:id/rounds", admin: true, params: { id: id() } },
    {
      method: "POST",
      path: "/api/plan-rounds",
      admin: true,
      body: {
        type: "json",
        fields: {
          eventID: id(),
          roundMinutes: { kind: "roundMinutes", base: 5, optional: true },
          breakMinutes: { kind: "breakMinutes", base: 1, optional: true },
          maxRounds: { kind: "maxRounds", base: 9, optional: true },
          seated: { kind: "gender", base: "female", optional: true },
          preview: { kind: "boolean", base: false, optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/run-rounds",
      admin: true,
      body: {
        type: "json",
        fields: {
          eventID: id(),
          action: { kind: "roundsAction", base: "start" },
          current: { kind: "roundsCurrent", base: null, optional: true },
          phase: { kind: "roundsPhase", base: null, optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/mark-left",
      admin: true,
      body: { type: "json", fields: { eventID: id(), userID: id(), left: { kind: "boolean", base: true } } },
    },
    {
      method: "POST",
      path: "/api/room-announcement",
      admin: true,
      body: { type: "json", fields: { eventID: id(), text: { kind: "any", base: "Drinks are on the bar" } } },
    },
    { method: "GET", path: "/api/admin-event/:id/keep-apart", admin: true, params: { id: id() } },
    {
      method: "POST",
      path: "/api/keep-apart",
      admin: true,
      body: {
        type: "json",
        fields: {
          eventID: id(),
          userIDs: { kind: "idPair", base: [NONE, NONE + 1] },
          apart: { kind: "boolean", base: true },
        },
      },
    },
    { method: "GET", path: "/api/admin-event/:id/message-guests", admin: true, params: { id: id() } },
    {
      method: "POST",
      path: "/api/message-guests",
      admin: true,
      body: {
        type: "json",
        fields: {
          eventID: id(),
          to: { kind: "audience", base: "all" },
          text: text("We're running 15 minutes late", 320),
          messageID: { kind: "messageID", base: "dialog-0001", optional: true },
        },
      },
    },
    {
      method: "POST",
      path: "/api/my-rounds",
      body: { type: "json", fields: { eventID: id(), userID: id(), token: any } },
    },
    // The room's stream: staff without `userID` (a guest's link is the my-rounds case above).
    { method: "GET", path: "/api/round-events", admin: true, query: { eventID: id() } },
    { method: "GET", path: "/api/admin-event/:id/ratings", admin: true, params: { id: id() } },
    { method: "POST", path: "/api/release-results", admin: true, body: { type: "json", fields: { eventId: id() } } },
    {
      method: "POST",
      path: "/api/admin-save-feedback",
      admin: true,
      body: {
        type: "json",
        fields: {
          eventID: id(),
          fromUserID: id(),
          toUserID: id(NONE + 1),
          feedback: { kind: "feedback", base: "like" },
        },
      },
    },
    {
      method: "POST",
      path: "/api/host-links",
      admin: true,
      body: { type: "json", fields: { eventID: id(), label: text("Door 1", 60) } },
    },
    { method: "GET", path: "/api/admin-event/:id/host-links", admin: true, params: { id: id() } },
    { method: "POST", path: "/api/revoke-host-link", admin: true, body: { type: "json", fields: { id: id() } } },
    { method: "GET", path: "/api/admin-event/:id/activity", admin: true, params: { id: id() } },
    // A forged token: 403 before anything is written.
    { method: "POST", path: "/api/host-login", body: { type: "json", fields: { token: any } } },
    { method: "GET", path: "/api/host-session" },
    // The team (docs/decisions/050-the-team.md). A sign-in about nobody: 401, counted on purpose.
    {
      method: "POST",
      path: "/api/team-login",
      body: {
        type: "json",
        fields: {
          email: { kind: "email", base: "nobody@example.com" },
          password: text("not it", 200),
          code: text("123456", 40),
        },
      },
    },
    { method: "GET", path: "/api/team", admin: true, baseSucceeds: "admin" },
    // A member with TEAM_EMAIL is already on the team: 409 before anything is written.
    {
      method: "POST",
      path: "/api/team",
      admin: true,
      // Its GET, the list, is the "wrong method" that answers 200.
      otherMethodServed: true,
      goodAnswer: (status) => status === 200,
      body: {
        type: "json",
        fields: { name: text("Priya", 100), email: { kind: "email", base: TEAM_EMAIL }, role: text("door", 10) },
      },
    },
    { method: "POST", path: "/api/team-remove", admin: true, body: { type: "json", fields: { id: id() } } },
    { method: "POST", path: "/api/team-resend", admin: true, body: { type: "json", fields: { id: id() } } },
    // A token that names no member: 410 before anything is written.
    {
      method: "POST",
      path: "/api/team-setup",
      body: {
        type: "json",
        fields: { token: text("x".repeat(43), 200), password: text("a long enough passphrase", 1000) },
      },
    },
    {
      method: "POST",
      path: "/api/team-setup-totp",
      body: { type: "json", fields: { token: text("x".repeat(43), 200), code: text("123456", 40) } },
    },
    // Sent with a member's session (below): `{}` ends that member's own sessions, legally; naming
    // another member is the owner's alone (403).
    {
      method: "POST",
      path: "/api/sign-out-everywhere",
      admin: true,
      emptyIsLegal: true,
      goodAnswer: (status) => status === 200,
      body: { type: "json", fields: { id: { ...id(), optional: true } } },
    },
    { method: "GET", path: "/api/owner-security", admin: true, baseSucceeds: "admin" },
    // Starting the app's set-up writes its secret on purpose (skipped in the state below).
    { method: "POST", path: "/api/owner-totp", admin: true, baseSucceeds: "admin" },
    {
      method: "POST",
      path: "/api/owner-totp-confirm",
      admin: true,
      body: { type: "json", fields: { code: text("123456", 40) } },
    },
    // On without a second factor: 409; off is legal and writes nothing while it is off.
    {
      method: "POST",
      path: "/api/owner-second-factor",
      admin: true,
      goodAnswer: (status) => status === 200,
      body: { type: "json", fields: { required: { kind: "boolean", base: true } } },
    },
  ];
}

/** `clientTs: is in the future`, `eventID.0: Required`: a code name, then a colon. */
const FIELD_PREFIX = /^[A-Za-z_][\w.[\]]*:/;

/** Why a reply breaks the contract, or null when it keeps it. */
function judge(ep: Endpoint, c: Case, reply: Reply, baseSucceeds: boolean): string | null {
  if (reply.status >= 500) return `a ${reply.status}`;
  if (ep.nonJson && reply.status < 400 && c.expect === "maybe" && baseSucceeds) return null;
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    return `${reply.status} with a non-JSON body (${reply.contentType}): ${reply.text.slice(0, 80)}`;
  }
  if (reply.status < 400) {
    if (c.expect === "maybe" && (baseSucceeds || ep.goodAnswer?.(reply.status, body))) return null;
    return `${reply.status} (accepted): ${reply.text.slice(0, 120)}`;
  }
  if (!reply.contentType.includes("application/json")) return `${reply.status} without a JSON content type`;
  const error = body as { success?: unknown; error?: unknown; code?: unknown };
  if (error.success !== false || typeof error.error !== "string" || error.error === "") {
    return `${reply.status} without {success:false, error}: ${reply.text.slice(0, 120)}`;
  }
  // Clients branch on the code, so every refusal carries one of the listed codes.
  if (!isErrorCode(error.code)) return `${reply.status} without a listed code: ${reply.text.slice(0, 120)}`;
  // People read the message (the PWA shows it): it never starts with a field's code name.
  if (FIELD_PREFIX.test(error.error)) return `${reply.status} naming a field first: ${error.error.slice(0, 120)}`;
  return null;
}

type Session = { name: string; cookie?: string };

async function barrage(ep: Endpoint, sessions: Session[], live: (s: Session) => boolean) {
  const { db, env } = server.deps;
  // A wrong password is also counted, on purpose, in the activity log (one row per 15 minutes).
  // A passkey sign-in's options keep a challenge for whoever asks, on purpose (decision 051).
  const skip =
    ep.path === "/api/admin-login" || ep.path === "/api/team-login"
      ? [...COUNTED_ON_PURPOSE, "activity_log"]
      : ep.path === "/api/owner-totp"
        ? [...COUNTED_ON_PURPOSE, "owner_security"]
        : ep.path === "/api/passkey-login-options"
          ? [...COUNTED_ON_PURPOSE, "webauthn_challenges"]
          : COUNTED_ON_PURPOSE;
  const before = dbState(db.$client, skip);
  const uploadsBefore = folderState(env.UPLOADS_DIR);
  const failures: string[] = [];
  let sent = 0;
  for (const session of sessions) {
    const isLive = live(session);
    const cases = casesFor(ep, isLive, jpeg);
    const baseSucceeds = ep.baseSucceeds === "always" || (ep.baseSucceeds === "admin" && Boolean(session.cookie));
    await pool(cases, 12, async (c) => {
      const reply = await send(server.url, c.req, session.cookie);
      const problem = judge(ep, c, reply, baseSucceeds);
      if (problem) failures.push(`[${session.name}] ${c.label}: ${problem}`);
    });
    sent += cases.length;
    if (ep.method === "POST") {
      // Streamed without a length, so the limit must count the bytes as they arrive.
      const reply = await sendChunked(
        server.url,
        ep.path.replace(/:\w+/g, "x"),
        { "content-type": "application/json" },
        "x".repeat(64 * 1024),
        32,
        session.cookie,
      );
      if (reply.status !== 413)
        failures.push(`[${session.name}] 2 MB chunked body: ${reply.status} ${reply.text.slice(0, 80)}`);
      sent++;
    }
  }
  return {
    failures,
    sent,
    before,
    after: dbState(db.$client, skip),
    uploadsBefore,
    uploadsAfter: folderState(env.UPLOADS_DIR),
  };
}

beforeAll(async () => {
  jpeg = new Uint8Array(await makeImage("jpeg", 120, 90));
  const { db, env } = server.deps;
  // Real data in every table, so "unchanged" is checked against something.
  const open = await insertEvent(db, env.UPLOADS_DIR, { name: "Open Mixer", totalSeats: 10 });
  eventId = open.id;
  const started = await insertEvent(db, env.UPLOADS_DIR, { name: "Started Mixer", status: "started" });
  insertPaidBookings(db, started.id, 4);
  const held = insertHeldBooking(db, open.id, { now: server.deps.now() });
  const paidHold = insertHeldBooking(db, open.id, { now: server.deps.now() });
  await createCheckout(
    server.url,
    { userID: held.userId, eventID: open.id },
    verifiedPhoneCookie(env, held.phone, server.deps.now()),
  );
  const session = await createCheckout(
    server.url,
    { userID: paidHold.userId, eventID: open.id },
    verifiedPhoneCookie(env, paidHold.phone, server.deps.now()),
  );
  expect(await pay(server.url, session.sessionId ?? "")).toBe(303);
  adminCookie = await adminLogin();
  db.insert(teamMembers)
    .values({ name: "Already Here", email: TEAM_EMAIL, role: "door", activatedAt: server.deps.now() })
    .run();
});

/** A fresh admin session's cookie. */
async function adminLogin(): Promise<string> {
  const login = await fetch(`${server.url}/api/admin-login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  expect(cookie).toMatch(/sdt_admin=/);
  return cookie;
}

describe("every endpoint answers bad input with a 4xx {success:false, error} and changes nothing", () => {
  // The table needs the seeded event's id, so it is read lazily inside each test.
  const rows = () => endpointTable();
  const labels = [
    "GET /api/public-config",
    "GET /api/get-events",
    "GET /api/get-event/:id",
    "GET /api/uploads/images/:name",
    "GET /api/images/:name",
    "POST /api/send-otp",
    "POST /api/verify-otp",
    "GET /api/me",
    "POST /api/me-logout",
    "GET /api/me-data",
    "POST /api/me-delete-details",
    "GET /api/me-consent",
    "POST /api/me-consent",
    "GET /api/kept-details",
    "GET /api/kept-photo",
    "POST /api/cancel-booking",
    "POST /api/transfer-ticket",
    "POST /api/save-user-details",
    "POST /api/join-waitlist",
    "POST /api/leave-waitlist",
    "POST /api/claim-offer",
    "GET /api/dev/outbox",
    "GET /api/dev/mailbox",
    "POST /api/dev/inbound-sms",
    "POST /api/twilio/inbound",
    "GET /api/unsubscribe",
    "POST /api/unsubscribe",
    "GET /api/guest-choice",
    "POST /api/guest-choice",
    "GET /api/confirm-email-consent",
    "POST /api/confirm-email-consent",
    "POST /api/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber",
    "GET /api/passkit/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier",
    "GET /api/passkit/v1/passes/:passTypeIdentifier/:serialNumber",
    "POST /api/passkit/v1/log",
    "GET /api/openapi.json",
    "GET /api/docs",
    "GET /api/docs/scalar.js",
    "POST /api/create-checkout-session",
    "GET /api/checkout-session",
    "POST /api/send-confirmation",
    "POST /api/stripe/webhook",
    "GET /api/get-event-details",
    "POST /api/ticket",
    "POST /api/ticket-status",
    "GET /api/invoice",
    "GET /api/me-invoice/:bookingId",
    "GET /api/wallet/apple/:bookingId",
    "GET /api/wallet/google/:bookingId",
    "GET /api/wallet-status",
    "POST /api/confirm-booking",
    "GET /api/dev/checkout/:id",
    "POST /api/dev/checkout/:id/pay",
    "POST /api/dev/checkout/:id/cancel",
    "POST /api/admin-login",
    "POST /api/admin-logout",
    "GET /api/admin-session",
    "POST /api/passkey-register-options",
    "POST /api/passkey-register",
    "POST /api/passkey-login-options",
    "POST /api/passkey-login",
    "GET /api/admin-events",
    "GET /api/admin-event/:id",
    "POST /api/save-event",
    "POST /api/update-event",
    "POST /api/update-event-image",
    "POST /api/cancel-event",
    "POST /api/move-event-guests",
    "GET /api/admin-event-summary/:id",
    "GET /api/reports/money",
    "GET /api/reports/gst",
    "GET /api/reports/seats",
    "GET /api/reports/nights",
    "GET /api/reports/matches",
    "GET /api/reports/returning",
    "GET /api/reports/prices",
    "GET /api/reports/invitations",
    "GET /api/admin-event/:id/participants.csv",
    "GET /api/admin-event/:id/waitlist",
    "POST /api/start-event",
    "POST /api/end-event",
    "GET /api/get-event-user/:id",
    "GET /api/admin-invoice/:number",
    "POST /api/refund",
    "POST /api/give-credit",
    "POST /api/get-participants",
    "POST /api/save-feedback",
    "POST /api/get-feedback",
    "POST /api/share-contact",
    "POST /api/promo-codes",
    "GET /api/admin-event/:id/promo-codes",
    "POST /api/disable-promo-code",
    "POST /api/apply-promo",
    "POST /api/announcements",
    "POST /api/announcements/preview",
    "GET /api/admin-event/:id/announcements",
    "GET /api/admin-event/:id/roster",
    "POST /api/check-in",
    "POST /api/undo-check-in",
    "POST /api/open-doors",
    "GET /api/admin-event/:id/rounds",
    "POST /api/plan-rounds",
    "POST /api/run-rounds",
    "POST /api/mark-left",
    "POST /api/room-announcement",
    "GET /api/admin-event/:id/keep-apart",
    "POST /api/keep-apart",
    "GET /api/admin-event/:id/message-guests",
    "POST /api/message-guests",
    "POST /api/my-rounds",
    "GET /api/round-events",
    "GET /api/admin-event/:id/ratings",
    "POST /api/release-results",
    "POST /api/admin-save-feedback",
    "POST /api/host-links",
    "GET /api/admin-event/:id/host-links",
    "POST /api/revoke-host-link",
    "GET /api/admin-event/:id/activity",
    "POST /api/host-login",
    "GET /api/host-session",
    "POST /api/team-login",
    "GET /api/team",
    "POST /api/team",
    "POST /api/team-remove",
    "POST /api/team-resend",
    "POST /api/team-setup",
    "POST /api/team-setup-totp",
    "POST /api/sign-out-everywhere",
    "GET /api/owner-security",
    "POST /api/owner-totp",
    "POST /api/owner-totp-confirm",
    "POST /api/owner-second-factor",
  ];

  it("the table lists every endpoint the app serves", () => {
    expect(rows().map((e) => `${e.method} ${e.path}`)).toEqual(labels);
    const served = createApp(server.deps)
      .routes.filter((r) => r.path.startsWith("/api/") && (r.method === "GET" || r.method === "POST"))
      .map((r) => `${r.method} ${r.path}`);
    expect([...new Set(served)].sort()).toEqual([...labels].sort());
  });

  it.each(labels)("%s", { timeout: 60_000 }, async (label) => {
    const ep = rows().find((e) => `${e.method} ${e.path}` === label);
    if (!ep) throw new Error(`no row for ${label}`);
    // Logout ends the session it is sent with, so it gets one of its own; Sign out everywhere a
    // member's, so the owner's sessions live on.
    const cookie =
      label === "POST /api/admin-logout"
        ? // Opened on the server: the admin-login barrage locked the owner's password (5 wrong).
          `sdt_admin=${openAdminSession(server.deps, null).cookie}`
        : label === "POST /api/sign-out-everywhere"
          ? `sdt_admin=${openAdminSession(server.deps, insertMember(server.deps.db, "door").id).cookie}`
          : adminCookie;
    // Only a base request that writes (send-otp, save-event as admin) keeps maybe-legal cases away.
    const result = await barrage(
      ep,
      [{ name: "anonymous" }, { name: "admin", cookie }],
      (s) => Boolean(ep.body) && (ep.baseSucceeds === "always" || (ep.baseSucceeds === "admin" && Boolean(s.cookie))),
    );
    expect(result.sent).toBeGreaterThanOrEqual(16);
    expect(
      result.failures.slice(0, 25),
      `${result.failures.length} of ${result.sent} replies broke the contract`,
    ).toEqual([]);
    expect(result.after).toEqual(result.before);
    expect(result.uploadsAfter).toEqual(result.uploadsBefore);
    expect(server.errors).toEqual([]);
  });
});

describe("the two multipart calls, where the rest of the request would succeed", () => {
  it("save-user-details from a verified browser refuses every broken upload and holds no seat", {
    timeout: 60_000,
  }, async () => {
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const phoneCookie = [...browser.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const ep = endpointTable().find((e) => e.path === "/api/save-user-details");
    if (!ep?.body) throw new Error("no save-user-details row");
    const live: Endpoint = {
      ...ep,
      baseSucceeds: "always",
      body: { ...ep.body, fields: { ...ep.body.fields, phone: { kind: "phone", base: phone } } },
    };
    const result = await barrage(
      live,
      [
        { name: "verified", cookie: phoneCookie },
        { name: "verified+admin", cookie: `${phoneCookie}; ${adminCookie}` },
      ],
      () => true,
    );
    expect(
      result.failures.slice(0, 25),
      `${result.failures.length} of ${result.sent} replies broke the contract`,
    ).toEqual([]);
    expect(result.after).toEqual(result.before);
    expect(result.uploadsAfter).toEqual(result.uploadsBefore);
    expect(existsSync("/tmp/sdt-evil.jpg")).toBe(false);
  });

  it("join-waitlist and leave-waitlist from a verified browser judge every field and change nothing", {
    timeout: 60_000,
  }, async () => {
    // The seeded event has free seats, so even a well-formed join is a 409 and a leave a 404.
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const phoneCookie = [...browser.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    for (const path of ["/api/join-waitlist", "/api/leave-waitlist"]) {
      const ep = endpointTable().find((e) => e.path === path);
      if (!ep?.body) throw new Error(`no ${path} row`);
      const verified: Endpoint = {
        ...ep,
        body: { ...ep.body, fields: { ...ep.body.fields, phone: { kind: "phone", base: phone } } },
      };
      const result = await barrage(verified, [{ name: "verified", cookie: phoneCookie }], () => false);
      expect(
        result.failures.slice(0, 25),
        `${path}: ${result.failures.length} of ${result.sent} replies broke the contract`,
      ).toEqual([]);
      expect(result.after).toEqual(result.before);
    }
  });

  it("legal text that looks like SQL or script is stored as plain text, nothing more", async () => {
    const { db } = server.deps;
    const name = "Robert'); DROP TABLE events; -- <script>alert(1)</script>";
    const address = '" OR 1=1 -- <img src=x onerror=alert(1)> 💘';
    const form = new FormData();
    for (const [k, v] of Object.entries({
      eventName: name,
      eventDate: `${Y}-05-06`,
      eventTime: "18:45",
      eventAddress: address,
      totalSeats: "12",
      bookingAmount: "39.5",
      eventduration: "2",
      fromage: "25",
      toage: "35",
    })) {
      form.append(k, v);
    }
    form.append("eventImage", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "e.jpg");
    const before = db.select().from(events).all().length;
    const reply = await send(server.url, { method: "POST", path: "/api/save-event", body: form }, adminCookie);
    expect(reply.status).toBe(200);
    const { id } = JSON.parse(reply.text) as { id: number };
    expect(db.select().from(events).all().length).toBe(before + 1);
    const detail = (await (await fetch(`${server.url}/api/get-event/${id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({ event_name: name, event_address: address });
    expect(db.select().from(bookings).where(eq(bookings.eventId, id)).all()).toEqual([]);
  });
});

describe("the Stripe webhook", () => {
  const fake = suiteFake(startFakeStripe);
  const stripeServer = suiteTestServer(() => ({
    env: { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_test", STRIPE_API_BASE: fake.url },
  }));

  it("refuses unsigned, forged and junk deliveries with a 400 and changes nothing", async () => {
    const { db, env } = stripeServer.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const held = insertHeldBooking(db, event.id, { now: stripeServer.deps.now() });
    const checkout = await createCheckout(
      stripeServer.url,
      { userID: held.userId, eventID: event.id },
      verifiedPhoneCookie(env, held.phone, stripeServer.deps.now()),
    );
    const completed = JSON.stringify(fake.event("checkout.session.completed", fake.complete(checkout.sessionId ?? "")));
    const sign = (payload: string, secret = "whsec_test") =>
      Stripe.webhooks.generateTestHeaderString({ payload, secret });
    const deliveries: { label: string; body: string | Uint8Array; signature?: string; type?: string }[] = [
      { label: "unsigned", body: completed },
      { label: "forged", body: completed, signature: sign(completed, "whsec_wrong") },
      { label: "signature of other bytes", body: completed, signature: sign(`${completed} `) },
      { label: "junk signature", body: completed, signature: "t=1,v1=zz" },
      { label: "huge signature", body: completed, signature: `t=1,v1=${"a".repeat(8000)}` },
      {
        label: "old timestamp",
        body: completed,
        signature: Stripe.webhooks.generateTestHeaderString({
          payload: completed,
          secret: "whsec_test",
          timestamp: 1,
        }),
      },
      { label: "malformed JSON, signed", body: "{", signature: sign("{") },
      { label: "JSON array, signed", body: "[]", signature: sign("[]") },
      { label: "null, signed", body: "null", signature: sign("null") },
      { label: "empty object, signed", body: "{}", signature: sign("{}") },
      {
        label: "event without its object, signed",
        body: '{"id":"evt_x","type":"checkout.session.completed","data":{"object":null}}',
        signature: sign('{"id":"evt_x","type":"checkout.session.completed","data":{"object":null}}'),
      },
      { label: "binary, signed", body: new Uint8Array([0xff, 0xfe, 0x00]), signature: sign("\ufffd\ufffd\u0000") },
      { label: "no body", body: "", signature: sign("") },
      { label: "form-encoded", body: "a=1", signature: sign("a=1"), type: "application/x-www-form-urlencoded" },
    ];
    const before = dbState(db.$client);
    const failures: string[] = [];
    for (const d of deliveries) {
      const headers: Record<string, string> = { "content-type": d.type ?? "application/json" };
      if (d.signature) headers["stripe-signature"] = d.signature;
      const reply = await send(stripeServer.url, {
        method: "POST",
        path: "/api/stripe/webhook",
        headers,
        body: d.body,
      });
      const problem = judge(
        { method: "POST", path: "/api/stripe/webhook" },
        { label: d.label, req: { method: "POST", path: "" }, expect: "bad" },
        reply,
        false,
      );
      if (problem) failures.push(`${d.label}: ${problem}`);
    }
    expect(failures).toEqual([]);
    expect(dbState(db.$client)).toEqual(before);
    expect(db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get()?.status).toBe("held");
  });
});
