import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliverPending } from "../api/messaging/outbox.ts";
import { applyRetention } from "../api/ops/retention.ts";
import { bookings, events, outboxMessages } from "../db/schema.ts";
import { browserClient, type TestServer, verifiedPhoneBrowser, withTestServer } from "./api-harness.ts";
import { insertEvent, makeImage } from "./fixtures.ts";
import {
  createCheckout,
  detailsForm,
  newMobile,
  pay,
  paymentIntentOf,
  sendConfirmation,
  signedInOnMe,
} from "./suites/booking-flow.ts";
import { json, PASSWORD } from "./suites/host-access.ts";

// Erasure empties messages (issue 46 item 2, docs/decisions/039): after Delete my details, and after
// retention's erasure of a night, nothing in the database file or in any reply names the guest: not
// their name, email, number or ticket code. Their messages keep only what proves one was sent.

const DAY = 86_400_000;
const env = { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000", RETENTION_DAYS: "30" };

type Guest = { phone: string; name: string; email: string; code: string; eventId: number };

/** A guest who booked and paid with both boxes ticked, was texted and emailed, and whose night is over. */
async function guestWithAPastNight(server: TestServer, tag: string): Promise<Guest> {
  const phone = newMobile();
  const name = `Zelda ${tag}quist`;
  const email = `zelda.${tag}.${Date.now()}@example.com`;
  const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: server.deps.now() + DAY });
  const browser = verifiedPhoneBrowser(server, phone);
  const form = detailsForm({ phone, eventId: event.id, image: await makeImage() });
  form.set("name", name);
  form.set("email", email);
  form.append("marketingSms", "1");
  form.append("marketingEmail", "1");
  const saved = await browser.postForm("/api/save-user-details", form);
  expect(saved.status).toBe(200);
  const { userID } = await json<{ userID: number }>(saved);
  await server.photosStored();
  const checkout = await createCheckout(server.url, { userID, eventID: event.id }, browser);
  expect(await pay(server.url, checkout.sessionId!)).toBe(303);
  const paymentIntentId = (await paymentIntentOf(server.url, checkout.sessionId!, browser))!;
  const confirmed = await sendConfirmation(server.url, { userID, eventID: event.id, paymentIntentId }, browser);
  expect(confirmed.status).toBe(200);
  await deliverPending(server.deps);
  // A message still waiting for this booking when its guest is erased.
  const booking = server.deps.db.select().from(bookings).where(eq(bookings.userId, userID)).get()!;
  server.deps.db
    .insert(outboxMessages)
    .values({
      dedupeKey: `test-later:${userID}`,
      to: phone,
      body: `Hi ${name}, your code ${confirmed.uniqueCode}`,
      bookingId: booking.id,
    })
    .run();
  // The night happened.
  server.deps.db
    .update(events)
    .set({ startsAt: server.deps.now() - 2 * DAY, status: "ended" })
    .where(eq(events.id, event.id))
    .run();
  return { phone, name, email, code: confirmed.uniqueCode!, eventId: event.id };
}

/**
 * What of the guest each needle finds: `table.column` of every text or blob cell holding one, in
 * every table of the file but those `except` names.
 */
function foundInDatabase(server: TestServer, needles: string[], except: string[] = []): string[] {
  const sqlite = server.deps.db.$client;
  const tables = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
    .all() as { name: string }[];
  const found: string[] = [];
  for (const { name: table } of tables) {
    if (except.includes(table)) continue;
    const columns = sqlite.prepare(`pragma table_info("${table}")`).all() as { name: string }[];
    for (const { name: column } of columns) {
      for (const needle of needles) {
        const hit = sqlite
          .prepare(
            `select 1 from "${table}" where typeof("${column}") in ('text', 'blob') and instr(lower(cast("${column}" as text)), ?) > 0 limit 1`,
          )
          .get(needle.toLowerCase());
        if (hit) found.push(`${table}.${column} holds ${needle}`);
      }
    }
  }
  return found;
}

const needlesOf = (g: Guest) => [g.name, g.name.split(" ")[1]!, g.email, g.phone, g.phone.slice(1), g.code];

/** Every reply an organiser or the guest could read about the night and the guest. */
async function replies(server: TestServer, g: Guest): Promise<Record<string, string>> {
  const admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  const out: Record<string, string> = {};
  for (const path of [
    "/api/admin-events",
    `/api/admin-event/${g.eventId}`,
    `/api/admin-event-summary/${g.eventId}`,
    `/api/admin-event/${g.eventId}/participants.csv`,
    `/api/admin-event/${g.eventId}/waitlist`,
    `/api/admin-event/${g.eventId}/activity`,
    `/api/admin-event/${g.eventId}/roster`,
    `/api/admin-event/${g.eventId}/ratings`,
  ]) {
    const response = await admin.get(path);
    out[path] = `${response.status} ${await response.text()}`;
  }
  const me = await signedInOnMe(server.url, g.phone);
  for (const path of ["/api/me", "/api/me-data", "/api/me-consent"]) {
    const response = await me.get(path);
    const text = await response.text();
    // me-data names the caller's own number (they signed in with it): that one field is theirs.
    out[path] = `${response.status} ${text.replace(`"phone":"${g.phone}"`, "")}`;
  }
  return out;
}

const leaks = (texts: Record<string, string>, needles: string[]) =>
  Object.entries(texts).flatMap(([path, text]) =>
    needles.filter((n) => text.toLowerCase().includes(n.toLowerCase())).map((n) => `${path} holds ${n}`),
  );

describe("erasure", () => {
  it("Delete my details leaves nothing of the guest in any table or reply, and cancels their pending messages", async () => {
    await withTestServer({ env }, async (server) => {
      const g = await guestWithAPastNight(server, "a");
      // Before: the guest is there (the search works).
      expect(foundInDatabase(server, needlesOf(g)).length).toBeGreaterThan(0);
      const me = await signedInOnMe(server.url, g.phone);
      // Download my data lists every message sent to the number and its email address, with subjects and times.
      const data = await json<{ messagesSent: { channel: string; subject: string | null; sentAt: string | null }[] }>(
        await me.get("/api/me-data"),
      );
      expect(data.messagesSent.filter((m) => m.channel === "sms").length).toBeGreaterThan(0);
      expect(data.messagesSent).toContainEqual(
        expect.objectContaining({
          channel: "email",
          subject: expect.stringMatching(/^Your ticket for /),
          sentAt: expect.any(String),
        }),
      );
      expect(data.messagesSent).toContainEqual(
        expect.objectContaining({ channel: "email", subject: "Confirm you'd like emails about future events" }),
      );

      expect((await me.postJson("/api/me-delete-details", {})).status).toBe(200);

      expect(foundInDatabase(server, needlesOf(g))).toEqual([]);
      expect(leaks(await replies(server, g), needlesOf(g))).toEqual([]);
      const rows = server.deps.db.select().from(outboxMessages).all();
      expect(rows.find((r) => r.dedupeKey.startsWith("erased:") && r.status === "pending")).toBeUndefined();
      expect(rows.filter((r) => r.status === "cancelled")).toHaveLength(1);
      // What proves a message went stays: when, which kind, its status.
      expect(rows.filter((r) => r.status === "sent").every((r) => r.sentAt !== null && r.body === "")).toBe(true);
    });
  });

  it("retention's erasure of a night leaves nothing of its guests in any table or reply", async () => {
    await withTestServer({ env }, async (server) => {
      const g = await guestWithAPastNight(server, "b");
      server.advance(40 * DAY);
      await applyRetention(
        { db: server.deps.db, uploadsDir: server.deps.env.UPLOADS_DIR, retentionDays: 30 },
        server.deps.now(),
      );
      // A night's erasure does not end the guest's yes to future events, which needs the number and
      // address to be kept (with whose form gave it, the proof of consent); nothing else holds them.
      const marketing = ["marketing_contacts", "marketing_consents"];
      expect(foundInDatabase(server, [g.name, g.code])).toEqual([]);
      expect(
        foundInDatabase(
          server,
          needlesOf(g),
          server.deps.db.$client
            .prepare("select name from sqlite_master where type = 'table'")
            .all()
            .map((t) => (t as { name: string }).name)
            .filter((t) => marketing.includes(t)),
        ),
      ).toEqual([]);
    });
  });
});
