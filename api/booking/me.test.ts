import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { guestSessions } from "../../db/access-schema.ts";
import { bookings, events, feedback, refunds, users } from "../../db/schema.ts";
import {
  type BrowserClient,
  browserClient,
  suiteTestServer,
  type TestServer,
  verifiedPhoneBrowser,
  verifiedPhoneCookie,
  withTestServer,
} from "../../test/api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "../../test/date-of-birth.ts";
import { insertEvent } from "../../test/fixtures.ts";
import { lastCode, newMobile } from "../../test/suites/booking-flow.ts";
import { feedbackToken } from "../lib/capability.ts";
import { signValue } from "../lib/crypto.ts";
import { endGuestSessionsOf, GUEST_SESSION_MS } from "../lib/guest-session.ts";
import { applyRetention } from "../ops/retention.ts";

// My nights (docs/decisions/027-guest-identity.md): /me signs in with the mobile and a code typed
// now (send-otp and verify-otp with `signIn`, under the booking's limits), opens a server-side
// session (sdt_me), and GET /api/me lists that number's nights and nothing of anyone else's.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Night = {
  standing: "upcoming" | "past" | "cancelled" | "refunded";
  bookingId: number;
  eventID: number;
  userID: number;
  eventName: string;
  ticket?: { uniqueCode: string; qrCodeImage: string; phone: string; ticketToken: string; name: string };
  results?: { released: boolean; resultsAt: string; reportPath: string | null };
  refundedCents?: number | null;
};
type Me = { phone: string; nights: Night[] };

const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;

async function sendCode(browser: BrowserClient, phone: string, signIn = true) {
  const response = await browser.postJson("/api/send-otp", { phone, countryCode: "+61", signIn });
  return { status: response.status, body: await json(response) };
}

async function typeCode(browser: BrowserClient, phone: string, otp: string, signIn = true) {
  const response = await browser.postJson("/api/verify-otp", { phone, otp, signIn });
  return { status: response.status, body: await json(response), cookies: response.headers.getSetCookie() };
}

/** /me's sign-in: a code texted now, typed now. */
async function signIn(server: TestServer, phone: string, browser = browserClient(server.url)) {
  expect(await sendCode(browser, phone)).toEqual({
    status: 200,
    body: { success: true, PhoneVerification: false },
  });
  const typed = await typeCode(browser, phone, await lastCode(server.url, phone));
  expect(typed.status).toBe(200);
  return browser;
}

const myNights = async (browser: BrowserClient, path = "/api/me") => {
  const response = await browser.get(path);
  return { status: response.status, body: await json<Me & { code?: string }>(response), response };
};

/** A booking of `phone` straight in the database, as the booking flow leaves it. */
function bookingOf(
  server: TestServer,
  eventId: number,
  phone: string,
  input: { name: string; status: "paid" | "refunded" | "held" | "released"; uniqueCode?: string; email?: string },
) {
  const { db } = server.deps;
  const user = db
    .insert(users)
    .values({
      name: input.name,
      email: input.email ?? `${input.name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
      phone,
      gender: "female",
      imageName: `${"a".repeat(32)}.jpg`,
      thumbName: `${"a".repeat(32)}-thumb.jpg`,
      dateOfBirth: ADULT_DATE_OF_BIRTH,
    })
    .returning()
    .get();
  const paid = input.status === "paid" || input.status === "refunded";
  const booking = db
    .insert(bookings)
    .values({
      userId: user.id,
      eventId,
      phone,
      status: input.status,
      holdExpiresAt: server.deps.now() + (input.status === "held" ? 30 * MINUTE : 0),
      amountCents: 4500,
      paymentIntentId: paid ? `pi_me_${user.id}_${Math.random().toString(36).slice(2)}` : null,
      uniqueCode: input.uniqueCode ?? null,
      paidAt: paid ? server.deps.now() - DAY : null,
    })
    .returning()
    .get();
  return { userId: user.id, bookingId: booking.id, paymentIntentId: booking.paymentIntentId };
}

describe("signing in on /me", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });

  it("answers 401 guest_session_required to a browser that has not signed in", async () => {
    const anon = await myNights(browserClient(server.url));
    expect(anon.status).toBe(401);
    expect(anon.body).toMatchObject({ success: false, code: "guest_session_required" });
    expect(anon.response.headers.get("cache-control")).toBe("no-store");
  });

  it("needs the code: a wrong one, or a booking's verify without signIn, opens no session", async () => {
    const phone = newMobile();
    const browser = browserClient(server.url);
    await sendCode(browser, phone);
    const code = await lastCode(server.url, phone);
    const wrong = await typeCode(browser, phone, code === "000000" ? "111111" : "000000");
    expect(wrong).toMatchObject({ status: 400, body: { code: "wrong_code" } });
    expect(wrong.cookies).toEqual([]);
    expect((await myNights(browser)).status).toBe(401);

    // The booking's verify (no signIn) proves the phone for booking, as before, and signs nobody in.
    const booking = await typeCode(browser, phone, code, false);
    expect(booking.status).toBe(200);
    expect(booking.cookies.map((line) => line.split("=")[0])).toEqual(["sdt_phone"]);
    expect(browser.jar.has("sdt_phone")).toBe(true);
    expect((await myNights(browser)).status).toBe(401);
    expect(server.deps.db.select().from(guestSessions).where(eq(guestSessions.phone, phone)).all()).toEqual([]);
  });

  it("texts a code even to a browser that verified the phone for booking: only a code typed now signs in", async () => {
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    // The booking's send-otp skips the code for this browser, as before...
    expect(await sendCode(browser, phone, false)).toEqual({
      status: 200,
      body: { success: true, PhoneVerification: true },
    });
    // ...and that proof alone opens no /me session.
    expect((await myNights(browser)).status).toBe(401);
    await signIn(server, phone, browser);
    const me = await myNights(browser);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ phone, nights: [], credit: { balanceCents: 0, history: [] } });
  });

  it("sets sdt_me: HttpOnly, SameSite=Lax, 30 days, a row on the server naming the phone", async () => {
    const phone = newMobile();
    const browser = browserClient(server.url);
    await sendCode(browser, phone);
    const typed = await typeCode(browser, phone, await lastCode(server.url, phone));
    const line = typed.cookies.find((c) => c.startsWith("sdt_me=")) ?? "";
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Max-Age=2592000/);
    expect(line).not.toMatch(/Secure/);
    // The booking's proof is set as well: the same code verified the phone.
    expect(typed.cookies.some((c) => c.startsWith("sdt_phone="))).toBe(true);
    const rows = server.deps.db.select().from(guestSessions).where(eq(guestSessions.phone, phone)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ phone, revokedAt: null });
    expect(rows[0]!.expiresAt - rows[0]!.createdAt).toBe(GUEST_SESSION_MS);
  });

  it("refuses a forged, altered or borrowed cookie", async () => {
    const phone = newMobile();
    const browser = await signIn(server, phone);
    const real = browser.jar.get("sdt_me") ?? "";
    const { env } = server.deps;
    const tries: Record<string, string> = {
      // A row id nobody was given, signed with the wrong secret.
      forged: signValue("another-secret-another-secret-0123456789", "guest-session", "x".repeat(43), Date.now() + DAY),
      // The real cookie with its expiry pushed out: the signature no longer matches.
      extended: real.replace(/\.(\d+)\./, (_, exp: string) => `.${Number(exp) + 365 * DAY}.`),
      // The booking's sdt_phone for this very phone, under the session's name: signed for another purpose.
      "sdt_phone's value": verifiedPhoneCookie(env, phone, server.deps.now()).slice("sdt_phone=".length),
      // A properly signed id that names no session.
      "an id with no row": signValue(env.SESSION_SECRET, "guest-session", "no-such-session", Date.now() + DAY),
    };
    for (const [label, value] of Object.entries(tries)) {
      const other = browserClient(server.url);
      other.jar.set("sdt_me", value);
      expect((await myNights(other)).status, label).toBe(401);
    }
  });
});

describe("GET /api/me: the number's own nights, and nothing of anyone else's", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });

  /** Asha's nights of every kind, and Priya's (another number) at the same events. */
  async function twoGuests() {
    const { db, env } = server.deps;
    const now = server.deps.now();
    const asha = newMobile();
    const priya = newMobile();
    const upcoming = await insertEvent(db, env.UPLOADS_DIR, { name: "Harbour Mixer", startsAt: now + 7 * DAY });
    const later = await insertEvent(db, env.UPLOADS_DIR, { name: "Later Mixer", startsAt: now + 21 * DAY });
    const released = await insertEvent(db, env.UPLOADS_DIR, {
      name: "Released Night",
      startsAt: now - 10 * DAY,
      status: "ended",
      startedAt: now - 10 * DAY,
      endedAt: now - 10 * DAY + 2 * HOUR,
      resultsReleasedAt: now - 9 * DAY,
    });
    const pending = await insertEvent(db, env.UPLOADS_DIR, {
      name: "Pending Night",
      startsAt: now - 6 * HOUR,
      status: "ended",
      startedAt: now - 6 * HOUR,
      endedAt: now - 4 * HOUR,
    });
    const refundedEvent = await insertEvent(db, env.UPLOADS_DIR, { name: "Refunded Mixer", startsAt: now + 3 * DAY });
    const cancelled = await insertEvent(db, env.UPLOADS_DIR, {
      name: "Cancelled Mixer",
      startsAt: now + 5 * DAY,
      status: "cancelled",
    });
    const heldEvent = await insertEvent(db, env.UPLOADS_DIR, { name: "Held Mixer", startsAt: now + 9 * DAY });

    const a = {
      upcoming: bookingOf(server, upcoming.id, asha, { name: "Asha Patel", status: "paid", uniqueCode: "ASHAUPC234" }),
      // Paid without its code yet: /me issues it, as the confirmation would.
      later: bookingOf(server, later.id, asha, { name: "Asha Patel", status: "paid" }),
      released: bookingOf(server, released.id, asha, {
        name: "Asha Patel",
        status: "paid",
        uniqueCode: "ASHAPST234",
      }),
      pending: bookingOf(server, pending.id, asha, { name: "Asha Patel", status: "paid", uniqueCode: "ASHAPND234" }),
      refunded: bookingOf(server, refundedEvent.id, asha, {
        name: "Asha Patel",
        status: "refunded",
        uniqueCode: "ASHARFN234",
      }),
      cancelled: bookingOf(server, cancelled.id, asha, {
        name: "Asha Patel",
        status: "paid",
        uniqueCode: "ASHACNC234",
      }),
      held: bookingOf(server, heldEvent.id, asha, { name: "Asha Patel", status: "held" }),
    };
    db.insert(refunds)
      .values({
        bookingId: a.refunded.bookingId,
        paymentIntentId: a.refunded.paymentIntentId ?? "",
        refundId: "re_me_1",
        amountCents: 4500,
        reason: "admin",
      })
      .run();
    const p = {
      upcoming: bookingOf(server, upcoming.id, priya, {
        name: "Priya Sharma",
        status: "paid",
        uniqueCode: "PRIYAUP234",
        email: "priya.private@example.com",
      }),
      released: bookingOf(server, released.id, priya, {
        name: "Priya Sharma",
        status: "paid",
        uniqueCode: "PRIYAPS234",
        email: "priya.private@example.com",
      }),
    };
    // They met and both chose Date: Asha's report shows Priya's number, /me never does.
    for (const [from, to] of [
      [a.released.userId, p.released.userId],
      [p.released.userId, a.released.userId],
    ] as const) {
      db.insert(feedback)
        .values({ fromUserId: from, toUserId: to, eventId: released.id, value: "like", clientTs: now, updatedAt: now })
        .run();
    }
    return { asha, priya, a, p, events: { upcoming, later, released, pending, refundedEvent, cancelled, heldEvent } };
  }

  it("lists upcoming (with the ticket), past (with results once released), cancelled and refunded, in that order", async () => {
    const { asha, a, events: e } = await twoGuests();
    const browser = await signIn(server, asha);
    const { status, body } = await myNights(browser);
    expect(status).toBe(200);
    expect(body.phone).toBe(asha);
    expect(body.nights.map((n) => [n.standing, n.eventName])).toEqual([
      ["upcoming", "Harbour Mixer"],
      ["upcoming", "Later Mixer"],
      ["past", "Pending Night"],
      ["past", "Released Night"],
      ["cancelled", "Cancelled Mixer"],
      ["refunded", "Refunded Mixer"],
    ]);
    const [harbour, later, pending, released, cancelled, refunded] = body.nights as [
      Night,
      Night,
      Night,
      Night,
      Night,
      Night,
    ];

    // The ticket: the booking's own code and QR, and the capability a saved ticket asks ticket-status with.
    expect(harbour.ticket).toMatchObject({ uniqueCode: "ASHAUPC234", phone: asha, name: "Asha Patel" });
    expect(harbour.ticket?.qrCodeImage).toMatch(/^data:image\/png;base64,/);
    const ticketStatus = await browserClient(server.url).postJson("/api/ticket-status", {
      bookingId: harbour.bookingId,
      t: harbour.ticket?.ticketToken,
    });
    expect(await json(ticketStatus)).toMatchObject({ status: "paid", eventName: "Harbour Mixer" });
    // A paid booking without its code yet gets it now, once: the one the door will see.
    const issued = server.deps.db.select().from(bookings).where(eq(bookings.id, a.later.bookingId)).get();
    expect(later.ticket?.uniqueCode).toBe(issued?.uniqueCode);
    expect(later.ticket?.uniqueCode).toMatch(/^[A-Z2-9]{10}$/);

    // Past: no ticket. Results: when, and the guest's own report once they are out.
    expect(pending).not.toHaveProperty("ticket");
    expect(pending.results).toMatchObject({ released: false, reportPath: null });
    expect(released.results?.released).toBe(true);
    const { env } = server.deps;
    expect(released.results?.reportPath).toBe(
      `/EventFeedback?par1=${e.released.id}&par2=${a.released.userId}&t=${feedbackToken(env, "report", a.released.userId, e.released.id)}`,
    );
    const link = new URL(released.results?.reportPath ?? "", server.url);
    const report = await browserClient(server.url).postJson("/api/get-feedback", {
      eventID: Number(link.searchParams.get("par1")),
      userID: Number(link.searchParams.get("par2")),
      token: link.searchParams.get("t"),
    });
    expect(report.status).toBe(200);

    // Cancelled and refunded: no ticket, what came back so far.
    expect(cancelled).toMatchObject({ refundedCents: null });
    expect(refunded).toMatchObject({ refundedCents: 4500 });
    for (const night of [cancelled, refunded]) expect(night).not.toHaveProperty("ticket");
  });

  it("carries no other number's data, no code but its own paid seats', and no photo or choice", async () => {
    const { asha, priya, a, p } = await twoGuests();
    const browser = await signIn(server, asha);
    const { body } = await myNights(browser);
    const text = JSON.stringify(body);
    // Priya's number, name, email, codes, ids and photo.
    for (const secret of [
      priya,
      priya.slice(3),
      "Priya",
      "priya.private@example.com",
      "PRIYAUP234",
      "PRIYAPS234",
      `"userID":${p.upcoming.userId}`,
      `"bookingId":${p.upcoming.bookingId}`,
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    // Only the upcoming paid seats' codes travel; a refunded, cancelled or past seat's code does not.
    for (const code of ["ASHARFN234", "ASHACNC234", "ASHAPST234", "ASHAPND234"]) expect(text, code).not.toContain(code);
    // No photo names, no choices, no email.
    expect(text).not.toMatch(/[a-f0-9]{32}(-thumb)?\.jpg/);
    expect(text).not.toMatch(/"(like|dislike)"/);
    expect(text).not.toContain("@example.com");
    // A hold is not a night.
    expect(body.nights.map((n) => n.bookingId)).not.toContain(a.held.bookingId);
  });

  it("answers each session with its own number only, whatever ids or cookies come with it", async () => {
    const { asha, priya, p } = await twoGuests();
    const ashaBrowser = await signIn(server, asha);
    const priyaBrowser = await signIn(server, priya);
    const priyaNights = (await myNights(priyaBrowser)).body;
    expect(priyaNights.phone).toBe(priya);
    expect(priyaNights.nights.map((n) => n.bookingId).sort()).toEqual(
      [p.upcoming.bookingId, p.released.bookingId].sort(),
    );

    // Priya's ids and number in the query change nothing.
    const asked = await myNights(
      ashaBrowser,
      `/api/me?phone=${encodeURIComponent(priya)}&userID=${p.upcoming.userId}&eventID=${p.upcoming.bookingId}`,
    );
    expect(asked.body.phone).toBe(asha);
    expect(asked.body.nights.map((n) => n.bookingId)).not.toContain(p.upcoming.bookingId);

    // Asha's session beside Priya's booking proof (sdt_phone) is still Asha's.
    ashaBrowser.jar.set("sdt_phone", verifiedPhoneCookie(server.deps.env, priya).slice("sdt_phone=".length));
    expect((await myNights(ashaBrowser)).body.phone).toBe(asha);

    // Priya's booking proof alone, or the organiser's session, is no guest session.
    const priyaPhoneOnly = verifiedPhoneBrowser(server, priya);
    expect((await myNights(priyaPhoneOnly)).status).toBe(401);
    const organiser = browserClient(server.url);
    expect((await organiser.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(
      200,
    );
    expect((await myNights(organiser)).status).toBe(401);
  });

  it("follows the event: an erased night leaves the list with its personal data", async () => {
    const { asha, events: e } = await twoGuests();
    const browser = await signIn(server, asha);
    const before = (await myNights(browser)).body.nights.length;
    // RETENTION_DAYS after the Released Night's end its attendees' numbers are gone from its bookings.
    await applyRetention(
      { db: server.deps.db, uploadsDir: server.deps.env.UPLOADS_DIR, retentionDays: 5 },
      server.deps.now(),
    );
    expect(
      server.deps.db.select().from(events).where(eq(events.id, e.released.id)).get()?.personalDataErasedAt,
    ).not.toBe(null);
    const after = (await myNights(browser)).body.nights;
    expect(after.map((n) => n.eventName)).not.toContain("Released Night");
    expect(after).toHaveLength(before - 1);
  });
});

describe("Sign out", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });

  it("ends the session on the server: a copy of the old cookie gets 401", async () => {
    const phone = newMobile();
    const browser = await signIn(server, phone);
    const copy = browserClient(server.url);
    copy.jar.set("sdt_me", browser.jar.get("sdt_me") ?? "");
    expect((await myNights(copy)).status).toBe(200);

    const out = await browser.request("/api/me-logout", { method: "POST" });
    expect(out.status).toBe(200);
    expect(await json(out)).toEqual({ success: true });
    expect(out.headers.getSetCookie().some((l) => /^sdt_me=;/.test(l) && /Max-Age=0/i.test(l))).toBe(true);
    expect(browser.jar.has("sdt_me")).toBe(false);
    expect((await myNights(browser)).status).toBe(401);
    const old = await myNights(copy);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe("guest_session_required");
    // The booking's proof of the phone is the booking's: signing out of /me leaves it.
    expect(browser.jar.has("sdt_phone")).toBe(true);
  });

  it("answers 200 to a browser with no session, and changes nothing", async () => {
    const before = server.deps.db.select().from(guestSessions).all();
    const out = await browserClient(server.url).request("/api/me-logout", { method: "POST" });
    expect(out.status).toBe(200);
    expect(server.deps.db.select().from(guestSessions).all()).toEqual(before);
  });

  it("signing in again, as another number or the same, ends this browser's earlier session", async () => {
    const first = newMobile();
    const browser = await signIn(server, first);
    const earlier = browser.jar.get("sdt_me") ?? "";
    await signIn(server, newMobile(), browser);
    const copy = browserClient(server.url);
    copy.jar.set("sdt_me", earlier);
    expect((await myNights(copy)).status).toBe(401);
    expect((await myNights(browser)).status).toBe(200);
  });

  it("endGuestSessionsOf ends every browser's session of a number, and no one else's", async () => {
    const phone = newMobile();
    const other = newMobile();
    const one = await signIn(server, phone);
    const two = await signIn(server, phone);
    const theirs = await signIn(server, other);
    expect(endGuestSessionsOf(server.deps.db, phone, server.deps.now())).toBe(2);
    expect((await myNights(one)).status).toBe(401);
    expect((await myNights(two)).status).toBe(401);
    expect((await myNights(theirs)).status).toBe(200);
  });
});

describe("the session's end and the retention job", () => {
  it("ends 30 days after signing in, and the retention job then deletes the row", async () => {
    await withTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } }, async (server) => {
      const phone = newMobile();
      const browser = await signIn(server, phone);
      const signedOut = await signIn(server, newMobile());
      await signedOut.request("/api/me-logout", { method: "POST" });
      server.advance(GUEST_SESSION_MS - MINUTE);
      expect((await myNights(browser)).status).toBe(200);
      const live = await signIn(server, newMobile());
      server.advance(2 * MINUTE);
      expect((await myNights(browser)).status).toBe(401);

      await applyRetention(
        { db: server.deps.db, uploadsDir: server.deps.env.UPLOADS_DIR, retentionDays: 90 },
        server.deps.now(),
      );
      // The expired and the signed-out rows are gone; the live one stays and still works.
      expect(server.deps.db.select({ phone: guestSessions.phone }).from(guestSessions).all()).toHaveLength(1);
      expect((await myNights(live)).status).toBe(200);
    });
  });

  it("is Secure when PUBLIC_BASE_URL is https", async () => {
    await withTestServer(
      { env: { OTP_MAX_PER_ADDRESS: "1000", PUBLIC_BASE_URL: "https://tickets.example", ALLOW_LOCAL_PROVIDERS: "1" } },
      async (server) => {
        const phone = newMobile();
        const browser = browserClient(server.url);
        await sendCode(browser, phone);
        const typed = await typeCode(browser, phone, await lastCode(server.url, phone));
        expect(typed.cookies.find((c) => c.startsWith("sdt_me="))).toMatch(/; Secure/);
      },
    );
  });
});

describe("the booking's code limits apply to signing in", () => {
  const TOO_MANY_WRONG = "too many wrong codes for this phone, try again in an hour";

  it("counts a sign-in's codes per phone (OTP_MAX_PER_PHONE per 10 minutes), even for a verified browser", async () => {
    await withTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "3" } }, async (server) => {
      const phone = newMobile();
      const browser = verifiedPhoneBrowser(server, phone);
      for (let i = 0; i < 3; i++) expect((await sendCode(browser, phone)).status).toBe(200);
      expect(await sendCode(browser, phone)).toMatchObject({ status: 429, body: { code: "rate_limited" } });
      // The booking's skip still counts nothing and still answers.
      expect((await sendCode(browser, phone, false)).body).toEqual({ success: true, PhoneVerification: true });
      server.advance(10 * MINUTE + 1000);
      expect((await sendCode(browser, phone)).status).toBe(200);
    });
  });

  it("counts a sign-in's codes per address (OTP_MAX_PER_ADDRESS)", async () => {
    await withTestServer({ env: { OTP_MAX_PER_ADDRESS: "2" } }, async (server) => {
      const browser = browserClient(server.url);
      expect((await sendCode(browser, newMobile())).status).toBe(200);
      expect((await sendCode(browser, newMobile())).status).toBe(200);
      expect(await sendCode(browser, newMobile())).toMatchObject({
        status: 429,
        body: { code: "rate_limited" },
      });
    });
  });

  it("refuses every code past 10 wrong ones in an hour, the right one too, and opens no session", async () => {
    await withTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } }, async (server) => {
      const phone = newMobile();
      const browser = browserClient(server.url);
      let code = "";
      for (let round = 0; round < 2; round++) {
        await sendCode(browser, phone);
        code = await lastCode(server.url, phone);
        const wrong = code === "000000" ? "111111" : "000000";
        for (let i = 0; i < 5; i++) expect((await typeCode(browser, phone, wrong)).status).toBe(400);
      }
      await sendCode(browser, phone);
      const right = await typeCode(browser, phone, await lastCode(server.url, phone));
      expect(right).toMatchObject({ status: 429, body: { error: TOO_MANY_WRONG, code: "rate_limited" } });
      expect(right.cookies).toEqual([]);
      expect((await myNights(browser)).status).toBe(401);
    });
  });

  it("keeps a code single use: the code that signed in cannot sign in a second browser", async () => {
    await withTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } }, async (server) => {
      const phone = newMobile();
      const first = browserClient(server.url);
      await sendCode(first, phone);
      const code = await lastCode(server.url, phone);
      expect((await typeCode(first, phone, code)).status).toBe(200);
      const second = browserClient(server.url);
      expect(await typeCode(second, phone, code)).toMatchObject({ status: 400, body: { code: "code_expired" } });
      expect((await myNights(second)).status).toBe(401);
    });
  });
});
