import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, users } from "../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "./api-harness.ts";
import { yearLike } from "./clock.ts";
import { insertEvent, makeImage } from "./fixtures.ts";
import { detailsForm, newMobile, verifiedBrowser } from "./suites/booking-flow.ts";
import { PASSWORD } from "./suites/host-access.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

// Issue 46, item 20: `Gina\u202Eevil` reached the organiser's list and the CSV, shown reversed. Names
// and free texts refuse the bidirectional controls and the line and paragraph separators with a 400
// naming the field; the zero-width joiner and non-joiner, which Indic names need, stay allowed.

const EVIL = "Gina\u202Eevil";
const REFUSED = [
  ...["\u202A", "\u202B", "\u202C", "\u202D", "\u202E"],
  ...["\u2066", "\u2067", "\u2068", "\u2069"],
  ...["\u2028", "\u2029"],
];
// Arjun and Shreeman as Devanagari writes them: a ZWJ keeps the half-form of र, a ZWNJ breaks a conjunct.
const DEVANAGARI = "अर्\u200Dजुन श्री\u200Cमान";

const server = suiteTestServer();
let jpeg: Uint8Array;
let admin: BrowserClient;

beforeAll(async () => {
  jpeg = await makeImage("jpeg", 600, 800);
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const hex = (s: string) => `U+${s.codePointAt(0)?.toString(16).toUpperCase()}`;

async function book(name: string) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR);
  const phone = newMobile();
  const browser = await verifiedBrowser(server.url, phone);
  const response = await browser.postForm(
    "/api/save-user-details",
    detailsForm({ phone, eventId: event.id, image: jpeg, name }),
  );
  return { response, phone, event };
}

describe("invisible direction characters", () => {
  it("refuse Gina\\u202Eevil as a booking name with a 400 that names the field, and store nothing", async () => {
    const { db } = server.deps;
    const { response, phone, event } = await book(EVIL);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ success: false, code: "invalid_request" });
    expect(body.error).toMatch(/^The name /);
    expect(db.select().from(users).where(eq(users.phone, phone)).all()).toEqual([]);
    expect(db.select().from(bookings).where(eq(bookings.eventId, event.id)).all()).toEqual([]);
  });

  it.each(REFUSED.map((c) => [hex(c), c]))("refuse %s in a name", async (_label, char) => {
    const { response } = await book(`Gina${char}Rao`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/^The name /);
  });

  it("accept a Devanagari name with the zero-width joiner and non-joiner, stored as typed", async () => {
    const { db } = server.deps;
    const { response, phone } = await book(DEVANAGARI);
    expect(response.status).toBe(200);
    expect(db.select({ name: users.name }).from(users).where(eq(users.phone, phone)).get()?.name).toBe(DEVANAGARI);
  });

  it("refuse them in every other free text a client sends, naming the field", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const cases: [string, () => Promise<Response>, RegExp][] = [
      [
        "join-waitlist name",
        async () => {
          const phone = newMobile();
          const browser = await verifiedBrowser(server.url, phone);
          return browser.postJson("/api/join-waitlist", { eventID: event.id, phone, gender: "female", name: EVIL });
        },
        /^The name /,
      ],
      [
        "update-event eventName",
        () =>
          admin.postJson("/api/update-event", {
            eventid: event.id,
            eventName: EVIL,
            eventDate: `${Y}-03-04`,
            totalSeats: 20,
          }),
        /^The event's name /,
      ],
      [
        "update-event eventAddress",
        () =>
          admin.postJson("/api/update-event", {
            eventid: event.id,
            eventName: "Harbour Mixer",
            eventDate: `${Y}-03-04`,
            totalSeats: 20,
            eventAddress: `1 George St\u2028Sydney`,
          }),
        /^The address /,
      ],
      [
        "save-event eventName",
        () => {
          const form = new FormData();
          for (const [k, v] of Object.entries({
            eventName: `Harbour \u2067Mixer`,
            eventDate: `${Y}-03-04`,
            eventTime: "19:30",
            eventAddress: "1 George St, Sydney NSW 2000",
            totalSeats: "20",
            bookingAmount: "45",
            eventduration: "2",
            fromage: "25",
            toage: "35",
          }))
            form.append(k, v);
          form.append("eventImage", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "event.jpg");
          return admin.postForm("/api/save-event", form);
        },
        /^The event's name /,
      ],
      [
        "message-guests text",
        () => admin.postJson("/api/message-guests", { eventID: event.id, to: "all", text: `Doors at 7${"\u202D"}` }),
        /^The text /,
      ],
      [
        "room-announcement text",
        () => admin.postJson("/api/room-announcement", { eventID: event.id, text: `Round two\u2029now` }),
        /^The text /,
      ],
      [
        "announcements text",
        () =>
          admin.postJson("/api/announcements", {
            eventID: event.id,
            channels: ["sms"],
            text: `Come along ${"\u202B"}on Friday`,
          }),
        /^The text /,
      ],
      [
        "host-links label",
        () => admin.postJson("/api/host-links", { eventID: event.id, label: `Door\u20661` }),
        /label/i,
      ],
      [
        "share-contact instagram",
        () =>
          browserClient(server.url).postJson("/api/share-contact", {
            eventID: event.id,
            userID: 1,
            token: "x".repeat(43),
            partnerID: 2,
            share: "instagram",
            instagram: `@gina${"\u202E"}live`,
          }),
        /^The instagram /,
      ],
    ];
    for (const [label, send, field] of cases) {
      const response = await send();
      expect(response.status, label).toBe(400);
      const body = await response.json();
      expect(body.code, label).toBe("invalid_request");
      expect(body.error, label).toMatch(field);
      expect(body.error, label).toMatch(/invisible/);
    }
  });
});
