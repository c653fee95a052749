import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { activityLog } from "../../db/access-schema.ts";
import { bookings, users } from "../../db/schema.ts";
import { transferOffers } from "../../db/transfer-schema.ts";
import { browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "../../test/date-of-birth.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";
import {
  createCheckout,
  holdSeat,
  newMobile,
  pay,
  signedInOnMe,
  ticketStatusOf,
  verifiedBrowser,
} from "../../test/suites/booking-flow.ts";
import { sessionBrowser } from "../../test/suites/team.ts";
import { linkToken } from "../lib/capability.ts";
import { ensureWalletPass, passFacts } from "../wallet/pass-facts.ts";

// A ticket given to a friend (issue 52, docs/decisions/058-ticket-transfer.md), over real HTTP: the
// buyer pays through the local checkout, offers the ticket from /me (`transfer-ticket`), the friend
// verifies the texted number and sends the details form with `transferToken`.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });
let image: Uint8Array;
beforeAll(async () => {
  image = await makeImage();
});

const night = (overrides: Parameters<typeof insertEvent>[2] = {}) =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: server.deps.now() + 7 * DAY, ...overrides });

type Buyer = Awaited<ReturnType<typeof buyTicket>>;

/** A ticket bought as the PWA buys it, and the buyer signed in on /me. */
async function buyTicket(eventId: number, gender: "female" | "male" = "female", phone = newMobile()) {
  const browser = await verifiedBrowser(server.url, phone);
  const held = await holdSeat(browser, { phone, eventId, image, gender });
  expect(held.status).toBe(200);
  const checkout = await createCheckout(server.url, { userID: held.userID!, eventID: eventId }, browser);
  expect(await pay(server.url, checkout.sessionId!)).toBe(303);
  await signedInOnMe(server.url, phone, browser);
  const booking = server.deps.db.select().from(bookings).where(eq(bookings.userId, held.userID!)).get()!;
  expect(booking.status).toBe("paid");
  return { phone, browser, eventId, userID: held.userID!, booking };
}

const offer = (buyer: Buyer, toPhone: string) =>
  buyer.browser.postJson("/api/transfer-ticket", { eventID: buyer.eventId, userID: buyer.userID, toPhone });

async function outbox(): Promise<{ to: string; body: string }[]> {
  return (await fetch(`${server.url}/api/dev/outbox`)).json() as Promise<{ to: string; body: string }[]>;
}

/** The `t` of the last transfer link texted to `phone`. */
async function linkTextedTo(phone: string): Promise<string> {
  const text = (await outbox()).filter((m) => m.to === phone && m.body.includes("/transfer?t=")).at(-1);
  const token = text?.body.match(/\/transfer\?t=(\S+)$/)?.[1];
  if (!token) throw new Error(`no transfer link was texted to ${phone}`);
  return token;
}

/** The details form with the token first, as the PWA sends it, then the photo. */
function friendForm(input: { phone: string; eventId: number; token: string; gender?: string; dateOfBirth?: string }) {
  const form = new FormData();
  form.append("transferToken", input.token);
  form.append("name", "Jordan Lee");
  form.append("email", "jordan@example.com");
  form.append("phone", input.phone);
  form.append("gender", input.gender ?? "female");
  form.append("dateOfBirth", input.dateOfBirth ?? ADULT_DATE_OF_BIRTH);
  form.append("eventID", String(input.eventId));
  form.append("image", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "me.jpg");
  return form;
}

async function accept(phone: string, eventId: number, token: string, extra: { gender?: string } = {}) {
  const friend = await verifiedBrowser(server.url, phone);
  return friend.postForm("/api/save-user-details", friendForm({ phone, eventId, token, ...extra }));
}

const seatsLeft = async (eventId: number) =>
  ((await (await fetch(`${server.url}/api/get-event/${eventId}`)).json()) as { seatsLeftTotal: number }).seatsLeftTotal;

describe("a ticket given to a friend", () => {
  it("moves the seat: the friend gets a paid ticket of their own, the old one is NOT VALID, the count and the money stay", async () => {
    const event = await night();
    const buyer = await buyTicket(event.id);
    const friendPhone = newMobile();
    const before = await seatsLeft(event.id);
    const desk = sessionBrowser(server, null);
    const revenueBefore = (
      (await (await desk.get(`/api/admin-event-summary/${event.id}`)).json()) as { revenue: number }
    ).revenue;

    const offered = await offer(buyer, friendPhone);
    expect(offered.status).toBe(200);
    expect(await offered.json()).toEqual({ status: "offered" });
    // The friend's text: the night and the link, nothing of the buyer.
    const text = (await outbox()).filter((m) => m.to === friendPhone).at(-1)!;
    expect(text.body).toContain(`${server.deps.env.PUBLIC_BASE_URL}/transfer?t=`);
    expect(text.body).toContain(event.name);
    expect(text.body).not.toContain("Asha");

    // A pass the buyer added to a wallet before giving the ticket away.
    ensureWalletPass(server.deps.db, buyer.booking.id, "apple", server.deps.now());
    const token = await linkTextedTo(friendPhone);
    const taken = await accept(friendPhone, event.id, token);
    expect(taken.status).toBe(200);
    const reply = (await taken.json()) as Record<string, unknown>;
    expect(Object.keys(reply).sort()).toEqual(["success", "transferred", "userID"]);
    expect(reply).toMatchObject({ success: true, transferred: true });
    expect(JSON.stringify(reply)).not.toContain(buyer.phone);

    // The friend's ticket, texted as a paid booking's is.
    const friendBooking = server.deps.db
      .select()
      .from(bookings)
      .where(eq(bookings.userId, reply.userID as number))
      .get()!;
    expect(friendBooking).toMatchObject({ status: "paid", phone: friendPhone, transferredFrom: buyer.booking.id });
    expect(friendBooking.uniqueCode).toMatch(/^[A-Z2-9]{10}$/);
    expect(friendBooking.uniqueCode).not.toBe(buyer.booking.uniqueCode);
    const ticketText = (await outbox()).filter((m) => m.to === friendPhone).at(-1)!;
    expect(ticketText.body).toContain(`Your ticket code is ${friendBooking.uniqueCode}`);
    expect(ticketText.body).not.toContain(buyer.booking.uniqueCode!);
    expect(await ticketStatusOf(server, friendBooking.id)).toBe("paid");

    // The buyer's ticket on the phone, and the door.
    expect(await ticketStatusOf(server, buyer.booking.id)).toBe("transferred");
    const pass = passFacts(server.deps.db, server.deps.env, buyer.booking.id)!;
    expect(pass).toMatchObject({ valid: false, notValidReason: "Given to a friend" });
    expect(pass.updateTag).toBeGreaterThan(1);
    const door = await desk.postJson("/api/confirm-booking", {
      eventID: event.id,
      userID: buyer.userID,
      uniqueCode: buyer.booking.uniqueCode,
    });
    expect(await door.json()).toMatchObject({ confirmed: false });
    const friendAtDoor = await desk.postJson("/api/confirm-booking", {
      eventID: event.id,
      userID: friendBooking.userId,
      uniqueCode: friendBooking.uniqueCode,
    });
    expect(await friendAtDoor.json()).toMatchObject({ confirmed: true });
    const link = await browserClient(server.url).postJson("/api/ticket", {
      bookingId: buyer.booking.id,
      t: linkToken(server.deps.env, "ticket", buyer.booking.id),
    });
    expect(link.status).toBe(409);

    // The seat count, the desk's money and Activity.
    expect(await seatsLeft(event.id)).toBe(before);
    const summary = (await (await desk.get(`/api/admin-event-summary/${event.id}`)).json()) as {
      revenue: number;
      paid: { total: number };
    };
    expect(summary.revenue).toBe(revenueBefore);
    expect(summary.paid.total).toBe(1);
    const activity = server.deps.db.select().from(activityLog).where(eq(activityLog.eventId, event.id)).all();
    expect(activity.map((a) => a.action)).toContain("ticket given to a friend");

    // /me: the buyer's night is given away, with the invoice still theirs; nothing of the friend.
    const me = (await (await buyer.browser.get("/api/me")).json()) as { nights: Record<string, unknown>[] };
    const mine = me.nights.find((n) => n.bookingId === buyer.booking.id)!;
    expect(mine).toMatchObject({ standing: "transferred", byYou: true });
    expect(mine.invoiceNumber).toEqual(expect.any(String));
    expect(JSON.stringify(me)).not.toContain(friendPhone);
    expect(JSON.stringify(me)).not.toContain("Jordan");
    // Download my data: the offer without the friend's number once taken.
    const data = (await (await buyer.browser.get("/api/me-data")).json()) as { transfers: unknown };
    expect(data.transfers).toEqual({
      given: [{ eventName: event.name, status: "accepted", toPhone: null, at: expect.any(String) }],
      received: [],
    });
    expect(
      server.deps.db
        .select()
        .from(transferOffers)
        .all()
        .every((o) => o.toPhone !== friendPhone),
    ).toBe(true);
    // The friend's own data shows the ticket taken, nothing of the buyer.
    const friendMe = await signedInOnMe(server.url, friendPhone);
    const friendData = await (await friendMe.get("/api/me-data")).text();
    expect(JSON.parse(friendData).transfers).toEqual({ given: [], received: [{ eventName: event.name }] });
    expect(friendData).not.toContain(buyer.phone);
    expect(friendData).not.toContain("Asha");
  });

  it("counts the sale once in the reports' money", async () => {
    const event = await night();
    const buyer = await buyTicket(event.id);
    const month = new Date(buyer.booking.paidAt!).toLocaleDateString("en-CA", { timeZone: event.timeZone }).slice(0, 7);
    const money = async () =>
      (
        (await (await sessionBrowser(server, null).get(`/api/reports/money?from=${month}&to=${month}`)).json()) as {
          rows: { bookings: number; grossCents: number }[];
        }
      ).rows[0]!;
    const before = await money();
    const friendPhone = newMobile();
    expect((await offer(buyer, friendPhone)).status).toBe(200);
    expect((await accept(friendPhone, event.id, await linkTextedTo(friendPhone))).status).toBe(200);
    expect(await money()).toEqual(before);
  });

  it("keeps the part paid by credit with the seat, so a refund of the friend's seat gives the card only what it paid", async () => {
    const event = await night();
    const buyer = await buyTicket(event.id);
    // As if $15.00 of the price had been paid by credit (create-checkout-session's useCredit).
    server.deps.db.update(bookings).set({ creditCents: 1500 }).where(eq(bookings.id, buyer.booking.id)).run();
    const friendPhone = newMobile();
    expect((await offer(buyer, friendPhone)).status).toBe(200);
    const taken = await accept(friendPhone, event.id, await linkTextedTo(friendPhone));
    const { userID } = (await taken.json()) as { userID: number };
    const friendBooking = server.deps.db.select().from(bookings).where(eq(bookings.userId, userID)).get()!;
    expect(friendBooking).toMatchObject({ amountCents: buyer.booking.amountCents, creditCents: 1500 });
  });

  it("refuses the buyer's own number, a number with a ticket, a second move and a booking of another number", async () => {
    const event = await night();
    const buyer = await buyTicket(event.id);
    const other = await buyTicket(event.id);
    const own = await offer(buyer, buyer.phone);
    expect(own.status).toBe(409);
    expect(await own.json()).toMatchObject({ code: "transfer_own_number", error: expect.stringMatching(/own number/) });
    const holder = await offer(buyer, other.phone);
    expect(await holder.json()).toMatchObject({ code: "transfer_has_ticket" });
    // Another number's booking answers as an unknown one.
    const notMine = await other.browser.postJson("/api/transfer-ticket", {
      eventID: event.id,
      userID: buyer.userID,
      toPhone: newMobile(),
    });
    expect(notMine.status).toBe(403);
    const signedOut = await browserClient(server.url).postJson("/api/transfer-ticket", {
      eventID: event.id,
      userID: buyer.userID,
      toPhone: newMobile(),
    });
    expect(signedOut.status).toBe(401);

    // One move per ticket: the friend cannot pass it on, nor the buyer give it twice.
    const friendPhone = newMobile();
    expect((await offer(buyer, friendPhone)).status).toBe(200);
    const taken = (await (await accept(friendPhone, event.id, await linkTextedTo(friendPhone))).json()) as {
      userID: number;
    };
    const again = await offer(buyer, newMobile());
    expect(await again.json()).toMatchObject({ code: "not_transferable" });
    const friend = await signedInOnMe(server.url, friendPhone);
    const onward = await friend.postJson("/api/transfer-ticket", {
      eventID: event.id,
      userID: taken.userID,
      toPhone: newMobile(),
    });
    expect(onward.status).toBe(409);
    expect(await onward.json()).toMatchObject({ code: "not_transferable", error: expect.stringMatching(/one move/) });
  });

  it("refuses after the doors open, a used or replaced link, another number, and a ticket refunded since", async () => {
    const soon = await night({ startsAt: server.deps.now() + 2 * HOUR });
    const late = await buyTicket(soon.id);
    const doors = await offer(late, newMobile());
    expect(doors.status).toBe(409);
    expect(await doors.json()).toMatchObject({ code: "transfer_doors_open", error: expect.stringMatching(/doors/) });

    const event = await night();
    const buyer = await buyTicket(event.id);
    const first = newMobile();
    const second = newMobile();
    expect((await offer(buyer, first)).status).toBe(200);
    const replacedToken = await linkTextedTo(first);
    // A new offer replaces the open one: its link no longer works.
    expect((await offer(buyer, second)).status).toBe(200);
    const replaced = await accept(first, event.id, replacedToken);
    expect(await replaced.json()).toMatchObject({ code: "transfer_ended" });
    const token = await linkTextedTo(second);
    const wrongNumber = await accept(newMobile(), event.id, token);
    expect(wrongNumber.status).toBe(403);
    const [offerPart, eventPart] = token.split(".");
    const forged = await accept(second, event.id, `${offerPart}.${eventPart}.forged`);
    expect(await forged.json()).toMatchObject({ code: "invalid_link" });
    // The wrong side at Women meet men.
    const side = await accept(second, event.id, token, { gender: "male" });
    expect(await side.json()).toMatchObject({ code: "transfer_wrong_side", gender: "female" });
    expect((await accept(second, event.id, token)).status).toBe(200);
    const twice = await accept(second, event.id, token);
    expect(await twice.json()).toMatchObject({ code: "transfer_ended" });

    // Refunded after the offer: the link no longer gives anything.
    const refunded = await buyTicket(event.id);
    const third = newMobile();
    expect((await offer(refunded, third)).status).toBe(200);
    const cancel = await refunded.browser.postJson("/api/cancel-booking", {
      eventID: event.id,
      userID: refunded.userID,
    });
    expect(cancel.status).toBe(200);
    const afterRefund = await accept(third, event.id, await linkTextedTo(third));
    expect(afterRefund.status).toBe(409);
    expect(await afterRefund.json()).toMatchObject({ code: "transfer_ended" });

    // The doors open between the offer and its acceptance.
    const later = await night({ startsAt: server.deps.now() + 6 * HOUR });
    const slow = await buyTicket(later.id);
    const fourth = newMobile();
    expect((await offer(slow, fourth)).status).toBe(200);
    const fourthToken = await linkTextedTo(fourth);
    const friend = await verifiedBrowser(server.url, fourth);
    server.advance(4 * HOUR);
    const tooLate = await friend.postForm(
      "/api/save-user-details",
      friendForm({ phone: fourth, eventId: later.id, token: fourthToken }),
    );
    expect(await tooLate.json()).toMatchObject({ code: "transfer_doors_open" });
  });

  it("gives the seat once when the same link is accepted twice at once", async () => {
    const event = await night();
    const buyer = await buyTicket(event.id);
    const friendPhone = newMobile();
    expect((await offer(buyer, friendPhone)).status).toBe(200);
    const token = await linkTextedTo(friendPhone);
    const [a, b] = [await verifiedBrowser(server.url, friendPhone), await verifiedBrowser(server.url, friendPhone)];
    const replies = await Promise.all(
      [a, b].map((browser) =>
        browser.postForm("/api/save-user-details", friendForm({ phone: friendPhone, eventId: event.id, token })),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const paid = server.deps.db.select().from(bookings).where(eq(bookings.eventId, event.id)).all();
    expect(paid.filter((b) => b.status === "paid")).toHaveLength(1);
    expect(server.deps.db.select().from(users).where(eq(users.phone, friendPhone)).all()).toHaveLength(1);
  });
});
