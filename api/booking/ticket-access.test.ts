import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, events } from "../../db/schema.ts";
import {
  type BrowserClient,
  browserClient,
  suiteFake,
  suiteTestServer,
  verifiedPhoneCookie,
} from "../../test/api-harness.ts";
import { startFakeStripe } from "../../test/fakes/stripe.ts";
import { insertEvent, insertHeldBooking, makeImage } from "../../test/fixtures.ts";
import { createCheckout, holdSeat, newMobile, pay, verifiedBrowser } from "../../test/suites/booking-flow.ts";
import { linkToken } from "../lib/capability.ts";

// The success URL is not a ticket (docs/decisions/010-tickets-are-not-urls.md), and answers do not reveal bookings. The door code, QR,
// name and phone go only to the browser that verified the booking's phone, or to whoever opens the
// signed ticket link texted to that phone (docs/decisions/010).

const NO_PROOF = { success: false, error: "verify this phone number first", code: "phone_not_verified" };

const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "100" } });
let photo: Uint8Array;

beforeAll(async () => {
  photo = new Uint8Array(await makeImage("jpeg", 120, 90));
});

type Answer = { status: number; body: unknown; cacheControl: string | null };
const answer = async (response: Response): Promise<Answer> => ({
  status: response.status,
  body: await response.json(),
  cacheControl: response.headers.get("cache-control"),
});

const confirmationBody = (ids: { userID: number; eventID: number }, paymentIntentId = "pi_local_anything") => ({
  ...ids,
  paymentIntentId,
  userEmail: "asha@example.com",
  eventName: "Test Mixer",
  userPhone: "",
});

/** A booking paid the way a buyer pays: OTP, details, Proceed to Payment, Pay. */
async function paidThroughTheApp(eventId: number) {
  const phone = newMobile();
  const buyer = await verifiedBrowser(server.url, phone);
  const held = await holdSeat(buyer, { phone, eventId, image: photo });
  expect(held.status).toBe(200);
  const userID = held.userID ?? 0;
  const session = await createCheckout(server.url, { userID, eventID: eventId }, buyer);
  expect(await pay(server.url, session.sessionId ?? "")).toBe(303);
  const row = server.deps.db.select().from(bookings).where(eq(bookings.userId, userID)).get();
  expect(row?.status).toBe("paid");
  return {
    phone,
    buyer,
    userID,
    eventID: eventId,
    sessionId: session.sessionId ?? "",
    bookingId: row?.id ?? 0,
    paymentIntentId: row?.paymentIntentId ?? "",
    uniqueCode: row?.uniqueCode ?? "",
  };
}

const statusPath = (sessionId: string) => `/api/checkout-session?session_id=${sessionId}`;

async function newEvent(name = "Lantern Social") {
  return insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
    name,
    address: "9 Lantern St, Melbourne VIC 3000",
  });
}

/** The confirmation SMS the console provider sent to `phone`. */
async function confirmationText(phone: string): Promise<string> {
  const outbox = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
  const text = outbox.filter((m) => m.to === phone && m.body.includes("ticket code")).at(-1)?.body;
  if (!text) throw new Error(`no confirmation was texted to ${phone}`);
  return text;
}

const postTicket = (client: BrowserClient, body: unknown) => client.postJson("/api/ticket", body);

describe("the success URL is not a ticket", () => {
  it("another browser holding the success URL gets 403 from checkout-session and send-confirmation", async () => {
    const event = await newEvent();
    const paid = await paidThroughTheApp(event.id);
    const ids = { userID: paid.userID, eventID: paid.eventID };

    // A stranger who proved a phone of their own, and a browser that proved nothing.
    const stranger = await verifiedBrowser(server.url, newMobile());
    const anonymous = browserClient(server.url);
    for (const other of [stranger, anonymous]) {
      const status = await answer(await other.get(statusPath(paid.sessionId)));
      expect(status).toMatchObject({ status: 403, body: NO_PROOF });
      // Even with the right payment intent id (it sits in the buyer's localStorage and screenshots).
      const confirm = await answer(
        await other.postJson("/api/send-confirmation", confirmationBody(ids, paid.paymentIntentId)),
      );
      expect(confirm).toMatchObject({ status: 403, body: NO_PROOF });
      expect(JSON.stringify(confirm.body)).not.toContain(paid.uniqueCode);
    }

    // The buyer's own browser still gets the ticket, and it is the one the SMS carries.
    const own = await answer(await paid.buyer.get(statusPath(paid.sessionId)));
    expect(own).toMatchObject({ status: 200, body: { paid: true, paymentIntentId: paid.paymentIntentId } });
    const ticket = await answer(
      await paid.buyer.postJson("/api/send-confirmation", confirmationBody(ids, paid.paymentIntentId)),
    );
    expect(ticket).toMatchObject({
      status: 200,
      body: { uniqueCode: paid.uniqueCode, phone: paid.phone, eventName: "Lantern Social" },
    });
  });

  it("answers an unknown, unpaid or someone else's booking the same way to a caller without proof", async () => {
    const { db } = server.deps;
    const event = await newEvent();
    const paid = await paidThroughTheApp(event.id);
    const held = insertHeldBooking(db, event.id, { now: server.deps.now() });
    const heldCheckout = await createCheckout(
      server.url,
      { userID: held.userId, eventID: event.id },
      verifiedPhoneCookie(server.deps.env, held.phone, server.deps.now()),
    );
    const stranger = await verifiedBrowser(server.url, newMobile());
    const before = db.select().from(bookings).where(eq(bookings.eventId, event.id)).all();

    const bookingsToAsk = [
      { userID: 987_654, eventID: event.id },
      { userID: held.userId, eventID: event.id },
      { userID: paid.userID, eventID: event.id },
    ];
    const sessionsToAsk = [`cs_local_${"f".repeat(24)}`, heldCheckout.sessionId ?? "", paid.sessionId];
    const answers: Record<string, Answer[]> = { confirmation: [], checkout: [], status: [] };
    for (const ids of bookingsToAsk) {
      answers.confirmation?.push(
        await answer(await stranger.postJson("/api/send-confirmation", confirmationBody(ids, paid.paymentIntentId))),
      );
      answers.checkout?.push(
        await answer(await stranger.postJson("/api/create-checkout-session", { ...ids, amount: 45 })),
      );
    }
    for (const sessionId of sessionsToAsk)
      answers.status?.push(await answer(await stranger.get(statusPath(sessionId))));

    for (const [call, replies] of Object.entries(answers)) {
      expect(
        replies.map((r) => ({ status: r.status, body: r.body })),
        call,
      ).toEqual(Array(3).fill({ status: 403, body: NO_PROOF }));
    }
    expect(db.select().from(bookings).where(eq(bookings.eventId, event.id)).all()).toEqual(before);
  });

  it("the confirmation SMS carries a ticket link that shows the ticket on any phone", async () => {
    const event = await newEvent("Ticket Link Night");
    const paid = await paidThroughTheApp(event.id);
    const text = await confirmationText(paid.phone);
    // The code stays in the text; its one link is the ticket with its QR, never the door page's empty code box.
    expect(text).toContain(paid.uniqueCode);
    expect(text).not.toContain("/confirm-booking");
    expect(text.match(/https?:\/\/\S+/g)).toHaveLength(1);
    const link = new URL(text.match(/https?:\/\/\S+\/tickets\?add=\d+&t=[\w-]+/)?.[0] ?? "");
    expect(link.origin + link.pathname).toBe(`${server.url}/tickets`);
    expect(link.searchParams.get("add")).toBe(String(paid.bookingId));

    // A phone that never saw this booking (an installed app on iOS, say) opens the link.
    const phoneApp = browserClient(server.url);
    const reply = await answer(
      await postTicket(phoneApp, { bookingId: link.searchParams.get("add"), t: link.searchParams.get("t") }),
    );
    expect(reply.status).toBe(200);
    expect(reply.cacheControl).toBe("no-store");
    const buyerSees = (await (
      await paid.buyer.postJson("/api/send-confirmation", confirmationBody(paid, paid.paymentIntentId))
    ).json()) as Record<string, unknown>;
    expect(reply.body).toEqual({
      success: true,
      qrCodeImage: buyerSees.qrCodeImage,
      uniqueCode: paid.uniqueCode,
      eventName: "Ticket Link Night",
      eventDate: new Date(event.startsAt).toISOString(),
      eventLocation: "9 Lantern St, Melbourne VIC 3000",
      time_zone: "Australia/Sydney",
      event_duration: 2,
      name: "Asha Patel",
      phone: paid.phone,
      userID: paid.userID,
      eventID: paid.eventID,
      // The texted link's own `add` and `t`, which the saved ticket keeps to ask ticket-status.
      bookingId: paid.bookingId,
      ticketToken: link.searchParams.get("t"),
      // What the seat cost and the event's policy, for the ticket's Cancel my booking.
      amountCents: 4500,
      cancellationPolicy: { fullRefundHours: 48, laterPercent: 0 },
      // Its receipt, written with the payment: the ticket offers Download invoice only when there is one.
      invoiceNumber: expect.stringMatching(/^INV-\d{6}$/),
    });
    expect(buyerSees).toMatchObject({ bookingId: paid.bookingId, ticketToken: link.searchParams.get("t") });
    expect(String(buyerSees.qrCodeImage)).toMatch(/^data:image\/png;base64,/);
    // Opening it again is the same ticket, and texts nothing more.
    const smsBefore = ((await (await fetch(`${server.url}/api/dev/outbox`)).json()) as unknown[]).length;
    const again = await answer(
      await postTicket(browserClient(server.url), {
        bookingId: Number(link.searchParams.get("add")),
        t: link.searchParams.get("t"),
      }),
    );
    expect(again.body).toEqual(reply.body);
    expect(((await (await fetch(`${server.url}/api/dev/outbox`)).json()) as unknown[]).length).toBe(smsBefore);
  });

  it("a ticket link with a wrong token opens nothing (403), whatever booking it names", async () => {
    const { env } = server.deps;
    const event = await newEvent();
    const a = await paidThroughTheApp(event.id);
    const b = await paidThroughTheApp(event.id);
    const client = browserClient(server.url);
    const tokens = [
      "not-a-token",
      linkToken(env, "ticket", b.bookingId),
      // A genuine token for another purpose, on the same id.
      linkToken(env, "waitlist-offer", a.bookingId),
      linkToken({ SESSION_SECRET: "another-server-secret-another-server" }, "ticket", a.bookingId),
    ];
    for (const t of tokens) {
      const reply = await answer(await postTicket(client, { bookingId: a.bookingId, t }));
      expect(reply).toEqual({
        status: 403,
        body: { success: false, error: "this ticket link is not valid", code: "invalid_link" },
        cacheControl: "no-store",
      });
    }
    // An unknown booking with a made-up token looks the same.
    expect(await answer(await postTicket(client, { bookingId: 987_654, t: tokens[0] }))).toMatchObject({
      status: 403,
      body: { success: false, error: "this ticket link is not valid", code: "invalid_link" },
    });
    for (const body of [{}, { bookingId: a.bookingId }, { bookingId: "x", t: "y" }, { bookingId: 1, t: "" }]) {
      expect((await postTicket(client, body)).status).toBe(400);
    }
  });

  it("a ticket link of a refunded booking answers 409", async () => {
    const event = await newEvent();
    const paid = await paidThroughTheApp(event.id);
    const admin = browserClient(server.url);
    expect((await admin.postJson("/api/admin-login", { password: server.deps.env.ADMIN_PASSWORD })).status).toBe(200);
    expect((await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId })).status).toBe(200);
    const t = linkToken(server.deps.env, "ticket", paid.bookingId);
    const reply = await answer(await postTicket(browserClient(server.url), { bookingId: paid.bookingId, t }));
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ success: false });
    expect(JSON.stringify(reply.body)).not.toContain(paid.uniqueCode);
  });

  it("keeps personal answers out of every cache, refusals included", async () => {
    const event = await newEvent();
    const paid = await paidThroughTheApp(event.id);
    const ids = { userID: paid.userID, eventID: paid.eventID };
    const anonymous = browserClient(server.url);
    const replies = [
      await paid.buyer.get(statusPath(paid.sessionId)),
      await anonymous.get(statusPath(paid.sessionId)),
      await paid.buyer.postJson("/api/send-confirmation", confirmationBody(ids, paid.paymentIntentId)),
      await anonymous.postJson("/api/send-confirmation", confirmationBody(ids, paid.paymentIntentId)),
      await anonymous.get(`/api/get-event-details?eventID=${paid.eventID}&userID=${paid.userID}`),
      await anonymous.get(`/api/get-event-details?eventID=987654&userID=${paid.userID}`),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 403, 200, 403, 200, 404]);
    expect(replies.map((r) => r.headers.get("cache-control"))).toEqual(Array(replies.length).fill("no-store"));
  });
});

describe("get-event-details reveals no bookings", () => {
  it("answers any existing event's public details whatever the userID, the code only to the admin", async () => {
    const { db } = server.deps;
    const event = await newEvent("Door Header Night");
    const paid = await paidThroughTheApp(event.id);
    const held = insertHeldBooking(db, event.id, { now: server.deps.now() });
    const empty = await newEvent("Nobody Booked Yet");
    const path = (eventID: number, userID: number) => `/api/get-event-details?eventID=${eventID}&userID=${userID}`;
    const anonymous = browserClient(server.url);

    const publicDetails = {
      event: {
        eventName: "Door Header Night",
        eventDate: new Date(event.startsAt).toISOString(),
        eventLocation: "9 Lantern St, Melbourne VIC 3000",
        time_zone: "Australia/Sydney",
      },
      uniqueCode: null,
    };
    // Walking the sequential user ids: a paid attendee, a held seat, nobody at all.
    for (const userID of [paid.userID, held.userId, 987_654, paid.userID + 1000]) {
      const reply = await anonymous.get(path(event.id, userID));
      expect(reply.status).toBe(200);
      expect(await reply.json()).toEqual(publicDetails);
    }
    // The buyer's own browser learns no more than anyone else.
    expect(await (await paid.buyer.get(path(event.id, paid.userID))).json()).toEqual(publicDetails);
    expect(await (await anonymous.get(path(empty.id, paid.userID))).json()).toMatchObject({
      event: { eventName: "Nobody Booked Yet" },
      uniqueCode: null,
    });

    const admin = browserClient(server.url);
    expect((await admin.postJson("/api/admin-login", { password: server.deps.env.ADMIN_PASSWORD })).status).toBe(200);
    expect(await (await admin.get(path(event.id, paid.userID))).json()).toEqual({
      ...publicDetails,
      uniqueCode: paid.uniqueCode,
    });
    expect(await (await admin.get(path(event.id, 987_654))).json()).toEqual(publicDetails);

    const unknownEvent = await anonymous.get(path(987_654, paid.userID));
    expect(unknownEvent.status).toBe(404);
    expect(await unknownEvent.json()).toEqual({ success: false, error: "no such event", code: "not_found" });
  });

  it("a ticket link for an event whose personal data was erased has expired (410)", async () => {
    const { db, env } = server.deps;
    const event = await newEvent();
    const paid = await paidThroughTheApp(event.id);
    db.update(events).set({ personalDataErasedAt: server.deps.now() }).where(eq(events.id, event.id)).run();
    const t = linkToken(env, "ticket", paid.bookingId);
    const reply = await answer(await postTicket(browserClient(server.url), { bookingId: paid.bookingId, t }));
    expect(reply).toMatchObject({ status: 410, body: { success: false, error: "this ticket has expired" } });
  });
});

describe("with Stripe", () => {
  const fake = suiteFake(startFakeStripe);
  const stripeServer = suiteTestServer(() => ({
    env: { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_test", STRIPE_API_BASE: fake.url },
  }));

  /** A seat held with an open Stripe checkout that Stripe says is paid, the webhook not yet arrived. */
  async function paidAtStripe() {
    const { db, env } = stripeServer.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Stripe Night" });
    const held = insertHeldBooking(db, event.id, { now: stripeServer.deps.now() });
    const cookie = verifiedPhoneCookie(env, held.phone, stripeServer.deps.now());
    const checkout = await createCheckout(stripeServer.url, { userID: held.userId, eventID: event.id }, cookie);
    expect(checkout.status).toBe(200);
    const session = fake.complete(checkout.sessionId ?? "");
    return { event, held, cookie, sessionId: session.id, paymentIntentId: session.payment_intent ?? "" };
  }

  const call = (path: string, init: { body?: unknown; cookie?: string } = {}) =>
    fetch(stripeServer.url + path, {
      method: init.body ? "POST" : "GET",
      headers: { "content-type": "application/json", ...(init.cookie ? { cookie: init.cookie } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });

  it("never asks Stripe about a booking before the caller proved its phone", async () => {
    const { event, held, cookie, sessionId, paymentIntentId } = await paidAtStripe();
    const stranger = verifiedPhoneCookie(stripeServer.deps.env, newMobile(), stripeServer.deps.now());
    const asked = fake.requests.length;
    const ids = { userID: held.userId, eventID: event.id };

    for (const other of [undefined, stranger]) {
      expect((await answer(await call(statusPath(sessionId), { cookie: other }))).body).toEqual(NO_PROOF);
      const confirm = await call("/api/send-confirmation", {
        body: confirmationBody(ids, paymentIntentId),
        cookie: other,
      });
      expect(await answer(confirm)).toMatchObject({ status: 403, body: NO_PROOF });
    }
    expect(fake.requests.length).toBe(asked);
    const row = stripeServer.deps.db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get();
    expect(row).toMatchObject({ status: "held", uniqueCode: null });

    // The buyer's browser: Stripe is asked, the booking is confirmed and the ticket answered.
    const confirm = await call("/api/send-confirmation", { body: confirmationBody(ids, paymentIntentId), cookie });
    expect(confirm.status).toBe(200);
    expect(fake.requests.length).toBeGreaterThan(asked);
  });

  it("keeps Stripe's error text from the client", async () => {
    const { event, held, cookie, sessionId, paymentIntentId } = await paidAtStripe();
    fake.failNext(`/v1/checkout/sessions/${sessionId}`, 2);
    const replies = [
      await answer(await call(statusPath(sessionId), { cookie })),
      await answer(
        await call("/api/send-confirmation", {
          body: confirmationBody({ userID: held.userId, eventID: event.id }, paymentIntentId),
          cookie,
        }),
      ),
    ];
    for (const reply of replies) {
      expect(reply).toMatchObject({ status: 502, body: { success: false }, cacheControl: "no-store" });
      expect(JSON.stringify(reply.body)).not.toMatch(/fake stripe|told to fail|sk_test|req_/);
    }
  });
});
