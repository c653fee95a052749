import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { announcements, marketingConsents, marketingContacts } from "../../db/marketing-schema.ts";
import { bookings } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { detailsForm, newMobile, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { CONSENT_WORDING_VERSION, consentStateOf, hasConsent, recordConsent } from "./consent.ts";

// Consent to messages about future events, from the guest's side (issue 36): the details form's two
// unticked boxes, the waitlist's text box and /me's, each choice appended to the record with when,
// where and the wording's version; Delete my details withdraws; Download my data shows the history;
// a booking made through an announcement's link is counted on it.

const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });

let image: Buffer;
const imageOnce = async () => {
  image ??= await makeImage();
  return image;
};

const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;

/** The details form from a browser that verified `phone`, with the boxes and announcement given. */
async function book(
  input: {
    phone: string;
    eventId: number;
    email?: string;
    sms?: boolean;
    emailBox?: boolean;
    announcementId?: string;
  },
  browser: BrowserClient = verifiedPhoneBrowser(server, input.phone),
) {
  const form = detailsForm({ phone: input.phone, eventId: input.eventId, image: await imageOnce() });
  if (input.email) form.set("email", input.email);
  if (input.sms) form.append("marketingSms", "1");
  if (input.emailBox) form.append("marketingEmail", "1");
  if (input.announcementId !== undefined) form.append("announcementId", input.announcementId);
  const response = await browser.postForm("/api/save-user-details", form);
  return { status: response.status, body: await json<{ userID?: number; error?: string }>(response) };
}

/** Every record of the address's contact, oldest first. */
function historyOf(channel: "sms" | "email", address: string) {
  const contact = server.deps.db
    .select()
    .from(marketingContacts)
    .all()
    .find((c) => c.channel === channel && c.address === address.toLowerCase());
  if (!contact) return [];
  return server.deps.db
    .select()
    .from(marketingConsents)
    .where(eq(marketingConsents.contactId, contact.id))
    .orderBy(marketingConsents.id)
    .all();
}

const newEvent = () => insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR);
let emailSeq = 0;
const newEmail = () => `Guest${++emailSeq}.${Date.now()}@Example.com`;

describe("the details form's boxes", () => {
  it("records a choice per ticked box, with its source, wording, time and whose form it was: a yes for texts, a pending request for email", async () => {
    const event = await newEvent();
    const phone = newMobile();
    const email = newEmail();
    const before = server.deps.now();
    const booked = await book({ phone, eventId: event.id, email, sms: true, emailBox: true });
    expect(booked.status).toBe(200);
    for (const [channel, address] of [
      ["sms", phone],
      ["email", email],
    ] as const) {
      const rows = historyOf(channel, address);
      expect(rows).toEqual([
        expect.objectContaining({ given: true, source: "booking", wording: CONSENT_WORDING_VERSION, phone }),
      ]);
      expect(rows[0]?.at).toBeGreaterThanOrEqual(before);
      expect(rows[0]?.at).toBeLessThanOrEqual(server.deps.now());
    }
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
    // The address itself has not said yes yet (docs/decisions/039): it is asked by email.
    expect(hasConsent(server.deps.db, "email", email)).toBe(false);
    expect(consentStateOf(server.deps.db, "email", email)).toBe("pending");
  });

  it("records nothing for unticked boxes, and unticked is no withdrawal of an earlier yes", async () => {
    const event = await newEvent();
    const phone = newMobile();
    const email = newEmail();
    const count = () => server.deps.db.select().from(marketingConsents).all().length;
    const before = count();
    expect((await book({ phone, eventId: event.id, email })).status).toBe(200);
    expect(count()).toBe(before);
    expect(historyOf("sms", phone)).toEqual([]);

    const other = await newEvent();
    expect((await book({ phone, eventId: other.id, email, sms: true })).status).toBe(200);
    const third = await newEvent();
    expect((await book({ phone, eventId: third.id, email })).status).toBe(200);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
    expect(historyOf("sms", phone)).toHaveLength(1);
  });

  it("refuses a box with another value than 1 (400), holding nothing", async () => {
    const event = await newEvent();
    const phone = newMobile();
    const form = detailsForm({ phone, eventId: event.id, image: await imageOnce() });
    form.append("marketingSms", "yes");
    const response = await verifiedPhoneBrowser(server, phone).postForm("/api/save-user-details", form);
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ code: "invalid_request" });
    expect(server.deps.db.select().from(bookings).where(eq(bookings.phone, phone)).all()).toEqual([]);
  });

  it("keeps the history: a later choice adds a row, and the database refuses to change one", async () => {
    const phone = newMobile();
    const at = server.deps.now();
    recordConsent(server.deps.db, { channel: "sms", address: phone, given: true, source: "booking", phone, at });
    recordConsent(server.deps.db, { channel: "sms", address: phone, given: false, source: "me", phone, at: at + 1 });
    const rows = historyOf("sms", phone);
    expect(rows.map((r) => [r.given, r.source])).toEqual([
      [true, "booking"],
      [false, "me"],
    ]);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);
    expect(() =>
      server.deps.db.update(marketingConsents).set({ given: true }).where(eq(marketingConsents.id, rows[1]!.id)).run(),
    ).toThrow();
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);
  });
});

describe("the announcement a booking came through", () => {
  const announce = (eventId: number) =>
    server.deps.db
      .insert(announcements)
      .values({
        eventId,
        audience: {},
        channels: ["sms"],
        text: "Seats left for Saturday",
        recipientsSms: 1,
        recipientsEmail: 0,
        createdAt: server.deps.now(),
      })
      .returning()
      .get().id;
  const announcementOf = (userId: number) =>
    server.deps.db.select().from(bookings).where(eq(bookings.userId, userId)).get()?.announcementId;

  it("is stored on the booking when it is the event's own", async () => {
    const event = await newEvent();
    const id = announce(event.id);
    const booked = await book({ phone: newMobile(), eventId: event.id, announcementId: String(id) });
    expect(booked.status).toBe(200);
    expect(announcementOf(booked.body.userID!)).toBe(id);
  });

  it("is ignored, never refused, when unknown or another event's", async () => {
    const event = await newEvent();
    const elsewhere = announce((await newEvent()).id);
    for (const announcementId of ["987654321", String(elsewhere)]) {
      const booked = await book({ phone: newMobile(), eventId: event.id, announcementId });
      expect(booked.status).toBe(200);
      expect(announcementOf(booked.body.userID!)).toBeNull();
    }
  });
});

describe("the waitlist's text box", () => {
  const fullEvent = async () => {
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { totalSeats: 2 });
    insertPaidBookings(server.deps.db, event.id, 2);
    return event;
  };
  const join = (phone: string, eventId: number, marketingSms?: boolean) =>
    verifiedPhoneBrowser(server, phone).postJson("/api/join-waitlist", {
      eventID: eventId,
      phone,
      gender: "female",
      name: "Priya Nair",
      ...(marketingSms === undefined ? {} : { marketingSms }),
    });

  it("records a yes from the waitlist when ticked, and nothing when not", async () => {
    const event = await fullEvent();
    const ticked = newMobile();
    expect((await join(ticked, event.id, true)).status).toBe(200);
    expect(historyOf("sms", ticked)).toEqual([
      expect.objectContaining({ given: true, source: "waitlist", phone: ticked }),
    ]);
    const unticked = newMobile();
    expect((await join(unticked, event.id, false)).status).toBe(200);
    const absent = newMobile();
    expect((await join(absent, event.id)).status).toBe(200);
    expect(historyOf("sms", unticked)).toEqual([]);
    expect(historyOf("sms", absent)).toEqual([]);
  });

  it("refuses a box that is not true or false (400), joining nothing", async () => {
    const event = await fullEvent();
    const phone = newMobile();
    const response = await verifiedPhoneBrowser(server, phone).postJson("/api/join-waitlist", {
      eventID: event.id,
      phone,
      gender: "female",
      name: "Priya Nair",
      marketingSms: "yes",
    });
    expect(response.status).toBe(400);
    expect(historyOf("sms", phone)).toEqual([]);
  });
});

type MyConsent = { sms: boolean; email: boolean; emailState: string; emailAddress: string | null };

describe("/me's Messages about future events", () => {
  /** A guest who booked with `email` (boxes as given) and is signed in on /me. */
  async function guest(boxes: { sms?: boolean; emailBox?: boolean } = {}) {
    const phone = newMobile();
    const email = newEmail();
    const event = await newEvent();
    expect((await book({ phone, eventId: event.id, email, ...boxes })).status).toBe(200);
    const browser = await signedInOnMe(server.url, phone);
    return { phone, email, browser };
  }
  const getConsent = async (browser: BrowserClient) => {
    const response = await browser.get("/api/me-consent");
    return { status: response.status, body: await json<MyConsent>(response) };
  };
  const saveConsent = async (browser: BrowserClient, choice: unknown) => {
    const response = await browser.postJson("/api/me-consent", choice);
    return { status: response.status, body: await json<MyConsent>(response) };
  };

  it("shows the current choices: the phone's texts and the newest email booked with", async () => {
    const { email, browser } = await guest({ sms: true });
    expect(await getConsent(browser)).toEqual({
      status: 200,
      body: { sms: true, email: false, emailState: "no", emailAddress: email },
    });
  });

  it("records only the boxes that changed, with source me, and answers the new state", async () => {
    const { phone, email, browser } = await guest({ sms: true });
    const saved = await saveConsent(browser, { sms: true, email: true });
    // The email box asks the address: pending until it confirms (docs/decisions/039).
    expect(saved).toEqual({
      status: 200,
      body: { sms: true, email: false, emailState: "pending", emailAddress: email },
    });
    expect(historyOf("sms", phone).map((r) => r.source)).toEqual(["booking"]);
    expect(historyOf("email", email)).toEqual([
      expect.objectContaining({ given: true, source: "me", phone, wording: CONSENT_WORDING_VERSION }),
    ]);
    const off = await saveConsent(browser, { sms: false });
    expect(off.body).toEqual({ sms: false, email: false, emailState: "pending", emailAddress: email });
    expect(historyOf("sms", phone).map((r) => [r.given, r.source])).toEqual([
      [true, "booking"],
      [false, "me"],
    ]);
    // Saving the same state again adds nothing.
    await saveConsent(browser, { sms: false, email: true });
    expect(historyOf("sms", phone)).toHaveLength(2);
    expect(historyOf("email", email)).toHaveLength(1);
  });

  it("refuses a bad body with 400 and changes nothing", async () => {
    const { phone, browser } = await guest();
    for (const body of [{ sms: "yes" }, { sms: true, phone: "+61400000000" }]) {
      const response = await saveConsent(browser, body);
      expect(response.status).toBe(400);
    }
    expect(historyOf("sms", phone)).toEqual([]);
  });

  it("is only the signed-in number's: no session is 401, and another number's session sees only its own", async () => {
    const owner = await guest({ sms: true, emailBox: true });
    const anon = browserClient(server.url);
    expect((await getConsent(anon)).status).toBe(401);
    expect((await saveConsent(anon, { sms: false, email: false })).status).toBe(401);
    const other = await guest();
    // The body names no number: another session reads and writes its own number's choices only.
    expect((await getConsent(other.browser)).body).toEqual({
      sms: false,
      email: false,
      emailState: "no",
      emailAddress: other.email,
    });
    const cross = await other.browser.postJson("/api/me-consent", { sms: true, phone: owner.phone });
    expect(cross.status).toBe(400);
    await saveConsent(other.browser, { sms: false, email: false });
    expect(hasConsent(server.deps.db, "sms", owner.phone)).toBe(true);
    expect(consentStateOf(server.deps.db, "email", owner.email)).toBe("pending");
    expect((await getConsent(owner.browser)).body).toEqual({
      sms: true,
      email: false,
      emailState: "pending",
      emailAddress: owner.email,
    });
  });

  it("Download my data holds the consent history of the phone and its email", async () => {
    const { phone, email, browser } = await guest({ sms: true, emailBox: true });
    await saveConsent(browser, { email: false });
    const response = await browser.get("/api/me-data");
    expect(response.status).toBe(200);
    const data = await json<{ marketingConsents: unknown[] }>(response);
    expect(data.marketingConsents).toEqual([
      {
        channel: "sms",
        given: true,
        state: "yes",
        source: "booking",
        wording: CONSENT_WORDING_VERSION,
        at: expect.any(String),
      },
      {
        channel: "email",
        given: true,
        state: "pending",
        source: "booking",
        wording: CONSENT_WORDING_VERSION,
        at: expect.any(String),
      },
      {
        channel: "email",
        given: false,
        state: "no",
        source: "me",
        wording: CONSENT_WORDING_VERSION,
        at: expect.any(String),
      },
    ]);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
    expect(hasConsent(server.deps.db, "email", email)).toBe(false);
  });

  it("Delete my details stops both channels by forgetting them: no record keeps the number or the address", async () => {
    const { phone, email, browser } = await guest({ sms: true, emailBox: true });
    const response = await browser.postJson("/api/me-delete-details", {});
    expect(response.status).toBe(200);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);
    expect(hasConsent(server.deps.db, "email", email)).toBe(false);
    // No record at all is a no (consent is a yes on the record), and nothing names them any more.
    expect(historyOf("sms", phone)).toEqual([]);
    expect(historyOf("email", email)).toEqual([]);
    expect(
      server.deps.db
        .select()
        .from(marketingConsents)
        .all()
        .filter((r) => r.phone === phone),
    ).toEqual([]);
    // Signed in again: no email on file any more, and the email box cannot be ticked.
    const again = await signedInOnMe(server.url, phone);
    expect((await getConsent(again)).body).toEqual({ sms: false, email: false, emailState: "no", emailAddress: null });
    const refused = await saveConsent(again, { email: true });
    expect(refused.status).toBe(400);
    expect(hasConsent(server.deps.db, "email", email)).toBe(false);
  });
});
