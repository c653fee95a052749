import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, outboxMessages } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { hostAccessHelpers, json, MINUTE, PASSWORD } from "../../test/suites/host-access.ts";
import type { SmsProvider } from "../providers/sms/types.ts";

// **Message guests** (docs/decisions/019-running-the-night.md): one text to a night's paid guests,
// all of them, those who came (whoCame, api/night/attendance.ts) or those not yet arrived.

const texts: { to: string; body: string }[] = [];
let smsDown = false;
let clockNow = Date.now();
const server = suiteTestServer({
  deps: (base) => ({
    now: () => clockNow,
    sms: {
      ...base.sms,
      send: async (to: string, body: string) => {
        if (smsDown) throw new Error("provider down");
        texts.push({ to, body });
        return base.sms.send(to, body);
      },
    } satisfies SmsProvider,
  }),
});
let admin: BrowserClient;
const { newLink, hostPhone } = hostAccessHelpers(server, () => admin);

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

/** A night under way: 5 paid guests, the first 3 checked in at the door. */
async function night(status: "started" | "upcoming" = "started") {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name: "Harbour Mixer",
    status,
    startsAt: clockNow - 30 * MINUTE,
    startedAt: status === "started" ? clockNow - 20 * MINUTE : null,
  });
  const guests = insertPaidBookings(db, event.id, 5, { paidAt: clockNow - 86_400_000 });
  for (const g of guests.slice(0, 3)) {
    db.update(bookings)
      .set({ checkedInAt: clockNow - 10 * MINUTE })
      .where(eq(bookings.id, g.bookingId))
      .run();
  }
  return { event, guests };
}

const send = (client: BrowserClient, body: Record<string, unknown>) =>
  client.postJson("/api/message-guests", body).then(async (r) => ({ status: r.status, body: await json(r) }));
const textsTo = (phones: string[]) => texts.filter((t) => phones.includes(t.to));

describe("message guests", () => {
  it("previews each audience's count from the server, and texts exactly that audience the exact text", async () => {
    const { event, guests } = await night();
    const preview = await admin.get(`/api/admin-event/${event.id}/message-guests`);
    expect(preview.status).toBe(200);
    expect(await json(preview)).toEqual({
      eventName: "Harbour Mixer",
      counts: { all: 5, arrived: 3, not_arrived: 2 },
      sentLastHour: 0,
      perHour: 5,
      open: true,
    });
    const phones = guests.map((g) => g.phone);

    expect(await send(admin, { eventID: event.id, to: "not_arrived", text: "  Enter via Level 1  " })).toEqual({
      status: 200,
      body: { sent: 2, failed: 0 },
    });
    expect(textsTo(phones)).toEqual(
      guests.slice(3).map((g) => ({ to: g.phone, body: "Harbour Mixer: Enter via Level 1" })),
    );
    expect((await send(admin, { eventID: event.id, to: "arrived", text: "Round 2 in five" })).body).toEqual({
      sent: 3,
      failed: 0,
    });
    expect((await send(admin, { eventID: event.id, to: "all", text: "Thanks all" })).body).toEqual({
      sent: 5,
      failed: 0,
    });
    expect(textsTo(phones)).toHaveLength(10);

    // Logged in Activity with its text; the preview counts the hour's messages.
    const activity = await json<{ action: string; detail: string; actor: string }[]>(
      await admin.get(`/api/admin-event/${event.id}/activity`),
    );
    expect(activity.filter((a) => a.action === "guests messaged").map((a) => [a.actor, a.detail])).toEqual([
      ["organiser", "Thanks all"],
      ["organiser", "Round 2 in five"],
      ["organiser", "Enter via Level 1"],
    ]);
    expect(await json(await admin.get(`/api/admin-event/${event.id}/message-guests`))).toMatchObject({
      sentLastHour: 3,
    });
  });

  it("counts as arrived anyone seated in a started round, as every other count does", async () => {
    const { event, guests } = await night();
    // A host who skipped the door: nobody checked in, two guests sat down in round 1.
    server.deps.db.update(bookings).set({ checkedInAt: null }).where(eq(bookings.eventId, event.id)).run();
    const { eventRounds } = await import("../../db/rounds-schema.ts");
    server.deps.db
      .insert(eventRounds)
      .values({
        eventId: event.id,
        status: "running",
        roundMinutes: 5,
        breakMinutes: 1,
        maxRounds: null,
        seated: "female",
        plan: [{ round: 1, pairs: [{ table: 1, femaleID: guests[0]!.userId, maleID: guests[1]!.userId }], sitOut: [] }],
        plannedFor: [],
        plannedAt: clockNow,
        current: 1,
        phase: "round",
        phaseEndsAt: clockNow + 5 * MINUTE,
        updatedAt: clockNow,
      })
      .run();
    expect(await json(await admin.get(`/api/admin-event/${event.id}/message-guests`))).toMatchObject({
      counts: { all: 5, arrived: 2, not_arrived: 3 },
    });
  });

  it("sends each guest a message once: a failed send retried with the same messageID texts nobody twice", async () => {
    const { event, guests } = await night();
    const phones = guests.map((g) => g.phone);
    const message = { eventID: event.id, to: "all", text: "Running 15 minutes late", messageID: "dlg-0001-abcd" };
    smsDown = true;
    expect((await send(admin, message)).body).toEqual({ sent: 0, failed: 5 });
    smsDown = false;
    // The outbox waits before a retry; the console's re-send finds the same message and sends what is due.
    clockNow += 5 * MINUTE;
    expect((await send(admin, message)).body).toEqual({ sent: 5, failed: 0 });
    expect((await send(admin, message)).body).toEqual({ sent: 0, failed: 0 });
    expect(
      textsTo(phones)
        .map((t) => t.to)
        .sort(),
    ).toEqual([...phones].sort());
    const queued = server.deps.db
      .select()
      .from(outboxMessages)
      .where(like(outboxMessages.dedupeKey, `message:${event.id}:%`))
      .all();
    expect(queued).toHaveLength(5);
    // One message, one Activity row, one of the hour's five.
    expect(await json(await admin.get(`/api/admin-event/${event.id}/message-guests`))).toMatchObject({
      sentLastHour: 1,
    });
  });

  it("allows 5 messages per event per hour, then 429 rate_limited, and again an hour later", async () => {
    const { event } = await night();
    const other = await night();
    for (let i = 1; i <= 5; i++) {
      expect((await send(admin, { eventID: event.id, to: "all", text: `Note ${i}` })).status).toBe(200);
      clockNow += MINUTE;
    }
    const refused = await send(admin, { eventID: event.id, to: "all", text: "Note 6" });
    expect(refused).toMatchObject({ status: 429, body: { code: "rate_limited" } });
    expect(String(refused.body.error)).toMatch(/^At most 5 messages an hour/);
    // Another event has its own five.
    expect((await send(admin, { eventID: other.event.id, to: "all", text: "Hello" })).status).toBe(200);
    clockNow += 56 * MINUTE;
    expect((await send(admin, { eventID: event.id, to: "all", text: "Note 6" })).status).toBe(200);
  });

  it("is refused after the event ended, and for bad input", async () => {
    const { event } = await night();
    expect((await admin.postJson("/api/end-event", { eventId: event.id })).status).toBe(200);
    const ended = await send(admin, { eventID: event.id, to: "all", text: "Lost property at the bar" });
    expect(ended).toMatchObject({ status: 409, body: { code: "wrong_state" } });
    expect(String(ended.body.error)).toMatch(/^The event has ended/);
    expect(await json(await admin.get(`/api/admin-event/${event.id}/message-guests`))).toMatchObject({ open: false });

    const open = await night("upcoming");
    for (const body of [
      { eventID: open.event.id, to: "everyone", text: "Hi" },
      { eventID: open.event.id, to: "all", text: "   " },
      { eventID: open.event.id, to: "all", text: "x".repeat(321) },
      { eventID: open.event.id, to: "all", text: "bell\u0007" },
      { eventID: open.event.id, to: "all", text: "Hi", messageID: "short" },
    ]) {
      expect((await send(admin, body)).body, JSON.stringify(body).slice(0, 80)).toMatchObject({
        code: "invalid_request",
      });
    }
    expect((await send(admin, { eventID: open.event.id, to: "all", text: "x".repeat(320) })).status).toBe(200);
    expect((await send(admin, { eventID: 999_999, to: "all", text: "Hi" })).status).toBe(404);
  });

  it("lets a host of the event send, as its label, and refuses a host of another event (403) and nobody (401)", async () => {
    const { event } = await night();
    const other = await night();
    const { phone } = await hostPhone(await newLink(event.id, "Door 1"));
    expect((await send(phone, { eventID: event.id, to: "arrived", text: "Bar closes at 10" })).body).toEqual({
      sent: 3,
      failed: 0,
    });
    expect((await phone.get(`/api/admin-event/${event.id}/message-guests`)).status).toBe(200);
    expect((await send(phone, { eventID: other.event.id, to: "all", text: "Hi" })).status).toBe(403);
    expect((await phone.get(`/api/admin-event/${other.event.id}/message-guests`)).status).toBe(403);
    const anon = browserClient(server.url);
    expect((await send(anon, { eventID: event.id, to: "all", text: "Hi" })).status).toBe(401);
    const activity = await json<{ action: string; detail: string; actor: string }[]>(
      await admin.get(`/api/admin-event/${event.id}/activity`),
    );
    expect(activity.find((a) => a.action === "guests messaged")).toMatchObject({
      actor: "Door 1",
      detail: "Bar closes at 10",
    });
  });
});
