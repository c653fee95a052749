import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, promoCodes, users } from "../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "./api-harness.ts";
import { insertEvent, makeImage } from "./fixtures.ts";
import { detailsForm, newMobile } from "./suites/booking-flow.ts";

// Cookie-authenticated calls refuse another site's requests (docs/decisions/017-second-review.md):
// SameSite is not the only defence, and the multipart calls are ones a plain HTML form can send.

const DAY = 86_400_000;
const EVIL = "https://evil.example";
const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } });
let admin: BrowserClient;
let photo: Uint8Array;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(200);
  photo = new Uint8Array(await makeImage("jpeg", 160, 120));
});

const newEvent = () =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: server.deps.now() + 7 * DAY });
const saveDetails = (browser: BrowserClient, phone: string, eventId: number, headers: Record<string, string>) =>
  browser.request("/api/save-user-details", {
    method: "POST",
    headers,
    body: detailsForm({ phone, eventId, image: photo }),
  });
const createCode = (eventId: number, code: string, headers: Record<string, string>) =>
  admin.request("/api/promo-codes", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ eventID: eventId, code, percentOff: 100 }),
  });
const codesOf = (eventId: number) =>
  server.deps.db.select().from(promoCodes).where(eq(promoCodes.eventId, eventId)).all();
const CROSS_ORIGIN = { success: false, code: "cross_origin" };

describe("another site's POST", () => {
  it("refuses a cross-origin multipart save-user-details, storing nothing", async () => {
    const event = await newEvent();
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    const attempts: Record<string, string>[] = [
      { origin: EVIL },
      { "sec-fetch-site": "cross-site" },
      { origin: "null" },
    ];
    for (const headers of attempts) {
      const refused = await saveDetails(browser, phone, event.id, headers);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject(CROSS_ORIGIN);
    }
    expect(server.deps.db.select().from(users).where(eq(users.phone, phone)).all()).toEqual([]);
    expect(server.deps.db.select().from(bookings).where(eq(bookings.phone, phone)).all()).toEqual([]);

    // The same call from the site itself, or with no Origin at all (not a browser), goes through.
    expect((await saveDetails(browser, phone, event.id, { origin: server.url })).status).toBe(200);
    expect((await saveDetails(browser, phone, event.id, {})).status).toBe(200);
  });

  it("refuses a cross-origin JSON POST with the organiser's cookie, changing nothing", async () => {
    const event = await newEvent();
    const attempts: Record<string, string>[] = [
      { origin: EVIL },
      { origin: EVIL, "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "cross-site" },
      { origin: server.url.replace("127.0.0.1", "localhost") },
    ];
    for (const headers of attempts) {
      const refused = await createCode(event.id, "STAFF2026", headers);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject(CROSS_ORIGIN);
    }
    expect(codesOf(event.id)).toEqual([]);
    const ok = await createCode(event.id, "STAFF2026", { origin: server.url, "sec-fetch-site": "same-origin" });
    expect(ok.status).toBe(200);
    expect(codesOf(event.id)).toHaveLength(1);
  });

  it("lets a same-origin request through whose Origin the page's no-referrer policy turned to null", async () => {
    const event = await newEvent();
    const ok = await createCode(event.id, "NULLSAFE", { origin: "null", "sec-fetch-site": "same-origin" });
    expect(ok.status).toBe(200);
  });

  it("leaves reads and the server-to-server webhook alone", async () => {
    const event = await newEvent();
    const read = await admin.request(`/api/admin-event/${event.id}/promo-codes`, { headers: { origin: EVIL } });
    expect(read.status).toBe(200);
    // No cookies and no browser: Stripe's webhook is judged by its signature (404 here: no Stripe).
    const webhook = await fetch(`${server.url}/api/stripe/webhook`, {
      method: "POST",
      headers: { origin: EVIL, "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: "{}",
    });
    expect(webhook.status).not.toBe(403);
  });
});
